"""Side bets (RULES.md §9): the side-bet menu of the bet panel, where the stakes are built
before the deal, and the side-bet offers of a round (Extra Bet Blackjack, the House Money
parlay, the Perfect 11s dice).

A side stake is 0 (not played) or from the table minimum up to what the bank covers with
the base bet and the other side stakes. No table maximum applies to a side stake: §9
bounds it by the bank only, and the engine (start_round) agrees.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from game.core.errors import ActionRefused
from game.rules.records import IllegalAction
from game.selectors import pending_side_stakes
from game.services.guards import require_betting, require_chip, require_side_bet
from game.services.locking import locked_game
from game.services.results import Played
from game.services.saving import (
    LockedGame,
    StatusNote,
    bet_fields,
    play_and_save,
    save_game,
    start_bet_after_outcome,
)

if TYPE_CHECKING:
    from game.services.saving import Player


def side_bets_for_deal(
    locked: LockedGame, side_bets: dict[str, int] | None, extra_bet: bool | None
) -> tuple[dict[str, int] | None, bool]:
    """The side bets to deal with: the ones given, else the menu's (none when switched off)."""
    game, options = locked.game, locked.engine.options
    # The simple game has no side bets (§10 Extensions): stakes kept from before ride not.
    offered = options.side_bets and not options.simple
    if side_bets is None:
        side_bets = pending_side_stakes(game) if offered else None
    if extra_bet is None:
        extra_bet = bool(offered and game.pending_extra_bet)
    return side_bets, extra_bet


def _require_side_bet_menu(locked: LockedGame) -> None:
    require_betting(locked)
    if not locked.engine.options.side_bets:
        raise ActionRefused("side_bets_off")
    if locked.engine.options.simple:
        raise ActionRefused("side_bets_simple")


def _checked_bets(locked: LockedGame, base_cents: int | None, stakes: dict[str, int]) -> int:
    """The base bet (typed, else the pending one) after checking base + side stakes fit."""
    base = locked.game.pending_bet_cents if base_cents is None else base_cents
    try:
        locked.engine.check_bets_being_built(base, stakes)
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
    starts_a_bet: bool = True,
) -> Played:
    """One change in the side-bet menu; what it does not change keeps its pending value.
    A change of a stake on a round's outcome starts a new bet from zero
    (``starts_a_bet``); opening or closing the menu does not.

    ``stakes`` turns the pending stakes into the new ones. The base bet (typed, else the
    pending one) and the stakes are checked together against the table minimum and the
    bank (R-1.4, §9); the bank is charged only at the deal."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        _require_side_bet_menu(locked)
        game = locked.game
        if starts_a_bet:
            start_bet_after_outcome(locked)
        pending = pending_side_stakes(game)
        new_stakes = pending if stakes is None else stakes(pending)
        fields = {
            **bet_fields(game),
            "pending_bet_cents": _checked_bets(locked, base_cents, new_stakes),
            "pending_side_bets": new_stakes,
            "pending_extra_bet": game.pending_extra_bet if extra_bet is None else extra_bet,
            "side_bets_menu_open": menu_open,
        }
        return save_game(locked, engine_changed=False, note=note, **fields)


def add_side_chip(
    *,
    game_id: int,
    user: Player,
    version: int,
    bet: str,
    chip_cents: int,
    base_cents: int | None = None,
) -> Played:
    """A chip adds to one side bet's stake."""
    require_side_bet(bet)
    require_chip(chip_cents)
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
) -> Played:
    """The "Clear" of one side bet: its stake goes back to 0 (not played)."""
    require_side_bet(bet)
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
) -> Played:
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
) -> Played:
    """Activate or deactivate Extra Bet Blackjack, with no stake until its offer (R-SB-20)."""
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
) -> Played:
    """Open or close the side-bet menu of the bet panel (the stakes are kept either way)."""
    return _change_side_bets(
        game_id,
        user,
        version,
        base_cents,
        note={"kind": "side_menu", "open": menu_open},
        menu_open=menu_open,
        starts_a_bet=False,
    )


def place_extra_bet(
    *, game_id: int, user: Player, version: int, amount_cents: int | None
) -> Played:
    """Place the extra bet (R-SB-20), or decline it with None."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        return play_and_save(locked, lambda: locked.engine.place_extra_bet(amount_cents))


def parlay(*, game_id: int, user: Player, version: int, choice: str) -> Played:
    """Answer the House Money parlay offer with ``choice`` (R-4.7a)."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        return play_and_save(locked, lambda: locked.engine.parlay(choice))


def roll(*, game_id: int, user: Player, version: int) -> Played:
    """Roll the Perfect 11s dice (§9)."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        return play_and_save(locked, locked.engine.roll)
