"""The Redis cache, which a Redis outage turns into an empty cache instead of an error.

The cache holds the sessions (cached_db) and each request's user (auth.py), both also in the
database. Django's ``RedisCache`` raises whatever redis-py raises, so with Redis down every
page answered 500. ``ResilientRedisCache`` is that backend with each of the cache API's
calls guarded (only its documented methods are overridden):

- a call that fails answers as an empty cache would (``get``: the default, ``add``: False,
  ``set``: nothing...), so sessions and users are read from, and written to, the database;
- the outage is logged once when it begins and once when it ends (game/core/outage.py), not per
  call; while it lasts one call every ``OUTAGE_RETRY_SECONDS`` tries Redis, the others do
  not wait on it;
- a write that never reached Redis (a logout's delete, a changed account's eviction, a
  session saved) leaves whatever Redis kept older than the database, if it kept anything (a
  network cut, a restart with persistence): those keys are deleted by the first call that
  reaches Redis again, before that call, so no request of this process reads them. Another
  process may read one until its own outage ends (it notices at its next call) or, for a
  process that did not notice the outage at all, until the copy expires.

Why not django-redis's IGNORE_EXCEPTIONS: it returns the same empty answers, but logs every
failed call when asked to log at all (a line per request during an outage), tries Redis on
every call however long it has been down, and does not forget the writes it missed.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, ClassVar, TypeVar

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

from game.core.outage import Outage, server_name

logger = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_RETRY_SECONDS = 5.0
# Keys remembered as missed at most; past that the whole cache is emptied on recovery
# (the cache's Redis database holds nothing but this cache: see the README).
MAX_MISSED_KEYS = 10_000
CONSEQUENCE = "sessions and users are read from the database until it answers again"


class _MissedWrites:
    """Keys (with their version) whose write did not reach Redis, in this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._keys: set[tuple[Any, int | None]] = set()
        self._everything = False

    def __bool__(self) -> bool:
        return self._everything or bool(self._keys)

    def add(self, keys: Iterable[Any], version: int | None) -> None:
        with self._lock:
            if self._everything:
                return
            self._keys.update((key, version) for key in keys)
            if len(self._keys) > MAX_MISSED_KEYS:
                self.add_everything_locked()

    def add_everything(self) -> None:
        with self._lock:
            self.add_everything_locked()

    def add_everything_locked(self) -> None:
        self._everything, self._keys = True, set()

    def take(self) -> tuple[bool, dict[int | None, list[Any]]]:
        """Everything remembered, by version (and forgets it)."""
        with self._lock:
            everything, keys = self._everything, self._keys
            self._everything, self._keys = False, set()
        by_version: dict[int | None, list[Any]] = {}
        for key, version in keys:
            by_version.setdefault(version, []).append(key)
        return everything, by_version

    def put_back(self, everything: bool, by_version: dict[int | None, list[Any]]) -> None:
        if everything:
            self.add_everything()
        for version, keys in by_version.items():
            self.add(keys, version)


class _ServerState:
    """One per Redis location and process: Django makes a cache object per thread."""

    def __init__(self, location: str, retry_seconds: float) -> None:
        self.outage = Outage(f"The Redis cache at {location}", logger, retry_seconds)
        self.missed = _MissedWrites()


_states: dict[str, _ServerState] = {}
_states_lock = threading.Lock()


def _state_for(location: str, retry_seconds: float) -> _ServerState:
    with _states_lock:
        state = _states.get(location)
        if state is None:
            state = _states[location] = _ServerState(location, retry_seconds)
        return state


class SharedConnectionPool(redis.ConnectionPool):
    """redis-py's connection pool, one per URL and options in each process.

    Django keeps a cache backend per async context (each ASGI request gets its own), and
    ``RedisCache`` builds a connection pool per backend: every request opened a connection
    of its own, and every open table stream held one for its whole life (hundreds of
    idle Redis connections and their buffers per server). Given as the cache's documented
    ``pool_class`` option, ``from_url`` hands every backend of the process the same pool;
    redis-py's pool is thread-safe and resets itself in a forked child."""

    _shared: ClassVar[dict[tuple[str, str], redis.ConnectionPool]] = {}
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> Any:
        key = (url, repr(sorted(kwargs.items())))
        with cls._shared_lock:
            pool = cls._shared.get(key)
            if pool is None:
                pool = cls._shared[key] = super().from_url(url, **kwargs)
            return pool


