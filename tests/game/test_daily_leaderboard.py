"""A Daily Shoe's leaderboard (FAIRNESS.md D-6): finished attempts ranked by final bank,
then right answers, then the earlier finish, equal ones sharing a rank; the viewer's row
highlighted; pages of fifty; a few queries a page; 404 for a day without a leaderboard."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.test import Client

from game.core import clock as game_clock
from game.core import sql
from game.core.clock import epoch_ms
from game.models import DailyAttempt, DailyShoe, Game
from game.rules.clock import FakeClock
from game.services.daily_records import finished_attempt_write
from tests.game.factories import PlayerFactory

TODAY = date(2026, 11, 28)
NOON = datetime(2026, 11, 28, 12, tzinfo=UTC)


@pytest.fixture(autouse=True)
def today(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """The game clock at noon UTC on TODAY (the pages read the day from it)."""
    clock = FakeClock(epoch_ms(NOON))
    monkeypatch.setattr(game_clock, "CLOCK", clock)
    return clock


def shoe_of(day: date) -> DailyShoe:
    return DailyShoe.objects.get_or_create(
        date=day, defaults={"server_seed": "s" * 64, "commitment": "c" * 64}
    )[0]


@pytest.fixture
def day(db) -> DailyShoe:
    return shoe_of(TODAY)


def attempt(
    day: DailyShoe,
    name: str,
    bank: int | None,
    right: int = 0,
    minute: int = 0,
    rounds: int = 20,
) -> DailyAttempt:
    """A player's attempt at ``day``: finished at NOON + ``minute`` unless ``bank`` is None."""
    player = PlayerFactory(username=name)
    game = Game.objects.create(owner=player, bank_cents=bank or 0, credits=0)
    finished = None if bank is None else NOON - timedelta(hours=1) + timedelta(minutes=minute)
    made = DailyAttempt.objects.create(
        day=day,
        player=player,
        game=game,
        rounds=[{"net_cents": 0, "result": "push"}] * rounds,
        right_answers=right,
        final_bank_cents=bank,
        finished_at=finished,
    )
    if finished is not None:
        # As the attempt's last save does: the day counts one more finished attempt.
        sql.run_all([finished_attempt_write(day.pk)])
    return made


def rows_of(page: str) -> list[tuple[str, str]]:
    """(rank, player) of each row of the leaderboard's table."""
    return re.findall(r"<tr[^>]*><td>(\d+)</td><th scope=\"row\">(?:<a [^>]*>)?([^<]+)<", page)


def board(client: Client, day: date = TODAY, query: str = "") -> Any:
    return client.get(f"/daily/{day.isoformat()}/leaderboard/{query}")


def test_rows_by_bank_then_right_answers_then_earlier_finish(day, client: Client) -> None:
    attempt(day, "late", 250_000, right=5, minute=9)
    attempt(day, "rich", 300_000, right=1, minute=5)
    attempt(day, "early", 250_000, right=5, minute=1)
    attempt(day, "clever", 250_000, right=8, minute=30)
    attempt(day, "playing", None)
    page = board(client).content.decode()
    assert [name for _, name in rows_of(page)] == ["rich", "clever", "early", "late"]
    assert "playing" not in page
    assert "$3,000.00" in page


def test_equal_on_all_three_share_a_rank(day, client: Client) -> None:
    attempt(day, "a", 300_000, right=3, minute=1)
    attempt(day, "b", 200_000, right=3, minute=1)
    attempt(day, "c", 200_000, right=3, minute=1)
    attempt(day, "d", 100_000, right=3, minute=1)
    assert [rank for rank, _ in rows_of(board(client).content.decode())] == ["1", "2", "2", "4"]


def test_the_viewers_row_is_highlighted(day, client: Client) -> None:
    attempt(day, "other", 300_000)
    mine = attempt(day, "me", 200_000)
    client.force_login(mine.player)
    page = board(client).content.decode()
    own = re.findall(
        r'<tr id="own-row" class="leaderboard__own" aria-current="true">.*?</tr>', page
    )
    assert len(own) == 1 and ">me<" in own[0]
    assert "You are ranked 2." in page


def test_pages_of_fifty_and_the_link_to_the_viewers_row(day, client: Client) -> None:
    for n in range(120):
        attempt(day, f"p{n:03d}", 500_000 - n * 1_000)
    mine = DailyAttempt.objects.get(player__username="p075")
    client.force_login(mine.player)
    first = board(client).content.decode()
    assert len(rows_of(first)) == 50 and "Page 1 of 3" in first
    assert 'href="?page=2#own-row">Your row' in first
    second = board(client, query="?page=2").content.decode()
    assert rows_of(second)[0] == ("51", "p050")
    assert 'aria-current="true"' in second
    assert len(rows_of(board(client, query="?page=3").content.decode())) == 20
    # A page beyond the last, or no number at all, shows a page rather than an error.
    assert board(client, query="?page=99").status_code == 200
    assert board(client, query="?page=x").status_code == 200


