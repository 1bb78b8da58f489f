"""The ASGI application (blackjack_site/asgi.py) serves a view marked to stream through
Django's ASGI handler and every other request through Django's WSGI handler in a thread."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from blackjack_site.asgi import application
from game.core.streaming import is_marked_to_stream, streams_on_the_event_loop
from tests.game.tables.helpers import http_scope, run_in_fresh_loop


@csrf_exempt
def page(request: HttpRequest) -> HttpResponse:
    return HttpResponse(
        f"{type(request).__name__} {request.method} {request.body.decode()} "
        f"{threading.current_thread() is threading.main_thread()}"
    )


def stream(request: HttpRequest) -> StreamingHttpResponse:
    async def chunks() -> Any:
        yield type(request).__name__.encode()

    return StreamingHttpResponse(chunks())


STREAMS_HELD = 20
held: dict[str, Any] = {}


def held_stream(request: HttpRequest) -> StreamingHttpResponse:
    """A stream that stays open until the test releases it."""

    async def chunks() -> Any:
        held["open"] += 1
        await held["release"].wait()
        yield b"released"

    return StreamingHttpResponse(chunks())


urlpatterns = [
    path("held-stream/", streams_on_the_event_loop(held_stream)),
    path("page/", page),
    path("stream/", streams_on_the_event_loop(stream)),
    # Marked under another decorator: the mark is carried out to the view the URL names.
    path("guarded-stream/", require_GET(streams_on_the_event_loop(stream))),
]


@pytest.fixture(autouse=True)
def site(settings) -> None:
    settings.ROOT_URLCONF = __name__


async def call(method: str, url: str, body: bytes = b"") -> tuple[int, bytes]:
    """The status and body ``application`` answers a request with, the client staying
    until the whole response is sent."""
    sent: list[dict[str, Any]] = []
    received = asyncio.Event()

    async def receive() -> dict[str, Any]:
        if not received.is_set():
            received.set()
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # the client stays until the response is sent
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = http_scope(method, url, [(b"content-length", str(len(body)).encode())])
    await asyncio.wait_for(application(scope, receive, send), timeout=10)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    content = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, content


def serve(method: str, url: str, body: bytes = b"") -> tuple[int, bytes]:
    result: tuple[int, bytes] = run_in_fresh_loop(lambda: call(method, url, body))
    return result


def test_a_page_is_served_by_the_wsgi_handler_in_a_thread() -> None:
    assert serve("GET", "/page/") == (200, b"WSGIRequest GET  False")


def test_a_posted_body_reaches_the_wsgi_handler() -> None:
    assert serve("POST", "/page/", b"chip=500") == (200, b"WSGIRequest POST chip=500 False")


def test_a_view_marked_to_stream_is_served_by_the_asgi_handler() -> None:
    assert serve("GET", "/stream/") == (200, b"ASGIRequest")
    assert serve("GET", "/guarded-stream/") == (200, b"ASGIRequest")


def test_open_streams_hold_no_thread_each() -> None:
    async def open_streams_then_release() -> tuple[int, int, list[tuple[int, bytes]]]:
        held.update(open=0, release=asyncio.Event())
        threads_before = threading.active_count()
        streams = [asyncio.create_task(call("GET", "/held-stream/")) for _ in range(STREAMS_HELD)]
        async with asyncio.timeout(10):
            while held["open"] < STREAMS_HELD:
                await asyncio.sleep(0.01)
        threads_while_open = threading.active_count()
        held["release"].set()
        return threads_before, threads_while_open, list(await asyncio.gather(*streams))

    threads_before, threads_while_open, answers = run_in_fresh_loop(open_streams_then_release)
    assert answers == [(200, b"released")] * STREAMS_HELD
    # A few threads the streams share for their middleware and views, not one a stream.
    assert threads_while_open - threads_before <= 4


def test_an_unknown_address_is_the_wsgi_handlers_404() -> None:
    assert serve("GET", "/nowhere/")[0] == 404


def test_the_tables_live_events_are_marked_to_stream() -> None:
    from game.tables.views.events import table_events

    assert is_marked_to_stream(table_events)


def test_the_application_answers_the_servers_lifespan_messages() -> None:
    async def lifespan() -> list[str]:
        incoming = iter(["lifespan.startup", "lifespan.shutdown"])
        answers: list[str] = []

        async def receive() -> dict[str, Any]:
            return {"type": next(incoming)}

        async def send(message: dict[str, Any]) -> None:
            answers.append(message["type"])

        await application({"type": "lifespan", "asgi": {"version": "3.0"}}, receive, send)
        return answers

    answers = run_in_fresh_loop(lifespan)
    assert answers == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
