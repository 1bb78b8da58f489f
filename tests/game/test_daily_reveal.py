"""A Daily Shoe day once it is over (FAIRNESS.md D-8): its seed and question lists revealed
beside their commitments, its 20 shoes checked by the standalone verifier, its finished
attempts replayed round by round; and nothing of today's or a later day's shown."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from game.core import clock as game_clock
from game.core.clock import epoch_ms
from game.models import DailyAttempt
from game.rules.clock import FakeClock
from game.rules.daily import question_list_commitment
from game.rules.fair import commitment
from game.services import daily
from tests.game.factories import PlayerFactory
from tests.game.test_daily_attempts import deal, finish_round
from tests.trivia.factories import QuestionFactory

YESTERDAY = date(2026, 11, 27)
TODAY = date(2026, 11, 28)
VERIFIER = Path(settings.BASE_DIR) / "tools" / "verify_shoe.py"


def noon(day: date) -> int:
    return epoch_ms(datetime(day.year, day.month, day.day, 12, tzinfo=UTC))


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """The game clock at noon UTC yesterday; a test moves it to today once it has played."""
    fake = FakeClock(noon(YESTERDAY))
    monkeypatch.setattr(game_clock, "CLOCK", fake)
    return fake


@pytest.fixture
def days(db, clock: FakeClock) -> tuple[Any, Any]:
    """Yesterday's and today's Daily Shoes, both made while yesterday was today (D-4)."""
    QuestionFactory(difficulty="easy", text="Which <b>bold</b> tag & friends?")
    for difficulty in ("easy", "medium", "hard"):
        QuestionFactory.create_batch(4, difficulty=difficulty)
    return daily.daily_shoe_for(YESTERDAY), daily.daily_shoe_for(TODAY)


def play_through(user: Any, day: Any) -> DailyAttempt:
    """The user's attempt at ``day``, played to its end standing on every hand."""
    attempt = daily.start_attempt(user=user, day=day)
    game = attempt.game
    for _ in range(20):
        game = finish_round(deal(game, user), user, hit_first=False)
        if game.is_over:
            break
    attempt.refresh_from_db()
    assert attempt.finished
    return attempt


def go_to_today(clock: FakeClock) -> None:
    clock.now_ms = noon(TODAY)


