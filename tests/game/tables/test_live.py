"""The live channel (game/tables/live.py): news of a table reaches waiters in other threads,
in asyncio loops and in other processes (Redis), and only once the transaction commits."""

from __future__ import annotations

import asyncio
import itertools
import os
import subprocess
import sys
import threading
import time
from contextlib import suppress
from pathlib import Path

import pytest
from django.db import transaction

from game.tables import live
from tests.game.tables.helpers import run_in_fresh_loop

ROOT = Path(__file__).resolve().parents[3]

# Table ids no real table of the test database has; each test takes its own, so that the
# process-wide hub's memory of one test cannot wake another's waiter.
_table_ids = itertools.count(900_000_000 + (os.getpid() % 1000) * 10_000)


@pytest.fixture
def table_id() -> int:
    return next(_table_ids)


def _waiter_thread(table_id: int, after: int, timeout: float) -> tuple[threading.Thread, dict]:
    result: dict = {}

    def wait() -> None:
        started = time.monotonic()
        live.wait_for_news(table_id, after, timeout)
        result["waited"] = time.monotonic() - started

    thread = threading.Thread(target=wait, daemon=True)
    thread.start()
    return thread, result


def _waiting(table_id: int) -> int:
    """How many waiters the process's hub holds for the table (the tests' look inside)."""
    with live._hub._lock:
        return len(live._hub._waiters.get(table_id, ()))


def _until_waiting(table_id: int, count: int = 1) -> None:
    deadline = time.monotonic() + 2
    while _waiting(table_id) < count:
        assert time.monotonic() < deadline, "the waiter never started waiting"
        time.sleep(0.005)


# ------------------------------------------------------------------ in-process broker


def test_news_wakes_a_waiter_in_another_thread(settings, table_id):
    settings.REDIS_URL = ""
    thread, result = _waiter_thread(table_id, after=3, timeout=5)
    _until_waiting(table_id)
    live.publish_now(table_id, 4)
    thread.join(2)
    assert not thread.is_alive()
    assert result["waited"] < 1
    assert live.known_seq(table_id) == 4


def test_news_of_another_table_or_an_old_seq_does_not_wake(settings, table_id):
    settings.REDIS_URL = ""
    live.publish_now(table_id, 4)
    started = time.monotonic()
    live.wait_for_news(table_id, 4, 0.2)  # 4 is not news to a stream that has 4
    assert time.monotonic() - started >= 0.19
    thread, result = _waiter_thread(table_id, after=4, timeout=0.3)
    _until_waiting(table_id)
    live.publish_now(table_id + 1, 9)
    thread.join(2)
    assert result["waited"] >= 0.29


def test_news_known_before_the_wait_returns_at_once(settings, table_id):
    """News that came between the caller's read and its wait is not slept through."""
    settings.REDIS_URL = ""
    live.publish_now(table_id, 8)
    started = time.monotonic()
    live.wait_for_news(table_id, 7, 5)
    assert time.monotonic() - started < 0.1


def test_news_wakes_an_asyncio_waiter(settings, table_id):
    settings.REDIS_URL = ""

    async def scenario() -> float:
        started = time.monotonic()
        waiting = asyncio.ensure_future(live.await_news(table_id, 0, 5))
        await asyncio.sleep(0.02)
        threading.Thread(target=live.publish_now, args=(table_id, 1)).start()
        await waiting
        return time.monotonic() - started

    assert run_in_fresh_loop(scenario) < 1
    assert _waiting(table_id) == 0


def test_an_asyncio_waiter_times_out_and_unregisters(settings, table_id):
    settings.REDIS_URL = ""
    started = time.monotonic()
    run_in_fresh_loop(lambda: live.await_news(table_id, 0, 0.1))
    assert 0.09 <= time.monotonic() - started < 1
    assert _waiting(table_id) == 0


def test_many_waiters_of_one_table_all_wake(settings, table_id):
    settings.REDIS_URL = ""
    waiters = [_waiter_thread(table_id, after=0, timeout=5) for _ in range(50)]
    _until_waiting(table_id, 50)
    live.publish_now(table_id, 1)
    for thread, result in waiters:
        thread.join(2)
        assert result["waited"] < 1


# ------------------------------------------------------------------ after the commit


@pytest.mark.django_db
def test_announce_is_sent_only_after_the_commit(
    settings, table_id, django_capture_on_commit_callbacks
):
    settings.REDIS_URL = ""
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with transaction.atomic():
            live.announce(table_id, 5)
            assert live.known_seq(table_id) is None
        assert live.known_seq(table_id) is None
    assert len(callbacks) == 1
    assert live.known_seq(table_id) == 5


@pytest.mark.django_db
def test_announce_is_not_sent_on_a_rollback(settings, table_id, django_capture_on_commit_callbacks):
    settings.REDIS_URL = ""

    class Rollback(Exception):
        pass

    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        suppress(Rollback),
        transaction.atomic(),
    ):
        live.announce(table_id, 5)
        raise Rollback
    assert callbacks == []
    assert live.known_seq(table_id) is None


def test_a_redis_failure_does_not_break_the_commit(settings, table_id):
    """The action committed: a Redis that is down is logged, local waiters still hear."""
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    live.publish_now(table_id, 3)
    assert live.known_seq(table_id) == 3
    live.stop_listening()


# ---------------------------------------------------------------------------- Redis

PUBLISHER = """
import os, sys
import django
django.setup()
from game.tables import live
live.publish_now(int(sys.argv[1]), int(sys.argv[2]))
"""


def _publish_from_another_process(redis_url: str, table_id: int, seq: int) -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "blackjack_site.settings",
        "REDIS_URL": redis_url,
    }
    subprocess.run(
        [sys.executable, "-c", PUBLISHER, str(table_id), str(seq)],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=20,
    )


def test_redis_carries_news_from_another_process(redis_url, table_id):
    thread, result = _waiter_thread(table_id, after=6, timeout=10)
    _until_waiting(table_id)
    started = time.monotonic()
    _publish_from_another_process(redis_url, table_id, 7)
    thread.join(5)
    assert not thread.is_alive()
    assert result["waited"] < 10
    assert live.known_seq(table_id) == 7
    # The news came through Redis: this process never published it itself.
    assert time.monotonic() - started < 5


def test_redis_news_wakes_asyncio_waiters_through_one_subscriber(redis_url, table_id):
    import redis

    client = redis.Redis.from_url(redis_url)

    async def scenario() -> float:
        started = time.monotonic()
        waiters = [asyncio.ensure_future(live.await_news(table_id, 0, 5)) for _ in range(20)]
        await asyncio.sleep(0.02)
        client.publish(live.CHANNEL, f"{table_id}:1")
        await asyncio.gather(*waiters)
        return time.monotonic() - started

    try:
        assert run_in_fresh_loop(scenario) < 2
    finally:
        client.close()
    subscribers = [t for t in threading.enumerate() if t.name == "table-live-subscriber"]
    assert len(subscribers) == 1


def test_a_malformed_message_is_ignored(redis_url, table_id):
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        client.publish(live.CHANNEL, b"\xff junk")
        client.publish(live.CHANNEL, f"{table_id}:2")
    finally:
        client.close()
    live.wait_for_news(table_id, 1, 3)
    assert live.known_seq(table_id) == 2
