"""Time the statistics page for a player with thousands of rounds.

Run from the repository root:  .venv/bin/python bench/statistics_bench.py [ROUNDS]
ROUNDS defaults to 5,000. A throw-away SQLite file gets one player with that many
finished rounds (two hands, two side bets and a trivia attempt each, bulk-created) and
a second player with as many again (whose rows must be skipped); then the statistics
selector and the whole page are timed, with their query counts.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from throwaway_db import QueryCounter, setup_django

TARGET_PAGE_MS = 500.0
BATCH = 2_000


def _fill(username: str, rounds: int) -> object:
    """A player with ``rounds`` finished rounds spread over games of 500 rounds."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from game.models import Game, Hand, Round, SideBet, TriviaAttempt
    from trivia.models import Category, Question, question_fingerprint

    user = get_user_model().objects.create_user(username=username, password="bench-pw-123")
    category, _ = Category.objects.get_or_create(name="Bench")
    text, answer = f"Bench question for {username}?", "Yes"
    question = Question.objects.create(
        category=category,
        text=text,
        difficulty="easy",
        correct_answer=answer,
        incorrect_answers=["No", "Maybe", "Never"],
        fingerprint=question_fingerprint(text, answer),
    )
    now = timezone.now()
    difficulties = ("easy", "medium", "hard")
    for start in range(0, rounds, BATCH):
        numbers = range(start + 1, min(start + BATCH, rounds) + 1)
        games = {}
        for number in numbers:
            game_index = (number - 1) // 500
            if game_index not in games:
                games[game_index] = Game.objects.create(
                    owner=user, bank_cents=100_000, credits=10, state={}
                )
        round_rows = Round.objects.bulk_create(
            Round(
                game=games[(number - 1) // 500],
                number=(number - 1) % 500 + 1,
                phase="round_over",
                bet_cents=1_000,
                staked_cents=2_000,
                winnings_cents=(number * 7919) % 5_000,
                bank_after_cents=100_000,
            )
            for number in numbers
        )
        Hand.objects.bulk_create(
            Hand(
                round=row,
                index=index,
                bet_cents=1_000,
                result=("win", "lose", "push", "natural", "surrender")[(row.number + index) % 5],
                how="higher_total",
                winnings_cents=1_000 * (row.number % 3),
            )
            for row in round_rows
            for index in range(2)
        )
        SideBet.objects.bulk_create(
            SideBet(
                round=row,
                name=name,
                stake_cents=500,
                result="win" if row.number % 9 == 0 else "lose",
                winnings_cents=3_000 if row.number % 9 == 0 else 0,
            )
            for row in round_rows
            for name in ("perfect_pair", "21+3")
        )
        TriviaAttempt.objects.bulk_create(
            TriviaAttempt(
                game=row.game,
                round=row,
                hand_index=0,
                action="hit",
                question=question,
                difficulty=difficulties[row.number % 3],
                correct=row.number % 4 != 0,
                answered_at=now,
                applied=True,
            )
            for row in round_rows
        )
    return user


def _time(run, repeats: int = 15) -> tuple[float, float, int]:
    """Median and worst milliseconds of ``run()``, and the queries of one call."""
    from django.db import connection

    counter = QueryCounter()
    with connection.execute_wrapper(counter):
        run()
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        timings.append((time.perf_counter() - start) * 1000)
    return statistics.median(timings), max(timings), counter.count


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5_000
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "bench.sqlite3")
        from django.test import Client
        from django.test.utils import setup_test_environment

        from game.presentation.statistics import player_statistics

        setup_test_environment()  # lets the test client talk to the site (ALLOWED_HOSTS)
        start = time.perf_counter()
        player = _fill("bench-player", rounds)
        _fill("bench-other", rounds)
        fill_seconds = time.perf_counter() - start

        stats = player_statistics(player)
        assert stats.rounds == rounds and stats.hands == 2 * rounds, "wrong totals"
        selector_ms, selector_worst, selector_queries = _time(lambda: player_statistics(player))

        client = Client()
        client.force_login(player)

        def get_page() -> None:
            response = client.get("/games/statistics/")
            assert response.status_code == 200, response.status_code

        page_ms, page_worst, page_queries = _time(get_page)

    print(
        f"rows: {rounds:,} rounds for the player (+ {rounds:,} for another), filled in "
        f"{fill_seconds:.1f} s"
    )
    print(
        f"figures: {stats.rounds:,} rounds, {stats.hands:,} hands, net {stats.net:+,} cents, "
        f"{stats.trivia_answered:,} trivia answers"
    )
    print(
        f"player_statistics(): median {selector_ms:.1f} ms, worst {selector_worst:.1f} ms, "
        f"{selector_queries} queries"
    )
    print(
        f"GET /games/statistics/: median {page_ms:.1f} ms, worst {page_worst:.1f} ms, "
        f"{page_queries} queries"
    )
    print(f"target: page under {TARGET_PAGE_MS:.0f} ms median; queries do not grow with rounds")
    return 0 if page_ms < TARGET_PAGE_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
