"""One function per player action: lock the game row, check the version, run the engine, save.

Every action runs in :func:`locked_game`: one ``transaction.atomic`` with the game row
locked (``select_for_update``, filtered by owner so another player's game is simply not
found: GameNotFound). The page posts the
version it was rendered from; an older one is a stale post (double click, second tab,
back button) and changes nothing. The save repeats the version check inside the UPDATE
so it also holds on SQLite, where ``select_for_update`` is a no-op.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from game import coach
from game.clock import from_epoch_ms, now_ms, pending_answer_deadline
from game.errors import ActionRefused, GameNotFound, StaleVersion, TimeRanOut
from game.models import Game, Hand, Round, SideBet, TriviaAttempt
from game.rules import sidebets as sb
from game.rules.engine import Game as EngineGame
from game.rules.money import CHIP_CENTS
from game.rules.options import Options
from game.rules.records import (
    ALLOWED,
    DIFFICULTIES,
    PLAY_ACTIONS,
    ROUND_OVER,
    BoxBet,
    Event,
    IllegalAction,
    TriviaOutcome,
)
from game.rules.replay import export_round_replay, round_record
from game.rules.shoe import Rng, Shoe
from game.rules.sidebets import STAKED_SIDE_BETS
from game.selectors import pending_box_entries, pending_side_stakes, selected_box_index
from game.sql import GameRead, read_game, update_game
from trivia.models import Question
from trivia.services import (
    NoQuestionsAvailable,
    QuestionCandidate,
    choose_question,
    question_candidate,
    shuffled_answers,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    # The owner of a game: the logged-in account a view passes in.
    Player = AbstractBaseUser

OFFERS = ("insurance", "even_money", "early_surrender")
# What an action did, as data ({"kind": ..., details}); stored as Game.status_note.
StatusNote = dict[str, Any]


# --------------------------------------------------------------------- injectable randomness


def make_rng() -> Rng:
    """Production randomness (R-2.1). Tests monkeypatch this to a seeded generator."""
    return secrets.SystemRandom()


def make_shoe(deck_count: int, rng: Rng) -> Shoe | None:
    """The first shoe of a new game; None lets the engine build a shuffled one.

    Tests monkeypatch this to return a stacked shoe.
    """
    return None


# --------------------------------------------------------------------- loading and saving


@dataclass
class Table:
    """A locked game row and its engine, loaded for one action."""

    game: Game
    engine: EngineGame
    # Whether a round was in progress when the action began (its record is written once).
    round_was_open: bool = False
    # The primary key of the game's latest Round row (read with the lock), if any.
    round_row_id: int | None = None
    # The question bank's stamp (read with the lock): a pick needs no read of its own.
    question_pool_stamp: str | None = None
    # The question drawn before the lock and read with it, when it can be asked (active,
    # of its difficulty, not asked in this game, its list still the bank's).
    candidate_question: Question | None = None


def load_engine(game: Game) -> EngineGame:
    return EngineGame.from_json(game.state, rng=make_rng(), clock=now_ms)


@contextmanager
def locked_game(
    *,
    game_id: int,
    user: Player,
    version: int,
    question_candidate: QuestionCandidate | None = None,
) -> Iterator[Table]:
    """One action's transaction: the owner's game row locked, the posted version checked.

    Raises GameNotFound (another player's game too) or StaleVersion; whatever the body
    raises rolls the transaction back, so a refused action changes nothing. A deadline
    that ran out before the action came is applied first and kept, and the action is
    refused with TimeRanOut (R-4.13, R-8.9). A ``question_candidate`` (an action that may
    ask a question) is read with the lock, so that asking it takes no query of its own."""
    with transaction.atomic():
        table = _lock(game_id=game_id, user=user, candidate=question_candidate)
        if not _apply_deadlines(table):
            _check_version(table.game, version)
            yield table
            return
    raise TimeRanOut()


def _check_version(game: Game, version: int) -> None:
    if game.version == version:
        return
    if (game.status_note or {}).get("kind") == TIME_RAN_OUT and version < game.version:
        # The page was shown before its deadline was applied (by a reload, or another
        # tab): say why the table moved on, not merely that the page is old.
        raise TimeRanOut()
    raise StaleVersion(f"game {game.pk}: version {version} posted, {game.version} stored")


def _asked_in(game_id: int) -> QuerySet[TriviaAttempt]:
    """The ids of the questions a game has asked (its trivia attempts'), as a subquery."""
    return TriviaAttempt.objects.filter(game_id=game_id).values("question_id")


def _lock(*, game_id: int, user: Player | int, candidate: QuestionCandidate | None = None) -> Table:
    """Lock the owner's game row (call inside atomic), reading with it in the same query
    all an action needs besides the engine state (game/sql.py)."""
    owner_id = user if isinstance(user, int) else user.pk
    read = read_game(
        game_id=game_id,
        owner_id=owner_id,
        lock=True,
        candidate=None if candidate is None else (candidate.question_id, candidate.difficulty),
    )
    if read is None:
        raise GameNotFound(game_id)
    engine = load_engine(read.game)
    return Table(
        read.game,
        engine,
        round_was_open=engine.round_in_progress,
        round_row_id=read.round_row_id,
        question_pool_stamp=read.question_pool_stamp,
        candidate_question=_usable_candidate(read, candidate),
    )


def _usable_candidate(read: GameRead, candidate: QuestionCandidate | None) -> Question | None:
    """The candidate read with the lock, if it may be asked: found (active, of its
    difficulty, not asked here) and drawn from the list the bank's stamp still names."""
    if candidate is None or read.question_pool_stamp != candidate.pool_stamp:
        return None
    return read.candidate_question


# --------------------------------------------------------------------- deadlines

TIME_RAN_OUT = "time_ran_out"


def _apply_deadlines(table: Table) -> bool:
    """Apply every deadline that has run out by now, in order, and save; True if any did.

    The stored deadline is enforced by whichever request comes first, under the row lock
    (no timer runs in a web process): a question not answered in time counts as wrong,
    and a decision not made in time stands the hand; the next decision's clock starts at
    the deadline that ran out, so a game resumed late has moved on as far as it would have.
    """
    options = table.engine.options
    if options.turn_ms is None and options.answer_ms is None:
        return False
    fired = False
    while True:
        answer_due = pending_answer_deadline(table.game, options)
        if answer_due is not None and now_ms() >= answer_due:
            _time_out_answer(table, answer_due)
        elif table.game.pending_trivia is None and table.engine.deadline_passed():
            _play(table, table.engine.run_clock, note={"kind": TIME_RAN_OUT})
        else:
            return fired
        fired = True


def _time_out_answer(table: Table, deadline: int) -> None:
    """R-8.9: the pending question was not answered in time: a wrong answer, applied."""
    attempt = table.game.pending_trivia
    assert attempt is not None  # pending_answer_deadline found it
    outcome = TriviaOutcome(attempt.difficulty, False, timed_out=True)
    attempt.correct = False
    attempt.credits_change = outcome.credit_change
    attempt.answered_at = from_epoch_ms(deadline)
    attempt.applied = True
    attempt.save(update_fields=["correct", "credits_change", "answered_at", "applied"])
    engine = table.engine
    action = engine.hit if attempt.action == TriviaAttempt.Action.HIT else engine.double
    engine.start_next_decision_at(deadline)
    note = {"kind": TIME_RAN_OUT, "answer": True, "credits_change": outcome.credit_change}
    _play(table, lambda: action(outcome), note=note, pending_trivia=None)


def catch_up_deadlines(*, game: Game) -> Game:
    """Apply the game's deadlines that have run out before it is shown (R-4.13: a game
    resumed after its deadline finds the hand stood). Locks only when one is due."""
    if not _deadline_due(game):
        return game
    with transaction.atomic():
        table = _lock(game_id=game.pk, user=game.owner_id)
        _apply_deadlines(table)
    return table.game


def _deadline_due(game: Game) -> bool:
    options = game.options or {}
    if (
        options.get("turn_seconds", "off") == "off"
        and options.get("answer_seconds", "off") == "off"
    ):
        return False
    round_ = (game.state or {}).get("round") or {}
    now = now_ms()
    turn_due = round_.get("deadline")
    if turn_due is not None and now >= turn_due:
        return True
    answer_due = pending_answer_deadline(game, Options.from_dict(options))
    return answer_due is not None and now >= answer_due


def _save(
    table: Table,
    *,
    note: StatusNote | None = None,
    engine_changed: bool = True,
    **fields: Any,
) -> Game:
    """Write the engine state back with the version check inside the UPDATE.

    ``note`` says what the action did, as data (default: :func:`_phase_note`); the status
    line is worded from it by game/presentation/notices.py. ``engine_changed=False``: an
    action that only read the engine (Next Round and every action of the bet panel: the
    chips, Clear Bet, the boxes, the side-bet menu) writes its own fields, not the state
    again, nor the bank, credits, options and rounds the row keeps of it (unchanged since
    the lock read them): a quarter of what players post under load is Next Round, and the
    state is most of an UPDATE's work on both sides."""
    game, engine = table.game, table.engine
    old_version = game.version
    engine_values: dict[str, Any] = {}
    if engine_changed:
        engine_values = {
            "state": engine.to_json(),
            "bank_cents": engine.bank,
            "credits": engine.credits,
            "options": engine.options.to_dict(),
            "rounds_played": engine.round_number,
        }
    values: dict[str, Any] = {
        **engine_values,
        "last_played": timezone.now(),
        "version": _next_version(game),
        **fields,
    }
    if engine.game_over:
        values["status"] = Game.Status.OVER
        values["over_reason"] = engine.game_over_reason or ""
    values["status_note"] = _phase_note() if note is None else note
    if not update_game(game_id=game.pk, version=old_version, values=values):
        raise StaleVersion(f"game {game.pk}: version {old_version} changed underneath")
    for name, value in values.items():
        setattr(game, name, value)
    # Handed to the table's view model with the row (see Game.loaded_engine): no action
    # leaves a coach's note unless coach.record writes one after this save.
    game.loaded_engine = engine
    game.coach_note = ""
    return game


def _next_version(game: Game) -> int:
    """The version an action's save gives the game."""
    return game.version + 1


def _run(action: Callable[[], list[Event]]) -> list[Event]:
    try:
        return action()
    except IllegalAction as error:
        raise ActionRefused("rule", text=str(error)) from None


def _persist_round(
    table: Table, events: list[Event], *, new_round: bool = False, version: int | None = None
) -> None:
    """The Round row is written when the round is dealt and when it ends (then with its
    hands and side bets); the moves in between live in the game's state only. ``version``
    is the game's version the row records (default: the game's, already saved)."""
    game, engine = table.game, table.engine
    round_ = engine.round
    if round_ is None or not (new_round or table.round_was_open):
        return
    if not new_round and not round_.over:
        return
    fields: dict[str, Any] = {
        "phase": round_.phase,
        "version": game.version if version is None else version,
        "bet_cents": round_.bet,
        "staked_cents": round_.staked,
        "credits_change": round_.credits_change,
        "record": round_record(round_) if round_.over else {},
    }
    if round_.over:
        fields["winnings_cents"] = round_.paid
        fields["bank_after_cents"] = round_.bank_after
        # Kept for export_round; a forfeited round has no replay spelling (REPLAY.md).
        fields["replay"] = {} if round_.ended else export_round_replay(engine, round_)
    if new_round:
        row_id = Round.objects.create(game=game, number=round_.number, **fields).pk
    else:
        row_id = table.round_row_id
        # update() leaves auto_now alone: the time is given.
        Round.objects.filter(pk=row_id).update(updated=timezone.now(), **fields)
    if round_.over:
        _write_round_record(row_id, engine)


def _write_round_record(round_id: int, engine: EngineGame) -> None:
    round_ = engine.round
    Hand.objects.bulk_create(
        [
            Hand(
                round_id=round_id,
                index=index,
                cards=list(hand.cards),
                bet_cents=hand.bet,
                doubled=hand.doubled,
                result=hand.result or "",
                how=hand.how or "",
                winnings_cents=hand.winnings,
            )
            for index, hand in enumerate(round_.hands)
        ]
    )
    records = round_.side_bets
    if round_.insurance is not None:
        insurance = round_.insurance
        records = [
            *records,
            {
                "name": insurance["kind"],
                "stake": insurance["stake"],
                "result": insurance["result"] or "",
                "condition": None,
                "ratio": [2, 1],
                "winnings": insurance["winnings"],
                "fee": 0,
                "parlayed": 0,
                "cards": [],
            },
        ]
    if records:
        SideBet.objects.bulk_create(
            [
                SideBet(
                    round_id=round_id,
                    name=record["name"],
                    stake_cents=record["stake"],
                    result=record["result"] or "",
                    condition=record["condition"] or "",
                    ratio=":".join(str(part) for part in record["ratio"])
                    if record["ratio"]
                    else "",
                    winnings_cents=record["winnings"],
                    fee_cents=record["fee"],
                    parlayed_cents=record["parlayed"],
                    cards=list(record["cards"]),
                )
                for record in records
            ]
        )


def _phase_note(events: list[Event] = ()) -> StatusNote:
    """The usual note: the status line tells the phase (and a shoe shuffled on the way)."""
    return {"kind": "phase", "shuffled": any(e["type"] == "shoe_shuffled" for e in events)}


def _refuse_if_trivia_open(game: Game) -> None:
    if game.pending_trivia_id is not None:
        raise ActionRefused("trivia_open")


def _require_allowed(engine: EngineGame, action: str) -> None:
    reason = engine.legal_actions().get(action)
    if reason != ALLOWED:
        if reason:
            raise ActionRefused("rule", text=reason)
        raise ActionRefused("not_allowed", action=action)


def _require_playing(engine: EngineGame) -> None:
    if engine.game_over:
        raise ActionRefused("game_over")


# --------------------------------------------------------------------- games


def default_options_for(user: Player) -> dict[str, Any]:
    """The player's last-used options (those of their newest game), else the defaults."""
    last = Game.objects.filter(owner=user).order_by("-created", "-id").values("options").first()
    if last and last["options"]:
        try:
            return Options.from_dict(last["options"]).to_dict()
        except ValueError:
            pass
    return Options().to_dict()


def new_game(
    *, user: Player, options: dict[str, Any] | None = None, coach: bool | None = None
) -> Game:
    """Start a game with the given options (default: the player's last-used ones).

    The Coach setting, like the options, defaults to that of the player's newest game."""
    chosen = Options.from_dict(options if options is not None else default_options_for(user))
    if coach is None:
        newest = Game.objects.filter(owner=user).order_by("-created", "-id")
        coach = bool(newest.values_list("coach", flat=True).first())
    rng = make_rng()
    engine = EngineGame(chosen, rng=rng, shoe=make_shoe(chosen.deck_count, rng))
    return Game.objects.create(
        owner=user,
        bank_cents=engine.bank,
        credits=engine.credits,
        options=chosen.to_dict(),
        state=engine.to_json(),
        status_note=_phase_note(),
        status=Game.Status.OVER if engine.game_over else Game.Status.IN_PROGRESS,
        over_reason=engine.game_over_reason or "",
        coach=coach,
    )


def end_game(*, game_id: int, user: Player, version: int) -> Game:
    """R-1.6: bets in play are forfeited and the game is over."""
    with locked_game(game_id=game_id, user=user, version=version) as table:
        events = _run(table.engine.end_game)
        if table.game.pending_trivia_id is not None:
            TriviaAttempt.objects.filter(pk=table.game.pending_trivia_id).update(applied=True)
        game = _save(
            table,
            note={"kind": "game_ended"},
            pending_trivia=None,
            trivia_choice_for="",
            showing_outcome=False,
            pending_bet_cents=0,
        )
        _persist_round(table, events)
        return game


def apply_options(
    *, game_id: int, user: Player, version: int, options: dict[str, Any], coach: bool | None = None
) -> Game:
    """§10: options change only between rounds; implied options switch on.

    ``coach`` (the Coach setting, not a rule) is saved with them unless it is None."""
    with locked_game(game_id=game_id, user=user, version=version) as table:
        _require_playing(table.engine)
        try:
            chosen = Options.from_dict(options)
        except ValueError as error:
            raise ActionRefused("bad_options", text=str(error)) from None
        events = _run(lambda: table.engine.set_options(chosen))
        note = {"kind": "options_applied", "implied": list(chosen.implied)}
        note["shuffled"] = _phase_note(events)["shuffled"]
        return _save(table, note=note, **({} if coach is None else {"coach": coach}))


# --------------------------------------------------------------------- betting


def add_chip(
    *, game_id: int, user: Player, version: int, chip_cents: int, base_cents: int | None = None
) -> Game:
    """A chip adds to the bet being built (or to the amount typed, ``base_cents``);
    the bank is charged only at the deal."""
    if chip_cents not in CHIP_CENTS:
        raise ActionRefused("no_such_chip")
    with locked_game(game_id=game_id, user=user, version=version) as table:
        _require_betting(table)
        game, engine = table.game, table.engine
        bet = (game.pending_bet_cents if base_cents is None else base_cents) + chip_cents
        # the base bet together with the side bets in the menu must fit in the bank.
        side_total = sum(pending_side_stakes(game).values()) if engine.options.side_bets else 0
        if bet + side_total > engine.bank:
            raise ActionRefused("bank_short", bank_cents=engine.bank)
        if bet > engine.options.max_bet:
            raise ActionRefused("over_max_bet", max_bet_cents=engine.options.max_bet)
        return _save(
            table,
            engine_changed=False,
            pending_bet_cents=bet,
            note={"kind": "bet", "bet_cents": bet},
        )


def clear_bet(*, game_id: int, user: Player, version: int) -> Game:
    with locked_game(game_id=game_id, user=user, version=version) as table:
        _require_betting(table)
        # "Clear Bet" resets the base bet and the side bets (and the extra-bet activation).
        return _save(
            table,
            engine_changed=False,
            pending_bet_cents=0,
            pending_side_bets={},
            pending_extra_bet=False,
            note={"kind": "bet_cleared"},
        )


def _require_betting(table: Table) -> None:
    _require_playing(table.engine)
    if table.engine.round_in_progress:
        raise ActionRefused("round_open")


def place_bet_and_deal(
    *,
    game_id: int,
    user: Player,
    version: int,
    bet_cents: int,
    side_bets: dict[str, int] | None = None,
    extra_bet: bool | None = None,
) -> Game:
    """R-4.1/R-4.2: lock in the bets, take them from the bank and deal.

    ``side_bets`` / ``extra_bet`` left as None mean the ones built in the side-bet menu.
    """
    with locked_game(game_id=game_id, user=user, version=version) as table:
        _require_betting(table)
        if table.engine.options.seats > 1:
            return _deal_boxes(table, bet_cents)
        side_bets, extra_bet = _side_bets_for_deal(table, side_bets, extra_bet)
        events = _run(lambda: table.engine.start_round(bet_cents, side_bets, extra_bet=extra_bet))
        return _save_deal(
            table,
            events,
            pending_bet_cents=bet_cents,
            # The side bets just placed stay as the next round's defaults (like the base
            # bet); next_round caps them to the bank.
            pending_side_bets=dict(table.engine.round.side_stakes),
            pending_extra_bet=extra_bet,
        )


def _save_deal(table: Table, events: list[Event], **fields: Any) -> Game:
    """A dealt round's save: its Round row, then the game's."""
    _persist_round(table, events, new_round=True, version=_next_version(table.game))
    return _save(
        table,
        note=_phase_note(events),
        showing_outcome=table.engine.round.over,
        trivia_choice_for="",
        **fields,
    )


# --------------------------------------------------------------------- boxes (§10 seats)
#
# With seats > 1 the chips, the amount field and the side-bet menu work on the selected
# box, whose bets are the game's pending_* fields; pending_boxes keeps every box's.


def _box_entries(table: Table, new_box_bet: int | None = None) -> list[dict[str, Any]]:
    return pending_box_entries(table.game, table.engine.options.seats, new_box_bet)


def _boxes_total(entries: list[dict[str, Any]]) -> int:
    return sum(entry["bet"] + sum(entry["side_bets"].values()) for entry in entries)


def select_box(
    *, game_id: int, user: Player, version: int, box: int, base_cents: int | None = None
) -> Game:
    """Make ``box`` (1 … seats) the one the chips and the side-bet menu work on; an amount
    typed for the box being left (``base_cents``) is kept as its bet."""
    with locked_game(game_id=game_id, user=user, version=version) as table:
        _require_betting(table)
        if not 1 <= box <= table.engine.options.seats:
            raise ActionRefused("no_such_box", seats=table.engine.options.seats)
        if base_cents is not None:
            table.game.pending_bet_cents = base_cents
        entries = _box_entries(table)
        chosen = entries[box - 1]
        return _save(
            table,
            engine_changed=False,
            pending_boxes=entries,
            selected_box=box,
            pending_bet_cents=chosen["bet"],
            pending_side_bets=chosen["side_bets"],
            pending_extra_bet=chosen["extra_bet"],
            note={"kind": "box_selected", "box": box, "bet_cents": chosen["bet"]},
        )


def same_bet_on_every_box(*, game_id: int, user: Player, version: int) -> Game:
    """The selected box's base bet on every box, in one click (UI.md, seats)."""
    with locked_game(game_id=game_id, user=user, version=version) as table:
        _require_betting(table)
        bet = table.game.pending_bet_cents
        if bet <= 0:
            raise ActionRefused("no_bet_to_copy")
        entries = [{**entry, "bet": bet} for entry in _box_entries(table)]
        if _boxes_total(entries) > table.engine.bank:
            raise ActionRefused("bank_short", bank_cents=table.engine.bank)
        note = {"kind": "same_bet", "bet_cents": bet, "boxes": len(entries)}
        return _save(table, engine_changed=False, pending_boxes=entries, note=note)


def _deal_boxes(table: Table, bet_cents: int) -> Game:
    """R-4.1/R-4.2 for several boxes: every box's bets, the typed amount on the selected."""
    options = table.engine.options
    # Boxes never bet on take the bet dealt with (a first Deal bets it on every box).
    entries = _box_entries(table, new_box_bet=bet_cents)
    entries[selected_box_index(table.game, options.seats)]["bet"] = bet_cents
    offered = options.side_bets and not options.simple
    boxes = [
        BoxBet(
            entry["bet"],
            entry["side_bets"] if offered else {},
            bool(offered and entry["extra_bet"]),
        )
        for entry in entries
    ]
    events = _run(lambda: table.engine.start_round(boxes=boxes))
    # Every box's bets stay as the next round's defaults.
    return _save_deal(table, events, pending_bet_cents=bet_cents, pending_boxes=entries)


def next_round(*, game_id: int, user: Player, version: int) -> Game:
    """Leave the round outcome for the bet panel (the last bet stays as the default)."""
    with locked_game(game_id=game_id, user=user, version=version) as table:
        _require_playing(table.engine)
        if table.engine.round_in_progress:
            raise ActionRefused("round_open")
        if not table.game.showing_outcome:
            raise ActionRefused("round_begun")
        bank = table.engine.bank
        bet = min(table.game.pending_bet_cents, bank)
        # Last round's side stakes are this round's defaults, cut down to what the bank
        # still covers after the base bet (ones that no longer fit are dropped).
        side_stakes = sb.fit_side_stakes(
            pending_side_stakes(table.game),
            base_cents=bet,
            bank_cents=bank,
            min_cents=table.engine.options.min_bet,
        )
        return _save(
            table,
            engine_changed=False,
            showing_outcome=False,
            pending_bet_cents=bet,
            pending_side_bets=side_stakes,
            # The side-bet drawer stays open into the next round only when stakes ride in it.
            side_bets_menu_open=bool(side_stakes),
            note={"kind": "next_round"},
        )


# --------------------------------------------------------------------- the side-bet menu
#
# RULES.md §9: a side stake is 0 (not played) or from the table minimum up to what the bank
# covers with the base bet and the other side stakes. Decision: no table maximum applies to a
# side stake — §9 bounds it by the bank only, and the engine (start_round) agrees.


def _side_bets_for_deal(
    table: Table, side_bets: dict[str, int] | None, extra_bet: bool | None
) -> tuple[dict[str, int] | None, bool]:
    """The side bets to deal with: the ones given, else the menu's (none when switched off)."""
    game, options = table.game, table.engine.options
    # The simple game has no side bets (§10 Extensions): stakes kept from before ride not.
    offered = options.side_bets and not options.simple
    if side_bets is None:
        side_bets = pending_side_stakes(game) if offered else None
    if extra_bet is None:
        extra_bet = bool(offered and game.pending_extra_bet)
    return side_bets, extra_bet


def _require_side_bet_menu(table: Table) -> None:
    _require_betting(table)
    if not table.engine.options.side_bets:
        raise ActionRefused("side_bets_off")
    if table.engine.options.simple:
        raise ActionRefused("side_bets_simple")


def _checked_bets(table: Table, base_cents: int | None, stakes: dict[str, int]) -> int:
    """The base bet (typed, else the pending one) after checking base + side stakes fit."""
    base = table.game.pending_bet_cents if base_cents is None else base_cents
    try:
        table.engine.check_bets_being_built(base, stakes)
    except IllegalAction as error:
        raise ActionRefused("side_bets_too_big", text=str(error)) from None
    return base


SideStakes = dict[str, int]


def _change_side_bets(
    game_id: int,
    user: Player,
    version: int,
    base_cents: int | None,
    *,
    note: StatusNote,
    stakes: Callable[[SideStakes], SideStakes] | None = None,
    extra_bet: bool | None = None,
    menu_open: bool = True,
) -> Game:
    """One change in the side-bet menu; what it does not change keeps its pending value.

    ``stakes`` turns the pending stakes into the new ones. The base bet (typed, else the
    pending one) and the stakes are checked together against the table minimum and the
    bank (R-1.4, §9); the bank is charged only at the deal."""
    with locked_game(game_id=game_id, user=user, version=version) as table:
        _require_side_bet_menu(table)
        game = table.game
        pending = pending_side_stakes(game)
        new_stakes = pending if stakes is None else stakes(pending)
        return _save(
            table,
            engine_changed=False,
            pending_bet_cents=_checked_bets(table, base_cents, new_stakes),
            pending_side_bets=new_stakes,
            pending_extra_bet=game.pending_extra_bet if extra_bet is None else extra_bet,
            side_bets_menu_open=menu_open,
            note=note,
        )


def add_side_chip(
    *,
    game_id: int,
    user: Player,
    version: int,
    bet: str,
    chip_cents: int,
    base_cents: int | None = None,
) -> Game:
    """A chip adds to one side bet's stake."""
    if bet not in STAKED_SIDE_BETS:
        raise ActionRefused("no_such_side_bet")
    if chip_cents not in CHIP_CENTS:
        raise ActionRefused("no_such_chip")
    return _change_side_bets(
        game_id,
        user,
        version,
        base_cents,
        note={"kind": "side_stake", "bet": bet},
        stakes=lambda pending: {**pending, bet: pending.get(bet, 0) + chip_cents},
    )


def clear_side_bet(
    *, game_id: int, user: Player, version: int, bet: str, base_cents: int | None = None
) -> Game:
    """The "Clear" of one side bet: its stake goes back to 0 (not played)."""
    if bet not in STAKED_SIDE_BETS:
        raise ActionRefused("no_such_side_bet")
    return _change_side_bets(
        game_id,
        user,
        version,
        base_cents,
        note={"kind": "side_cleared", "bet": bet},
        stakes=lambda pending: {name: cents for name, cents in pending.items() if name != bet},
    )


def clear_side_bets(
    *, game_id: int, user: Player, version: int, base_cents: int | None = None
) -> Game:
    """The "Clear All" of the menu: every side stake back to 0, Extra Bet Blackjack off."""
    return _change_side_bets(
        game_id,
        user,
        version,
        base_cents,
        note={"kind": "side_all_cleared"},
        stakes=lambda pending: {},
        extra_bet=False,
    )


def activate_extra_bet(
    *, game_id: int, user: Player, version: int, active: bool, base_cents: int | None = None
) -> Game:
    """R-SB-20: Extra Bet Blackjack is activated (no stake until its offer) or deactivated."""
    return _change_side_bets(
        game_id,
        user,
        version,
        base_cents,
        note={"kind": "extra_bet", "active": active},
        extra_bet=active,
    )


def toggle_side_bet_menu(
    *, game_id: int, user: Player, version: int, menu_open: bool, base_cents: int | None = None
) -> Game:
    """Open or close the side-bet menu of the bet panel (the stakes are kept either way)."""
    return _change_side_bets(
        game_id,
        user,
        version,
        base_cents,
        note={"kind": "side_menu", "open": menu_open},
        menu_open=menu_open,
    )


# --------------------------------------------------------------------- play


def _play(
    table: Table,
    action: Callable[[], list[Event]],
    *,
    note: StatusNote | None = None,
    **fields: Any,
) -> Game:
    events = _run(action)
    over = table.engine.round is not None and table.engine.round.phase == ROUND_OVER
    if note is None:
        note = _phase_note(events)
    _persist_round(table, events, version=_next_version(table.game))
    return _save(table, note=note, trivia_choice_for="", showing_outcome=over, **fields)


def _trivia_action(
    *, game_id: int, user: Player, version: int, action: str, difficulty: str | None = None
) -> Game:
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise ActionRefused("no_such_difficulty")
    rng = make_rng()
    candidate = None if difficulty is None else question_candidate(difficulty, rng)
    with locked_game(
        game_id=game_id, user=user, version=version, question_candidate=candidate
    ) as table:
        _refuse_if_trivia_open(table.game)
        _require_allowed(table.engine, action)
        # The coach judges the move when it is chosen, before any trivia.
        deviation = coach.judge(table.game, table.engine, action)
        engine_action = table.engine.hit if action == "hit" else table.engine.double
        if not table.engine.options.trivia_mode:
            game = _play(table, engine_action)
        elif difficulty is not None:
            # The difficulty came with the button (the one remembered, or changed beside
            # it): the question is asked at once, a hit in two steps.
            game = _ask_question(table, action=action, difficulty=difficulty, rng=rng)
        else:
            # in trivia mode the action first asks for a difficulty.
            note = {"kind": "choose_difficulty", "action": action}
            game = _save(table, trivia_choice_for=action, note=note)
        coach.record(game, deviation)
        return game


def hit(*, game_id: int, user: Player, version: int, difficulty: str | None = None) -> Game:
    """R-5.1; in trivia mode this asks a question at ``difficulty``, or first asks which
    difficulty when none is given (R-8.1)."""
    return _trivia_action(
        game_id=game_id, user=user, version=version, action="hit", difficulty=difficulty
    )


def double(*, game_id: int, user: Player, version: int, difficulty: str | None = None) -> Game:
    """R-5.3; in trivia mode like :func:`hit`."""
    return _trivia_action(
        game_id=game_id, user=user, version=version, action="double", difficulty=difficulty
    )


def _simple_play(*, game_id: int, user: Player, version: int, action: str) -> Game:
    with locked_game(game_id=game_id, user=user, version=version) as table:
        _refuse_if_trivia_open(table.game)
        _require_allowed(table.engine, action)
        deviation = coach.judge(table.game, table.engine, action)
        game = _play(table, getattr(table.engine, action))
        coach.record(game, deviation)
        return game


def stand(*, game_id: int, user: Player, version: int) -> Game:
    return _simple_play(game_id=game_id, user=user, version=version, action="stand")


def split(*, game_id: int, user: Player, version: int) -> Game:
    return _simple_play(game_id=game_id, user=user, version=version, action="split")


def surrender(*, game_id: int, user: Player, version: int) -> Game:
    return _simple_play(game_id=game_id, user=user, version=version, action="surrender")


def answer_offer(*, game_id: int, user: Player, version: int, offer: str, accept: bool) -> Game:
    """Insurance / Even Money (R-4.5) or Early Surrender (R-4.6): accept or decline."""
    if offer not in OFFERS:
        raise ActionRefused("no_such_offer")
    with locked_game(game_id=game_id, user=user, version=version) as table:
        return _play(table, lambda: table.engine.answer_offer(offer, accept))


def answer_insurance(*, game_id: int, user: Player, version: int, accept: bool) -> Game:
    """Insurance or Even Money, whichever is on offer."""
    with locked_game(game_id=game_id, user=user, version=version) as table:
        round_ = table.engine.round
        offer = round_.phase if round_ is not None and not round_.over else "insurance"
        if offer not in ("insurance", "even_money"):
            raise ActionRefused("insurance_not_offered")
        deviation = coach.judge(table.game, table.engine, offer) if accept else None
        game = _play(table, lambda: table.engine.answer_offer(offer, accept))
        coach.record(game, deviation)
        return game


def answer_early_surrender(*, game_id: int, user: Player, version: int, accept: bool) -> Game:
    """R-4.6: accept or decline early surrender; the coach judges either answer."""
    with locked_game(game_id=game_id, user=user, version=version) as table:
        # Out of its phase the engine refuses the answer below (its own message).
        deviation = coach.judge(table.game, table.engine, "surrender" if accept else "decline")
        game = _play(table, lambda: table.engine.answer_offer("early_surrender", accept))
        coach.record(game, deviation)
        return game


def place_extra_bet(*, game_id: int, user: Player, version: int, amount_cents: int | None) -> Game:
    """R-SB-20: place the extra bet, or decline it (None)."""
    with locked_game(game_id=game_id, user=user, version=version) as table:
        return _play(table, lambda: table.engine.place_extra_bet(amount_cents))


def parlay(*, game_id: int, user: Player, version: int, choice: str) -> Game:
    with locked_game(game_id=game_id, user=user, version=version) as table:
        return _play(table, lambda: table.engine.parlay(choice))


def roll(*, game_id: int, user: Player, version: int) -> Game:
    with locked_game(game_id=game_id, user=user, version=version) as table:
        return _play(table, table.engine.roll)


# --------------------------------------------------------------------- trivia in play


def choose_difficulty(*, game_id: int, user: Player, version: int, difficulty: str) -> Game:
    """Pick the question for the Hit/Double waiting on trivia and keep it pending (R-8.6)."""
    if difficulty not in DIFFICULTIES:
        raise ActionRefused("no_such_difficulty")
    rng = make_rng()
    candidate = question_candidate(difficulty, rng)
    with locked_game(
        game_id=game_id, user=user, version=version, question_candidate=candidate
    ) as table:
        game = table.game
        _refuse_if_trivia_open(game)
        action = game.trivia_choice_for
        if action not in ("hit", "double"):
            raise ActionRefused("no_choice_waiting")
        _require_allowed(table.engine, action)
        return _ask_question(table, action=action, difficulty=difficulty, rng=rng)


def _ask_question(table: Table, *, action: str, difficulty: str, rng: Rng) -> Game:
    """Draw a question not yet asked in this game and keep it pending (R-8.6); the
    difficulty is remembered for the next Hit or Double Down. The candidate read with
    the lock is asked when it may be (trivia.services.question_candidate), else the usual
    pick runs."""
    game, engine = table.game, table.engine
    question = table.candidate_question or _pick_question(table, difficulty, rng)
    attempt = TriviaAttempt(
        game=game,
        # The round in play is the game's latest (its row is written at the deal).
        round_id=table.round_row_id,
        hand_index=engine.round.current,
        action=action,
        question=question,
        difficulty=difficulty,
        answers_shown=shuffled_answers(question, rng=rng),
        # the answer's clock starts now, and a reload does not restart it.
        shown_at=from_epoch_ms(now_ms()),
    )
    attempt.save(force_insert=True)
    # The decision is made (Hit or Double): the turn's clock waits for the answer.
    engine.pause_turn_clock()
    return _save(
        table,
        pending_trivia=attempt,
        trivia_choice_for="",
        trivia_difficulty=difficulty,
        note={"kind": "question_asked"},
    )


def answer_question(*, game_id: int, user: Player, version: int, answer: str) -> Game:
    """Record the answer to the pending question (a second answer is refused).

    A right answer is carried into the round at once — the card is dealt, the reveal is
    shown on the felt; a wrong one waits on the reveal for Continue."""
    with locked_game(game_id=game_id, user=user, version=version) as table:
        attempt = table.game.pending_trivia
        if attempt is None or attempt.is_answered:
            raise ActionRefused("no_unanswered_question")
        if answer not in attempt.answers_shown:
            raise ActionRefused("not_an_answer_shown")
        correct = answer == attempt.question.correct_answer
        outcome = TriviaOutcome(attempt.difficulty, correct)
        attempt.answer_given = answer
        attempt.correct = correct
        attempt.credits_change = outcome.credit_change
        attempt.answered_at = timezone.now()
        # A right answer is applied in this same action: one UPDATE says both.
        attempt.applied = correct
        note = {
            "kind": "answered",
            "correct": correct,
            "credits_change": outcome.credit_change,
            "attempt": attempt.pk,
        }
        # The question's answer counters are kept by the database, in the attempt's UPDATE
        # (trivia/migrations/0003_count_answers_in_the_database.py).
        attempt.save(
            update_fields=["answer_given", "correct", "credits_change", "answered_at", "applied"]
        )
        if not correct:
            return _save(table, note=note)
        return _apply_answer(table, attempt, note=note)


def continue_after_reveal(*, game_id: int, user: Player, version: int) -> Game:
    """After a wrong answer's reveal: the hand stands (R-8.2)."""
    with locked_game(game_id=game_id, user=user, version=version) as table:
        attempt = table.game.pending_trivia
        if attempt is None or not attempt.is_answered:
            raise ActionRefused("no_answered_question")
        return _apply_answer(table, attempt)


def _apply_answer(table: Table, attempt: TriviaAttempt, *, note: StatusNote | None = None) -> Game:
    """Carry an answer into the round: the card is dealt, or the hand stands (R-8.2)."""
    outcome = TriviaOutcome(attempt.difficulty, bool(attempt.correct))
    engine = table.engine
    action = engine.hit if attempt.action == TriviaAttempt.Action.HIT else engine.double
    # A right answer was applied by its own UPDATE (answer_question): its reveal shows on
    # the felt with the card just dealt. Else it is applied now.
    revealed = attempt.applied
    if not revealed:
        attempt.applied = True
        attempt.save(update_fields=["applied"])
    game = _play(table, lambda: action(outcome), note=note, pending_trivia=None)
    if revealed:
        game.revealed_trivia = attempt
    return game


def _pick_question(table: Table, difficulty: str, rng: Rng) -> Question:
    try:
        return choose_question(
            difficulty=difficulty,
            asked_ids=_asked_in(table.game.pk),
            rng=rng,
            pool_stamp=table.question_pool_stamp,
        )
    except NoQuestionsAvailable as error:
        raise ActionRefused("no_questions", difficulty=error.difficulty) from None


PLAY_SERVICES: dict[str, Callable[..., Game]] = {
    "hit": hit,
    "stand": stand,
    "double": double,
    "split": split,
    "surrender": surrender,
}
assert set(PLAY_SERVICES) == set(PLAY_ACTIONS)
