"""Every action's transaction: the table row locked, its due deadlines applied, saved after
(T-12, T-13); a bet being built under the seat's lock alone (T-5); and the clock
process's entry points, which apply what is due table by table.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from django.db import connection, transaction

from game.core.clock import now_ms
from game.core.errors import ActionRefused, StaleVersion, TableNotFound
from game.tables.models import Seat, SharedTable
from game.tables.services.deadlines import apply_due
from game.tables.services.saving import (
    LockedTable,
    next_deadline,
    save_table,
    seats_of_table,
    update_seat,
)

if TYPE_CHECKING:
    from game.tables.services.saving import Player

logger = logging.getLogger(__name__)


def lock_table(table_id: int, *, skip_locked: bool = False) -> LockedTable:
    """The table row locked (``skip_locked``: TableNotFound if another process holds it),
    its seats with their players and open questions, and its engine."""
    rows = SharedTable.objects.select_for_update(skip_locked=skip_locked).filter(pk=table_id)
    table = next(iter(rows.order_by()), None)
    if table is None:
        raise TableNotFound(table_id)
    return LockedTable(table, seats_of_table(table.pk))


# The collector of the action under way in this context (a request's thread, or its task).
_committing: ContextVar[dict[int, LockedTable] | None] = ContextVar(
    "committed_tables", default=None
)


@contextmanager
def committed_tables() -> Iterator[dict[int, LockedTable]]:
    """Collects, by table id, each table an action of this context commits meanwhile
    (``locked_table``), as the action left it: its row and every seat as written, and the
    events it wrote. The view that answers the action shows the table from it rather than
    reading back what it just wrote. A refused action leaves nothing here."""
    kept: dict[int, LockedTable] = {}
    token = _committing.set(kept)
    try:
        yield kept
    finally:
        _committing.reset(token)


@contextmanager
def locked_table(*, table_id: int, open_only: bool = True) -> Iterator[LockedTable]:
    """One action's transaction on a table: locked, due deadlines applied, saved after.

    Deadlines that ran out are applied and kept even when the action is then refused
    (T-12: a late action changes nothing, but the time that ran out has run out): the
    action then runs in a savepoint of its own. Otherwise a refused action has nothing to
    keep and the whole transaction is rolled back: no savepoint, two round trips fewer."""
    refused: Exception | None = None
    with transaction.atomic():
        locked = lock_table(table_id)
        if open_only and locked.table.is_closed:
            raise TableNotFound(table_id)
        applied = apply_due(locked)
        if applied:
            save_table(locked)
        try:
            with transaction.atomic(savepoint=bool(applied)):
                yield locked
                save_table(locked)
        except (ActionRefused, StaleVersion, TableNotFound) as error:
            refused = error
    if refused is not None:
        raise refused
    kept = _committing.get()
    if kept is not None:
        kept[locked.table.pk] = locked


# A seat's own bet being built (chips, side chips, Extra Bet activation, Clear) needs the
# table only to stay as it is meanwhile: the table row share-locked (PostgreSQL's FOR SHARE;
# Django's select_for_update has no such mode), the seat row locked for the version check.
# A table's players can build their bets at once, and a Ready, a deal or the clock (which
# lock the row for update) wait for them, as they wait for each other.
_SHARE_TABLE_SQL = 'SELECT * FROM "game_sharedtable" WHERE "id" = %s'


def _seat_of_player(table_id: int, player_id: int) -> Seat | None:
    """The player's seat at the table, locked, with its open question."""
    # of=self: the seat's row only (its open question is joined, nullable, unlocked).
    seats = (
        Seat.objects.select_for_update(of=("self",))
        .filter(table_id=table_id, player_id=player_id)
        .select_related("player", "pending_question__question")
    )
    return next(iter(seats.order_by()), None)


def _share_table(table_id: int) -> SharedTable | None:
    """The table row share-locked (PostgreSQL; SQLite has no row locks), or None."""
    sql = _SHARE_TABLE_SQL
    if connection.vendor == "postgresql":
        sql += " FOR SHARE"
    return next(iter(SharedTable.objects.raw(sql, [table_id])), None)


@contextmanager
def seat_only(*, table_id: int, user: Player) -> Iterator[LockedTable]:
    """One action that changes nothing but the player's own seat (T-5: their bet being
    built): the ``LockedTable`` holds that seat alone and only it is saved — no event, no
    engine state, the table row untouched (the seat's version tells the scenes it changed).
    When a deadline has run out, the whole table's lock is taken instead to apply it
    first (``locked_table``)."""
    with transaction.atomic():
        table = _share_table(table_id)
        if table is None or table.is_closed:
            raise TableNotFound(table_id)
        if table.deadline_ms is None or table.deadline_ms > now_ms():
            seat = _seat_of_player(table.pk, user.pk)
            # The rules only (locked.options): a bet being built never loads the round.
            locked = LockedTable(table, [] if seat is None else [seat])
            yield locked
            if locked.events:
                raise RuntimeError("a seat-only action may not announce events")
            for changed in locked.seats:
                if changed.pk in locked.changed_seats:
                    update_seat(changed)
            return
    with locked_table(table_id=table_id) as locked:
        yield locked


def apply_due_deadlines_of(table_id: int) -> int:
    """Apply what is due at one table (0 when another clock or a request holds it)."""
    with transaction.atomic():
        try:
            locked = lock_table(table_id, skip_locked=True)
        except TableNotFound:
            return 0  # another clock or a request holds it, and applies what is due
        count = apply_due(locked)
        if count or locked.table.deadline_ms != next_deadline(locked):
            save_table(locked)
        return count


def apply_due_deadlines(now: int | None = None, *, table_id: int | None = None) -> int:
    """For the clock process (T-13): apply every table's deadlines that ran out by now.

    Safe with several clocks and app servers at once: each table is applied under its row
    lock (tables another process holds are skipped), and an applied deadline is gone."""
    moment = now_ms() if now is None else now
    tables = (
        SharedTable.objects.all() if table_id is None else SharedTable.objects.filter(pk=table_id)
    )
    due = list(
        tables.filter(deadline_ms__lte=moment)
        .exclude(phase=SharedTable.Phase.CLOSED)
        .values_list("pk", flat=True)[:200]
    )
    applied = 0
    for due_id in due:
        try:
            applied += apply_due_deadlines_of(due_id)
        except ActionRefused as error:
            # One table's trouble must not stop the clock for the others; it is logged and
            # that table's transaction rolled back (tried again at the next tick).
            logger.error("table %s: a deadline could not be applied: %r", due_id, error)
    return applied
