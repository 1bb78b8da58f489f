"""Each table's scene (what every viewer shares, presentation.TableScene), built once per
revision in each process and shared by every viewer that process serves.

An action at a table wakes every stream at it at once; without this each one re-read the
seats, the events and the engine state and rendered the whole felt for its own viewer.
Now the first to wake builds the scene while the others wait for it, and each viewer's
own part (their seat marked, their controls, the time left) is all that is made per
viewer. A scene is looked up by the table's id, invitation token and revision: the
revision changes with every saved change, and the token tells a table from an earlier one
that had the same id (SQLite reuses the ids a rolled-back test wrote).
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict

from game.prepared import PreparedQuery
from game.tables.models import SharedTable
from game.tables.presentation import TableScene, table_scene

# A stream's look at its table on every wake: compiled once per connection.
_TABLE_HEAD = PreparedQuery(
    lambda table_id: SharedTable.objects.filter(pk=table_id).only("invite_token", "revision"),
    "table_id",
)
# A table's whole row (the views read it before and after every action).
TABLE_BY_ID = PreparedQuery(lambda table_id: SharedTable.objects.filter(pk=table_id), "table_id")
MAX_TABLES = 256  # scenes kept per process (one per table, the most recently used)

_scenes: OrderedDict[int, TableScene] = OrderedDict()
_scenes_lock = threading.Lock()
_builders: dict[int, threading.Lock] = {}


def _cached(table_id: int, token: str, revision: int) -> TableScene | None:
    scene = _scenes.get(table_id)
    if scene is None or scene.table.invite_token != token or scene.revision < revision:
        return None
    return scene


def _builder(table_id: int) -> threading.Lock:
    with _scenes_lock:
        return _builders.setdefault(table_id, threading.Lock())


def _keep(scene: TableScene) -> None:
    with _scenes_lock:
        kept = _scenes.get(scene.table.pk)
        if kept is None or kept.revision <= scene.revision:
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
    scene = _cached(table.pk, table.invite_token, table.revision)
    if scene is not None:
        return scene
    with _builder(table.pk):
        # Whoever waited here while another thread built it takes theirs.
        scene = _cached(table.pk, table.invite_token, table.revision)
        if scene is None:
            # A copy: the caller's row may be refreshed in place after this.
            scene = table_scene(copy.copy(table), _previous(table))
            _keep(scene)
    return scene


def current_scene(table_id: int) -> TableScene | None:
    """The scene of the table as it stands now, None when there is no such table. One
    small read (the revision) when the scene is already built; the whole row only when
    it changed."""
    head = _TABLE_HEAD.first(table_id=table_id)
    if head is None:
        return None
    scene = _cached(table_id, head.invite_token, head.revision)
    if scene is not None:
        return scene
    table = TABLE_BY_ID.first(table_id=table_id)
    return None if table is None else scene_of(table)


def forget_all() -> None:
    """Drop every scene (tests that rewrite a table's rows behind the services' back)."""
    with _scenes_lock:
        _scenes.clear()
        _builders.clear()
