"""What the bank learns from the questions players are shown and answer (RULES.md R-8.10):
the questions each player has seen, ratings moved by first attempts only (trivia/ratings.py
has the formulas), and the spaced review of missed questions.

Called inside the caller's transaction (a game's action), so that a refused action rolls
all of it back with the rest.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import F, Model

from trivia import ratings
from trivia.models import PlayerRating, Question, SeenQuestion

__all__ = ["record_answer_for_rating", "record_shown", "shown_row"]


def _player_id(player: Model | int) -> int:
    key: Any = player.pk if isinstance(player, Model) else player
    return int(key)


def shown_row(*, player: Model | int, question_id: int, now: datetime) -> SeenQuestion:
    """The row saying ``player`` was first shown the question at ``now``, not yet saved:
    for a caller that inserts it along with its own writes, ignoring a row already there
    (the pair is unique)."""
    return SeenQuestion(player_id=_player_id(player), question_id=question_id, first_seen=now)


def record_shown(*, player: Model | int, question_id: int, now: datetime) -> None:
    """Remember that ``player`` was shown the question (once: a row already there, even one
    inserted by a concurrent request, is kept as it is)."""
    SeenQuestion.objects.bulk_create(
        [shown_row(player=player, question_id=question_id, now=now)], ignore_conflicts=True
    )


def record_answer_for_rating(
    *,
    player: Model | int,
    question: Question,
    correct: bool,
    now: datetime,
    shown_at: datetime | None = None,
) -> bool:
    """Record an answer: True when it was the player's first attempt at the question, which
    then moves the player's rating and the question's (``question`` as read by the caller:
    its rating, answers and type). ``shown_at``: when this asking showed the question; an
    answer then counts as a first attempt only if the player had not seen the question
    before (a question shown earlier and left unanswered, its time run out or swapped, is
    no first attempt when it comes again). A later attempt (a resumed or repeated
    question) moves no rating; if it is a missed question's review falling due, it moves
    the review on (learned when right). A first attempt answered wrong is due for review
    after REVIEW_DAYS[0] days."""
    player_id = _player_id(player)
    if _first_attempt(
        player_id=player_id, question_id=question.pk, correct=correct, now=now, shown_at=shown_at
    ):
        return _rate(player_id=player_id, question=question, correct=correct)
    seen = (
        SeenQuestion.objects.select_for_update()
        .filter(player_id=player_id, question_id=question.pk)
        .first()
    )
    if seen is None:
        # Asked before its showing was recorded: this answer is its first attempt.
        record_shown(player=player_id, question_id=question.pk, now=now)
        if _first_attempt(player_id=player_id, question_id=question.pk, correct=correct, now=now):
            return _rate(player_id=player_id, question=question, correct=correct)
        return False
    if seen.first_correct is None:
        # Seen before this asking and never answered: its answer now is kept (a miss comes
        # back for review) but is no first attempt, and moves no rating.
        fields = next_review_after(step=0, correct=correct, now=now)
        SeenQuestion.objects.filter(pk=seen.pk).update(first_correct=correct, **fields)
    elif not seen.learned and seen.review_due is not None and seen.review_due <= now:
        # A missed question's review that fell due: on to its next step, or learned.
        review = next_review_after(step=seen.review_step, correct=correct, now=now)
        SeenQuestion.objects.filter(pk=seen.pk).update(**review)
    return False


def next_review_after(*, step: int, correct: bool, now: datetime) -> dict[str, Any]:
    """The SeenQuestion fields an answer at review ``step`` (0: the first attempt) sets."""
    review = ratings.next_review(step=step, correct=correct)
    due = None if review.due_in_days is None else now + timedelta(days=review.due_in_days)
    return {"review_step": review.step, "review_due": due, "learned": review.learned}


def _first_attempt(
    *,
    player_id: int,
    question_id: int,
    correct: bool,
    now: datetime,
    shown_at: datetime | None = None,
) -> bool:
    """Record the answer as the first attempt if none was: True when this is it. Set once:
    the condition makes any later answer (a repeated post that got this far, the question
    asked again) update nothing, and the row count says which one this is; with
    ``shown_at``, only the asking that first showed the question qualifies. A first
    attempt missed is due for review."""
    rows = SeenQuestion.objects.filter(
        player_id=player_id, question_id=question_id, first_correct__isnull=True
    )
    if shown_at is not None:
        rows = rows.filter(first_seen__gte=shown_at)
    fields = next_review_after(step=0, correct=correct, now=now)
    return bool(rows.update(first_correct=correct, **fields))


def _player_rating(player_id: int) -> PlayerRating:
    """The player's rating row, locked; made at the start rating when they have none (a
    concurrent first answer making it too is no error: its row is then read)."""
    rows = PlayerRating.objects.select_for_update().filter(player_id=player_id)
    found = rows.first()
    if found is not None:
        return found
    PlayerRating.objects.bulk_create(
        [PlayerRating(player_id=player_id, rating=ratings.START_RATING)], ignore_conflicts=True
    )
    return rows.get()


def _rate(*, player_id: int, question: Question, correct: bool) -> bool:
    """Move both ratings by one first attempt (trivia/ratings.py). The player's row is
    locked (their own answers elsewhere wait); the question's change is added to its row as
    it stands, not written over it, so answers of many players at once all count: each
    change is worked out from the question's rating as the caller read it."""
    rated = _player_rating(player_id)
    update = ratings.rate_answer(
        player=ratings.Rated(rated.rating, rated.rated_answers),
        question=ratings.Rated(question.rating, question.rated_answers),
        correct=correct,
        guess=ratings.guess_chance(question.type),
    )
    Question.objects.filter(pk=question.pk).update(
        rating=F("rating") + (update.question.rating - question.rating),
        rated_answers=F("rated_answers") + 1,
    )
    PlayerRating.objects.filter(player_id=player_id).update(
        rating=update.player.rating, rated_answers=update.player.answers
    )
    return True
