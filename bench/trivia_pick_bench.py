"""Choosing a question by rating (trivia/selection.py) against today's random pick
(trivia.services.choose_question), on PostgreSQL.

Run from the repository root:  .venv/bin/python bench/trivia_pick_bench.py [--rounds N]

A throwaway PostgreSQL database (postgres://postgres@127.0.0.1:5432, created and dropped
here) holds 50,000 active questions in 16 categories (ratings spread around the bank's
middle, one in seven True/False) and a player who has seen 5,000 of them, in two layouts:
spread over the whole bank (a player who has played a lot), and the 5,000 nearest the
Medium target for a player at 1500 (the worst case: each scan steps over all of them).
The two picks run in turns, A B A B, each turn ``--picks`` picks of Medium for a game
with nothing asked; the figures are the medians of the turns' per-pick times, and the
queries each pick ran. ``--json`` prints them as JSON (for bench/RESULTS.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

from throwaway_db import REPO, QueryCounter
from web_bench import postgres_answers, throwaway_postgres

QUESTIONS = 50_000
SEEN = 5_000
CATEGORIES = 16
GOAL_RATIO = 2.0


def _setup(url: str) -> None:
    sys.path.insert(0, str(REPO))
    os.environ["DJANGO_SETTINGS_MODULE"] = "blackjack_site.settings"
    os.environ["DATABASE_URL"] = url
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _fill(rng: random.Random) -> int:
    """The bank and the player; returns the player's id."""
    from django.contrib.auth import get_user_model

    from trivia.models import Category, Question, question_fingerprint
    from trivia.services import question_pools_changed

    categories = Category.objects.bulk_create(
        Category(name=f"Category {n}") for n in range(CATEGORIES)
    )
    batch: list[Question] = []
    for n in range(QUESTIONS):
        rating = rng.gauss(1500, 250)
        boolean = n % 7 == 0
        label = "easy" if rating < 1375 else "hard" if rating > 1650 else "medium"
        text, answer = f"Synthetic question {n}?", "True" if boolean else f"Answer {n}"
        batch.append(
            Question(
                category=categories[n % CATEGORIES],
                text=text,
                type="boolean" if boolean else "multiple",
                difficulty=label,
                correct_answer=answer,
                incorrect_answers=["False"] if boolean else ["a", "b", "c"],
                fingerprint=question_fingerprint(text, answer),
                rating=rating,
            )
        )
        if len(batch) == 5000:
            Question.objects.bulk_create(batch)
            batch = []
    Question.objects.bulk_create(batch)
    question_pools_changed()
    player = get_user_model().objects.create_user("bench-player", password="unused-password")
    return int(player.pk)


def _see(player_id: int, *, clustered: bool, rng: random.Random) -> None:
    """The player's 5,000 seen questions: spread over the bank, or the nearest the
    Medium target of a player at 1500."""
    from django.db.models import F, Func

    from trivia.models import Question, SeenQuestion
    from trivia.ratings import GUESS, TARGET_CHANCE, target_rating

    SeenQuestion.objects.filter(player_id=player_id).delete()
    ids = list(Question.objects.values_list("id", flat=True))
    if clustered:
        target = target_rating(1500, TARGET_CHANCE["medium"], GUESS["multiple"])
        nearest = Question.objects.annotate(gap=Func(F("rating") - target, function="ABS"))
        chosen = list(nearest.order_by("gap").values_list("id", flat=True)[:SEEN])
    else:
        chosen = rng.sample(ids, SEEN)
    SeenQuestion.objects.bulk_create(
        SeenQuestion(player_id=player_id, question_id=pk) for pk in chosen
    )
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def _time_picks(pick, picks: int) -> tuple[float, int]:
    """Per-pick milliseconds over ``picks`` picks, and the queries a pick ran."""
    from django.db import connection

    counter = QueryCounter()
    with connection.execute_wrapper(counter):
        start = time.perf_counter()
        for _ in range(picks):
            pick()
        elapsed = time.perf_counter() - start
    return elapsed / picks * 1000, counter.count // picks


