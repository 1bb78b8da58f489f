"""The Daily Shoe streak (FAIRNESS.md D-6): days in a row with a finished attempt, ending
today or yesterday, read from the injected game clock."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.test import Client

from game.core import clock as game_clock
from game.core.clock import epoch_ms
from game.rules.clock import FakeClock
from game.selectors import daily_streak
from tests.game.factories import PlayerFactory
from tests.game.test_daily_leaderboard import attempt, shoe_of

TODAY = date(2026, 11, 28)


@pytest.fixture(autouse=True)
def today(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    clock = FakeClock(epoch_ms(datetime(2026, 11, 28, 12, tzinfo=UTC)))
    monkeypatch.setattr(game_clock, "CLOCK", clock)
    return clock


def played(name: str, *days_ago: int, unfinished: tuple[int, ...] = ()) -> None:
    for ago in days_ago:
        attempt(shoe_of(TODAY - timedelta(days=ago)), name, 200_000)
    for ago in unfinished:
        attempt(shoe_of(TODAY - timedelta(days=ago)), name, None)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("days_ago", "unfinished", "streak"),
    [
        ((0, 1, 2), (), 3),  # ending today
        ((1, 2, 3, 4), (0,), 4),  # ending yesterday, today's under way
        ((0, 1, 3, 4), (), 2),  # a missed day breaks it
        ((2, 3), (), 0),  # nothing yesterday or today
        ((), (0,), 0),  # an unfinished attempt does not count
        ((0,), (1,), 1),
    ],
)
def test_streak_counts_days_in_a_row(days_ago, unfinished, streak) -> None:
    played("ana", *days_ago, unfinished=unfinished)
    assert daily_streak(PlayerFactory(username="ana"), TODAY) == streak


@pytest.mark.django_db
def test_the_streak_follows_the_clock(today: FakeClock) -> None:
    played("ana", 0, 1)
    ana = PlayerFactory(username="ana")
    today.advance(seconds=24 * 3600)  # tomorrow: yesterday's streak still stands
    assert daily_streak(ana, TODAY + timedelta(days=1)) == 2
    assert daily_streak(ana, TODAY + timedelta(days=2)) == 0


@pytest.mark.django_db
def test_the_streak_on_the_daily_and_statistics_pages(client: Client) -> None:
    played("ana", 0, 1, 2)
    client.force_login(PlayerFactory(username="ana"))
    assert "3 days in a row" in client.get("/daily/").content.decode()
    assert "3 days in a row" in client.get("/games/statistics/").content.decode()
