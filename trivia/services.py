"""What the game asks of the trivia bank: pick a question, order its answers, record results."""

from __future__ import annotations

import secrets
from collections.abc import Collection, MutableSequence
from typing import Any, Protocol

from django.db.models import F, QuerySet, Subquery

from trivia.models import Question, QuestionReport

__all__ = [
    "NoQuestionsAvailable",
    "RandomSource",
    "choose_question",
    "record_answer",
    "report_question",
    "shuffled_answers",
]


class RandomSource(Protocol):
    """The two calls we need; ``secrets.SystemRandom`` and a seeded ``random.Random`` fit."""

    def randrange(self, start: int, stop: int | None = ..., step: int = ...) -> int: ...

    def shuffle(self, x: MutableSequence[Any]) -> None: ...


# Unpredictable in production so players cannot anticipate questions or answer order.
_SYSTEM_RANDOM: RandomSource = secrets.SystemRandom()


class NoQuestionsAvailable(Exception):
    """The bank has no active question of the requested difficulty."""

    def __init__(self, difficulty: str) -> None:
        self.difficulty = difficulty
        super().__init__(
            f"No active trivia questions of difficulty {difficulty!r}: "
            "import or activate some in the admin."
        )


def _random_member(queryset: QuerySet[Question], rng: RandomSource) -> Question | None:
    """One uniformly random row: COUNT, then the N-th id by an OFFSET over the index.

    Both steps walk only the partial (difficulty, id) index of active questions, so it
    stays two queries and no table scan however big the bank; ORDER BY RANDOM() would
    sort the whole table and loading every id would pull the bank into Python. The
    OFFSET picks an id in a subquery so skipped rows are never read from the table.
    """
    count = queryset.count()
    if not count:
        return None
    offset = rng.randrange(count)
    nth_id = queryset.order_by("id").values("id")[offset : offset + 1]
    return Question.objects.select_related("category").filter(id__in=Subquery(nth_id)).first()


def choose_question(
    *,
    difficulty: str,
    asked_ids: Collection[int] | QuerySet,
    rng: RandomSource | None = None,
) -> Question:
    """A random active question of ``difficulty`` not in ``asked_ids``.

    When every active question of that difficulty has been asked in this game, starts
    over among all of them. ``asked_ids`` may be a list/set of ids or a values_list
    queryset (used as a subquery). Raises NoQuestionsAvailable when there are none.
    """
    if difficulty not in Question.Difficulty.values:
        raise ValueError(f"Unknown difficulty {difficulty!r}")
    rng = rng or _SYSTEM_RANDOM
    pool = Question.objects.filter(active=True, difficulty=difficulty)
    question = _random_member(pool.exclude(id__in=asked_ids), rng)
    if question is None:
        question = _random_member(pool, rng)
    if question is None:
        raise NoQuestionsAvailable(difficulty)
    return question


def shuffled_answers(question: Question, rng: RandomSource | None = None) -> list[str]:
    """The choices to show, in the order to show them.

    Call once per attempt and store the result: shuffling again on reload would move
    the answers under the player's cursor. True/False stays in that fixed order.
    """
    if question.type == Question.Type.BOOLEAN:
        return ["True", "False"]
    choices = [question.correct_answer, *question.incorrect_answers]
    (rng or _SYSTEM_RANDOM).shuffle(choices)
    return choices


def record_answer(question_id: int, correct: bool) -> None:
    """Count an answer atomically in the database (F() avoids lost updates)."""
    Question.objects.filter(pk=question_id).update(
        times_asked=F("times_asked") + 1,
        times_correct=F("times_correct") + (1 if correct else 0),
    )


def report_question(
    *, question: Question, user: Any, reason: str, note: str = ""
) -> QuestionReport:
    """File a player's report for staff; anonymous users are stored without a reporter."""
    if reason not in QuestionReport.Reason.values:
        raise ValueError(f"Unknown report reason {reason!r}")
    reporter = user if getattr(user, "is_authenticated", False) else None
    return QuestionReport.objects.create(
        question=question, reporter=reporter, reason=reason, note=note.strip()[:2000]
    )
