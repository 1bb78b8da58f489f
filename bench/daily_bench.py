"""Time the Daily Shoe's leaderboard page and a round's standing against the table page.

Run from the repository root:  .venv/bin/python bench/daily_bench.py [ATTEMPTS]
ATTEMPTS defaults to 10,000. A throw-away SQLite file gets one day with that many finished
attempts of twenty rounds each (and their round results, bulk-created); then, A B A B
alternating with the table page (/games/<id>/) as the baseline, the leaderboard's middle
page (the viewer's own row on it), and the round standing's selector are timed with their
query counts, and the ratios to the table page are printed. Goal (FAIRNESS.md D-6): fewer
than three queries of their own each, and within twice the table page's time.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from throwaway_db import QueryCounter, setup_django

DAY = date(2026, 11, 28)
BATCH = 2_000
REPEATS = 15
TARGET_RATIO = 2.0


def _fill(attempts: int) -> tuple[object, object]:
    """``attempts`` finished attempts at DAY's Daily Shoe; the viewer's in the middle."""
    from django.contrib.auth import get_user_model

    from game.models import DailyAttempt, DailyRoundResult, DailyShoe, Game

    shoe = DailyShoe.objects.create(date=DAY, server_seed="s" * 64, commitment="c" * 64)
    users = get_user_model()
    noon = datetime(2026, 11, 28, 12, tzinfo=UTC)
    for start in range(0, attempts, BATCH):
        numbers = range(start, min(start + BATCH, attempts))
        players = users.objects.bulk_create(
            users(username=f"daily{n:05d}", password="!") for n in numbers
        )
        games = Game.objects.bulk_create(
            Game(owner=player, bank_cents=0, credits=0, state={}) for player in players
        )
        rows = DailyAttempt.objects.bulk_create(
            DailyAttempt(
                day=shoe,
                player=player,
                game=game,
                rounds=[{"net_cents": 0, "result": "push"}] * 20,
                right_answers=(n * 7) % 12,
                questions_answered=12,
                # Banks in steps of $100 so that many attempts tie and ranks are shared.
                final_bank_cents=100_000 + (n * 7919 % 40) * 10_000,
                finished_at=noon + timedelta(seconds=n % 600),
            )
            for n, player, game in zip(numbers, players, games, strict=True)
        )
        DailyRoundResult.objects.bulk_create(
            DailyRoundResult(
                attempt=row, day=shoe, round_number=r, net_cents=((row.pk * r) % 5 - 2) * 10_000
            )
            for row in rows
            for r in range(1, 21)
        )
    # As each attempt's last save does: the day counts its finished attempts.
    DailyShoe.objects.filter(pk=shoe.pk).update(finished_attempts=attempts, board_version=attempts)
    viewer = users.objects.get(username=f"daily{attempts // 2:05d}")
    return viewer, DailyAttempt.objects.get(player=viewer)


def _measure(run, before=None) -> tuple[list[float], int]:
    """The queries of one call of ``run`` (after a warm-up call; ``before`` run untimed
    ahead of each), and a list to time into."""
    from django.db import connection

    for _ in range(2):
        if before is not None:
            before()
        counter = QueryCounter()
        with connection.execute_wrapper(counter):
            run()
    return [], counter.count


def _once(run, into: list[float]) -> None:
    start = time.perf_counter()
    run()
    into.append((time.perf_counter() - start) * 1000)


def main() -> int:
    attempts = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "bench.sqlite3")
        from django.db.models import F
        from django.test import Client
        from django.test.utils import setup_test_environment

        from game import services
        from game.core import clock as game_clock
        from game.core.clock import epoch_ms
        from game.models import DailyShoe
        from game.rules.clock import FakeClock
        from game.selectors import LEADERBOARD_PAGE_SIZE, daily_round_standing

        setup_test_environment()  # lets the test client talk to the site (ALLOWED_HOSTS)
        game_clock.CLOCK = FakeClock(epoch_ms(datetime(2026, 11, 28, 18, tzinfo=UTC)))
        start = time.perf_counter()
        viewer, own = _fill(attempts)
        fill_seconds = time.perf_counter() - start
        table_game = services.new_game(user=viewer, options={"trivia_mode": False})

        client = Client()
        client.force_login(viewer)
        middle = attempts // LEADERBOARD_PAGE_SIZE // 2 + 1

        def table() -> None:
            assert client.get(f"/games/{table_game.pk}/").status_code == 200

        def board() -> None:
            answer = client.get(f"/daily/{DAY.isoformat()}/leaderboard/?page={middle}")
            assert answer.status_code == 200, answer.status_code

        def board_changed() -> None:
            # Another attempt finished: the page's kept rows are read and rendered again.
            DailyShoe.objects.filter(pk=own.day_id).update(board_version=F("board_version") + 1)

        def fresh_board() -> None:
            answer = client.get(f"/daily/{DAY.isoformat()}/leaderboard/?page={middle}")
            assert answer.status_code == 200, answer.status_code

        def standing() -> None:
            assert daily_round_standing(own.game_id, 7) is not None

        runs = {
            "table page": table,
            "leaderboard page": board,
            "leaderboard page, board just changed": fresh_board,
            "round standing": standing,
        }
        before = {"leaderboard page, board just changed": board_changed}
        times, queries = {}, {}
        for name, run in runs.items():
            times[name], queries[name] = _measure(run, before.get(name))
        for _ in range(REPEATS):  # A B A B: each measure beside the baseline, in turn
            for name in list(runs)[1:]:
                _once(table, times["table page"])
                if name in before:
                    before[name]()
                _once(runs[name], times[name])

    print(f"rows: {attempts:,} finished attempts of 20 rounds, filled in {fill_seconds:.1f} s")
    base = statistics.median(times["table page"])
    ok = True
    for name, timings in times.items():
        median = statistics.median(timings)
        ratio = median / base
        print(
            f"{name}: median {median:.1f} ms, worst {max(timings):.1f} ms, "
            f"{queries[name]} queries, {ratio:.2f}× the table page"
        )
        # The goal is the page as players load it; a page read afresh after each finish
        # is reported beside it.
        if name != "leaderboard page, board just changed":
            ok = ok and ratio <= TARGET_RATIO
    print(
        "target: within 2× the table page; the leaderboard's own queries under 3 besides "
        "the session's and the day's, the standing's 1"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
