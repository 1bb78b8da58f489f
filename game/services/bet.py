"""The bet panel (R-4.1, R-4.2): chips build the bet, Deal takes it from the bank and
deals. At a round's end the outcome stays on the felt and the bet panel is live at once:
Rebet deals again with the same stakes, a chip starts a new bet from zero. (Next Round,
which left the outcome for the bet panel, is kept for pages shown before it was retired.)

With seats > 1 (§10) the chips, the amount field and the side-bet menu work on the
selected box, whose bets are the game's pending_* fields; pending_boxes keeps every box's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.core.errors import ActionRefused
from game.rules import sidebets as sb
from game.rules.bets import BANK_SHORT, OVER_MAX_BET, bet_refusal
from game.rules.records import BoxBet, Event
from game.selectors import (
    pending_box_entries,
    pending_side_stakes,
    rebet_total,
    selected_box_index,
)
from game.services.guards import require_betting, require_chip, require_playing
from game.services.locking import locked_game
from game.services.results import Played
from game.services.saving import (
    LockedGame,
    bet_fields,
    next_version,
    persist_round,
    phase_note,
    run_engine,
    save_game,
    start_bet_after_outcome,
)
from game.services.side_bets import side_bets_for_deal

if TYPE_CHECKING:
    from game.rules.engine import Engine
    from game.services.saving import Player


def add_chip(
    *, game_id: int, user: Player, version: int, chip_cents: int, base_cents: int | None = None
) -> Played:
    """A chip adds to the bet being built (or to the amount typed, ``base_cents``);
    the bank is charged only at the deal. On a round's outcome it starts a new bet from
    zero (the last round's stakes are Rebet's)."""
    require_chip(chip_cents)
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        require_betting(locked)
        game, engine = locked.game, locked.engine
        fresh = start_bet_after_outcome(locked)
        built = game.pending_bet_cents if base_cents is None else base_cents
        bet = built + chip_cents
        # the base bet together with the side bets in the menu must fit in the bank.
        side_total = sum(pending_side_stakes(game).values()) if engine.options.side_bets else 0
        _refuse_beyond_limits(engine, bet, side_total)
        return save_game(
            locked,
            engine_changed=False,
            **{**bet_fields(game), "pending_bet_cents": bet},
            note={"kind": "bet", "bet_cents": bet, "fresh": fresh},
        )


def rebet(*, game_id: int, user: Player, version: int) -> Played:
    """On a round's outcome: deal again with the same stakes, side bets (and every box's
    bets) included, in one action. Refused when the bank no longer covers them."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        require_betting(locked)
        game, engine = locked.game, locked.engine
        if not game.showing_outcome or game.pending_bet_cents <= 0:
            raise ActionRefused("nothing_to_rebet")
        _refuse_beyond_limits(engine, rebet_total(game, engine.options.seats), bank_only=True)
        return _deal(locked, game.pending_bet_cents, side_bets=None, extra_bet=None)


def clear_bet(*, game_id: int, user: Player, version: int) -> Played:
    """Clear the bet: the base bet, the side bets and the Extra Bet activation (R-4.1)."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        require_betting(locked)
        # "Clear Bet" resets the base bet and the side bets (and the extra-bet activation).
        start_bet_after_outcome(locked)
        return save_game(
            locked,
            engine_changed=False,
            pending_bet_cents=0,
            pending_side_bets={},
            pending_extra_bet=False,
            pending_boxes=locked.game.pending_boxes,
            showing_outcome=False,
            note={"kind": "bet_cleared"},
        )


def place_bet_and_deal(
    *,
    game_id: int,
    user: Player,
    version: int,
    bet_cents: int,
    side_bets: dict[str, int] | None = None,
    extra_bet: bool | None = None,
) -> Played:
    """Lock in the bets, take them from the bank and deal (R-4.1, R-4.2).

    ``side_bets`` / ``extra_bet`` left as None mean the ones built in the side-bet menu.
    """
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        require_betting(locked)
        return _deal(locked, bet_cents, side_bets=side_bets, extra_bet=extra_bet)


def _deal(
    locked: LockedGame,
    bet_cents: int,
    *,
    side_bets: dict[str, int] | None,
    extra_bet: bool | None,
) -> Played:
    if locked.engine.options.seats > 1:
        return _deal_boxes(locked, bet_cents)
    side_bets, extra_bet = side_bets_for_deal(locked, side_bets, extra_bet)
    events = run_engine(
        lambda: locked.engine.start_round(bet_cents, side_bets, extra_bet=extra_bet)
    )
    return _save_deal(
        locked,
        events,
        pending_bet_cents=bet_cents,
        # The side bets just placed stay as the next round's defaults (like the base
        # bet); next_round caps them to the bank.
        pending_side_bets=dict(locked.engine.round.side_stakes if locked.engine.round else {}),
        pending_extra_bet=extra_bet,
    )


def _save_deal(locked: LockedGame, events: list[Event], **fields: Any) -> Played:
    """A dealt round's save: its Round row, then the game's."""
    persist_round(locked, events, new_round=True, version=next_version(locked.game))
    return save_game(
        locked,
        note=phase_note(events),
        showing_outcome=locked.engine.round is not None and locked.engine.round.over,
        trivia_choice_for="",
        **fields,
    )


def _refuse_beyond_limits(
    engine: Engine, bet: int, side_total: int = 0, *, bank_only: bool = False
) -> None:
    """Refuse a bet being built that breaks R-1.4 (:func:`game.rules.bets.bet_refusal`):
    ``bank_short`` when the bank does not cover ``bet`` with ``side_total`` of side bets,
    else ``over_max_bet`` above the table maximum, unless ``bank_only``. The minimum is
    the deal's to check: a bet is built up from below it."""
    max_bet = None if bank_only else engine.options.max_bet
    reason = bet_refusal(bet, side_total, bank=engine.bank, max_bet=max_bet)
    if reason == BANK_SHORT:
        raise ActionRefused(reason, bank_cents=engine.bank)
    if reason == OVER_MAX_BET:
        raise ActionRefused(reason, max_bet_cents=engine.options.max_bet)


