"""The ASGI application: the production server is uvicorn (README "Production server"),

    uvicorn blackjack_site.asgi:application --host 127.0.0.1 --port 8000 --workers 2

Two handlers behind one application. A view marked to stream (game/core/streaming.py: a
shared table's live events) is served by Django's ASGI handler: its async stream holds no
thread while it waits. Every other request -- pages, posts, static files -- is served by
Django's WSGI handler in one of PAGE_THREADS threads (a2wsgi): its middleware and view run
in that thread from start to end. Under Django's ASGI handler each sync middleware hook and
the view hop between the event loop and a thread of the request's own (about twenty hops a
request here): the same request cost 1.2 to 2 times the CPU (bench/asgi_handlers_bench.py).

A stream's own sync parts (its middleware hooks, the view that opens it, the response's
close) run in one of a few threads the streams of the process share
(STREAM_SETUP_THREADS), each stream always in the same one. Left to itself, Django's ASGI
handler gives every request a thread of its own for them, which a stream would keep idle
for its whole life: about 20 KB or more of memory an open stream.
"""

import gc
import itertools
import os
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from a2wsgi import WSGIMiddleware
from asgiref.sync import ThreadSensitiveContext
from django.conf import settings
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application
from django.urls import Resolver404, resolve

from game.core.streaming import is_marked_to_stream

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blackjack_site.settings")

streams = get_asgi_application()
# Django's stubs type the handler's answer as an HttpResponseBase: an iterable of bytes,
# as WSGI asks.
pages = WSGIMiddleware(cast(Any, get_wsgi_application()), workers=settings.PAGE_THREADS)

# Each runs one call at a time on one thread, as a thread-sensitive context asks. Django's
# database connections belong to a thread: the streams of one thread take turns with its
# connection between their calls, in autocommit, as a WSGI thread's requests do one after
# another (and the view gives it back before its stream starts). More than one, so that a
# slow opening holds up only some of the others.
STREAM_SETUP_THREADS = 2
stream_setup_threads = itertools.cycle(
    [
        ThreadPoolExecutor(max_workers=1, thread_name_prefix="stream-setup")
        for _ in range(STREAM_SETUP_THREADS)
    ]
)


def wants_the_event_loop(scope: Mapping[str, Any]) -> bool:
    """Whether the HTTP request ``scope`` asks for a view marked to stream."""
    path = scope["path"].removeprefix(scope.get("root_path", ""))
    try:
        return is_marked_to_stream(resolve(path).func)
    except Resolver404:
        return False


async def application(scope: Any, receive: Any, send: Any) -> None:
    """Serves a stream through Django's ASGI handler, anything else (lifespan included)
    through the WSGI handler (see the module's docstring)."""
    if scope["type"] == "http" and wants_the_event_loop(scope):
        # Outermost, this context is the one Django's handler uses: its own, nested, reuses it.
        async with ThreadSensitiveContext(executor=next(stream_setup_threads)):
            await streams(scope, receive, send)
    else:
        await pages(scope, receive, send)


# What was loaded to start (Django, the apps, the URL patterns) lives as long as the
# process: frozen out of the cyclic collector's reach, its full collections, which pause
# every request and stream of the process, need not walk it. Python's collector
# thresholds stay: larger ones (5,000 / 10 / 10; 700 / 10 / 100) were measured under load
# and made the slowest actions slower and the servers busier (bench/RESULTS.md "Shared
# tables under load").
gc.freeze()
