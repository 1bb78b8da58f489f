"""A Daily Shoe round settled by the deal itself (a natural) counts in the attempt's record
like any other round (FAIRNESS.md D-6, D-7): its square in the share line, its place in
the replay."""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime

import pytest

from game.core import clock as game_clock
from game.core.clock import epoch_ms
from game.rules.clock import FakeClock
from game.rules.daily import daily_order
from game.services import daily, randomness
from tests.game.factories import PlayerFactory
from tests.game.test_daily_attempts import deal, finish_round
from tests.trivia.factories import QuestionFactory

TODAY = date(2026, 11, 28)


def _value(code: str) -> int:
    return 11 if code[0] == "A" else 10 if code[0] in "0JQK" else int(code[0])


def seed_with_a_natural_in_round_one() -> bytes:
    """A server seed whose round 1 deals the player a natural (the top two cards)."""
    for number in itertools.count():
        seed = number.to_bytes(32, "big")
        order = daily_order(seed, TODAY, 1)
        if _value(order[0]) + _value(order[1]) == 21:
            return seed
    raise AssertionError("unreachable")


@pytest.fixture
def day(db, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(
        game_clock, "CLOCK", FakeClock(epoch_ms(datetime(2026, 11, 28, 12, tzinfo=UTC)))
    )
    seed = seed_with_a_natural_in_round_one()
    monkeypatch.setattr(randomness, "server_seeds", lambda: lambda size: seed[:size])
    for difficulty in ("easy", "medium", "hard"):
        QuestionFactory.create_batch(4, difficulty=difficulty)
    return daily.daily_shoe_for(TODAY)


def test_a_round_settled_on_the_deal_is_recorded(day) -> None:
    ana = PlayerFactory()
    attempt = daily.start_attempt(user=ana, day=day)
    game = finish_round(deal(attempt.game, ana), ana, hit_first=False)
    attempt.refresh_from_db()
    assert len(attempt.rounds) == 1
    assert attempt.rounds[0]["result"] in ("win", "push")
    for _ in range(19):
        if game.is_over:
            break
        game = finish_round(deal(game, ana), ana, hit_first=False)
    attempt.refresh_from_db()
    finished = [row for row in game.rounds.all() if row.record]
    assert attempt.finished and len(attempt.rounds) == len(finished) == game.rounds_played