def _box_entries(locked: LockedGame, new_box_bet: int | None = None) -> list[dict[str, Any]]:
    return pending_box_entries(locked.game, locked.engine.options.seats, new_box_bet)


def _boxes_total(entries: list[dict[str, Any]]) -> int:
    return sum(entry["bet"] + sum(entry["side_bets"].values()) for entry in entries)


def select_box(
    *,
    game_id: int,
    user: Player,
    version: int,
    box: int,
    base_cents: int | None = None,
    chip_cents: int | None = None,
) -> Played:
    """Make ``box`` (1 … seats) the one the chips and the side bets work on; an amount
    typed for the box being left (``base_cents``) is kept as its bet. Its circle was
    pressed: the rack's selected chip (``chip_cents``) is added to its bet."""
    if chip_cents is not None:
        require_chip(chip_cents)
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        require_betting(locked)
        if not 1 <= box <= locked.engine.options.seats:
            raise ActionRefused("no_such_box", seats=locked.engine.options.seats)
        start_bet_after_outcome(locked)
        if base_cents is not None:
            locked.game.pending_bet_cents = base_cents
        entries = _box_entries(locked)
        chosen = entries[box - 1]
        bet = chosen["bet"] + (chip_cents or 0)
        engine = locked.engine
        # as for any chip: the box's bet with its side bets fits the bank and the limit.
        _refuse_beyond_limits(engine, bet, sum(chosen["side_bets"].values()))
        return save_game(
            locked,
            engine_changed=False,
            pending_boxes=entries,
            selected_box=box,
            pending_bet_cents=bet,
            pending_side_bets=chosen["side_bets"],
            pending_extra_bet=chosen["extra_bet"],
            showing_outcome=False,
            note={"kind": "box_selected", "box": box, "bet_cents": bet},
        )


def same_bet_on_every_box(*, game_id: int, user: Player, version: int) -> Played:
    """The selected box's base bet on every box, in one click (UI.md, seats)."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        require_betting(locked)
        bet = locked.game.pending_bet_cents
        if bet <= 0:
            raise ActionRefused("no_bet_to_copy")
        entries = [{**entry, "bet": bet} for entry in _box_entries(locked)]
        _refuse_beyond_limits(locked.engine, _boxes_total(entries), bank_only=True)
        note = {"kind": "same_bet", "bet_cents": bet, "boxes": len(entries)}
        return save_game(locked, engine_changed=False, pending_boxes=entries, note=note)


def _deal_boxes(locked: LockedGame, bet_cents: int) -> Played:
    """Deal several boxes: every box's bets, the typed amount on the selected (R-4.1,
    R-4.2)."""
    options = locked.engine.options
    # Boxes never bet on take the bet dealt with (a first Deal bets it on every box).
    entries = _box_entries(locked, new_box_bet=bet_cents)
    entries[selected_box_index(locked.game, options.seats)]["bet"] = bet_cents
    offered = options.side_bets and not options.simple
    boxes = [
        BoxBet(
            entry["bet"],
            entry["side_bets"] if offered else {},
            bool(offered and entry["extra_bet"]),
        )
        for entry in entries
    ]
    events = run_engine(lambda: locked.engine.start_round(boxes=boxes))
    # Every box's bets stay as the next round's defaults.
    return _save_deal(locked, events, pending_bet_cents=bet_cents, pending_boxes=entries)


def next_round(*, game_id: int, user: Player, version: int) -> Played:
    """Leave the round outcome for the bet panel (the last bet stays as the default)."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        require_playing(locked.engine)
        if locked.engine.round_in_progress:
            raise ActionRefused("round_open")
        if not locked.game.showing_outcome:
            raise ActionRefused("round_begun")
        bank = locked.engine.bank
        bet = min(locked.game.pending_bet_cents, bank)
        # Last round's side stakes are this round's defaults, cut down to what the bank
        # still covers after the base bet (ones that no longer fit are dropped).
        side_stakes = sb.fit_side_stakes(
            pending_side_stakes(locked.game),
            base_cents=bet,
            bank_cents=bank,
            min_cents=locked.engine.options.min_bet,
        )
        return save_game(
            locked,
            engine_changed=False,
            showing_outcome=False,
            pending_bet_cents=bet,
            pending_side_bets=side_stakes,
            # The side-bet drawer stays open into the next round only when stakes ride in it.
            side_bets_menu_open=bool(side_stakes),
            note={"kind": "next_round"},
        )
