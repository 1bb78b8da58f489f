"""Each table's scene (what every viewer shares, presentation.TableScene), built once per
revision in each process and shared by every viewer that process serves.

An action at a table wakes every stream at it at once; without this each one re-read the
seats, the events and the engine state and rendered the whole felt for its own viewer.
Now the first to wake builds the scene while the others wait for it, and each viewer's
own part (their seat marked, their controls, the time left) is all that is made per
viewer. A scene is looked up by the table's id, invitation token and ``Stamp``: the
table's revision changes with every saved change of the table, the sum of its seats'
versions with every change a player makes to their own bet, and the token tells a table
from an earlier one that had the same id (SQLite reuses the ids a rolled-back test wrote).
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict

from django.db.models import OuterRef, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from game.tables.models import Seat, SharedTable, TableShoe
from game.tables.presentation import TableScene, table_scene
from game.tables.services import LockedTable

Stamp = tuple[int, int]  # (the table's revision, the sum of its seats' versions)


def _with_seats_revision(tables: QuerySet[SharedTable]) -> QuerySet[SharedTable]:
    """The sum of the table's seats' versions as ``seats_revision``: a player's own bet
    being built changes only their seat (services.seat_only), not the table's revision."""
    total = (
        Seat.objects.filter(table_id=OuterRef("pk"))
        .order_by()
        .values("table_id")
        .annotate(total=Sum("version"))
        .values("total")[:1]
    )
    return tables.annotate(seats_revision=Coalesce(Subquery(total), Value(0)))


def _table_head(table_id: int) -> SharedTable | None:
    """A stream's look at its table on every wake: what its scene's stamp needs."""
    rows = SharedTable.objects.filter(pk=table_id).only("invite_token", "revision")
    return next(iter(_with_seats_revision(rows).order_by()), None)


def table_by_id(table_id: int) -> SharedTable | None:
    """A table's whole row with its stamp (the views read it before and after every
    action), or None."""
    rows = _with_seats_revision(SharedTable.objects.filter(pk=table_id))
    return next(iter(rows.order_by()), None)


def table_shoes(table_id: int) -> list[TableShoe]:
    """A table's committed shoes, oldest first (the open one has no seed yet)."""
    return list(TableShoe.objects.filter(table_id=table_id).order_by("nonce"))


MAX_TABLES = 256  # scenes kept per process (one per table, the most recently used)

_scenes: OrderedDict[int, TableScene] = OrderedDict()
_scenes_lock = threading.Lock()
_builders: dict[int, threading.Lock] = {}


def _stamp_of(table: SharedTable) -> Stamp | None:
    """A row's stamp; None when it was read without its seats' revision (then no scene
    kept is trusted for it)."""
    seats_revision = getattr(table, "seats_revision", None)
    return None if seats_revision is None else (table.revision, seats_revision)


def _cached(table_id: int, token: str, stamp: Stamp | None) -> TableScene | None:
    scene = _scenes.get(table_id)
    if scene is None or stamp is None or scene.table.invite_token != token:
        return None
    return scene if scene.stamp >= stamp else None


def _builder(table_id: int) -> threading.Lock:
    with _scenes_lock:
        return _builders.setdefault(table_id, threading.Lock())


def _keep(scene: TableScene) -> None:
    with _scenes_lock:
        kept = _scenes.get(scene.table.pk)
        if kept is None or kept.stamp <= scene.stamp:
            _scenes[scene.table.pk] = scene
        _scenes.move_to_end(scene.table.pk)
        while len(_scenes) > MAX_TABLES:
            evicted, _ = _scenes.popitem(last=False)
            _builders.pop(evicted, None)


def _previous(table: SharedTable) -> TableScene | None:
    """The table's last scene, whose events a new one carries over (not another table's
    that had the same id)."""
    scene = _scenes.get(table.pk)
    if scene is None or scene.table.invite_token != table.invite_token:
        return None
    return scene


def scene_of(table: SharedTable) -> TableScene:
    """The scene of ``table`` as just read (its revision, or a newer one already built)."""
    stamp = _stamp_of(table)
    scene = _cached(table.pk, table.invite_token, stamp)
    if scene is not None:
        return scene
    with _builder(table.pk):
        # Whoever waited here while another thread built it takes theirs.
        return _cached(table.pk, table.invite_token, stamp) or _build(table)


def _build(table: SharedTable, committed: LockedTable | None = None) -> TableScene:
    """Builds and keeps the scene of ``table`` (the caller holds the table's builder);
    ``committed``: the action that just wrote it, whose seats and events it takes."""
    # A copy: the caller's row may be refreshed in place after this.
    if committed is None:
        scene = table_scene(copy.copy(table), _previous(table))
    else:
        seats = sorted(committed.seats, key=lambda seat: seat.pk)
        scene = table_scene(table, _previous(table), seats=seats, written=committed.written_events)
    _keep(scene)
    return scene


def committed_scene(committed: LockedTable) -> TableScene:
    """The scene of a table as an action of this process just committed it
    (``services.committed_tables``): its row and every seat as the action wrote them, no
    read of them again, and the events it wrote after those of the scene kept; or a newer
    scene already built."""
    table = copy.copy(committed.table)
    stamp = (table.revision, sum(seat.version for seat in committed.seats))
    scene = _cached(table.pk, table.invite_token, stamp)
    if scene is not None:
        return scene
    with _builder(table.pk):
        return _cached(table.pk, table.invite_token, stamp) or _build(table, committed)


def current_scene(table_id: int, news: int | None = None) -> TableScene | None:
    """The scene of the table as it stands now, None when there is no such table. One
    small read (the revision) when the scene may already be built; the whole row only by
    the one that builds it. ``news``: the newest event this process heard of at the table;
    when no scene is kept or the kept one is older, the head could only say it must be
    built: the whole row is read at once."""
    kept = _scenes.get(table_id)
    if kept is None or (news is not None and kept.table.version < news):
        return _fresh_scene(table_id, news)
    head = _table_head(table_id)
    if head is None:
        return None
    stamp = _stamp_of(head)
    scene = _cached(table_id, head.invite_token, stamp)
    if scene is not None:
        return scene
    with _builder(table_id):
        # The streams an action woke wait here for the first one's scene rather than each
        # reading the whole row (the engine's state) only to find it built.
        return _cached(table_id, head.invite_token, stamp) or _read_and_build(table_id)


def _fresh_scene(table_id: int, news: int | None) -> TableScene | None:
    """The scene built from the whole row, read now (by the first of the streams woken
    together: the others wait and take it)."""
    with _builder(table_id):
        return scene_covering(table_id, news) or _read_and_build(table_id)


def _read_and_build(table_id: int) -> TableScene | None:
    """The scene of the table's whole row, read now (the caller holds its builder): one
    kept for that row if another thread built it meanwhile, else built; None when there
    is no such table."""
    table = table_by_id(table_id)
    if table is None:
        return None
    return _cached(table_id, table.invite_token, _stamp_of(table)) or _build(table)


def scene_covering(table_id: int, seq: int | None) -> TableScene | None:
    """The scene this process keeps of the table when it holds every event up to ``seq``
    (the news a stream was woken by), else None; no query. Woken together by one piece of
    news, the streams of a table after the first find its scene here rather than each
    reading the table's head: whatever the news announced, the scene has."""
    if seq is None:
        return None
    with _scenes_lock:
        scene = _scenes.get(table_id)
    return scene if scene is not None and scene.table.version >= seq else None


def forget_all() -> None:
    """Drop every scene (tests that rewrite a table's rows behind the services' back)."""
    with _scenes_lock:
        _scenes.clear()
        _builders.clear()
