"""The checks several actions make before they change anything: the posted version (T-12),
the player's own seat, the host, the phase and the turn (each refusal an ActionRefused
with its reason, worded by the tables' presentation).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.errors import ActionRefused, StaleVersion
from game.tables.models import Seat, SharedTable
from game.tables.services.saving import LockedTable

if TYPE_CHECKING:
    from game.tables.services.saving import Player


def check_seat_version(seat: Seat, version: int) -> None:
    if version != seat.version:
        raise StaleVersion(f"seat {seat.pk}: version {version} posted, {seat.version} stored")


def check_table_version(table: SharedTable, version: int) -> None:
    """The host's actions name the table's version (its last event) their page showed."""
    if version != table.version:
        raise StaleVersion(f"table {table.pk}: version {version} posted, {table.version} stored")


def own_seat(locked: LockedTable, user: Player, version: int) -> Seat:
    """T-12: the player's own seat, seated, with the version their page was rendered from."""
    seat = locked.seat_of(user)
    if seat is None or seat.number is None:
        raise ActionRefused("not_seated")
    check_seat_version(seat, version)
    seat.version += 1
    locked.touch(seat)
    return seat


def require_host(locked: LockedTable, user: Player) -> None:
    if locked.table.host_id != user.pk:
        raise ActionRefused("host_only")


def require_between_rounds(locked: LockedTable) -> None:
    if locked.table.phase != SharedTable.Phase.INTERMISSION:
        raise ActionRefused("between_rounds_only")


def require_betting(locked: LockedTable) -> None:
    if locked.table.phase != SharedTable.Phase.INTERMISSION:
        raise ActionRefused("betting_closed")


def require_open_bet(locked: LockedTable, seat: Seat) -> None:
    require_betting(locked)
    if seat.ready:
        raise ActionRefused("already_ready")


def require_round(locked: LockedTable) -> Any:
    round_ = locked.engine.round
    if locked.table.phase != SharedTable.Phase.ROUND or round_ is None or round_.over:
        raise ActionRefused("no_round_in_play")
    return round_


def require_turn(locked: LockedTable, seat: Seat) -> None:
    """T-12: only the player whose box is in turn acts, and no question is open."""
    require_round(locked)
    if seat.box is None or locked.engine.box_in_turn() != seat.box:
        raise ActionRefused("not_your_turn")
    if seat.pending_question_id is not None:
        raise ActionRefused("question_open")
