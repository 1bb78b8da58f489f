"""Live streams are capped per player (across processes, through the cache) and per
process (below a WSGI server's threads): a refused stream is told to come back later,
which the page's EventSource does from its last event, so nothing is lost."""

from __future__ import annotations

import re
import time

import pytest
from django.core.cache import cache
from django.core.signals import request_finished
from django.db import close_old_connections
from django.test import Client
from django.urls import reverse

from game.tables import stream_limits
from tests.game.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def short_streams(settings) -> None:
    settings.TABLE_STREAM_SECONDS = 0.2


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def open_stream(client: Client, table) -> object:
    """A stream opened and left open (its body not read yet)."""
    response = client.get(reverse("tables:events", args=[table.pk]))
    assert response.status_code == 200
    return response


def hang_up(response) -> None:
    """The browser goes away mid-stream: the server closes the response, and with it the
    stream's iterator (as the test client does, keeping the test's database connection)."""
    request_finished.disconnect(close_old_connections)
    try:
        response.close()
    finally:
        request_finished.connect(close_old_connections)


def is_busy(response) -> bool:
    """The refusal: a retry of a few seconds and no event, so the browser comes back."""
    if response.streaming:
        return False
    text = response.content.decode()
    retry = re.fullmatch(r"retry: (\d+)\n\n: busy\n\n", text)
    return retry is not None and 5000 <= int(retry.group(1)) <= 8000


def test_a_player_holds_at_most_so_many_streams(settings, make_table, ana, ben) -> None:
    settings.TABLE_STREAMS_PER_PLAYER = 2
    table = make_table()
    first, second = open_stream(client_of(ana), table), open_stream(client_of(ana), table)
    refused = open_stream(client_of(ana), table)
    assert is_busy(refused)
    assert refused["Content-Type"] == "text/event-stream"
    # Another player is not affected.
    assert not is_busy(open_stream(client_of(ben), table))
    # A stream that ends gives its place back.
    b"".join(first.streaming_content)
    again = open_stream(client_of(ana), table)
    assert not is_busy(again)
    assert "event: table" in b"".join(again.streaming_content).decode()
    hang_up(second)
    assert not is_busy(open_stream(client_of(ana), table))


def test_a_process_serves_at_most_so_many_streams_under_wsgi(settings, make_table) -> None:
    settings.TABLE_STREAMS_PER_WSGI_PROCESS = 3
    table = make_table()
    players = [PlayerFactory() for _ in range(4)]
    held = [open_stream(client_of(player), table) for player in players[:3]]
    assert not any(is_busy(response) for response in held)
    assert is_busy(open_stream(client_of(players[3]), table))
    hang_up(held[0])
    assert not is_busy(open_stream(client_of(players[3]), table))


def test_asgi_streams_have_a_cap_of_their_own(settings) -> None:
    settings.TABLE_STREAMS_PER_PROCESS = 2
    settings.TABLE_STREAMS_PER_WSGI_PROCESS = 1
    settings.TABLE_STREAMS_PER_PLAYER = 10
    taken = [stream_limits.admit(7, asgi=True) for _ in range(2)]
    assert all(taken) and stream_limits.admit(7, asgi=True) is None
    for places in taken:
        assert places is not None
        places.give_back()
        places.give_back()  # twice changes nothing
    assert stream_limits.PROCESS.held() == 0


def test_places_a_crashed_process_held_expire_by_themselves(settings, monkeypatch) -> None:
    settings.TABLE_STREAMS_PER_PLAYER = 2
    # Two streams whose process died: never given back.
    assert stream_limits.admit(7, asgi=False) and stream_limits.admit(7, asgi=False)
    assert stream_limits.admit(7, asgi=False) is None
    later_wall = time.time() + 0.2 + stream_limits.MARGIN_SECONDS + 1
    later_clock = time.monotonic() + 0.2 + stream_limits.MARGIN_SECONDS + 1
    monkeypatch.setattr(time, "time", lambda: later_wall)
    monkeypatch.setattr(time, "monotonic", lambda: later_clock)
    assert stream_limits.admit(7, asgi=False) is not None


def test_a_cache_out_of_reach_refuses_nobody(settings, monkeypatch) -> None:
    settings.TABLE_STREAMS_PER_PLAYER = 1
    monkeypatch.setattr(cache, "add", lambda *args, **kwargs: False)
    monkeypatch.setattr(cache, "get_many", lambda *args, **kwargs: {})
    assert stream_limits.admit(7, asgi=False) and stream_limits.admit(7, asgi=False)
