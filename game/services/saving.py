"""What every action shares once the game is locked: the loaded game, the engine run and
its refusal, and the save (the game row with the version check inside its UPDATE, the
round's rows when a round is dealt or ends)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import Model
from django.utils import timezone

from game.core import sql
from game.core.clock import now_ms
from game.core.errors import ActionRefused, StaleVersion
from game.models import Game, GameShoe, Hand, Round, SideBet, TriviaAttempt
from game.rules.daily import end_after_the_last_round, is_daily
from game.rules.engine import Engine
from game.rules.records import ROUND_OVER, Event, IllegalAction
from game.rules.replay import export_round_replay, round_record
from game.rules.storage import game_from_json, game_to_json
from game.services import randomness
from game.services.daily_records import daily_writes
from game.services.results import Played
from game.services.shoe_records import shoe_writes

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    # The owner of a game: the logged-in account a view passes in.
    Player = User

# What an action did, as data ({"kind": ..., details}); stored as Game.status_note.
StatusNote = dict[str, Any]


@dataclass
class LockedGame:
    """A locked game row and its engine, loaded for one action."""

    game: Game
    engine: Engine
    # Whether a round was in progress when the action began (its record is written once).
    round_was_open: bool = False
    # The primary key of the game's latest Round row (read with the lock), if any.
    round_row_id: int | None = None
    # The question bank's stamp (read with the lock): a pick needs no read of its own.
    question_pool_stamp: str | None = None
    # The owner's trivia rating (None: no rating row yet), the first attempts it was
    # learned from and the questions asked since their last spaced review, read with the
    # lock.
    player_rating: float | None = None
    player_rated_answers: int = 0
    asked_since_review: int = 0
    # Writes of this action besides the game row's (an attempt answered, the round's rows
    # at its end), sent with the game's save (sql.update_game): one round trip for all.
    pending_writes: list[sql.Write] = field(default_factory=list)
    # A new row inserted with the game's save (its key set on it then): a trivia attempt
    # asked, a round dealt. No pending write may need its key.
    new_row: Model | None = None


def load_engine(game: Game) -> Engine:
    """The game's engine; a game stored before shoes were committed gets committed shoes
    from its next shoe on (F-1)."""
    return game_from_json(
        game.state,
        rng=randomness.make_rng(),
        seed_bytes=randomness.server_seeds(),
        clock=now_ms,
    )


def save_game(
    locked: LockedGame,
    *,
    note: StatusNote | None = None,
    engine_changed: bool = True,
    **fields: Any,
) -> Played:
    """Write the engine state back with the version check inside the UPDATE.

    ``note`` says what the action did, as data (default: :func:`phase_note`); the status
    line is worded from it by game/presentation/notices.py. ``engine_changed=False``: an
    action that only read the engine (Next Round and every action of the bet panel: the
    chips, Clear Bet, the boxes, the side-bet menu) writes its own fields, not the state
    again, nor the bank, credits, options and rounds the row keeps of it (unchanged since
    the lock read them): a quarter of what players post under load is Next Round, and the
    state is most of an UPDATE's work on both sides. Returns the saved row with the engine
    run on it."""
    game, engine = locked.game, locked.engine
    old_version = game.version
    engine_values: dict[str, Any] = {}
    if engine_changed:
        if is_daily(engine):
            end_after_the_last_round(engine)  # D-1: twenty rounds
            writes = daily_writes(game, engine)
            locked.pending_writes.extend(writes)
        if engine.game_over:
            engine.finish_shoe()  # F-6: the game ended, its shoe is revealed
        locked.pending_writes.extend(shoe_writes(engine.source, GameShoe, {"game_id": game.pk}))
        engine_values = {
            "state": game_to_json(engine),
            "bank_cents": engine.bank,
            "credits": engine.credits,
            "options": engine.options.to_dict(),
            "rounds_played": engine.round_number,
        }
    values: dict[str, Any] = {
        **engine_values,
        "last_played": timezone.now(),
        "version": next_version(game),
        **fields,
    }
    if engine.game_over:
        values["status"] = Game.Status.OVER
        values["over_reason"] = engine.game_over_reason or ""
    values["status_note"] = phase_note() if note is None else note
    along, locked.pending_writes = locked.pending_writes, []
    new_row, locked.new_row = locked.new_row, None
    saved = sql.update_game(
        game_id=game.pk, version=old_version, values=values, along=along, new_row=new_row
    )
    if not saved:
        raise StaleVersion(f"game {game.pk}: version {old_version} changed underneath")
    for name, value in values.items():
        setattr(game, name, value)
    # The note is known to be none: only coach.record, after this save, writes one.
    return Played(game, engine, coach_note="")


def next_version(game: Game) -> int:
    """The version an action's save gives the game."""
    return game.version + 1


