"""A seat's side bets being built (T-5, §9): a chip on one side bet, its Clear, and the
Extra Bet activation (R-SB-20).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.errors import ActionRefused
from game.rules.bets import check_bets_being_built
from game.services.guards import require_chip, require_side_bet
from game.tables.models import Seat
from game.tables.services.boxes import seat_side_stakes
from game.tables.services.guards import own_seat, require_open_bet
from game.tables.services.locking import seat_only
from game.tables.services.options import side_bets_offered
from game.tables.services.saving import LockedTable, run_engine

if TYPE_CHECKING:
    from game.tables.services.saving import Player


def _side_bet_seat(locked: LockedTable, user: Player, version: int) -> Seat:
    """The player's seat, betting still open to it, at a table whose side bets are on."""
    seat = own_seat(locked, user, version)
    require_open_bet(locked, seat)
    options = locked.options
    if not side_bets_offered(options):
        raise ActionRefused("side_bets_simple" if options.simple else "side_bets_off")
    return seat


def _set_side_stakes(locked: LockedTable, seat: Seat, stakes: dict[str, int]) -> None:
    """Set the seat's side stakes being built: each at least the table minimum, all of
    them with the bet covered by the seat's bank (R-1.4, §9; the engine's own check; no
    table maximum applies to a side stake, as in the single-player game)."""
    options = locked.options
    run_engine(
        lambda: check_bets_being_built(options, seat.bet_cents, stakes, bank=seat.bank_cents)
    )
    seat.side_bets = stakes


def add_side_chip(*, table_id: int, user: Player, version: int, bet: str, chip_cents: int) -> Seat:
    """A chip adds to one side bet's stake for the next deal."""
    require_side_bet(bet)
    require_chip(chip_cents)
    with seat_only(table_id=table_id, user=user) as locked:
        seat = _side_bet_seat(locked, user, version)
        stakes = seat_side_stakes(seat)
        _set_side_stakes(locked, seat, {**stakes, bet: stakes.get(bet, 0) + chip_cents})
        return seat


def clear_side_bet(*, table_id: int, user: Player, version: int, bet: str) -> Seat:
    """One side bet's "Clear": its stake goes back to none (not played)."""
    require_side_bet(bet)
    with seat_only(table_id=table_id, user=user) as locked:
        seat = _side_bet_seat(locked, user, version)
        seat.side_bets = {k: v for k, v in seat_side_stakes(seat).items() if k != bet}
        return seat


def activate_extra_bet(*, table_id: int, user: Player, version: int, active: bool) -> Seat:
    """Activate Extra Bet Blackjack (no stake until its offer) or not (R-SB-20)."""
    with seat_only(table_id=table_id, user=user) as locked:
        seat = _side_bet_seat(locked, user, version)
        seat.extra_bet = active
        return seat
