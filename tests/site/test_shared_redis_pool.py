"""The Redis cache's connections are the process's, not each request's: Django keeps a cache
backend per async context, so under ASGI every request had a backend, a connection pool and
a new Redis connection of its own (and every open table stream held one for minutes)."""

from __future__ import annotations

import asyncio
import contextvars
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.test import AsyncClient
from django.urls import reverse

from blackjack_site.cache import SharedConnectionPool

pytestmark = [pytest.mark.django_db(transaction=True)]


def connections_received(redis: Any) -> int:
    client = redis.client()
    try:
        return int(client.info("stats")["total_connections_received"])
    finally:
        client.close()


def test_asgi_requests_share_the_processes_redis_connections(site_on_private_redis, player) -> None:
    client = AsyncClient()

    def fresh(coroutine: Any) -> asyncio.Task[Any]:
        # A request's task starts from the server's context, where no cache backend
        # was made yet (the test's own context has one, which copies would share).
        return asyncio.create_task(coroutine, context=contextvars.Context())

    async def browse() -> None:
        await fresh(client.aforce_login(player))
        responses = await asyncio.gather(
            *(fresh(client.get(reverse("my_games"))) for _ in range(20))
        )
        assert all(response.status_code == 200 for response in responses)

    before = connections_received(site_on_private_redis)
    # In a thread of its own: a test before this one may have left this thread's loop set.
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(lambda: asyncio.run(browse())).result()
    # 21 requests, each reading its session and user from the cache: a few connections
    # in all (the pool's, one for each thread that used it at once), not one a request.
    assert connections_received(site_on_private_redis) - before <= 4


def test_one_pool_per_url_and_options() -> None:
    first = SharedConnectionPool.from_url("redis://127.0.0.1:6399/3", socket_timeout=1)
    assert SharedConnectionPool.from_url("redis://127.0.0.1:6399/3", socket_timeout=1) is first
    assert SharedConnectionPool.from_url("redis://127.0.0.1:6399/4", socket_timeout=1) is not first
    assert SharedConnectionPool.from_url("redis://127.0.0.1:6399/3", socket_timeout=2) is not first
