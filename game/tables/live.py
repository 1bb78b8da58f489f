"""The live channel of the shared tables (T-10, T-13): "table N has events up to seq S".

A service that wrote TableEvent rows calls ``announce(table_id, seq)`` inside its
transaction; the news goes out after the commit (never on a rollback) to every listener of
every app server. Listeners -- the SSE streams (game/tables/sse.py) -- block in
``wait_for_news`` (threads) or ``await_news`` (asyncio) and then re-read the database, so
the news carries no state and a spurious or lost wake-up costs at most one fallback poll.

Transport: Redis pub/sub when settings.REDIS_URL is set (one channel for all tables), else
an in-process broker (one process: ``make run``). Either way each process has one hub that
fans news out to its waiters; with Redis one subscriber thread per process (one connection)
feeds the hub, however many streams wait, whether in threads or in asyncio loops.

While Redis is out of reach nothing here raises or waits on it: news still reaches this
process's own waiters, publishing to Redis is tried again once a PUBLISH_RETRY_SECONDS, the
subscriber reconnects by itself, and ``news_paused`` tells the streams, which poll the
database meanwhile and say so to the page. The outage is logged once (game/core/outage.py).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable

from django.conf import settings
from django.db import transaction

from game.core.outage import Outage, server_name

logger = logging.getLogger(__name__)

# The Redis channel every app server publishes to and listens on: "<table_id>:<seq>".
CHANNEL = "blackjack:tables:news"
# How long the subscriber thread waits before reconnecting after a Redis error.
RECONNECT_SECONDS = 1.0
# How long publishing skips a Redis it found down: the one action a while that tries it
# may wait out the socket timeout (a server that does not answer at all), the others not;
# the other servers' streams find the news by polling meanwhile.
PUBLISH_RETRY_SECONDS = 5.0
PUBLISH_TIMEOUT_SECONDS = 1.0

Waker = Callable[[], None]


class _Hub:
    """This process's waiters per table and the last seq it heard of for each table.

    Thread-safe: news comes from any thread (a commit in a request thread, the Redis
    subscriber thread); a waiter is a plain callable (sets a threading.Event, or resolves
    an asyncio future through its loop's call_soon_threadsafe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest: dict[int, int] = {}
        self._waiters: dict[int, set[Waker]] = {}

    def publish(self, table_id: int, seq: int) -> None:
        with self._lock:
            if seq > self._latest.get(table_id, -1):
                self._latest[table_id] = seq
            wakers = list(self._waiters.get(table_id, ()))
        for wake in wakers:
            try:
                wake()
            except Exception:  # a waiter's closed loop must not stop the others
                logger.debug("live: a waiter could not be woken", exc_info=True)

    def add(self, table_id: int, after_seq: int | None, wake: Waker) -> bool:
        """Registers ``wake``; False (not registered) when news past ``after_seq`` is
        already known, so that news landing between the caller's read and its wait is
        not slept through."""
        with self._lock:
            if self._latest.get(table_id, -1) > (-1 if after_seq is None else after_seq):
                return False
            self._waiters.setdefault(table_id, set()).add(wake)
            return True

    def remove(self, table_id: int, wake: Waker) -> None:
        with self._lock:
            waiters = self._waiters.get(table_id)
            if waiters is not None:
                waiters.discard(wake)
                if not waiters:
                    del self._waiters[table_id]

    def latest(self, table_id: int) -> int | None:
        with self._lock:
            return self._latest.get(table_id)

    def forget(self) -> None:
        """Forgets the seqs heard (the waiters stay)."""
        with self._lock:
            self._latest.clear()

    def wake_all(self) -> None:
        """Wakes every waiter of every table: news may have been missed (the subscriber
        reconnected), or the streams have to say that it no longer comes."""
        with self._lock:
            wakers = [wake for waiters in self._waiters.values() for wake in waiters]
        for wake in wakers:
            try:
                wake()
            except Exception:  # a waiter's closed loop must not stop the others
                logger.debug("live: a waiter could not be woken", exc_info=True)


_hub = _Hub()


# ------------------------------------------------------------------------ publishing


def announce(table_id: int, seq: int, *, using: str | None = None) -> None:
    """Tells every listener, after the current transaction commits, that table
    ``table_id`` has events up to ``seq``. Outside a transaction it is sent at once."""
    transaction.on_commit(lambda: publish_now(table_id, seq), using=using, robust=True)


def publish_now(table_id: int, seq: int) -> None:
    """Sends the news now (no transaction): to this process's waiters directly, and to
    every process through Redis when REDIS_URL is set. A Redis failure is not raised:
    the other processes' streams poll the database meanwhile."""
    table_id, seq = int(table_id), int(seq)
    _hub.publish(table_id, seq)
    url = settings.REDIS_URL
    if url:
        _publisher(url).publish(f"{table_id}:{seq}")


class _Publisher:
    """One per process and URL: a client (a connection pool), and the outage that keeps
    the actions' commits from trying a Redis known to be down more than once a
    PUBLISH_RETRY_SECONDS."""

    def __init__(self, url: str) -> None:
        import redis

        self.client = redis.Redis.from_url(
            url,
            socket_timeout=PUBLISH_TIMEOUT_SECONDS,
            socket_connect_timeout=PUBLISH_TIMEOUT_SECONDS,
        )
        self.outage = Outage(
            f"The live channel's Redis at {server_name(url)} (publishing)",
            logger,
            PUBLISH_RETRY_SECONDS,
        )

    def publish(self, message: str) -> None:
        if not self.outage.may_try():
            return
        try:
            self.client.publish(CHANNEL, message)
        except Exception as error:  # after a commit: never raised (on_commit, robust)
            self.outage.failed(error, "other app servers poll the database for the news")
            return
        self.outage.succeeded()


_publishers: dict[str, _Publisher] = {}
_publishers_lock = threading.Lock()


def _publisher(url: str) -> _Publisher:
    with _publishers_lock:
        publisher = _publishers.get(url)
        if publisher is None:
            publisher = _publishers[url] = _Publisher(url)
        return publisher


# ------------------------------------------------------------------------- listening


def uses_redis() -> bool:
    """Whether news comes through Redis, which may be out of reach (else it never pauses)."""
    return bool(settings.REDIS_URL)


def news_paused() -> bool:
    """True while this process's subscriber cannot hear Redis: news from other processes
    does not come, so the streams find it by polling the database."""
    subscriber = _subscriber
    return (
        subscriber is not None
        and subscriber.url == settings.REDIS_URL
        and subscriber.pid == os.getpid()
        and subscriber.outage.down
    )


def news_epoch() -> int | None:
    """A number that stays the same for as long as this process has heard every piece of
    news since it last changed, None when it may not have: no Redis (the in-process broker
    does not hear other processes, nor a test's uncommitted writes), Redis not subscribed
    yet, or out of reach. It changes whenever the subscriber (re)subscribes, since news
    sent while it was away is lost. A stream that saw the same epoch before and after a
    wait, with no news of its table, knows its table has not changed without reading it."""
    subscriber = _subscriber
    if (
        subscriber is None
        or subscriber.url != settings.REDIS_URL
        or subscriber.pid != os.getpid()
        or not subscriber.subscribed.is_set()
        or subscriber.outage.down
    ):
        return None
    return subscriber.epoch


def news_since(table_id: int, after_seq: int | None) -> bool:
    """Whether this process has heard of an event of the table past ``after_seq``."""
    latest = _hub.latest(table_id)
    return latest is not None and (after_seq is None or latest > after_seq)


def known_seq(table_id: int) -> int | None:
    """The highest seq this process has heard announced for the table (None: none yet).
    Whatever was known before a database read is committed, so visible to that read."""
    return _hub.latest(table_id)


def wait_for_news(table_id: int, after_seq: int | None, timeout: float) -> None:
    """Blocks this thread until news of a seq > ``after_seq`` for the table, or until
    ``timeout`` seconds. Spurious returns are possible: re-read the database."""
    _ensure_subscriber()
    event = threading.Event()
    if not _hub.add(table_id, after_seq, event.set):
        return
    try:
        event.wait(max(0.0, timeout))
    finally:
        _hub.remove(table_id, event.set)


async def await_news(table_id: int, after_seq: int | None, timeout: float) -> None:
    """``wait_for_news`` for asyncio code: the loop is not blocked."""
    _ensure_subscriber()
    loop = asyncio.get_running_loop()
    future: asyncio.Future[None] = loop.create_future()

    def resolve() -> None:
        if not future.done():
            future.set_result(None)

    def wake() -> None:
        loop.call_soon_threadsafe(resolve)

    if not _hub.add(table_id, after_seq, wake):
        return
    try:
        await asyncio.wait({future}, timeout=max(0.0, timeout))
    finally:
        _hub.remove(table_id, wake)
        future.cancel()


# ------------------------------------------------------------- the Redis subscriber


class _Subscriber(threading.Thread):
    """One per process: listens on CHANNEL and hands each piece of news to the hub.
    Reconnects by itself after a Redis error (the streams poll meanwhile)."""

    def __init__(self, url: str) -> None:
        super().__init__(name="table-live-subscriber", daemon=True)
        self.url = url
        self.pid = os.getpid()
        self.stopping = threading.Event()
        self.subscribed = threading.Event()
        # Counts the subscriptions made (news_epoch): 0 until the first.
        self.epoch = 0
        self.outage = Outage(
            f"The live channel's Redis at {server_name(url)}", logger, RECONNECT_SECONDS
        )

    def run(self) -> None:
        import redis

        while not self.stopping.is_set():
            client = None
            try:
                client = redis.Redis.from_url(
                    self.url, socket_connect_timeout=2, health_check_interval=30
                )
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(CHANNEL)
                self.epoch += 1
                self.subscribed.set()
                if self.outage.succeeded():
                    # News sent while it was away is lost: every stream reads afresh, and
                    # says that news comes again.
                    _hub.wake_all()
                while not self.stopping.is_set():
                    message = pubsub.get_message(timeout=0.25)
                    if message and message.get("type") == "message":
                        _dispatch(message.get("data"))
                pubsub.close()
            except Exception as error:
                self.subscribed.clear()
                if self.outage.failed(error, "table streams poll the database; reconnecting"):
                    _hub.wake_all()  # the streams say at once that news is paused
                self.stopping.wait(RECONNECT_SECONDS)
            finally:
                if client is not None:
                    try:
                        client.close()
                    except Exception:
                        logger.debug("live: closing the Redis client failed", exc_info=True)


def _dispatch(payload: object) -> None:
    try:
        text = payload.decode() if isinstance(payload, bytes) else str(payload)
        table_id, seq = (int(part) for part in text.split(":", 1))
    except (ValueError, UnicodeDecodeError):
        logger.warning("live: ignored a malformed message on %s", CHANNEL)
        return
    _hub.publish(table_id, seq)


_subscriber: _Subscriber | None = None
_subscriber_lock = threading.Lock()


def _ensure_subscriber() -> _Subscriber | None:
    """Starts this process's subscriber thread when REDIS_URL is set (again after a fork,
    or when the URL changed)."""
    global _subscriber
    url = settings.REDIS_URL
    if not url:
        return None
    current = _subscriber
    if (
        current is not None
        and current.url == url
        and current.pid == os.getpid()
        and current.is_alive()
    ):
        return current
    with _subscriber_lock:
        current = _subscriber
        if (
            current is None
            or current.url != url
            or current.pid != os.getpid()
            or not current.is_alive()
        ):
            if current is not None and current.pid == os.getpid():
                current.stopping.set()
            current = _Subscriber(url)
            current.start()
            _subscriber = current
        return current


def start_listening(timeout: float = 5.0) -> bool:
    """Starts the subscriber (when REDIS_URL is set) and waits until it is subscribed;
    True when it is (or when there is no Redis to listen to). For tests and warm-ups."""
    subscriber = _ensure_subscriber()
    return True if subscriber is None else subscriber.subscribed.wait(timeout)


def forget_news_heard() -> None:
    """Forgets the seqs this process heard of (tests: a flushed test database gives its
    next tables the ids of tables whose news was heard, with seqs from 1 again)."""
    _hub.forget()


def stop_listening() -> None:
    """Stops this process's subscriber thread (tests)."""
    global _subscriber
    with _subscriber_lock:
        current, _subscriber = _subscriber, None
    if current is not None:
        current.stopping.set()
        current.join(timeout=3)
