"""Fixtures shared by the whole suite."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.redis_server import OUTAGE_RETRY_SECONDS, PrivateRedis


def pytest_sessionstart(session: pytest.Session) -> None:
    """SQLite's WAL files left by a run that was killed, whose database file is gone: a new
    test database of that name would read them and fail with "disk I/O error"."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        return
    test_name = Path(str(database.get("TEST", {}).get("NAME") or ""))
    if not test_name.name:
        return
    for stale in test_name.parent.glob(f"{test_name.name}*"):
        main_file = stale.with_name(stale.name.removesuffix("-wal").removesuffix("-shm"))
        if stale != main_file and not main_file.exists():
            stale.unlink(missing_ok=True)


@pytest.fixture
def seeded_rng() -> random.Random:
    """A deterministic generator for tests; production uses secrets.SystemRandom."""
    return random.Random(20261121)


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache, no question pools kept and no live stream
    counted: sessions, or the trivia ids a process keeps, from another test's rolled-back
    rows must not leak into it (SQLite reuses a rolled-back row's id), nor a stream another
    test left unread take a place of the process's."""
    from django.core.cache import cache, caches

    from game.tables.stream_limits import PROCESS
    from trivia.services import forget_question_pools

    cache.clear()
    # Fragments kept under a version (a Daily Shoe's leaderboard) would outlive the rows
    # they were read from.
    caches["template_fragments"].clear()
    forget_question_pools()
    PROCESS.forget_all()
    yield
    cache.clear()
    caches["template_fragments"].clear()
    forget_question_pools()
    PROCESS.forget_all()


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A redis-server of the test's own (tests/redis_server.py), running."""
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def site_on_private_redis(settings, private_redis: PrivateRedis) -> Iterator[PrivateRedis]:
    """The site as production runs it with REDIS_URL set, on ``private_redis``: the cache
    (sessions, users) and the tables' live channel."""
    from blackjack_site.settings import redis_cache
    from game.tables import live

    settings.REDIS_URL = private_redis.url
    settings.CACHES = {"default": redis_cache(private_redis.url, OUTAGE_RETRY_SECONDS)}
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    settings.USER_CACHE_SECONDS = 300
    yield private_redis
    live.stop_listening()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked postgres_only (several processes sharing one PostgreSQL database) do
    not apply to the SQLite pass, nor tests marked sqlite_only (SQLite's own query plans)
    to the PostgreSQL pass: they are deselected there, not skipped, so a skip always means
    something is missing."""
    from django.conf import settings

    on_postgresql = "postgresql" in settings.DATABASES["default"]["ENGINE"]
    other_database = "sqlite_only" if on_postgresql else "postgres_only"
    kept = [item for item in items if item.get_closest_marker(other_database) is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept
