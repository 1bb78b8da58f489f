"""The SSE stream (game/tables/sse.py) through both drivers: the sync one (WSGI: runserver,
the test Client) and the async one (ASGI: uvicorn), with a fake ``messages_after``."""

from __future__ import annotations

import asyncio
import itertools
import os
import re
import threading
import time

import pytest
from django.core import signals
from django.db import close_old_connections
from django.http import HttpRequest
from django.test import AsyncClient, Client, RequestFactory
from django.urls import path

from game.core.streaming import streams_on_the_event_loop
from game.tables import live
from game.tables.sse import SseMessage, StreamEnded, event_stream_response, last_event_id
from tests.game.tables.helpers import http_scope, run_in_fresh_loop

_table_ids = itertools.count(800_000_000 + (os.getpid() % 1000) * 10_000)


class FakeTable:
    """A table's events as ``messages_after`` reads them; events are added from the test's
    other thread while the stream reads."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.lock = threading.Lock()
        self.events: list[tuple[int, str]] = [(1, "opened"), (2, "seated")]
        self.calls: list[int | None] = []

    def add(self, text: str) -> int:
        with self.lock:
            seq = self.events[-1][0] + 1
            self.events.append((seq, text))
            return seq

    def messages_after(self, after: int | None) -> tuple[list[SseMessage], int]:
        with self.lock:
            self.calls.append(after)
            last = self.events[-1][0]
            if after is None:
                body = "\n".join(text for _, text in self.events)
                return [SseMessage("table", f"<p>\n{body}\n</p>", id=str(last))], last
            return [
                SseMessage("log", text, id=str(seq)) for seq, text in self.events if seq > after
            ], last


TABLES: dict[int, FakeTable] = {}


@streams_on_the_event_loop
def stream_view(request: HttpRequest, table_id: int):
    return event_stream_response(
        request,
        table_id=table_id,
        after_seq=last_event_id(request),
        messages_after=TABLES[table_id].messages_after,
    )


urlpatterns = [path("stream/<int:table_id>/", stream_view)]


@pytest.fixture
def table(settings):
    settings.REDIS_URL = ""
    settings.ROOT_URLCONF = __name__
    settings.TABLE_STREAM_SECONDS = 0.8
    # No poll within the stream's life: what arrives came through the live channel.
    settings.TABLE_STREAM_POLL_SECONDS = 5
    settings.TABLE_STREAM_HEARTBEAT_SECONDS = 0.25
    settings.TABLE_STREAM_RETRY_MS = 1000
    fake = FakeTable(next(_table_ids))
    TABLES[fake.table_id] = fake
    yield fake
    del TABLES[fake.table_id]


def announce_later(
    fake: FakeTable, delay: float, text: str, announce=live.announce
) -> threading.Timer:
    """Adds an event after ``delay`` from another thread and announces it (outside a
    transaction ``announce`` sends at once; ``publish_now`` where the test has no db)."""

    def add_and_announce() -> None:
        announce(fake.table_id, fake.add(text))

    timer = threading.Timer(delay, add_and_announce)
    timer.start()
    return timer


def check_stream(chunks: list[tuple[float, bytes]], lifetime: float) -> None:
    text = b"".join(chunk for _, chunk in chunks).decode()
    assert chunks[0][1] == b"retry: 1000\n\n"
    # The snapshot, at once, its lines each a data: line, with the seq it brings the viewer to.
    assert chunks[1][0] < 0.2
    assert chunks[1][1].decode() == (
        "event: table\ndata: <p>\ndata: opened\ndata: seated\ndata: </p>\nid: 2\n\n"
    )
    # The news, as soon as it was announced (the poll alone would not have come in time).
    news = [when for when, chunk in chunks if chunk == b"event: log\ndata: dealt\nid: 3\n\n"]
    assert len(news) == 1 and 0.1 <= news[0] < 0.3, chunks
    # Silence after it is filled with heartbeats, which are comments.
    assert text.count(": keep-alive\n\n") >= 1
    assert all(when > news[0] + 0.2 for when, chunk in chunks if chunk.startswith(b":"))
    # The stream ends at its lifetime (up to a tenth sooner), so the browser reconnects.
    assert lifetime * 0.9 - 0.05 <= chunks[-1][0] < lifetime + 0.4
    assert re.sub(r"(?m)^(event|data|id|retry|:).*\n", "", text).strip("\n") == ""


@pytest.mark.django_db
def test_the_sync_stream_sends_retry_snapshot_news_heartbeats_then_ends(table):
    response = Client().get(f"/stream/{table.table_id}/")
    assert response.status_code == 200
    assert response.streaming and not response.is_async
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache"
    assert response["X-Accel-Buffering"] == "no"
    started = time.monotonic()
    timer = announce_later(table, 0.15, "dealt")
    chunks = [(time.monotonic() - started, chunk) for chunk in response.streaming_content]
    timer.join()
    ended = time.monotonic() - started
    check_stream(chunks + [(ended, b"")], lifetime=0.8)
    assert table.calls[0] is None and 2 in table.calls and 3 in table.calls


@pytest.mark.django_db
def test_a_reconnect_with_last_event_id_catches_up_from_there(table):
    table.add("dealt")
    table.add("hit")
    response = Client().get(f"/stream/{table.table_id}/", headers={"Last-Event-ID": "3"})
    chunks = iter(response.streaming_content)
    assert next(chunks) == b"retry: 1000\n\n"
    assert next(chunks) == b"event: log\ndata: hit\nid: 4\n\n"
    response.close()
    assert table.calls == [3]


def test_the_async_stream_through_the_asgi_client(table):
    async def read() -> tuple[object, list[tuple[float, bytes]], float]:
        response = await AsyncClient().get(f"/stream/{table.table_id}/")
        started = time.monotonic()
        timer = announce_later(table, 0.15, "dealt", live.publish_now)
        chunks = [(time.monotonic() - started, chunk) async for chunk in response.streaming_content]
        timer.join()
        return response, chunks, time.monotonic() - started

    response, chunks, ended = run_in_fresh_loop(read)
    assert response.status_code == 200
    assert response.streaming and response.is_async
    assert response["Content-Type"] == "text/event-stream"
    check_stream(chunks + [(ended, b"")], lifetime=0.8)


def test_async_streams_read_in_a_few_threads_of_their_own(settings, table):
    """Streams woken together read in sse.stream_reads()'s few threads, not one thread each
    from the loop's default pool (which would take the interpreter from the posts)."""
    lock = threading.Lock()
    running, most, names = 0, 0, set()
    read = table.messages_after

    def slow_read(after: int | None):
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
            names.add(threading.current_thread().name)
        time.sleep(0.05)
        try:
            return read(after)
        finally:
            with lock:
                running -= 1

    table.messages_after = slow_read

    async def six_streams() -> None:
        async def one() -> None:
            response = await AsyncClient().get(f"/stream/{table.table_id}/")
            async for _ in response.streaming_content:
                pass

        await asyncio.gather(*(one() for _ in range(6)))

    run_in_fresh_loop(six_streams)
    assert names and all(name.startswith("table-stream-read") for name in names), names
    assert 1 <= most <= settings.TABLE_STREAM_READ_THREADS == 2


