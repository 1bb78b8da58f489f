"""Sitting down and leaving (T-3): a returning player gets their bank and credits back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.clock import from_epoch_ms, now_ms
from game.core.errors import ActionRefused, StaleVersion
from game.rules.engine import Engine
from game.tables.models import Seat, SharedTable, new_client_seed
from game.tables.services.guards import check_seat_version, own_seat
from game.tables.services.locking import locked_table
from game.tables.services.rounds import end_betting_if_everyone_decided, open_betting

if TYPE_CHECKING:
    from game.tables.services.saving import Player


STARTING_CREDITS = Engine.STARTING_CREDITS  # T-3, as


# The version a player who never sat at the table posts: the one a new seat starts from.
NO_SEAT_VERSION = 0


def sit(*, table_id: int, user: Player, version: int, number: int) -> Seat:
    """Sit in a free seat; a returning player gets their bank and credits back (T-3)."""
    with locked_table(table_id=table_id) as locked:
        table = locked.table
        seat = locked.seat_of(user)
        if seat is None:
            if version != NO_SEAT_VERSION:
                raise StaleVersion(f"table {table.pk}: no seat yet, version {version} posted")
        else:
            check_seat_version(seat, version)
        if not 1 <= number <= table.seat_count:
            raise ActionRefused("no_such_seat")
        if seat is not None and seat.number is not None:
            raise ActionRefused("already_seated")
        if any(s.number == number for s in locked.seats):
            raise ActionRefused("seat_taken")
        if seat is None:
            seat = Seat.objects.create(
                table=table,
                player=user,
                bank_cents=locked.options.starting_bank,
                credits=STARTING_CREDITS,
                client_seed=new_client_seed(),  # F-2: random, the player's to change
            )
            locked.seats.append(seat)
        was_empty = not locked.seated()
        seat.number = number
        seat.ready = seat.sitting_out = False
        seat.version += 1
        locked.touch(seat)
        table.empty_since = None
        if was_empty and table.phase == SharedTable.Phase.INTERMISSION:
            open_betting(locked)
        locked.announce("seated", seat=number, player=user.get_username())
        return seat


def leave(*, table_id: int, user: Player, version: int) -> Seat:
    """Leave the seat; bank and credits stay with it (T-3). A box still in play is timed
    out like a player who is not connected (T-8)."""
    with locked_table(table_id=table_id) as locked:
        seat = own_seat(locked, user, version)
        number = seat.number
        seat.number = None
        seat.ready = seat.sitting_out = False
        seat.trivia_choice_for = ""
        if not locked.seated():
            locked.table.empty_since = from_epoch_ms(now_ms())
        locked.announce("left", seat=number, player=user.get_username())
        if locked.table.phase == SharedTable.Phase.INTERMISSION:
            end_betting_if_everyone_decided(locked)
        return seat