def start_bet_after_outcome(locked: LockedGame) -> bool:
    """A bet-panel action on a round's outcome: the outcome gives way to a bet built from
    zero (no base bet, no side stakes, Extra Bet Blackjack off, no box bets): the last
    round's stakes are Rebet's alone. The caller saves these fields and
    ``showing_outcome=False``. True when the outcome was on show."""
    game = locked.game
    if not game.showing_outcome:
        return False
    game.pending_bet_cents = 0
    game.pending_side_bets = {}
    game.pending_extra_bet = False
    game.pending_boxes = []
    game.showing_outcome = False
    return True


def bet_fields(game: Game) -> dict[str, Any]:
    """The bet being built, as a bet-panel action saves it."""
    return {
        "pending_bet_cents": game.pending_bet_cents,
        "pending_side_bets": game.pending_side_bets,
        "pending_extra_bet": game.pending_extra_bet,
        "pending_boxes": game.pending_boxes,
        "showing_outcome": game.showing_outcome,
    }


def save_attempt(locked: LockedGame, attempt: TriviaAttempt, *names: str) -> None:
    """``attempt.save(update_fields=names)``: the game's pending attempt, locked with it,
    written with the game's save."""
    values = {name: getattr(attempt, name) for name in names}
    locked.pending_writes.append(sql.update_write(TriviaAttempt, values, id=attempt.pk))


def run_engine(action: Callable[[], list[Event]]) -> list[Event]:
    try:
        return action()
    except IllegalAction as error:
        raise ActionRefused("rule", text=str(error)) from None


def play_and_save(
    locked: LockedGame,
    action: Callable[[], list[Event]],
    *,
    note: StatusNote | None = None,
    **fields: Any,
) -> Played:
    """Run an engine action (a refusal of the rules is ActionRefused) and save: the
    round's rows when it ended, then the game with ``note`` (default: the phase)."""
    events = run_engine(action)
    over = locked.engine.round is not None and locked.engine.round.phase == ROUND_OVER
    if note is None:
        note = phase_note(events)
    persist_round(locked, events, version=next_version(locked.game))
    return save_game(locked, note=note, trivia_choice_for="", showing_outcome=over, **fields)


def persist_round(
    locked: LockedGame, events: list[Event], *, version: int, new_round: bool = False
) -> None:
    """The Round row is written when the round is dealt and when it ends (then with its
    hands and side bets); the moves in between live in the game's state only. ``version``
    is the game's version the row records: the one its save, which follows and sends these
    writes, gives it."""
    game, engine = locked.game, locked.engine
    round_ = engine.round
    if round_ is None or not (new_round or locked.round_was_open):
        return
    if not new_round and not round_.over:
        return
    fields: dict[str, Any] = {
        "phase": round_.phase,
        "version": version,
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
        row = Round(game=game, number=round_.number, **fields)
        if not round_.over:
            locked.new_row = row  # written with the game's save: nothing here needs its key
            return
        sql.insert(row)
        row_id: int = row.pk
    else:
        # A round that goes on was written at its deal: the lock read its row's id.
        assert locked.round_row_id is not None
        row_id = locked.round_row_id
        # An UPDATE leaves auto_now alone: the time is given.
        values = {"updated": timezone.now(), **fields}
        locked.pending_writes.append(sql.update_write(Round, values, id=row_id))
    if round_.over:
        locked.pending_writes.extend(_round_record_writes(row_id, engine))


def _round_record_writes(round_id: int, engine: Engine) -> list[sql.Write]:
    """The INSERTs of a round's hands and side bets (written with the game's save)."""
    round_ = engine.round
    assert round_ is not None  # called for a round that is over
    hands = sql.insert_all_write(
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
    # Every box's insurance or even money taken is a row of its own (statistics count them).
    records = [
        *round_.side_bets,
        *(
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
            }
            for insurance in (box.insurance for box in round_.boxes)
            if insurance is not None
        ),
    ]
    side_bets = sql.insert_all_write(
        [
            SideBet(
                round_id=round_id,
                name=record["name"],
                stake_cents=record["stake"],
                result=record["result"] or "",
                condition=record["condition"] or "",
                ratio=":".join(str(part) for part in record["ratio"]) if record["ratio"] else "",
                winnings_cents=record["winnings"],
                fee_cents=record["fee"],
                parlayed_cents=record["parlayed"],
                cards=list(record["cards"]),
            )
            for record in records
        ]
    )
    return [write for write in (hands, side_bets) if write is not None]


def phase_note(events: Sequence[Event] = ()) -> StatusNote:
    """The usual note: the status line tells the phase (and a shoe shuffled on the way)."""
    return {"kind": "phase", "shuffled": any(e["type"] == "shoe_shuffled" for e in events)}