def test_the_asgi_handler_sends_each_event_as_it_comes(table):
    """Served by Django's ASGI handler (as under uvicorn), the stream is not buffered: the
    retry and the snapshot leave at once, each message in its own body chunk."""
    from blackjack_site.asgi import application

    async def serve() -> list[tuple[float, dict]]:
        sent: list[tuple[float, dict]] = []
        started = time.monotonic()
        disconnect = asyncio.Event()
        requested = []

        async def receive() -> dict:
            if not requested:
                requested.append(True)
                return {"type": "http.request", "body": b"", "more_body": False}
            await disconnect.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append((time.monotonic() - started, message))

        path = f"/stream/{table.table_id}/"
        scope = http_scope("GET", path, [(b"last-event-id", b"2")])
        timer = announce_later(table, 0.15, "dealt", live.publish_now)
        await application(scope, receive, send)
        timer.join()
        disconnect.set()
        return sent

    # As the test clients do: the test's own connection is not Django's to close here.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        sent = run_in_fresh_loop(serve)
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
    start = sent[0][1]
    assert start["type"] == "http.response.start" and start["status"] == 200
    bodies = [(when, m["body"]) for when, m in sent[1:] if m.get("body")]
    assert bodies[0][1] == b"retry: 1000\n\n" and bodies[0][0] < 0.3
    news = [when for when, body in bodies if body == b"event: log\ndata: dealt\nid: 3\n\n"]
    assert len(news) == 1 and news[0] < 0.5
    last = sent[-1][1]
    assert last["type"] == "http.response.body" and not last.get("more_body")
    assert 0.8 * 0.9 - 0.05 <= sent[-1][0] < 1.2  # its lifetime, up to a tenth sooner
    assert table.calls[0] == 2


