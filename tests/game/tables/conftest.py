"""Shared-table fixtures: a moved-by-hand clock, players, a table with a stacked shoe."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from game.core import clock as game_clock
from game.rules.clock import FakeClock
from game.tables import live, scenes, services
from game.tables.models import SharedTable
from game.tables.services import seats as seat_services
from tests.game.factories import PlayerFactory
from tests.game.tables.helpers import bet_and_ready, seat_version, stack_table_shoe


@pytest.fixture(autouse=True)
def no_clock_thread(settings) -> None:
    """The tests move a fake clock and apply deadlines themselves: no clock thread runs."""
    settings.TABLE_CLOCK = "external"


@pytest.fixture(autouse=True)
def fresh_scenes() -> None:
    """Each test starts with no table scene, nor news heard, kept from another test's
    tables (a flushed database gives their ids again)."""
    scenes.forget_all()
    live.forget_news_heard()


@pytest.fixture(autouse=True)
def known_seat_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seats get known client seeds (random in play), so that a table's shoes, dealt with
    its seats' seeds joined (F-2), are the same every run."""
    numbers = itertools.count(1)
    monkeypatch.setattr(seat_services, "new_client_seed", lambda: f"seat-seed-{next(numbers)}")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(game_clock, "CLOCK", fake)
    return fake


@pytest.fixture
def ana(db) -> Any:
    return PlayerFactory(username="ana")


@pytest.fixture
def ben(db) -> Any:
    return PlayerFactory(username="ben")


@pytest.fixture
def watcher(db) -> Any:
    return PlayerFactory(username="wendy")


@pytest.fixture
def make_table(ana, clock) -> Callable[..., SharedTable]:
    def make(
        host: Any = None, *, seats: int = 5, public: bool = True, **options: Any
    ) -> SharedTable:
        options.setdefault("trivia_mode", False)
        return services.create_table(
            host=host or ana,
            name="Friday night",
            public=public,
            seat_count=seats,
            intermission_seconds=30,
            options=options,
        )

    return make


@pytest.fixture
def seated_pair(make_table, ana, ben) -> Callable[..., SharedTable]:
    """A table with ana in seat 1 and ben in seat 3, betting open; ``cards`` stacked."""

    def make(cards: Sequence[str] = (), **options: Any) -> SharedTable:
        table = make_table(**options)
        services.sit(table_id=table.pk, user=ana, version=seat_version(table, ana), number=1)
        services.sit(table_id=table.pk, user=ben, version=seat_version(table, ben), number=3)
        if cards:
            stack_table_shoe(table, cards)
        table.refresh_from_db()
        return table

    return make


@pytest.fixture
def question_open(seated_pair, ana, ben) -> Callable[..., SharedTable]:
    """A trivia round dealt to ana (seat 1) and ben (seat 3); ana pressed Hit in her turn
    and chose ``difficulty``: her question is open."""

    def make(cards: Sequence[str], difficulty: str) -> SharedTable:
        table = seated_pair(cards, trivia_mode=True)
        bet_and_ready(table, ana)
        bet_and_ready(table, ben)
        services.play(table_id=table.pk, user=ana, version=seat_version(table, ana), action="hit")
        services.choose_difficulty(
            table_id=table.pk, user=ana, version=seat_version(table, ana), difficulty=difficulty
        )
        return table

    return make


# The Redis the live channel's tests talk to (TEST_REDIS_URL).
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def redis_answers(url: str = REDIS_URL) -> bool:
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:
        return False


@pytest.fixture
def redis_url(settings):
    """REDIS_URL set to a Redis that answers; skipped where there is none, except under
    CI=true, where .ci/run starts one and its absence is a failure."""
    if not redis_answers():
        message = f"no Redis answering at {REDIS_URL}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    settings.REDIS_URL = REDIS_URL
    assert live.start_listening(timeout=3), "the subscriber did not subscribe"
    yield REDIS_URL
    live.stop_listening()
