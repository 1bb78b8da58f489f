"""The Daily Shoe's days (FAIRNESS.md D-1, D-3, D-4): made ahead by the command, else by
the first request that needs one, exactly once under ten parallel makers; each day's seed
committed, its question lists drawn from the bank and committed."""

from __future__ import annotations

import hashlib
import threading
from datetime import UTC, date, datetime, timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from game.core import clock as game_clock
from game.core.clock import epoch_ms
from game.models import DailyShoe
from game.rules.clock import FakeClock
from game.services import daily
from tests.trivia.factories import QuestionFactory

MAKERS = 10


@pytest.fixture
def bank(db) -> None:
    for difficulty in ("easy", "medium", "hard"):
        QuestionFactory.create_batch(5, difficulty=difficulty)


def test_a_day_is_committed_with_its_question_lists(bank) -> None:
    day = daily.daily_shoe_for(date(2026, 11, 28))
    seed = bytes.fromhex(day.server_seed)
    assert len(seed) == 32 and hashlib.sha256(seed).hexdigest() == day.commitment
    assert set(day.questions) == {"easy", "medium", "hard"}
    for difficulty, ids in day.questions.items():
        assert len(ids) == 5 and len(set(ids)) == 5
        joined = ",".join(str(i) for i in ids).encode()
        assert day.question_commitments[difficulty] == hashlib.sha256(joined).hexdigest()
    assert daily.daily_shoe_for(date(2026, 11, 28)) == day  # found, not made again


def test_the_question_list_commitment_worked_by_hand() -> None:
    # The ids 3, 14 and 15 joined: "3,14,15"; its SHA-256 in hex.
    expected = hashlib.sha256(b"3,14,15").hexdigest()
    assert daily.question_list_commitment([3, 14, 15]) == expected


@pytest.mark.django_db(transaction=True)
def test_ten_parallel_makers_make_the_day_once(bank) -> None:
    barrier = threading.Barrier(MAKERS)
    made: list[Any] = [None] * MAKERS
    failures: list[BaseException] = []

    def make(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            made[index] = daily.daily_shoe_for(date(2026, 12, 1)).pk
        except BaseException as error:
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=make, args=(i,)) for i in range(MAKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures, failures
    assert DailyShoe.objects.filter(date=date(2026, 12, 1)).count() == 1
    assert set(made) == {DailyShoe.objects.get(date=date(2026, 12, 1)).pk}


def test_the_command_makes_today_and_the_days_ahead_once(bank, monkeypatch) -> None:
    clock = FakeClock(epoch_ms(datetime(2026, 11, 28, 23, 59, tzinfo=UTC)))
    monkeypatch.setattr(game_clock, "CLOCK", clock)
    out = StringIO()
    call_command("daily_shoes", "--ahead", "2", stdout=out)
    days = [date(2026, 11, 28) + timedelta(days=n) for n in range(3)]
    assert list(DailyShoe.objects.order_by("date").values_list("date", flat=True)) == days
    seeds = dict(DailyShoe.objects.values_list("date", "server_seed"))
    call_command("daily_shoes", "--ahead", "2", stdout=StringIO())
    assert dict(DailyShoe.objects.values_list("date", "server_seed")) == seeds
    assert all(seed not in out.getvalue() for seed in seeds.values())  # commitments only
    with pytest.raises(SystemExit):
        call_command("daily_shoes", "--ahead", "0", stdout=StringIO(), stderr=StringIO())