def _plan(player_id: int) -> list[str]:
    """PostgreSQL's plan of the rated pick: its index scans."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from game.models import TriviaAttempt
    from trivia.selection import pick_rated_question

    with CaptureQueriesContext(connection) as captured:
        pick_rated_question(
            player_rating=1500,
            difficulty="medium",
            category_id=None,
            player_id=player_id,
            asked_in_game=TriviaAttempt.objects.filter(game_id=0).values("question_id"),
            rng=random.Random(1),
        )
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + captured.captured_queries[-1]["sql"])
        lines = [row[0] for row in cursor.fetchall()]
    return [line.strip() for line in lines if "Index" in line or "Limit" in line]


def _measure(player_id: int, rounds: int, picks: int) -> dict[str, object]:
    from game.models import TriviaAttempt
    from trivia.selection import choose_rated_question
    from trivia.services import active_question_ids, choose_question, read_pool_stamp

    rng = random.Random(5)
    # Nothing asked yet in the bench's game: the subquery each game's pick runs.
    asked = TriviaAttempt.objects.filter(game_id=0).values("question_id")
    stamp = read_pool_stamp()
    active_question_ids("medium", stamp)  # kept, as after any earlier question

    def today() -> None:
        # The stamp is read with the game's lock in play: not a query of the pick's.
        choose_question(difficulty="medium", asked_ids=asked, rng=rng, pool_stamp=stamp)

    def rated() -> None:
        choose_rated_question(
            player_rating=1500,
            difficulty="medium",
            category_id=None,
            player_id=player_id,
            asked_in_game=asked,
            rng=rng,
        )

    today_ms: list[float] = []
    rated_ms: list[float] = []
    queries = {"today": 0, "rated": 0}
    _time_picks(today, 20)  # warm both up (connections, plans)
    _time_picks(rated, 20)
    for _ in range(rounds):
        ms, queries["today"] = _time_picks(today, picks)
        today_ms.append(ms)
        ms, queries["rated"] = _time_picks(rated, picks)
        rated_ms.append(ms)
    today_median, rated_median = statistics.median(today_ms), statistics.median(rated_ms)
    return {
        "today_ms": round(today_median, 3),
        "rated_ms": round(rated_median, 3),
        "ratio": round(rated_median / today_median, 2),
        "today_queries": queries["today"],
        "rated_queries": queries["rated"],
        "plan": _plan(player_id),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--picks", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    if not postgres_answers():
        print("PostgreSQL does not answer at 127.0.0.1:5432: nothing measured.")
        return 1
    results: dict[str, object] = {}
    with throwaway_postgres(f"trivia_pick_bench_{os.getpid()}") as url:
        _setup(url)
        rng = random.Random(2026)
        player_id = _fill(rng)
        for layout, clustered in (("seen spread", False), ("seen nearest the target", True)):
            _see(player_id, clustered=clustered, rng=rng)
            results[layout] = _measure(player_id, arguments.rounds, arguments.picks)
        from django.db import connections

        connections.close_all()
    if arguments.json:
        print(json.dumps(results))
        return 0
    print(f"{QUESTIONS:,} questions, a player with {SEEN:,} seen; Medium, A B A B, medians")
    for layout, figures in results.items():
        assert isinstance(figures, dict)
        verdict = "within" if figures["ratio"] <= GOAL_RATIO else "over"
        print(
            f"{layout:26} today {figures['today_ms']:.3f} ms ({figures['today_queries']} query)"
            f"  rated {figures['rated_ms']:.3f} ms ({figures['rated_queries']} query)"
            f"  ratio {figures['ratio']:.2f} ({verdict} the {GOAL_RATIO:g}x goal)"
        )
        for line in figures["plan"]:
            print(f"    {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