def test_a_broker_that_never_speaks_is_covered_by_the_poll(settings, table):
    """News that never reaches the live channel (another server, no Redis) still arrives
    within the poll interval."""
    settings.TABLE_STREAM_POLL_SECONDS = 0.2
    request = RequestFactory().get("/")
    response = event_stream_response(
        request, table_id=table.table_id, after_seq=2, messages_after=table.messages_after
    )
    chunks = iter(response.streaming_content)
    assert next(chunks) == b"retry: 1000\n\n"
    started = time.monotonic()
    table.add("dealt")  # no announce
    assert next(chunks) == b"event: log\ndata: dealt\nid: 3\n\n"
    assert time.monotonic() - started < 0.5
    response.close()


def ending_on(table: FakeTable, text: str):
    """``table``'s messages_after, raising StreamEnded once an event ``text`` is there (as
    the table's view does when the viewer may no longer see the table)."""
    read = table.messages_after

    def messages_after(after: int | None):
        if any(event == text for _, event in table.events):
            raise StreamEnded
        return read(after)

    return messages_after


def check_ended_at_once(chunks: list[tuple[float, bytes]], ended: float) -> None:
    # The retry and the snapshot, then only the end: not the news, not a heartbeat.
    assert [chunk for _, chunk in chunks[:1]] == [b"retry: 1000\n\n"]
    assert len(chunks) == 3 and chunks[1][1].startswith(b"event: table")
    assert chunks[2][1] == b"event: end\ndata: gone\n\n"
    assert 0.1 <= ended < 0.5  # at the news (0.15 s), long before the stream's end (5 s)


def test_a_stream_ends_at_once_when_messages_after_says_so(settings, table):
    settings.TABLE_STREAM_SECONDS = 5
    settings.TABLE_STREAM_HEARTBEAT_SECONDS = 2
    table.messages_after = ending_on(table, "renewed")
    response = Client().get(f"/stream/{table.table_id}/")
    started = time.monotonic()
    timer = announce_later(table, 0.15, "renewed", live.publish_now)
    chunks = [(time.monotonic() - started, chunk) for chunk in response.streaming_content]
    timer.join()
    check_ended_at_once(chunks, time.monotonic() - started)


def test_an_async_stream_ends_at_once_when_messages_after_says_so(settings, table):
    settings.TABLE_STREAM_SECONDS = 5
    settings.TABLE_STREAM_HEARTBEAT_SECONDS = 2
    table.messages_after = ending_on(table, "renewed")

    async def read() -> tuple[list[tuple[float, bytes]], float]:
        response = await AsyncClient().get(f"/stream/{table.table_id}/")
        started = time.monotonic()
        timer = announce_later(table, 0.15, "renewed", live.publish_now)
        chunks = [(time.monotonic() - started, chunk) async for chunk in response.streaming_content]
        timer.join()
        return chunks, time.monotonic() - started

    chunks, ended = run_in_fresh_loop(read)
    check_ended_at_once(chunks, ended)


def test_messages_encode_line_breaks_and_strip_them_from_fields():
    assert SseMessage("log", "a\r\nb\rc\nd", id="7").encode() == (
        b"event: log\ndata: a\ndata: b\ndata: c\ndata: d\nid: 7\n\n"
    )
    assert SseMessage("lo\ng", "", id="1\n2").encode() == b"event: log\ndata: \nid: 12\n\n"
    assert SseMessage("log", "x\u2028y").encode() == "event: log\ndata: x\u2028y\n\n".encode()


@pytest.mark.parametrize(
    ("header", "query", "expected"),
    [
        (None, None, None),
        ("12", None, 12),
        (" 12 ", None, 12),
        ("0", None, 0),
        (None, "5", 5),
        ("9", "5", 9),  # EventSource's own reconnect is more recent than the page's ?after=
        ("junk", "5", 5),
        ("-3", None, None),
        ("1e3", None, None),
        ("٣", None, None),
        ("9" * 40, None, None),
        ("", "", None),
        (None, "nope", None),
    ],
)
def test_last_event_id_never_raises_on_junk(header, query, expected):
    headers = {} if header is None else {"Last-Event-ID": header}
    data = {} if query is None else {"after": query}
    request = RequestFactory().get("/", data=data, headers=headers)
    assert last_event_id(request) == expected