def test_yesterday_is_revealed_and_each_shoe_verifies(days, clock, client: Client) -> None:
    yesterday, _ = days
    go_to_today(clock)
    page = client.get("/daily/2026-11-27/")
    assert page.status_code == 200
    text = page.content.decode()
    assert yesterday.server_seed in text and yesterday.commitment in text
    assert commitment(bytes.fromhex(yesterday.server_seed)) == yesterday.commitment
    for name, ids in yesterday.questions.items():
        assert question_list_commitment(ids) == yesterday.question_commitments[name]
        assert yesterday.question_commitments[name] in text
        assert ",".join(str(qid) for qid in ids) in text
    # The questions' text is escaped, never markup.
    assert "Which &lt;b&gt;bold&lt;/b&gt; tag &amp; friends?" in text
    assert "<b>bold</b>" not in text
    assert "/daily/2026-11-27/fairness/" in text

    fairness = client.get("/daily/2026-11-27/fairness/")
    assert fairness.status_code == 200
    assert fairness.content.decode().count("data-fairness-shoe ") == 20
    answer = client.get("/daily/2026-11-27/fairness/?format=json")
    shoes = answer.json()["shoes"]
    assert [shoe["nonce"] for shoe in shoes] == [f"2026-11-27:{r}" for r in range(1, 21)]
    for shoe in shoes:
        assert set(shoe) == {
            "nonce",
            "commitment",
            "client_seed",
            "server_seed",
            "deck_count",
            "cards_dealt",
        }
        assert shoe["server_seed"] == yesterday.server_seed and len(shoe["cards_dealt"]) == 312
    checked = subprocess.run(  # noqa: S603 - our own script on our own file
        [sys.executable, str(VERIFIER), "-"],
        input=json.dumps(answer.json()),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("✔") == 20

    # One changed card is caught.
    shoes[3]["cards_dealt"][0], shoes[3]["cards_dealt"][1] = (
        shoes[3]["cards_dealt"][1],
        shoes[3]["cards_dealt"][0],
    )
    if shoes[3]["cards_dealt"][0] != shoes[3]["cards_dealt"][1]:
        tampered = subprocess.run(  # noqa: S603
            [sys.executable, str(VERIFIER), "-"],
            input=json.dumps({"shoes": shoes}),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert tampered.returncode == 1


def test_today_and_later_are_refused_without_their_seed(days, clock, client: Client) -> None:
    yesterday, today = days
    go_to_today(clock)
    tomorrow = daily.daily_shoe_for(date(2026, 11, 29))
    client.force_login(PlayerFactory())
    secrets = [today.server_seed, tomorrow.server_seed]
    secrets += [",".join(str(qid) for qid in ids) for ids in today.questions.values()]
    for iso in ("2026-11-28", "2026-11-29", "2026-12-25"):
        for address in (
            f"/daily/{iso}/",
            f"/daily/{iso}/fairness/",
            f"/daily/{iso}/fairness/?format=json",
        ):
            answer = client.get(address)
            assert answer.status_code == 403, address
            body = answer.content.decode()
            assert "revealed when the day is over" in body
            assert not any(secret in body for secret in secrets), address
    # The player's own attempt today: its table and its game's Fairness page hold the day's
    # seed server side only.
    owner = PlayerFactory()
    game = daily.start_attempt(user=owner, day=today).game
    client.force_login(owner)
    deal(game, owner)
    for address in (f"/games/{game.pk}/", f"/games/{game.pk}/fairness/?format=json"):
        body = client.get(address).content.decode()
        assert today.server_seed not in body, address
    # The other days' pages show no seed of today's or later (a tiny bank's id lists may
    # repeat from day to day, so only the seeds are told apart there).
    for address in ("/daily/", "/daily/2026-11-27/", "/daily/2026-11-27/fairness/?format=json"):
        body = client.get(address).content.decode()
        assert today.server_seed not in body and tomorrow.server_seed not in body, address


@pytest.mark.parametrize(
    "address",
    [
        "/daily/2026-13-01/",
        "/daily/2026-02-30/",
        "/daily/yesterday/",
        "/daily/2026-11-2/",
        "/daily/2026-11-26/",  # before the first Daily Shoe ever made
        "/daily/1999-01-01/fairness/",
        "/daily/1999-01-01/fairness/?format=json",
        "/daily/2026-02-30/fairness/",
        "/daily/2026-02-30/attempts/1/",
    ],
)
def test_bad_or_unknown_dates_are_not_found(days, clock, client: Client, address: str) -> None:
    go_to_today(clock)
    client.force_login(PlayerFactory())
    assert client.get(address).status_code == 404


def test_a_finished_attempt_is_replayed_round_by_round(days, clock, client: Client) -> None:
    yesterday, today = days
    ana, ben = PlayerFactory(), PlayerFactory()
    attempt = play_through(ana, yesterday)
    unfinished = daily.start_attempt(user=ben, day=yesterday)
    go_to_today(clock)
    todays = play_through(ben, today)

    address = f"/daily/2026-11-27/attempts/{attempt.pk}/"
    # Anyone may replay a finished attempt of a day that is over, from the day's page and
    # from its leaderboard (D-8), a visitor without an account included.
    day_page = client.get("/daily/2026-11-27/").content.decode()
    assert address in day_page and f"/attempts/{unfinished.pk}/" not in day_page
    board = client.get("/daily/2026-11-27/leaderboard/").content.decode()
    assert f'href="{address}"' in board and f"/attempts/{unfinished.pk}/" not in board
    page = client.get(address)
    assert page.status_code == 200
    text = page.content.decode()
    rows = [row for row in attempt.game.rounds.order_by("number") if row.record]
    assert len(rows) == len(attempt.rounds) > 0
    assert text.count("data-round=") == len(rows)
    for row in rows:
        assert f"Round {row.number}" in text
    assert "Stand" in text and "Dealer" in text
    assert client.get(f"/daily/2026-11-27/attempts/{unfinished.pk}/").status_code == 404
    # Today's attempt, finished or not, is nobody else's to see until the day is over; its
    # row on today's board links to nothing.
    assert "/attempts/" not in client.get("/daily/2026-11-28/leaderboard/").content.decode()
    client.force_login(PlayerFactory())
    refused = client.get(f"/daily/2026-11-28/attempts/{todays.pk}/")
    assert refused.status_code == 403
    # An attempt of another day is not found under this one.
    assert client.get(f"/daily/2026-11-27/attempts/{todays.pk}/").status_code == 404


def test_the_front_door_shows_the_daily_status_and_time_left(days, clock, client: Client) -> None:
    yesterday, today = days
    go_to_today(clock)
    body = client.get("/").content.decode()
    assert 'data-daily-status="visitor"' in body and "Next Daily Shoe in 12 h 00 min" in body
    ana = PlayerFactory()
    client.force_login(ana)
    assert "Play today&#x27;s Daily Shoe" in client.get("/").content.decode()
    daily.start_attempt(user=ana, day=today)
    assert 'data-daily-status="resume"' in client.get("/").content.decode()
    play_through(ana, today)
    body = client.get("/").content.decode()
    assert 'data-daily-status="finished"' in body and "Your result today: $" in body
    assert today.server_seed not in body
