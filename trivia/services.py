"""What the game asks of the trivia bank: pick a question, order its answers, record results."""

from __future__ import annotations

import secrets
from abc import ABC, abstractmethod
from collections.abc import Collection, MutableSequence
from typing import Any, Protocol

from django.core.cache import cache
from django.db import transaction
from django.db.models import F, QuerySet

from trivia.models import Question, QuestionReport

__all__ = [
    "AskedElsewhere",
    "NoQuestionsAvailable",
    "RandomSource",
    "active_question_ids",
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


class AskedElsewhere(ABC):
    """The questions asked so far, kept where they are (e.g. a game's trivia attempts) and
    asked by the owner's own query: a caller that can run the common case faster than a
    queryset built per pick (game/services.py prepares it once per connection)."""

    @abstractmethod
    def first_not_asked(self, ids: list[int], difficulty: str) -> Question | None:
        """The first of ``ids`` (in their order) still active, of ``difficulty``, not asked."""

    @abstractmethod
    def asked_ids(self) -> set[int]:
        """Every question id asked so far."""


class NoQuestionsAvailable(Exception):
    """The bank has no active question of the requested difficulty."""

    def __init__(self, difficulty: str) -> None:
        self.difficulty = difficulty
        super().__init__(
            f"No active trivia questions of difficulty {difficulty!r}: "
            "import or activate some in the admin."
        )


# Each difficulty's active question ids, cached (Django's cache) so that a pick reads no
# more than the few rows it considers, however big the bank: COUNT + OFFSET walked the
# index up to the row picked (12.7 ms a pick at 100,000 questions). Every write through
# the app refreshes them (trivia.apps connects the signals; bulk imports and the admin's
# activate/deactivate call question_pools_changed); the timeout bounds what a write that
# bypasses both (raw SQL, a shell's queryset.update) or another process's memory leaves.
POOL_TIMEOUT_SECONDS = 300
# Random ids read per pick: enough that one query almost always finds a question not yet
# asked in the game (all 8 asked: under 0.4% while half the pool is asked).
CANDIDATES = 8


# Each process keeps the lists it has read, for as long as a small stamp in the shared
# cache stays the same: a pick reads the stamp (a few bytes) rather than the whole list
# (6,667 ids at 20,000 questions: most of a pick's time, issue 14). Forgetting the pools
# deletes the stamp, so every process reads the lists afresh; the stamp's timeout bounds
# how long a list may live, as the lists' own timeout did.
_STAMP_KEY = "trivia:active-ids:stamp"
_READ: dict[str, tuple[str, list[int]]] = {}


def _pool_stamp() -> str:
    stamp = cache.get(_STAMP_KEY)
    if stamp is None:
        cache.add(_STAMP_KEY, secrets.token_hex(8), POOL_TIMEOUT_SECONDS)
        # Another process may have added its stamp first: use whichever is stored.
        stamp = cache.get(_STAMP_KEY) or ""
    return stamp


def _pool_key(difficulty: str, stamp: str) -> str:
    return f"trivia:active-ids:{stamp}:{difficulty}"


def active_question_ids(difficulty: str) -> list[int]:
    """The ids of the active questions of ``difficulty``, from the cache when it has them."""
    stamp = _pool_stamp()
    read = _READ.get(difficulty)
    if read is not None and read[0] == stamp and stamp:
        return read[1]
    ids = cache.get(_pool_key(difficulty, stamp))
    if ids is None:
        ids = list(
            Question.objects.filter(active=True, difficulty=difficulty)
            .order_by("id")
            .values_list("id", flat=True)
        )
        cache.set(_pool_key(difficulty, stamp), ids, POOL_TIMEOUT_SECONDS)
    _READ[difficulty] = (stamp, ids)
    return ids


def forget_question_pools() -> None:
    _READ.clear()
    cache.delete(_STAMP_KEY)


def question_pools_changed() -> None:
    """Call after adding, (de)activating or deleting questions: the cached id lists go now
    and again when the transaction commits (a pick in between may have cached the old)."""
    forget_question_pools()
    transaction.on_commit(forget_question_pools)


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


def _first_found(
    ids: list[int], difficulty: str, asked_ids: Collection[int] | QuerySet | None
) -> Question | None:
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


Asked = Collection[int] | QuerySet | AskedElsewhere


def _asked_set(asked_ids: Asked) -> set[int]:
    if isinstance(asked_ids, AskedElsewhere):
        return asked_ids.asked_ids()
    if isinstance(asked_ids, QuerySet):
        return {next(iter(row.values())) if isinstance(row, dict) else row for row in asked_ids}
    return set(asked_ids)


def _pick(pool: list[int], difficulty: str, asked_ids: Asked, rng: RandomSource) -> Question | None:
    if isinstance(asked_ids, QuerySet | AskedElsewhere):
        # The asked ids stay in the database (a subquery): the first not-asked id of a
        # random sample is uniform over the ids not asked (each is equally likely to come
        # first), so this shortcut keeps the pick fair; it rarely needs the long way below.
        sample = _random_ids(pool, rng, CANDIDATES)
        if isinstance(asked_ids, AskedElsewhere):
            question = asked_ids.first_not_asked(sample, difficulty) if sample else None
        else:
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
) -> Question:
    """A random active question of ``difficulty`` not in ``asked_ids``.

    When every active question of that difficulty has been asked in this game, starts
    over among all of them. ``asked_ids`` may be a list/set of ids, a values queryset
    (used as a subquery) or an :class:`AskedElsewhere`. Usually one query (two when the
    id list is not cached); a cached list gone stale (a question deactivated behind the
    cache's back) is re-read once. Raises NoQuestionsAvailable when there are none.
    """
    if difficulty not in Question.Difficulty.values:
        raise ValueError(f"Unknown difficulty {difficulty!r}")
    rng = rng or _SYSTEM_RANDOM
    question = _pick(active_question_ids(difficulty), difficulty, asked_ids, rng)
    if question is None:
        forget_question_pools()
        question = _pick(active_question_ids(difficulty), difficulty, asked_ids, rng)
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
