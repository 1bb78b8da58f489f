"""Counts this process's database queries by the thread that ran them (bench only).

Installed with Django's documented hooks: the ``connection_created`` signal gives each new
database connection ``connection.execute_wrapper(count)``, entered once and kept entered for
the connection wrapper's life: its ``ExitStack`` is kept on the wrapper itself, so the two
go together. (Kept in a ``WeakKeyDictionary`` keyed by the wrapper, it would keep the
wrapper alive for good — the entered context holds the wrapper — and under ASGI, where each
request has a wrapper of its own, every worker would hold thousands of dead wrappers for its
full garbage collections to walk.) A pooled or re-opened connection sends the signal again on the
same wrapper: it is wrapped only once.

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
# The longer pauses, each as [wall-clock start, generation, seconds]: the bench lines them
# up with its slowest actions.
_long_pauses: list[list[float]] = []
LONG_PAUSE_SECONDS = 0.02
MAX_LONG_PAUSES = 5_000
_COUNTER_ATTRIBUTE = "bench_query_counter"


def _count(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    name = _TRAILING_NUMBER.sub("", threading.current_thread().name) or "unnamed"
    with _lock:
        _counts[name] += 1
    return execute(sql, params, many, context)


def _on_connection_created(sender: Any, connection: BaseDatabaseWrapper, **kwargs: Any) -> None:
    with _lock:
        if getattr(connection, _COUNTER_ATTRIBUTE, None) is not None:
            return
        stack = ExitStack()
        stack.enter_context(connection.execute_wrapper(_count))
        setattr(connection, _COUNTER_ATTRIBUTE, stack)


def _time_collections(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _collection_started[:] = [time.perf_counter()]
    elif _collection_started:
        paused = time.perf_counter() - _collection_started.pop()
        if paused >= LONG_PAUSE_SECONDS and len(_long_pauses) < MAX_LONG_PAUSES:
            _long_pauses.append([time.time() - paused, info["generation"], paused])
        count, total, longest = _collections.get(info["generation"], [0, 0.0, 0.0])
        _collections[info["generation"]] = [count + 1, total + paused, max(longest, paused)]


def install() -> None:
    connection_created.connect(_on_connection_created, dispatch_uid="bench-query-counter")
    if _time_collections not in gc.callbacks:
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
PAUSES_EVERY = 10  # the long pauses' file is written every this many counts' writes


def keep_writing(directory: str) -> None:
    """Writes this process's counts to ``<directory>/<pid>.json`` every FILE_SECONDS, and
    its long collector pauses to ``<pid>.pauses.json`` every PAUSES_EVERY times that,
    from a daemon thread (each replaced whole: a reader never sees half a file)."""
    path = Path(directory) / f"{os.getpid()}.json"
    pauses = path.with_name(f"{os.getpid()}.pauses.json")

    def replace(target: Path, text: str) -> None:
        scratch = target.with_suffix(".writing")
        scratch.write_text(text)
        os.replace(scratch, target)

    def write_forever() -> None:
        written = 0
        while True:
            replace(path, json.dumps(counts()))
            if written % PAUSES_EVERY == 0:
                # A copy: the list grows from whichever thread a collection runs in.
                replace(pauses, json.dumps(list(_long_pauses)))
            written += 1
            time.sleep(FILE_SECONDS)

    threading.Thread(target=write_forever, name="bench-query-files", daemon=True).start()


CENSUS_SECONDS = 30.0


def census() -> dict[str, Any]:
    """What the cyclic collector tracks in this process: how many objects in each
    generation and frozen, and the commonest types of the oldest generation (the one a
    full collection walks). Diagnosis only: listing a generation holds the process a while."""
    oldest = gc.get_objects(generation=2)
    by_type = Counter(type(obj).__qualname__ for obj in oldest)
    del oldest
    return {
        "generations": [len(gc.get_objects(generation=g)) for g in (0, 1, 2)],
        "frozen": gc.get_freeze_count(),
        "oldest_by_type": by_type.most_common(40),
    }


def keep_taking_census(directory: str) -> None:
    """Writes :func:`census` to ``<directory>/<pid>.census.json`` every CENSUS_SECONDS
    (``BENCH_CENSUS_DIR``; diagnosis: it stalls the process while it counts)."""
    path = Path(directory) / f"{os.getpid()}.census.json"

    def take_forever() -> None:
        while True:
            time.sleep(CENSUS_SECONDS)
            path.write_text(json.dumps(census(), indent=1))

    threading.Thread(target=take_forever, name="bench-census", daemon=True).start()