def test_a_page_costs_a_few_queries(
    day, client: Client, django_assert_max_num_queries: Any
) -> None:
    for n in range(60):
        attempt(day, f"p{n:03d}", 300_000 - n * 1_000, right=n % 4)
    client.force_login(DailyAttempt.objects.get(player__username="p055").player)
    board(client)  # the session and the user are warm after the first request
    # Session and user (2); the counts with the viewer's rank, the rows, the first rank (3).
    with django_assert_max_num_queries(5):
        assert board(client, query="?page=2").status_code == 200


def test_todays_board_is_shown_while_the_day_lasts_without_cards(day, client: Client) -> None:
    attempt(day, "done", 210_000)
    page = board(client).content.decode()
    assert board(client).status_code == 200 and "done" in page
    assert "server_seed" not in page and "s" * 64 not in page


def test_a_day_nobody_made_after_the_first_is_an_empty_board(day, client: Client) -> None:
    shoe_of(TODAY - timedelta(days=5))
    page = board(client, TODAY - timedelta(days=2))
    assert page.status_code == 200 and "Nobody finished" in page.content.decode()


@pytest.mark.parametrize("text", ["2026-13-01", "yesterday", "2026-1-1", "20261128xx"])
def test_a_malformed_date_is_404(day, client: Client, text: str) -> None:
    answer = client.get(f"/daily/{text}/leaderboard/")
    assert answer.status_code == 404 and "not a date" in answer.content.decode()


def test_a_day_before_the_first_or_in_the_future_is_404(day, client: Client) -> None:
    before = board(client, TODAY - timedelta(days=1))
    assert before.status_code == 404 and "no Daily Shoe" in before.content.decode()
    shoe_of(TODAY + timedelta(days=1))  # made ahead (D-4), not started yet
    future = board(client, TODAY + timedelta(days=1))
    assert future.status_code == 404 and "not started" in future.content.decode()


def test_the_daily_page_links_todays_board(day, client: Client) -> None:
    assert "/daily/2026-11-28/leaderboard/" in client.get("/daily/").content.decode()


def test_a_page_rendered_once_is_served_again_with_one_query(
    day, client: Client, django_assert_num_queries: Any
) -> None:
    for n in range(60):
        attempt(day, f"p{n:03d}", 300_000 - n * 1_000)
    client.force_login(DailyAttempt.objects.get(player__username="p055").player)
    board(client, query="?page=2")  # renders the page's rows, kept under the board's version
    # The viewer's attempt with its day (its count and version) and its rank: no row is
    # read again.
    with django_assert_num_queries(1):
        again = board(client, query="?page=2").content.decode()
    assert rows_of(again)[0] == ("51", "p050") and 'aria-current="true"' in again


def test_a_new_finish_or_a_deleted_account_changes_the_board_at_once(day, client: Client) -> None:
    attempt(day, "first", 200_000)
    gone = attempt(day, "gone", 150_000)
    assert rows_of(board(client).content.decode()) == [("1", "first"), ("2", "gone")]
    attempt(day, "better", 300_000)
    assert rows_of(board(client).content.decode()) == [
        ("1", "better"),
        ("2", "first"),
        ("3", "gone"),
    ]
    gone.player.delete()
    assert rows_of(board(client).content.decode()) == [("1", "better"), ("2", "first")]
    day.refresh_from_db()
    assert day.finished_attempts == 2


def test_each_viewer_sees_only_their_own_row_highlighted(day, client: Client) -> None:
    ana, ben = attempt(day, "ana", 300_000), attempt(day, "ben", 200_000)
    for mine, other in ((ana, "ben"), (ben, "ana")):
        client.force_login(mine.player)
        own = re.findall(r'<tr id="own-row"[^>]*>.*?</tr>', board(client).content.decode())
        assert len(own) == 1 and f">{mine.player.username}<" in own[0] and other not in own[0]
    client.logout()
    assert 'id="own-row"' not in board(client).content.decode()


def test_each_player_is_told_their_rank_ties_included(day, client: Client) -> None:
    # "c" and "d" are equal on bank and right answers but "c" finished first; "e" and "f"
    # are equal on all three and share third place.
    made = {
        name: attempt(day, name, bank, right=right, minute=minute)
        for name, bank, right, minute in [
            ("f", 100_000, 2, 7),
            ("a", 300_000, 1, 9),
            ("c", 200_000, 4, 1),
            ("e", 100_000, 2, 7),
            ("d", 200_000, 4, 2),
            ("b", 200_000, 5, 9),
        ]
    }
    expected = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 5}
    for name, rank in expected.items():
        client.force_login(made[name].player)
        assert f"You are ranked {rank}." in board(client).content.decode(), name


def test_the_daily_page_and_the_front_door_tell_a_finished_player_their_rank(
    day, client: Client
) -> None:
    attempt(day, "ahead", 300_000)
    mine = attempt(day, "me", 200_000, right=4)
    attempt(day, "behind", 100_000)
    client.force_login(mine.player)
    assert (
        "You played today's Daily Shoe: ranked 2 of 3 so far."
        in client.get("/daily/").content.decode()
    )
    assert "ranked 2 of 3 so far." in client.get("/").content.decode()
