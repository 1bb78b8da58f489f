"""A shared table through a Redis outage (game/tables/live.py, sse.py): the round goes on,
each viewer's stream stays open, says that live news is paused and keeps the page up to
date by polling the database; when Redis is back (same port, fresh), news flows through it
again, both ways, by itself."""

from __future__ import annotations

import contextlib
import html
import logging
import queue
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from game.tables import live
from game.tables.models import SharedTable
from game.tables.presentation import LIVE_PAUSED_NOTICE
from tests.game.tables.helpers import seat_version
from tests.game.tables.test_services import PLAIN

pytestmark = pytest.mark.django_db


def client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def wait_for(condition: Callable[[], Any], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


def act(client: Client, table: SharedTable, user: Any, action: str, **data: str) -> None:
    response = client.post(
        reverse("tables:action", args=[table.pk, action]),
        {"version": str(seat_version(table, user)), **data},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200, response.content.decode()[:500]


def read_until(stream: Iterator[bytes], pattern: str, seconds: float) -> tuple[str, float]:
    """The stream's text up to the chunk that matches ``pattern``, and how long it took."""
    started, text = time.monotonic(), ""
    while not re.search(pattern, text, re.M):
        assert time.monotonic() - started < seconds, f"{pattern!r} not in {text[-2000:]!r}"
        text += next(stream).decode()
    return text, time.monotonic() - started


def table_message_at(version: int) -> str:
    return rf"^event: table\n(data: .*\n)+id: {version}$"


def next_message(listener: Any, seconds: float = 2) -> bytes | None:
    """The next message's data (the subscription's own confirmation is skipped)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = listener.get_message(timeout=0.1)
        if message:
            return message["data"]
    return None


@pytest.fixture
def stream_settings(settings):
    settings.TABLE_STREAM_SECONDS = 30  # the tests stop reading long before
    settings.TABLE_STREAM_HEARTBEAT_SECONDS = 30
    settings.TABLE_STREAM_POLL_SECONDS = 0.1
    return settings


def test_a_shared_round_goes_on_while_redis_is_down_and_news_flows_again_after(
    site_on_private_redis,
    stream_settings,
    seated_pair,
    ana,
    ben,
    django_capture_on_commit_callbacks,
    caplog,
):
    redis = site_on_private_redis
    table = seated_pair(PLAIN)
    ana_client, ben_client = client_of(ana), client_of(ben)  # sessions cached in Redis
    events_url = reverse("tables:events", args=[table.pk])
    assert live.start_listening(timeout=3) and not live.news_paused()

    with caplog.at_level(logging.WARNING):
        redis.stop()
        wait_for(live.news_paused, 5, "the subscriber noticed Redis is gone")

        # The page says live updates are paused.
        page = ben_client.get(reverse("tables:table", args=[table.pk])).content.decode()
        notice = re.search(r'<p id="live-status"[^>]*>(.*?)</p>', page)
        assert notice and " hidden" not in notice.group(0)
        assert html.unescape(notice.group(1)) == LIVE_PAUSED_NOTICE

        # Ben's stream opens, says so, and sends the table as it is.
        response = ben_client.get(events_url)
        assert response.status_code == 200
        stream = iter(response.streaming_content)
        read_until(stream, r"^event: live\ndata: paused$", 2)
        read_until(stream, table_message_at(table.version), 2)

        # Both play a round; the announcements after the commits do not raise.
        with django_capture_on_commit_callbacks(execute=True):
            act(ana_client, table, ana, "chip", chip="10")
            act(ana_client, table, ana, "ready")
            act(ben_client, table, ben, "chip", chip="10")
            act(ben_client, table, ben, "ready")  # everyone is ready: the round is dealt
            act(ana_client, table, ana, "play", play="stand")
            act(ben_client, table, ben, "play", play="hit")  # 21: the round is over
        table.refresh_from_db()
        assert table.phase == SharedTable.Phase.INTERMISSION
        banks = dict(table.seats.values_list("player__username", "bank_cents"))
        assert banks == {"ana": 99_000, "ben": 101_000}

        # Ben's stream is still open and caught up by polling the database.
        text, _ = read_until(stream, table_message_at(table.version), 2)
        assert "ana (seat 1) bets $10.00 and is ready." in text

        # Redis is back (empty, on the same port): the stream says news flows again.
        redis.start()
        read_until(stream, r"^event: live\ndata: flowing$", 5)
        assert not live.news_paused()
        response.close()

    # Logged once by each thing that reaches Redis (the cache; the live channel's subscriber
    # and publisher), not per request or per action; once more when it answered again.
    said = Counter(
        (re.split(r" is unreachable | answers again ", r.getMessage())[0], r.levelno)
        for r in caplog.records
        if r.levelno >= logging.WARNING
    )
    assert set(said.values()) == {1}, said
    down = {service for service, level in said if level == logging.ERROR}
    assert len(down) == 3 and {"The Redis cache", "The live channel's Redis"} == {
        re.split(r" at ", service)[0] for service in down
    }, said


class StreamReader(threading.Thread):
    """Reads a stream in its own thread, as a browser does: the stream waits for news
    meanwhile (reading it in the test's thread would leave it suspended, not waiting)."""

    def __init__(self, response: Any) -> None:
        super().__init__(daemon=True)
        self.response = response
        self.chunks: queue.Queue[str] = queue.Queue()

    def run(self) -> None:
        try:
            for chunk in self.response.streaming_content:
                self.chunks.put(chunk.decode())
        finally:
            connections.close_all()

    def read_until(self, pattern: str, seconds: float) -> tuple[str, float]:
        started, text = time.monotonic(), ""
        while not re.search(pattern, text, re.M):
            left = seconds - (time.monotonic() - started)
            assert left > 0, f"{pattern!r} not in {text[-2000:]!r}"
            with contextlib.suppress(queue.Empty):
                text += self.chunks.get(timeout=left)
        return text, time.monotonic() - started


@pytest.mark.django_db(transaction=True)  # the stream reads in its own thread
def test_after_an_outage_a_stream_is_woken_by_news_through_redis_again(
    site_on_private_redis, stream_settings, seated_pair, ana, ben, monkeypatch
):
    redis = site_on_private_redis
    table = seated_pair(PLAIN)
    ana_client, ben_client = client_of(ana), client_of(ben)
    assert live.start_listening(timeout=3)
    redis.stop()
    wait_for(live.news_paused, 5, "the subscriber noticed Redis is gone")
    redis.start()
    wait_for(lambda: not live.news_paused(), 5, "the subscriber reconnected")

    # No polling within the stream's life: whatever comes, comes as news.
    stream_settings.TABLE_STREAM_POLL_SECONDS = 20
    stream_settings.TABLE_STREAM_SECONDS = 3
    reader = StreamReader(ben_client.get(reverse("tables:events", args=[table.pk])))
    reader.start()
    listener = redis.client().pubsub(ignore_subscribe_messages=True)
    listener.subscribe(live.CHANNEL)
    try:
        reader.read_until(r"^event: live\ndata: flowing$", 2)
        reader.read_until(table_message_at(table.version), 2)
        time.sleep(0.05)  # the stream waits for news

        # An action's announcement reaches Redis again (the publisher tried it again).
        act(ana_client, table, ana, "chip", chip="10")
        act(ana_client, table, ana, "ready")
        table.refresh_from_db()
        assert next_message(listener) == f"{table.pk}:{table.version}".encode()
        reader.read_until(table_message_at(table.version), 2)
        time.sleep(0.05)

        # News another app server sends through Redis wakes the stream (the subscriber
        # listens again): this process's own announcement is left out.
        with monkeypatch.context() as patched:
            patched.setattr(live, "announce", lambda *args, **kwargs: None)
            act(ben_client, table, ben, "chip", chip="10")
            act(ben_client, table, ben, "ready")
        table.refresh_from_db()
        publisher = redis.client()
        publisher.publish(live.CHANNEL, f"{table.pk}:{table.version}")
        publisher.close()
        _, took = reader.read_until(table_message_at(table.version), 2)
        assert took < 2
    finally:
        listener.close()
        reader.join(10)
