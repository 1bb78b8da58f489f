"""What a request costs through the site's ASGI application beside Django's ASGI handler.

    .venv/bin/python bench/asgi_handlers_bench.py [--pairs 4] [--requests 400]

blackjack_site.asgi.application serves every request but the live streams through
Django's WSGI handler in a thread (a2wsgi); before, Django's ASGI handler served them all,
running each sync middleware hook and the view through ``sync_to_async`` (a hop between
the event loop and a thread of the request's own for each). Both are driven here in one
process, on one event loop, with the same requests (no network, no server): the login page
(a GET that renders a form with its CSRF token) and an anonymous GET of a page behind the
login (a redirect), one at a time and eight at once. Each measurement is ``--requests``
requests; the pairs alternate which handler goes first (A B, B A, ...). It reports the
process's CPU time (every thread) and the wall time per request, medians over the pairs,
and the ratio of the application to Django's handler. No database is touched. Results in
bench/RESULTS.md, "Shared tables under load".
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
os.environ["DJANGO_SETTINGS_MODULE"] = "bench_site.settings"
os.environ.setdefault("SECRET_KEY", "asgi-handlers-bench")
os.environ.setdefault("DEBUG", "0")

import django  # noqa: E402

django.setup()

from django.core.asgi import get_asgi_application  # noqa: E402

import blackjack_site.asgi  # noqa: E402

App = Callable[[dict[str, Any], Any, Any], Awaitable[None]]
REQUESTS = {"login page (200)": "/accounts/login/", "behind the login (302)": "/bench/bare/"}


async def one_request(app: App, path: str) -> int:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    received = False
    statuses: list[int] = []

    async def receive() -> dict[str, Any]:
        nonlocal received
        if not received:
            received = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client stays until the response is sent
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    await app(scope, receive, send)
    return statuses[0]


async def measure(app: App, path: str, count: int, at_once: int) -> tuple[float, float, set[int]]:
    """CPU and wall milliseconds per request over ``count`` requests, ``at_once`` in flight."""
    gate = asyncio.Semaphore(at_once)

    async def gated() -> int:
        async with gate:
            return await one_request(app, path)

    cpu, wall = time.process_time(), time.perf_counter()
    statuses = await asyncio.gather(*(gated() for _ in range(count)))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return cpu / count * 1000, wall / count * 1000, set(statuses)


async def main(pairs: int, count: int) -> None:
    handlers: dict[str, App] = {
        "Django's ASGI handler": get_asgi_application(),
        "the site's application": blackjack_site.asgi.application,
    }
    for label, path in REQUESTS.items():
        for at_once in (1, 8):
            for app in handlers.values():  # warm both: templates, URL patterns, threads
                await measure(app, path, 50, at_once)
            cpu: dict[str, list[float]] = {name: [] for name in handlers}
            wall: dict[str, list[float]] = {name: [] for name in handlers}
            for pair in range(pairs):
                order = list(handlers) if pair % 2 == 0 else list(reversed(handlers))
                for name in order:
                    spent, took, statuses = await measure(handlers[name], path, count, at_once)
                    assert len(statuses) == 1, statuses
                    cpu[name].append(spent)
                    wall[name].append(took)
            print(f"{label}, {at_once} at once ({pairs} pairs of {count} requests):")
            for name in handlers:
                print(
                    f"  {name:24} CPU {statistics.median(cpu[name]):.3f} ms/request, "
                    f"wall {statistics.median(wall[name]):.3f} ms/request"
                )
            before, after = (statistics.median(cpu[name]) for name in handlers)
            print(f"  application / Django's handler, CPU: x{after / before:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument("--requests", type=int, default=400)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.pairs, arguments.requests))
