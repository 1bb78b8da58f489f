"""What the game asks of the trivia bank: pick a question, order its answers, record results."""

from __future__ import annotations

import secrets
import time
from collections.abc import Collection, MutableSequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.db.models import Exists, F, OuterRef, QuerySet

from trivia.models import Category, Question, QuestionPoolStamp, QuestionReport

__all__ = [
    "NoQuestionsAvailable",
    "RandomSource",
    "active_question_ids",
    "categories_with_questions",
    "category_with_questions",
    "choose_question",
    "question_pools_changed",
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


# Each difficulty's active question ids, kept in the process's memory so that a pick reads
# no more than the few rows it considers, however big the bank: COUNT + OFFSET walked the
# index up to the row picked (12.7 ms a pick at 100,000 questions). A list is kept for as
# long as the bank's stamp (trivia.models.QuestionPoolStamp) stays the same; every write
# through the app changes the stamp (trivia.apps connects the signals; bulk imports and the
# admin's activate/deactivate call question_pools_changed). The list's age bounds what a
# write that bypasses both (raw SQL, a shell's queryset.update) leaves.
POOL_TIMEOUT_SECONDS = 300
# Random ids read per pick: enough that one query almost always finds a question not yet
# asked in the game (all 8 asked: under 0.4% while half the pool is asked).
CANDIDATES = 8


@dataclass(frozen=True)
class _Pool:
    stamp: str
    ids: list[int]
    read_at: float


_READ: dict[str, _Pool] = {}


def read_pool_stamp() -> str:
    """The bank's current stamp ("" while its row is missing, e.g. after a flush)."""
    rows = QuestionPoolStamp.objects.filter(pk=QuestionPoolStamp.SINGLETON_ID)
    return rows.values_list("stamp", flat=True).first() or ""


def active_question_ids(difficulty: str, stamp: str | None = None) -> list[int]:
    """The ids of the active questions of ``difficulty``, from the process's memory while
    the bank's stamp is ``stamp`` (read here when the caller has not read it)."""
    if stamp is None:
        stamp = read_pool_stamp()
    pool = _READ.get(difficulty)
    now = time.monotonic()
    if pool is not None and pool.stamp == stamp and now - pool.read_at < POOL_TIMEOUT_SECONDS:
        return pool.ids
    ids = list(
        Question.objects.filter(active=True, difficulty=difficulty)
        .order_by("id")
        .values_list("id", flat=True)
    )
    _READ[difficulty] = _Pool(stamp, ids, now)
    return ids


def forget_question_pools() -> None:
    """This process's lists go (another process sees the stamp change)."""
    _READ.clear()


def question_pools_changed() -> None:
    """Call after adding, (de)activating or deleting questions, in the same transaction:
    the bank gets a new stamp, so every process reads its lists afresh once the change
    commits (and nobody does if it rolls back)."""
    forget_question_pools()
    stamp = secrets.token_hex(8)
    rows = QuestionPoolStamp.objects.filter(pk=QuestionPoolStamp.SINGLETON_ID)
    if not rows.update(stamp=stamp):
        # The row is gone (a flushed database): made again.
        QuestionPoolStamp.objects.update_or_create(
            pk=QuestionPoolStamp.SINGLETON_ID, defaults={"stamp": stamp}
        )


def _random_ids(pool: list[int], rng: RandomSource, count: int) -> list[int]:
    """Up to ``count`` distinct ids of ``pool`` in random order."""
    if len(pool) <= count:
        chosen = list(pool)
        rng.shuffle(chosen)
        return chosen
    positions: list[int] = []
    while len(positions) < count:
        position = rng.randrange(len(pool))
        if position not in positions:
            positions.append(position)
    return [pool[position] for position in positions]


def _first_found(ids: list[int], difficulty: str, asked_ids: Asked | None) -> Question | None:
    """The first of ``ids`` (in their order) still active and, if given, not asked."""
    if not ids:
        return None
    rows = (
        Question.objects.select_related("category")
        .filter(pk__in=ids, active=True, difficulty=difficulty)
        .order_by()
    )
    if asked_ids is not None:
        rows = rows.exclude(pk__in=asked_ids)
    found = {question.pk: question for question in rows[: len(ids)]}
    return next((found[pk] for pk in ids if pk in found), None)


# The ids asked so far: a collection, or a values()/values_list() queryset of them (used as
# a subquery), whose rows are dicts or ids: hence its row type Any.
Asked = Collection[int] | QuerySet[Any, Any]


def _asked_set(asked_ids: Asked) -> set[int]:
    if isinstance(asked_ids, QuerySet):
        return {next(iter(row.values())) if isinstance(row, dict) else row for row in asked_ids}
    return set(asked_ids)


def _pick(pool: list[int], difficulty: str, asked_ids: Asked, rng: RandomSource) -> Question | None:
    if isinstance(asked_ids, QuerySet):
        # The asked ids stay in the database (a subquery): the first not-asked id of a
        # random sample is uniform over the ids not asked (each is equally likely to come
        # first), so this shortcut keeps the pick fair; it rarely needs the long way below.
        sample = _random_ids(pool, rng, CANDIDATES)
        question = _first_found(sample, difficulty, asked_ids)
        if question is not None:
            return question
    asked = _asked_set(asked_ids)
    remaining = [pk for pk in pool if pk not in asked]
    if remaining:
        return _first_found(_random_ids(remaining, rng, CANDIDATES), difficulty, None)
    # Every question of the difficulty was asked in this game: start over among them all.
    return _first_found(_random_ids(pool, rng, CANDIDATES), difficulty, None)


def choose_question(
    *,
    difficulty: str,
    asked_ids: Asked,
    rng: RandomSource | None = None,
    pool_stamp: str | None = None,
) -> Question:
    """A random active question of ``difficulty`` not in ``asked_ids``.

    When every active question of that difficulty has been asked in this game, starts
    over among all of them. ``asked_ids`` may be a list/set of ids or a values queryset
    (used as a subquery). ``pool_stamp`` is the bank's
    stamp when the caller has read it (with a query of its own); else it is read
    here. Usually one query besides the stamp (two when the id list is not kept); a kept
    list gone stale (a question deactivated behind the stamp's back) is re-read once.
    Raises NoQuestionsAvailable when there are none.
    """
    if difficulty not in Question.Difficulty.values:
        raise ValueError(f"Unknown difficulty {difficulty!r}")
    rng = rng or _SYSTEM_RANDOM
    if pool_stamp is None:
        pool_stamp = read_pool_stamp()
    question = _pick(active_question_ids(difficulty, pool_stamp), difficulty, asked_ids, rng)
    if question is None:
        forget_question_pools()
        question = _pick(active_question_ids(difficulty, pool_stamp), difficulty, asked_ids, rng)
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
    """Count an answer atomically in the database (F() avoids lost updates).

    A game's answers need not call this: recording the answer on its attempt counts it
    (a trigger, migration 0003)."""
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


def _with_active_questions() -> QuerySet[Category]:
    active = Question.objects.filter(category=OuterRef("pk"), active=True)
    return Category.objects.filter(Exists(active))


def category_with_questions(category_id: int) -> Category | None:
    """The category, if it has an active question (a game may choose it)."""
    return _with_active_questions().filter(pk=category_id).first()


def categories_with_questions() -> list[tuple[int, str]]:
    """The categories a game may choose (each with an active question): (id, name) by name."""
    return list(_with_active_questions().order_by("name").values_list("id", "name"))