class ResilientRedisCache(RedisCache):
    """Django's ``RedisCache``; an unreachable Redis makes it an empty cache (see above).

    OPTIONS: ``OUTAGE_RETRY_SECONDS`` (default 5) between tries while Redis is down; the
    rest go to redis-py's connection pool as for ``RedisCache`` (set socket timeouts: a
    server that does not answer at all would otherwise hold a request indefinitely)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        retry_seconds = float(options.pop("OUTAGE_RETRY_SECONDS", DEFAULT_RETRY_SECONDS))
        super().__init__(server, {**params, "OPTIONS": options})
        location = server if isinstance(server, str) else ",".join(server)
        names = ",".join(server_name(part) for part in location.replace(";", ",").split(","))
        self.state = _state_for(names, retry_seconds)

    # ----------------------------------------------------------------- the guard

    def _guarded(
        self,
        call: Callable[[], T],
        fallback: T,
        *,
        writes: Iterable[Any] = (),
        version: int | None = None,
    ) -> T:
        """``call()``, or ``fallback`` when Redis is down (known, or found now). The keys
        ``writes`` names are remembered as missed when the call does not reach Redis."""
        state = self.state
        if not state.outage.may_try():
            state.missed.add(writes, version)
            return fallback
        try:
            if state.missed:
                self._forget_missed()
            result = call()
        except RedisError as error:
            state.outage.failed(error, CONSEQUENCE)
            state.missed.add(writes, version)
            return fallback
        state.outage.succeeded()
        return result

    def _forget_missed(self) -> None:
        """Deletes from Redis the keys written while it was out of reach (emptying it when
        too many were); put back to be tried again when this fails too."""
        everything, by_version = self.state.missed.take()
        try:
            if everything:
                super().clear()
            else:
                for version, keys in by_version.items():
                    super().delete_many(keys, version=version)
        except RedisError:
            self.state.missed.put_back(everything, by_version)
            raise

    # ------------------------------------------------------- Django's cache API

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._guarded(partial(super().get, key, default, version), default)

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        return self._guarded(partial(super().get_many, keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._guarded(partial(super().has_key, key, version), False)

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        return self._guarded(
            partial(super().add, key, value, timeout, version),
            False,
            writes=[key],
            version=version,
        )

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        self._guarded(
            partial(super().set, key, value, timeout, version),
            None,
            writes=[key],
            version=version,
        )

    def set_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        return self._guarded(
            partial(super().set_many, data, timeout, version),
            list(data),  # the keys not stored: all of them
            writes=list(data),
            version=version,
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._guarded(
            partial(super().touch, key, timeout, version),
            False,
            writes=[key],
            version=version,
        )

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._guarded(
            partial(super().delete, key, version),
            False,
            writes=[key],
            version=version,
        )

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        keys = list(keys)
        self._guarded(
            partial(super().delete_many, keys, version),
            None,
            writes=keys,
            version=version,
        )

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        result = self._guarded(
            partial(super().incr, key, delta, version),
            None,  # never incr's own answer, which is the new value
            writes=[key],
            version=version,
        )
        if result is None:
            # What the API says of a key it cannot find: a cache out of reach has none.
            raise ValueError(f"Key '{key}' not found.")
        return result

    # django-stubs gives RedisCache BaseCache's clear() -> None, but Django's RedisCache
    # returns whether Redis was flushed; this answers the same, False when out of reach.
    def clear(self) -> bool:  # type: ignore[override]
        cleared = self._guarded(partial(super().clear), None)
        if cleared is None:
            self.state.missed.add_everything()
            return False
        return cleared
