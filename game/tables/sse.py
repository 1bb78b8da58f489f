"""Server-Sent Events for the shared tables (T-10, T-14).

``event_stream_response`` turns a view's ``messages_after(seq)`` -- a sync function that
reads the database and returns what this viewer must be sent for everything after ``seq``
(None: the first connect, a full snapshot) and the new last seq -- into a stream that:

- sends ``retry:`` once, then ``messages_after(after_seq)`` at once;
- waits for news of the table (game/tables/live.py) and sends ``messages_after(last)``;
  it reads only on news while this process hears every server's news (Redis subscribed:
  a quiet table's stream costs no query), and every TABLE_STREAM_POLL_SECONDS as well
  whenever it may not (no Redis, Redis away or just resubscribed), so that it never
  depends on the broker alone;
- sends a comment line after TABLE_STREAM_HEARTBEAT_SECONDS of silence (proxies and
  browsers keep the connection, a vanished client is noticed);
- ends after TABLE_STREAM_SECONDS: the browser reconnects with ``Last-Event-ID`` (or
  ``?after=``, see ``last_event_id``) and catches up from there, on any app server;
- ends at once when ``messages_after`` raises ``StreamEnded`` (the viewer may no longer
  see the table), saying so first with an ``end`` event (data ``gone``); and ends after
  sending an ``end`` event ``messages_after`` returned (a closed table's, data ``closed``):
  the page stops listening and says that live updates have ended, rather than reopening
  the stream again and again;
- with news through Redis, says whether it comes: a ``live`` event, ``paused`` while this
  process cannot hear Redis (the stream goes on, polling the database) and ``flowing``
  otherwise, sent first and then whenever it changes (the page shows a notice meanwhile).

A stream refused by the caps of game/tables/stream_limits.py gets ``busy_stream_response``:
a ``retry:`` of a few seconds and nothing else, so the browser's EventSource reconnects then
from its last event (Last-Event-ID), as after any stream's end: nothing is lost.

The loop is written once (``_stream_loop``): it yields the bytes to send and asks for each
read and each wait. Django buffers a sync iterator under ASGI and an async one under WSGI,
so two thin drivers do its reads and waits, chosen by the request: an async generator for
ASGIRequest (uvicorn, production: docs/deploy.md), a sync generator otherwise (runserver,
a WSGI server, the test Client, live_server).
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections, connections
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse

from game.tables import live

MessagesAfter = Callable[[int | None], tuple[list["SseMessage"], int | None]]

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_FIELD_JUNK = re.compile(r"[\r\n\x00]")
# A seq is a positive integer; anything longer than this is junk, not a huge seq.
_MAX_ID_DIGITS = 18


class StreamEnded(Exception):
    """Raised by ``messages_after`` to end the stream now, sending nothing more but the
    ``end`` event: what it reads shows the viewer may no longer see the table (a renewed
    invitation link)."""


# The last event of a stream that ends for good: the page stops listening (its data says
# why: ENDED_GONE, or the closed table's own reason).
END_EVENT = "end"
ENDED_GONE = "gone"
ENDED_CLOSED = "closed"


@dataclass(frozen=True)
class SseMessage:
    """One event: ``event`` names it (the browser's listener), ``data`` is its text (line
    breaks allowed: sent as several ``data:`` lines, joined back by the browser), ``id``
    is the seq it brings the viewer to (the browser's Last-Event-ID), None for no id."""

    event: str
    data: str
    id: str | None = None

    def encode(self) -> bytes:
        lines = []
        if self.event:
            lines.append("event: " + _FIELD_JUNK.sub("", self.event))
        data = self.data
        if "\r" in data:
            data = _LINE_BREAK.sub("\n", data)
        # One "data:" line per line of the text (str.replace: a table's HTML has hundreds).
        lines.append("data: " + data.replace("\n", "\ndata: "))
        if self.id is not None:
            lines.append("id: " + _FIELD_JUNK.sub("", str(self.id)))
        return ("\n".join(lines) + "\n\n").encode()


_GONE = SseMessage(END_EVENT, ENDED_GONE).encode()


def _ended(messages: list[SseMessage]) -> bool:
    """Whether ``messages`` end the stream for good (the last is an ``end`` event)."""
    return bool(messages) and messages[-1].event == END_EVENT


def last_event_id(request: HttpRequest) -> int | None:
    """The seq the browser already has: the ``Last-Event-ID`` header (EventSource's own
    reconnects) first, else the ``after`` query parameter (table_live.js's reconnects);
    None when absent or not a plain non-negative integer. Never raises."""
    for raw in (request.headers.get("Last-Event-ID"), request.GET.get("after")):
        if raw is None:
            continue
        text = str(raw).strip()
        if text.isascii() and text.isdigit() and len(text) <= _MAX_ID_DIGITS:
            return int(text)
    return None


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


@dataclass(frozen=True)
class _Timing:
    lifetime: float
    poll: float
    heartbeat: float
    retry_ms: int

    @classmethod
    def from_settings(cls) -> _Timing:
        return cls(
            lifetime=_setting("TABLE_STREAM_SECONDS", 300),
            poll=max(0.05, _setting("TABLE_STREAM_POLL_SECONDS", 1.0)),
            heartbeat=max(0.05, _setting("TABLE_STREAM_HEARTBEAT_SECONDS", 15)),
            retry_ms=int(_setting("TABLE_STREAM_RETRY_MS", 1000)),
        )


HEARTBEAT = b": keep-alive\n\n"
NEWS_EVENT = "live"
NEWS_PAUSED = "paused"
NEWS_FLOWING = "flowing"


def _news_status(said: bool | None) -> tuple[bytes, bool | None]:
    """The ``live`` message when whether news is paused is not what the stream last
    ``said`` (None: nothing yet), and what it says now. Nothing without Redis: news
    through the in-process broker never pauses."""
    if not live.uses_redis():
        return b"", None
    paused = live.news_paused()
    if paused == said:
        return b"", said
    return SseMessage(NEWS_EVENT, NEWS_PAUSED if paused else NEWS_FLOWING).encode(), paused


def event_stream_response(
    request: HttpRequest,
    *,
    table_id: int,
    after_seq: int | None,
    messages_after: MessagesAfter,
    on_end: Callable[[], None] | None = None,
) -> StreamingHttpResponse:
    """The SSE response for one viewer of one table (see the module's docstring);
    ``on_end`` is called once the stream is over, however it ends."""
    timing = _Timing.from_settings()
    content: AsyncIterator[bytes] | Iterator[bytes]
    if isinstance(request, ASGIRequest):
        content = _async_stream(table_id, after_seq, messages_after, timing)
        if on_end is not None:
            content = _AsyncThen(content, on_end)
    else:
        content = _sync_stream(table_id, after_seq, messages_after, timing)
        if on_end is not None:
            content = _SyncThen(content, on_end)
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


class _Ending:
    """Calls ``on_end`` once, when the stream runs out or the response is closed (Django
    closes it when the server is done with it, the client gone included), whether or not
    the stream ever started: a generator's own ``finally`` would not run then."""

    def __init__(self, on_end: Callable[[], None]) -> None:
        self._on_end: Callable[[], None] | None = on_end

    def end(self) -> None:
        on_end, self._on_end = self._on_end, None
        if on_end is not None:
            on_end()


class _SyncThen(_Ending):
    def __init__(self, content: Iterator[bytes], on_end: Callable[[], None]) -> None:
        super().__init__(on_end)
        self._content = content

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        try:
            return next(self._content)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        try:
            close = getattr(self._content, "close", None)
            if close is not None:
                close()
        finally:
            self.end()


class _AsyncThen(_Ending):
    def __init__(self, content: AsyncIterator[bytes], on_end: Callable[[], None]) -> None:
        super().__init__(on_end)
        self._content = content

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self

    async def __anext__(self) -> bytes:
        try:
            return await anext(self._content)
        except BaseException:
            self.end()
            raise

    def close(self) -> None:
        # Django's ASGI handler closes the response when it is done (a sync close); a
        # client gone cancels the stream, mostly while it waits in __anext__ above (else
        # its places expire by themselves: stream_limits.py). The generator, not started or
        # interrupted, is finalised by the event loop.
        self.end()


# A refused stream comes back after this, plus up to BUSY_JITTER_MS so that refused
# browsers do not all come back at once.
BUSY_RETRY_MS = 5000
BUSY_JITTER_MS = 3000


def busy_stream_response() -> HttpResponse:
    """A stream refused for now (too many open: stream_limits.py): a ``retry:`` of a few
    seconds and a comment, then the end. The browser's EventSource reconnects after it
    with its Last-Event-ID, as it does after every stream's end, and catches up."""
    retry_ms = BUSY_RETRY_MS + secrets.randbelow(BUSY_JITTER_MS + 1)
    response = HttpResponse(
        f"retry: {retry_ms}\n\n: busy\n\n".encode(), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    return response


def ended_stream_response(reason: str = ENDED_GONE) -> HttpResponse:
    """A stream that is over before it starts: only the ``end`` event (``reason``), for a
    viewer the stream cannot serve any more (logged out in another tab). An answer the
    browser's EventSource reads, where a redirect to the login page or an error status
    would only fail it (the page could not tell why, and the console reports an error)."""
    response = HttpResponse(
        SseMessage(END_EVENT, reason).encode(), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    return response


def _encode_all(messages: list[SseMessage]) -> bytes:
    return b"".join(message.encode() for message in messages)


def _wait_after(last: int | None, known_before: int | None) -> int | None:
    """What the next wait waits past: the seq sent, or the news already heard of before
    the read if higher (so that news the read could not turn into messages does not wake
    the stream again and again)."""
    if known_before is None:
        return last
    return known_before if last is None else max(last, known_before)


def release_connections() -> None:
    """Gives the database connections back between reads: a stream lives minutes, and
    must not hold a PostgreSQL connection all that time. A connection inside a
    transaction (the test client's test case) is left alone."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


@dataclass(frozen=True)
class _Read:
    """The loop asks for one read: the news known, then ``messages_after(after)``."""

    after: int | None


@dataclass(frozen=True)
class _Wait:
    """The loop asks to wait for news of the table past seq ``after``, at most ``timeout``."""

    after: int | None
    timeout: float


# What a read brings the loop: the messages, the new last seq and the news known before
# the read; None when ``messages_after`` raised StreamEnded.
_ReadResult = tuple[list[SseMessage], int | None, int | None] | None
# The loop's steps: bytes to send, or a read or a wait for its driver to do.
_Step = bytes | _Read | _Wait


def _stream_loop(
    table_id: int, after_seq: int | None, timing: _Timing
) -> Generator[_Step, _ReadResult, None]:
    """The stream's one loop (the module's docstring): yields the bytes to send, and the
    reads and waits for its driver to do, sync or async, getting each read's result
    back (``send``). It does no I/O of its own but the news status and the clock.

    After a wait it reads only when the table may have changed: news of it came, or this
    process may have missed news (``live.news_epoch``: no Redis, Redis away, or
    resubscribed since the last read), in which case it reads at every poll. So while the
    news flows, a stream whose table is quiet costs no query at all."""
    # Streams opened together (a server restarted, a busy moment) would otherwise end and
    # reconnect together for good: each lives up to a tenth less, at random.
    lifetime = timing.lifetime * (1 - secrets.randbelow(101) / 1000)
    deadline = time.monotonic() + lifetime
    status, said = _news_status(None)
    yield f"retry: {timing.retry_ms}\n\n".encode() + status
    epoch = live.news_epoch()
    read = yield _Read(after_seq)
    if read is None:
        yield _GONE
        return
    messages, last, known = read
    wait_after = _wait_after(last, known)
    last_sent = time.monotonic()
    if messages:
        yield _encode_all(messages)
        if _ended(messages):
            return
    while True:
        now = time.monotonic()
        if now >= deadline:
            return
        heartbeat_at = last_sent + timing.heartbeat
        # A waiting stream holds nothing of what it sent (a table's HTML is tens of KB).
        messages, read = [], None
        yield _Wait(wait_after, min(now + timing.poll, deadline, heartbeat_at) - now)
        if time.monotonic() >= deadline:
            return
        current_epoch = live.news_epoch()
        if current_epoch is None or current_epoch != epoch or live.news_since(table_id, wait_after):
            epoch = current_epoch
            read = yield _Read(last)
            if read is None:
                yield _GONE
                return
            messages, new_last, known = read
            last = last if new_last is None else new_last
            wait_after = _wait_after(last, known)
        status, said = _news_status(said)
        if messages or status:
            yield status + _encode_all(messages)
            if _ended(messages):
                return
            last_sent = time.monotonic()
        elif time.monotonic() >= heartbeat_at:
            yield HEARTBEAT
            last_sent = time.monotonic()


def _read(
    messages_after: MessagesAfter, table_id: int, after: int | None, release: Callable[[], None]
) -> _ReadResult:
    """One read for the loop, then ``release`` (the database connections it used)."""
    try:
        known = live.known_seq(table_id)
        messages, last = messages_after(after)
    except StreamEnded:
        return None
    finally:
        release()
    return messages, last, known


def _sync_stream(
    table_id: int, after_seq: int | None, messages_after: MessagesAfter, timing: _Timing
) -> Iterator[bytes]:
    """The loop driven in the request's thread (WSGI): each read gives its connection
    back at once (``release_connections``), each wait blocks the thread."""
    loop = _stream_loop(table_id, after_seq, timing)
    try:
        step = next(loop)
        while True:
            reply: _ReadResult = None
            if isinstance(step, bytes):
                yield step
            elif isinstance(step, _Wait):
                live.wait_for_news(table_id, step.after, step.timeout)
            else:
                reply = _read(messages_after, table_id, step.after, release_connections)
            step = loop.send(reply)
    except StopIteration:
        return
    finally:
        loop.close()


_stream_reads: ThreadPoolExecutor | None = None
_stream_reads_lock = threading.Lock()


def stream_reads() -> ThreadPoolExecutor:
    """The threads every stream of this process reads in: a few
    (TABLE_STREAM_READ_THREADS), not the loop's default pool. An action wakes every
    stream at its table at once; in the default pool their reads would take the
    interpreter from the players' own posts in turn, one thread each, while the reads of
    one table mostly wait for the one building its scene anyway (scenes.py). Fewer
    threads: a player's own answer first, the others' screens a few ms later."""
    global _stream_reads
    with _stream_reads_lock:
        if _stream_reads is None:
            _stream_reads = ThreadPoolExecutor(
                max_workers=max(1, int(_setting("TABLE_STREAM_READ_THREADS", 2))),
                thread_name_prefix="table-stream-read",
            )
        return _stream_reads


_HELD_CHUNK_BYTES = 1024


async def _async_stream(
    table_id: int, after_seq: int | None, messages_after: MessagesAfter, timing: _Timing
) -> AsyncIterator[bytes]:
    """The loop driven on the event loop (ASGI): each read in a thread of
    ``stream_reads()`` (its connection kept for that thread's next read, unless old or
    broken), each wait awaited, holding no thread."""
    read = sync_to_async(_read, thread_sensitive=False, executor=stream_reads())
    loop = _stream_loop(table_id, after_seq, timing)
    try:
        step = next(loop)
        while True:
            reply: _ReadResult = None
            if isinstance(step, bytes):
                yield step
                if len(step) > _HELD_CHUNK_BYTES:
                    # The server's send loop holds the last chunk it sent until the next
                    # comes: an empty one (nothing on the wire) lets a waiting stream hold
                    # no table's HTML, tens of KB each.
                    yield b""
            elif isinstance(step, _Wait):
                await live.await_news(table_id, step.after, step.timeout)
            else:
                reply = await read(messages_after, table_id, step.after, close_old_connections)
            step = loop.send(reply)
    except StopIteration:
        return
    finally:
        loop.close()
