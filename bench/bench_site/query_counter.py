"""Counts this process's database queries by the thread that ran them (bench only).

Installed with Django's documented hooks: the ``connection_created`` signal gives each new
database connection ``connection.execute_wrapper(count)``, entered once and kept entered for
the connection wrapper's life (an ``ExitStack`` held in a ``WeakKeyDictionary`` keyed by the
wrapper, so it goes when the wrapper does). A pooled or re-opened connection sends the signal
again on the same wrapper: it is wrapped only once.

Queries are counted under the name of the thread that ran them, its trailing numbers cut
(``table-stream-read_0`` -> ``table-stream-read``): the live streams read in threads named
``table-stream-read…`` (game/tables/sse.py), everything else is a request's or the loop's.
``GET /bench/queries/`` answers this process's counts as JSON (bench/bench_site/urls.py);
with ``BENCH_QUERY_DIR`` set, each process also writes them to ``<dir>/<pid>.json`` every
FILE_SECONDS (``keep_writing``): a server of several worker processes answers a GET from
one of them, the files tell every worker's.
"""

from __future__ import annotations

import gc
import json
import os
import re
import threading
import time
import weakref
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created

STREAM_PREFIX = "table-stream-read"
_TRAILING_NUMBER = re.compile(r"[-_\d]+$")

_lock = threading.Lock()
_counts: Counter[str] = Counter()
# The collector's pauses in this process, by generation: how many, and seconds in all and
# at the longest (gc.callbacks).
_collections: dict[int, list[float]] = {}
_collection_started: list[float] = []
_wrapped: weakref.WeakKeyDictionary[BaseDatabaseWrapper, ExitStack] = weakref.WeakKeyDictionary()


def _count(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    name = _TRAILING_NUMBER.sub("", threading.current_thread().name) or "unnamed"
    with _lock:
        _counts[name] += 1
    return execute(sql, params, many, context)


def _on_connection_created(sender: Any, connection: BaseDatabaseWrapper, **kwargs: Any) -> None:
    with _lock:
        if connection in _wrapped:
            return
        stack = ExitStack()
        stack.enter_context(connection.execute_wrapper(_count))
        _wrapped[connection] = stack


def _time_collections(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _collection_started[:] = [time.perf_counter()]
    elif _collection_started:
        paused = time.perf_counter() - _collection_started.pop()
        count, total, longest = _collections.get(info["generation"], [0, 0.0, 0.0])
        _collections[info["generation"]] = [count + 1, total + paused, max(longest, paused)]


def install() -> None:
    connection_created.connect(_on_connection_created, dispatch_uid="bench-query-counter")
    gc.callbacks.append(_time_collections)


def counts() -> dict[str, Any]:
    """The counts so far: by thread name, and summed as ``stream`` and ``requests``."""
    with _lock:
        by_thread = dict(_counts)
    stream = sum(n for name, n in by_thread.items() if name.startswith(STREAM_PREFIX))
    return {
        "stream": stream,
        "requests": sum(by_thread.values()) - stream,
        "by_thread": by_thread,
        "collections": {str(gen): list(v) for gen, v in _collections.items()},
    }


FILE_SECONDS = 0.2


def keep_writing(directory: str) -> None:
    """Writes this process's counts to ``<directory>/<pid>.json`` every FILE_SECONDS, from
    a daemon thread (replaced whole each time: a reader never sees half a file)."""
    path = Path(directory) / f"{os.getpid()}.json"
    scratch = path.with_suffix(".writing")

    def write_forever() -> None:
        while True:
            scratch.write_text(json.dumps(counts()))
            os.replace(scratch, path)
            time.sleep(FILE_SECONDS)

    threading.Thread(target=write_forever, name="bench-query-files", daemon=True).start()
