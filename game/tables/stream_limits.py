"""How many live streams (game/tables/sse.py) may be open at once: per player, and per
process.

A table page keeps one stream open; under WSGI (gunicorn, runserver) each stream holds a
request thread for its whole life (TABLE_STREAM_SECONDS), so a player with a dozen tabs
could take every thread of a worker and stall everyone's actions. Two caps:

- **per player**, across every process: ``TABLE_STREAMS_PER_PLAYER`` places in the cache
  (Redis when ``REDIS_URL`` is set, else each process's own memory), taken with
  ``cache.add`` and each expiring a little after the longest a stream lives, so a process
  that crashed holding some gives them back by itself;
- **per process**: ``TABLE_STREAMS_PER_WSGI_PROCESS`` under WSGI (keep it below the
  server's threads per process, so threads remain for actions), ``TABLE_STREAMS_PER_PROCESS``
  under ASGI (uvicorn), where a stream holds no thread; counted in memory, each place
  expiring the same way.

A stream refused by either is answered by ``sse.busy_stream_response``: the browser's
EventSource comes back a few seconds later from its last event, so nothing is lost. A
cache out of reach (Redis down) does not refuse anyone: the per-process cap still holds.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache

SLOT_KEY = "table-streams:{player}:{slot}"
# How long after a stream's lifetime its place is kept at most: its last read and answer.
MARGIN_SECONDS = 30.0


def _held_seconds() -> float:
    return float(getattr(settings, "TABLE_STREAM_SECONDS", 300)) + MARGIN_SECONDS


class _ProcessPlaces:
    """This process's streams, each held until it ends or its place expires."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._until: dict[object, float] = {}

    def take(self, limit: int, seconds: float) -> object | None:
        now = time.monotonic()
        with self._lock:
            for token, until in list(self._until.items()):
                if until <= now:
                    del self._until[token]
            if len(self._until) >= limit:
                return None
            token = object()
            self._until[token] = now + seconds
            return token

    def give_back(self, token: object) -> None:
        with self._lock:
            self._until.pop(token, None)

    def held(self) -> int:
        with self._lock:
            return len(self._until)

    def forget_all(self) -> None:
        with self._lock:
            self._until.clear()


PROCESS = _ProcessPlaces()


def process_limit(*, asgi: bool) -> int:
    name = "TABLE_STREAMS_PER_PROCESS" if asgi else "TABLE_STREAMS_PER_WSGI_PROCESS"
    return max(1, int(getattr(settings, name)))


def _take_player_slot(player_id: int, seconds: float) -> str | None:
    """A free place of the player's (its key), or None when all are taken. A cache that
    answers every ``add`` with False yet holds none of the places is out of reach: the
    stream is let through (with no place to give back)."""
    keys = [
        SLOT_KEY.format(player=player_id, slot=slot)
        for slot in range(max(1, int(settings.TABLE_STREAMS_PER_PLAYER)))
    ]
    for key in keys:
        if cache.add(key, 1, timeout=seconds):
            return key
    return None if cache.get_many(keys) else ""


@dataclass
class StreamPlaces:
    """The places one stream holds; ``give_back`` (idempotent) when it ends."""

    player_key: str
    process_token: object
    _given_back: bool = field(default=False, repr=False)

    def give_back(self) -> None:
        if self._given_back:
            return
        self._given_back = True
        PROCESS.give_back(self.process_token)
        if self.player_key:
            cache.delete(self.player_key)


def admit(player_id: int, *, asgi: bool) -> StreamPlaces | None:
    """Places for one more stream of ``player_id`` in this process, or None when the
    player's or the process's streams are at their cap."""
    seconds = _held_seconds()
    token = PROCESS.take(process_limit(asgi=asgi), seconds)
    if token is None:
        return None
    player_key = _take_player_slot(player_id, seconds)
    if player_key is None:
        PROCESS.give_back(token)
        return None
    return StreamPlaces(player_key, token)