def _reads_while_streaming(table: FakeTable, seconds: float, news_at: float | None) -> int:
    """Streams ``table`` for ``seconds`` (the sync driver), with one announced event at
    ``news_at`` when given; how many times the stream read the table after its snapshot."""
    request = RequestFactory().get("/")
    response = event_stream_response(
        request, table_id=table.table_id, after_seq=None, messages_after=table.messages_after
    )
    timer = None if news_at is None else announce_later(table, news_at, "dealt", live.publish_now)
    started = time.monotonic()
    for _chunk in response.streaming_content:
        if time.monotonic() - started > seconds:
            break
    response.close()
    if timer is not None:
        timer.join()
    return len(table.calls) - 1


def test_a_quiet_tables_stream_reads_nothing_while_the_news_flows(settings, table, redis_url):
    """Through Redis every server's news reaches this process: a stream whose table has
    no news does not read it at all, however often its wait times out (the poll)."""
    settings.TABLE_STREAM_POLL_SECONDS = 0.05
    settings.TABLE_STREAM_SECONDS = 1.0
    assert live.news_epoch() is not None
    assert _reads_while_streaming(table, 0.6, news_at=None) == 0
    assert table.calls == [None]


def test_news_of_the_table_costs_its_streams_one_read(settings, table, redis_url):
    settings.TABLE_STREAM_POLL_SECONDS = 0.05
    settings.TABLE_STREAM_SECONDS = 1.0
    assert _reads_while_streaming(table, 0.6, news_at=0.2) == 1
    assert table.calls == [None, 2]


def test_without_news_it_can_trust_the_stream_reads_at_every_poll(settings, table):
    """No Redis (news from other processes would not come): the poll reads the table."""
    settings.TABLE_STREAM_POLL_SECONDS = 0.05
    settings.TABLE_STREAM_SECONDS = 1.0
    assert live.news_epoch() is None
    assert _reads_while_streaming(table, 0.6, news_at=None) >= 5


def test_a_resubscribed_channel_makes_every_stream_read_once(settings, table, redis_url):
    """News sent while the subscriber was away is lost: after it subscribes again each
    stream reads its table once, then goes quiet again."""
    settings.TABLE_STREAM_POLL_SECONDS = 0.05
    settings.TABLE_STREAM_SECONDS = 1.0

    def resubscribe() -> None:
        live.stop_listening()
        table.add("dealt while away")  # never announced
        assert live.start_listening(timeout=3)

    timer = threading.Timer(0.2, resubscribe)
    timer.start()
    reads = _reads_while_streaming(table, 0.8, news_at=None)
    timer.join()
    assert 1 <= reads <= 3  # the reads while it was away (polling), then one once back
    assert table.calls[-1] == 2 and len([c for c in table.calls if c == 3]) == 0


def test_streams_opened_together_end_apart(settings, table):
    """Each stream lives up to a tenth less than TABLE_STREAM_SECONDS, at random: streams
    opened at one moment (a server restarted) do not all reconnect at the same moments."""
    settings.TABLE_STREAM_SECONDS = 1.0
    settings.TABLE_STREAM_HEARTBEAT_SECONDS = 5
    ended = []
    for _ in range(6):
        started = time.monotonic()
        response = event_stream_response(
            RequestFactory().get("/"),
            table_id=table.table_id,
            after_seq=2,
            messages_after=table.messages_after,
        )
        for _chunk in response.streaming_content:
            pass
        ended.append(time.monotonic() - started)
    assert all(0.85 <= lived <= 1.1 for lived in ended), ended
    assert max(ended) - min(ended) > 0.005, ended


def test_after_a_large_message_the_async_stream_sends_an_empty_chunk(table):
    """The server's send loop keeps the last chunk it sent while the stream waits: after a
    table's HTML the async stream yields an empty chunk (nothing on the wire), so a waiting
    stream holds none of it; small messages are not followed by one."""
    table.events[0] = (1, "x" * 4096)  # the first snapshot is a large table

    async def read() -> list[bytes]:
        response = await AsyncClient().get(f"/stream/{table.table_id}/")
        timer = announce_later(table, 0.15, "dealt", live.publish_now)
        chunks = [chunk async for chunk in response.streaming_content]
        timer.join()
        return chunks

    chunks = run_in_fresh_loop(read)
    large = [n for n, chunk in enumerate(chunks) if len(chunk) > 1024]
    assert large and all(chunks[n + 1] == b"" for n in large)
    small = [n for n, chunk in enumerate(chunks[:-1]) if 0 < len(chunk) <= 1024]
    assert small and all(chunks[n + 1] != b"" for n in small)
