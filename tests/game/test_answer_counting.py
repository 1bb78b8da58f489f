"""A question's answer counters are kept by the database (trivia migration 0003): the
answer recorded on a game's attempt counts once, in the statement that records it."""

from __future__ import annotations

import pytest

from game.models import TriviaAttempt
from tests.trivia.factories import QuestionFactory

pytestmark = pytest.mark.django_db


def _counters(question) -> tuple[int, int]:
    question.refresh_from_db()
    return question.times_asked, question.times_correct


@pytest.fixture
def attempt(make_game):
    question = QuestionFactory(difficulty="easy")
    return TriviaAttempt.objects.create(
        game=make_game(trivia_mode=True),
        hand_index=0,
        action="hit",
        question=question,
        difficulty="easy",
        answers_shown=[question.correct_answer, "Nope"],
    )


def test_a_right_answer_counts_once(attempt) -> None:
    attempt.answer_given, attempt.correct = attempt.question.correct_answer, True
    attempt.save(update_fields=["answer_given", "correct"])
    assert _counters(attempt.question) == (1, 1)
    # Later writes of the same attempt (Continue's applied flag, a report) count nothing.
    attempt.applied = True
    attempt.save(update_fields=["applied"])
    attempt.save()
    assert _counters(attempt.question) == (1, 1)


def test_a_wrong_answer_counts_as_asked_only(attempt) -> None:
    attempt.answer_given, attempt.correct = "Nope", False
    attempt.save(update_fields=["answer_given", "correct"])
    assert _counters(attempt.question) == (1, 0)


def test_a_question_that_timed_out_is_not_counted(attempt) -> None:
    # the time-out records no answer (as before the counters moved to the database).
    attempt.correct, attempt.applied = False, True
    attempt.save(update_fields=["correct", "applied"])
    assert _counters(attempt.question) == (0, 0)
