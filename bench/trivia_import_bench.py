"""Time and memory of importing each shared OpenTDB dump into a fresh database.

Run from the repository root:  .venv/bin/python bench/trivia_import_bench.py [DIR]
DIR defaults to ../shared/data/trivia. Each file is imported into an empty bank
(a throw-away SQLite file), then imported again to show a re-import adds nothing.
Timing and memory are measured in separate runs because tracemalloc slows Python down.
"""

from __future__ import annotations

import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from throwaway_db import REPO, QueryCounter, setup_django

TARGET_SECONDS = 10.0


def _empty_bank() -> None:
    from trivia.models import Category, Question, QuestionReport

    QuestionReport.objects.all().delete()
    Question.objects.all().delete()
    Category.objects.all().delete()


def _run(data: bytes, name: str):  # returns an ImportResult, imported lazily
    from trivia.importing import import_questions

    return import_questions(data, source=f"bench:{name}")


def bench_file(path: Path) -> dict[str, object]:
    from django.db import connection

    data = path.read_bytes()
    _empty_bank()
    counter = QueryCounter()
    start = time.perf_counter()
    with connection.execute_wrapper(counter):
        result = _run(data, path.name)
    seconds = time.perf_counter() - start

    start = time.perf_counter()
    again = _run(data, path.name)
    reimport_seconds = time.perf_counter() - start

    _empty_bank()
    tracemalloc.start()
    _run(data, path.name)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    plan = result.plan
    return {
        "file": path.name,
        "bytes": len(data),
        "rows": plan.total_rows,
        "added": result.added,
        "duplicates": len(plan.duplicates),
        "invalid": len(plan.invalid),
        "queries": counter.count,
        "seconds": seconds,
        "reimport_added": again.added,
        "reimport_seconds": reimport_seconds,
        "peak_mib": peak / 2**20,
    }


def bench_selection(total: int = 100_000, picks: int = 200) -> tuple[float, int]:
    """Average ms per choose_question() on a bank of ``total`` questions, and its queries."""
    from django.db import connection

    from trivia.models import Category, Question, question_fingerprint
    from trivia.services import choose_question

    _empty_bank()
    category = Category.objects.create(name="Bench")
    difficulties = ["easy", "medium", "hard"]
    batch: list[Question] = []
    for n in range(total):
        text, answer = f"Synthetic question {n}?", f"Answer {n}"
        batch.append(
            Question(
                category=category,
                text=text,
                difficulty=difficulties[n % 3],
                correct_answer=answer,
                incorrect_answers=["a", "b", "c"],
                fingerprint=question_fingerprint(text, answer),
            )
        )
        if len(batch) == 5000:
            Question.objects.bulk_create(batch)
            batch = []
    Question.objects.bulk_create(batch)
    asked: list[int] = []
    counter = QueryCounter()
    start = time.perf_counter()
    with connection.execute_wrapper(counter):
        for _ in range(picks):
            asked.append(choose_question(difficulty="medium", asked_ids=asked).pk)
    elapsed = time.perf_counter() - start
    assert len(set(asked)) == picks  # never a repeat within the game
    return elapsed / picks * 1000, counter.count // picks


def main() -> int:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "data" / "trivia"
    files = sorted(p for p in folder.glob("*") if p.suffix in {".json", ".csv"})
    if not files:
        print(f"No .json or .csv dumps in {folder}")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "bench.sqlite3")
        failed = False
        header = (
            f"{'file':32} {'rows':>5} {'added':>5} {'dup':>4} {'bad':>4} {'queries':>7} "
            f"{'seconds':>7} {'re-run s':>8} {'re-add':>6} {'peak MiB':>8}"
        )
        print(header)
        for path in files:
            r = bench_file(path)
            failed |= float(r["seconds"]) >= TARGET_SECONDS or r["reimport_added"] != 0
            print(
                f"{r['file']:32} {r['rows']:>5} {r['added']:>5} {r['duplicates']:>4} "
                f"{r['invalid']:>4} {r['queries']:>7} {r['seconds']:>7.2f} "
                f"{r['reimport_seconds']:>8.2f} {r['reimport_added']:>6} {r['peak_mib']:>8.1f}"
            )
        ms, queries = bench_selection()
        print(
            f"choose_question on 100,000 questions, 200 picks with growing asked_ids: "
            f"{ms:.2f} ms and {queries} queries per pick"
        )
    print(f"target: under {TARGET_SECONDS:.0f} s per file, re-import adds 0")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
