"""The checks several actions make before they change anything: the posted version (T-12),
the player's own seat, the host, the phase and the turn (each refusal an ActionRefused
with its reason, worded by the tables' presentation).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.core.errors import ActionRefused, StaleVersion
from game.tables.models import Seat, SharedTable
from game.tables.services.saving import LockedTable

if TYPE_CHECKING:
    from game.tables.services.saving import Player


def check_seat_version(seat: Seat, version: int) -> None:
    """Refuse a post made from another version of the seat than the stored one (T-12)."""
    if version != seat.version:
        raise StaleVersion(f"seat {seat.pk}: version {version} posted, {seat.version} stored")


def check_table_version(table: SharedTable, version: int) -> None:
    """The host's actions name the table's version (its last event) their page showed."""
    if version != table.version:
        raise StaleVersion(f"table {table.pk}: version {version} posted, {table.version} stored")


def own_seat(locked: LockedTable, user: Player, version: int) -> Seat:
    """The player's own seat, seated, with the version their page was rendered from (T-12)."""
    seat = locked.seat_of(user)
    if seat is None or seat.number is None:
        raise ActionRefused("not_seated")
    check_seat_version(seat, version)
    seat.version += 1
    locked.touch(seat)
    return seat


def require_host(locked: LockedTable, user: Player) -> None:
    """Refuse anyone but the table's host (T-1, T-2)."""
    if locked.table.host_id != user.pk:
        raise ActionRefused("host_only")


def require_between_rounds(locked: LockedTable) -> None:
    """Refuse while a round is in play: the host's changes wait for the intermission (T-2)."""
    if locked.table.phase != SharedTable.Phase.INTERMISSION:
        raise ActionRefused("between_rounds_only")


def require_betting(locked: LockedTable) -> None:
    """Refuse a bet once betting is closed: bets are built in the intermission (T-5)."""
    if locked.table.phase != SharedTable.Phase.INTERMISSION:
        raise ActionRefused("betting_closed")


def require_open_bet(locked: LockedTable, seat: Seat) -> None:
    """Refuse a change to a bet already placed (Ready) or while betting is closed (T-5)."""
    require_betting(locked)
    if seat.ready:
        raise ActionRefused("already_ready")


def require_round(locked: LockedTable) -> Any:
    """The round in play, refused when there is none (T-7, T-8)."""
    round_ = locked.engine.round
    if locked.table.phase != SharedTable.Phase.ROUND or round_ is None or round_.over:
        raise ActionRefused("no_round_in_play")
    return round_


def require_turn(locked: LockedTable, seat: Seat) -> None:
    """Refuse anyone but the player whose box is in turn, and anyone while a question is
    open (T-12)."""
    require_round(locked)
    if seat.box is None or locked.engine.box_in_turn() != seat.box:
        raise ActionRefused("not_your_turn")
    if seat.pending_question_id is not None:
        raise ActionRefused("question_open")
