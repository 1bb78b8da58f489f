"""A seat's bets as they ride at the deal: its side stakes, its Extra Bet activation and
the box the engine deals it (T-5, T-6).
"""

from __future__ import annotations

from game.rules import sidebets as sb
from game.rules.options import Options
from game.rules.records import SharedBox
from game.tables.models import Seat
from game.tables.services.options import side_bets_offered


def seat_side_stakes(seat: Seat) -> dict[str, int]:
    """The seat's side stakes in menu order, staked bets only (anything odd stored is
    ignored, as the single-player game ignores it)."""
    return sb.stored_side_stakes(seat.side_bets)


def bets_for_deal(options: Options, seat: Seat) -> tuple[dict[str, int], bool]:
    """The seat's side stakes and Extra Bet activation as they ride at the deal: none while
    the table's side bets are off (kept on the seat for when they come back on)."""
    if not side_bets_offered(options):
        return {}, False
    return seat_side_stakes(seat), seat.extra_bet


def shared_box(options: Options, seat: Seat) -> SharedBox:
    """The seat's box as the engine deals it: its bets as they ride, and its wallet."""
    stakes, extra_bet = bets_for_deal(options, seat)
    return SharedBox(seat.bet_cents, stakes, extra_bet, bank=seat.bank_cents, credits=seat.credits)
