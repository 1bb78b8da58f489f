"""The bet panel at a table (T-5): chips build a seat's bet, Clear empties it, Ready places
it or Sit Out skips the round; once every seated player has decided, the deal comes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules.bets import check_bets_being_built
from game.services.guards import require_chip
from game.tables.models import Seat
from game.tables.services.boxes import bets_for_deal, shared_box
from game.tables.services.guards import own_seat, require_betting, require_open_bet
from game.tables.services.locking import locked_table, seat_only
from game.tables.services.rounds import end_betting_if_everyone_decided
from game.tables.services.saving import run_engine

if TYPE_CHECKING:
    from game.tables.services.saving import Player


def add_chip(*, table_id: int, user: Player, version: int, chip_cents: int) -> Seat:
    """Add a chip to the bet for the next deal (R-4.1 limits checked at Ready)."""
    require_chip(chip_cents)
    with seat_only(table_id=table_id, user=user) as locked:
        seat = own_seat(locked, user, version)
        require_open_bet(locked, seat)
        options = locked.options
        new_bet = seat.bet_cents + chip_cents
        stakes = bets_for_deal(options, seat)[0]
        # the rules engine's own check of a bet being built (the table
        # maximum; the bet with the side bets within the seat's bank).
        run_engine(lambda: check_bets_being_built(options, new_bet, stakes, bank=seat.bank_cents))
        seat.bet_cents = new_bet
        return seat


def clear_bet(*, table_id: int, user: Player, version: int) -> Seat:
    """Clear the bet: the bet, the side bets and the Extra Bet activation go back to none
    (R-4.1 "Clear")."""
    with seat_only(table_id=table_id, user=user) as locked:
        seat = own_seat(locked, user, version)
        require_open_bet(locked, seat)
        seat.bet_cents = 0
        seat.side_bets = {}
        seat.extra_bet = False
        return seat


def ready(*, table_id: int, user: Player, version: int) -> Seat:
    """Place the bet: the seat is Ready, and once everyone is Ready or sitting out, the deal
    comes (T-5)."""
    with locked_table(table_id=table_id) as locked:
        seat = own_seat(locked, user, version)
        require_betting(locked)
        box = shared_box(locked.options, seat)
        # The very checks start_shared_round makes of this box (R-1.5 credits, R-4.1
        # limits, R-1.4 the bank), decided by the engine alone.
        engine = locked.engine
        run_engine(lambda: engine.check_shared_box(box))
        seat.ready, seat.sitting_out = True, False
        locked.announce(
            "bet_placed",
            seat=seat.number,
            bet=seat.bet_cents,
            side_bets=sum(box.side_bets.values()),
            extra_bet=box.extra_bet,
        )
        end_betting_if_everyone_decided(locked)
        return seat


def sit_out(*, table_id: int, user: Player, version: int) -> Seat:
    """Sit the coming round out (T-5)."""
    with locked_table(table_id=table_id) as locked:
        seat = own_seat(locked, user, version)
        require_betting(locked)
        seat.ready, seat.sitting_out = False, True
        locked.announce("sitting_out", seat=seat.number)
        end_betting_if_everyone_decided(locked)
        return seat
