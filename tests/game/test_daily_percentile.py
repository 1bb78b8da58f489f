"""A Daily Shoe round's standing (FAIRNESS.md D-6): "better than N % of players on this
deal" among the day's other attempts with a result for the round, ties counting half,
rounded down; the first to finish a deal is told so; shown on the round's outcome."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from game.models import DailyAttempt, DailyRoundResult, Game
from game.presentation.daily import round_standing_text
from game.selectors import daily_round_standing
from game.services import daily
from game.services.daily_records import round_result
from tests.game.factories import PlayerFactory
from tests.game.test_daily_attempts import day as day  # noqa: F401 (the fixture)
from tests.game.test_daily_attempts import deal, finish_round
from tests.game.test_daily_attempts import today as today  # noqa: F401 (the fixture)
from tests.game.test_daily_leaderboard import attempt


def with_rounds(day: Any, name: str, *nets: int) -> DailyAttempt:
    """An attempt under way whose rounds paid ``nets``, in order."""
    made = attempt(day, name, None, rounds=0)
    made.rounds = [{"net_cents": net, "result": round_result(net)} for net in nets]
    made.save(update_fields=["rounds"])
    DailyRoundResult.objects.bulk_create(
        DailyRoundResult(attempt=made, day=day, round_number=n, net_cents=net)
        for n, net in enumerate(nets, start=1)
    )
    return made


def test_lower_ones_count_whole_and_ties_half(day) -> None:
    mine = with_rounds(day, "me", 10_000, 0)
    with_rounds(day, "a", -10_000, 0)  # round 1: lower
    with_rounds(day, "b", 10_000)  # round 1: a tie
    with_rounds(day, "c", 20_000, 0)  # round 1: higher
    with_rounds(day, "d", -5_000, -10_000)
    # Round 1: two lower, one tie, one higher → (2 + 0.5) / 4 = 62.5 % → 62 %.
    assert daily_round_standing(mine.game_id, 1).percent == 62
    assert round_standing_text(daily_round_standing(mine.game_id, 1)) == (
        "Better than 62 % of players on this deal."
    )
    # Round 2: only those with a result for it count: a and c tie, d lower → (1 + 1) / 3.
    standing = daily_round_standing(mine.game_id, 2)
    assert (standing.others, standing.percent) == (3, 66)


def test_another_days_results_do_not_count(day) -> None:
    mine = with_rounds(day, "me", 0)
    other_day = daily.daily_shoe_for(day.date.replace(day=27))
    with_rounds(other_day, "yesterday", -10_000)
    standing = daily_round_standing(mine.game_id, 1)
    assert standing.percent is None
    assert round_standing_text(standing) == "You are the first to finish this deal today."


def test_no_result_for_the_round_or_an_ordinary_game_has_no_line(day, player) -> None:
    mine = with_rounds(day, "me", 0)
    assert daily_round_standing(mine.game_id, 2) is None
    game = Game.objects.create(owner=player, bank_cents=0, credits=0)
    assert daily_round_standing(game.pk, 1) is None
    assert round_standing_text(None) == ""


def test_each_round_played_writes_its_row_and_the_outcome_shows_the_line(
    day, client: Client
) -> None:
    first, second = PlayerFactory(), PlayerFactory()
    for user in (first, second):
        game = daily.start_attempt(user=user, day=day).game
        game = finish_round(deal(game, user), user, hit_first=False)
        if game.is_over:
            pytest.skip("the first deal ended the attempt")
    rows = DailyRoundResult.objects.filter(round_number=1).order_by("attempt__player_id")
    assert [row.attempt.player_id for row in rows] == [first.pk, second.pk]
    assert [row.net_cents for row in rows] == [
        a.rounds[0]["net_cents"] for a in DailyAttempt.objects.order_by("player_id")
    ]
    client.force_login(second)
    page = client.get(f"/games/{DailyAttempt.objects.get(player=second).game_id}/")
    # The same deal played the same way: a tie with the one other player, half of them.
    assert 'data-testid="daily-standing">Better than 50 % of players on this deal.<' in (
        page.content.decode()
    )
    # The first to finish the deal saw no one else's result then, and sees the tie now.
    client.force_login(first)
    page = client.get(f"/games/{DailyAttempt.objects.get(player=first).game_id}/")
    assert "Better than 50 % of players on this deal." in page.content.decode()


def test_an_ordinary_games_outcome_has_no_standing_line(alice, make_game, player) -> None:
    game = make_game(trivia_mode=False)
    page = alice.get(f"/games/{game.pk}/").content.decode()
    assert "daily-standing" not in page


def test_the_daily_page_shows_a_finished_attempts_rounds_against_the_others(
    day, client: Client
) -> None:
    mine = with_rounds(day, "me", 10_000, -10_000)
    with_rounds(day, "a", -10_000, -10_000)
    with_rounds(day, "b", 10_000)
    DailyAttempt.objects.filter(pk=mine.pk).update(
        final_bank_cents=200_000, finished_at=mine.started
    )
    client.force_login(mine.player)
    page = client.get("/daily/").content.decode()
    # Round 1: one lower, one tie → 75 %; round 2: a tie with the one other → 50 %.
    assert "Round 1 🟩 better than 75 % of players" in page
    assert "Round 2 🟥 better than 50 % of players" in page
