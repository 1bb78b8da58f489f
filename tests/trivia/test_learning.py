"""What the bank learns from answers (trivia/learning.py): the questions a player has seen,
ratings moved by first attempts only, and missed questions' spaced review."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.trivia.factories import QuestionFactory, UserFactory
from trivia import ratings
from trivia.learning import record_answer_for_rating, record_shown
from trivia.models import RATING_SEEDS, PlayerRating, Question, SeenQuestion

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)
DAY = timedelta(days=1)


def _answer(player, question: Question, *, correct: bool, now: datetime = NOW) -> bool:
    question.refresh_from_db()
    return record_answer_for_rating(player=player, question=question, correct=correct, now=now)


def _seen(player, question: Question) -> SeenQuestion:
    return SeenQuestion.objects.get(player=player, question=question)


def test_a_question_shown_twice_is_one_row_first_seen_the_first_time() -> None:
    player, question = UserFactory(), QuestionFactory()
    record_shown(player=player, question_id=question.pk, now=NOW)
    record_shown(player=player, question_id=question.pk, now=NOW + DAY)
    rows = SeenQuestion.objects.filter(player=player, question=question)
    assert rows.count() == 1
    assert rows.get().first_seen == NOW and rows.get().first_correct is None


def test_a_first_attempt_moves_both_ratings_by_the_formula() -> None:
    player, question = UserFactory(), QuestionFactory(difficulty="medium")
    record_shown(player=player, question_id=question.pk, now=NOW)
    assert _answer(player, question, correct=True) is True
    # A new player (1500) right on a new medium question (1500): 24 points each way.
    rating = PlayerRating.objects.get(player=player)
    question.refresh_from_db()
    assert (rating.rating, rating.rated_answers) == (pytest.approx(1524.0), 1)
    assert (question.rating, question.rated_answers) == (pytest.approx(1476.0), 1)
    assert _seen(player, question).first_correct is True


def test_a_question_starts_at_its_labels_rating() -> None:
    for difficulty, seed in RATING_SEEDS.items():
        assert QuestionFactory(difficulty=difficulty).rating == seed


def test_a_second_attempt_moves_no_rating() -> None:
    player, question = UserFactory(), QuestionFactory()
    record_shown(player=player, question_id=question.pk, now=NOW)
    assert _answer(player, question, correct=False) is True
    question.refresh_from_db()
    before = (question.rating, PlayerRating.objects.get(player=player).rating)
    # Shown again (a repeated question) and answered right: it was not the first attempt.
    record_shown(player=player, question_id=question.pk, now=NOW + timedelta(hours=1))
    assert _answer(player, question, correct=True, now=NOW + timedelta(hours=1)) is False
    question.refresh_from_db()
    assert (question.rating, PlayerRating.objects.get(player=player).rating) == before
    assert question.rated_answers == 1
    assert _seen(player, question).first_correct is False


def test_an_answer_to_a_question_never_recorded_as_shown_is_its_first_attempt() -> None:
    player, question = UserFactory(), QuestionFactory()
    assert _answer(player, question, correct=True) is True
    assert _seen(player, question).first_correct is True
    assert _answer(player, question, correct=True) is False


def test_other_players_first_attempts_all_count_on_the_question() -> None:
    question = QuestionFactory(difficulty="hard")
    players = [UserFactory() for _ in range(3)]
    for player in players:
        record_shown(player=player, question_id=question.pk, now=NOW)
        assert _answer(player, question, correct=False) is True
    question.refresh_from_db()
    assert question.rated_answers == 3
    assert question.rating > RATING_SEEDS["hard"]


def test_a_right_first_attempt_schedules_no_review() -> None:
    player, question = UserFactory(), QuestionFactory()
    record_shown(player=player, question_id=question.pk, now=NOW)
    _answer(player, question, correct=True)
    seen = _seen(player, question)
    assert (seen.review_step, seen.review_due, seen.learned) == (0, None, False)


def test_a_missed_question_comes_back_after_one_three_and_seven_days_then_is_learned() -> None:
    player, question = UserFactory(), QuestionFactory()
    record_shown(player=player, question_id=question.pk, now=NOW)
    _answer(player, question, correct=False)
    seen = _seen(player, question)
    assert (seen.review_step, seen.review_due) == (1, NOW + 1 * DAY)
    # Asked again before it was due: not a review, nothing moves.
    _answer(player, question, correct=False, now=NOW + timedelta(hours=5))
    assert (_seen(player, question).review_step, _seen(player, question).review_due) == (
        1,
        NOW + DAY,
    )
    # Missed on its first review: step 2, due three days later; then step 3, seven days.
    second = NOW + DAY
    _answer(player, question, correct=False, now=second)
    assert (_seen(player, question).review_step, _seen(player, question).review_due) == (
        2,
        second + 3 * DAY,
    )
    third = second + 3 * DAY
    _answer(player, question, correct=False, now=third)
    assert (_seen(player, question).review_step, _seen(player, question).review_due) == (
        3,
        third + 7 * DAY,
    )
    # Right on review: learned, not due again; and no review moved a rating.
    _answer(player, question, correct=True, now=third + 7 * DAY)
    seen = _seen(player, question)
    assert (seen.learned, seen.review_due) == (True, None)
    assert PlayerRating.objects.get(player=player).rated_answers == 1
    question.refresh_from_db()
    assert question.rated_answers == 1


def test_a_missed_question_answered_right_on_its_first_review_is_learned() -> None:
    player, question = UserFactory(), QuestionFactory()
    record_shown(player=player, question_id=question.pk, now=NOW)
    _answer(player, question, correct=False)
    _answer(player, question, correct=True, now=NOW + ratings.REVIEW_DAYS[0] * DAY)
    seen = _seen(player, question)
    assert (seen.review_step, seen.learned, seen.review_due) == (1, True, None)


def test_a_question_seen_before_and_left_unanswered_is_no_first_attempt_when_asked_again() -> None:
    player, question = UserFactory(), QuestionFactory()
    # Shown, then its time ran out (no answer recorded); asked again a day later.
    record_shown(player=player, question_id=question.pk, now=NOW)
    again = NOW + DAY
    record_shown(player=player, question_id=question.pk, now=again)
    question.refresh_from_db()
    first = record_answer_for_rating(
        player=player, question=question, correct=False, now=again, shown_at=again
    )
    assert first is False
    question.refresh_from_db()
    assert question.rated_answers == 0
    assert not PlayerRating.objects.filter(player=player).exists()
    # Its answer is kept all the same: missed, it comes back for review.
    seen = _seen(player, question)
    assert (seen.first_correct, seen.review_step, seen.review_due) == (False, 1, again + DAY)


def test_the_asking_that_first_showed_a_question_is_its_first_attempt() -> None:
    player, question = UserFactory(), QuestionFactory()
    record_shown(player=player, question_id=question.pk, now=NOW)
    question.refresh_from_db()
    later = NOW + timedelta(seconds=9)
    assert record_answer_for_rating(
        player=player, question=question, correct=True, now=later, shown_at=NOW
    )


def test_a_first_attempt_rated_from_a_stale_read_of_the_players_rating_is_rated_again() -> None:
    player, question = UserFactory(), QuestionFactory(difficulty="medium")
    record_shown(player=player, question_id=question.pk, now=NOW)
    question.refresh_from_db()
    # Read before the player's answer elsewhere moved their rating to 1600 over 3 answers.
    read_before = ratings.Rated(ratings.START_RATING, 0)
    PlayerRating.objects.create(player=player, rating=1600.0, rated_answers=3)
    assert record_answer_for_rating(
        player=player, question=question, correct=True, now=NOW, player_rated=read_before
    )
    expected = ratings.rate_answer(
        player=ratings.Rated(1600.0, 3),
        question=ratings.Rated(question.rating, question.rated_answers),
        correct=True,
        guess=ratings.guess_chance(question.type),
    )
    rating = PlayerRating.objects.get(player=player)
    assert (rating.rating, rating.rated_answers) == (pytest.approx(expected.player.rating), 4)
    question.refresh_from_db()
    assert (question.rating, question.rated_answers) == (
        pytest.approx(expected.question.rating),
        1,
    )


def test_a_first_attempt_rated_from_a_read_that_found_no_rating_row_makes_it() -> None:
    player, question = UserFactory(), QuestionFactory(difficulty="medium")
    record_shown(player=player, question_id=question.pk, now=NOW)
    question.refresh_from_db()
    assert record_answer_for_rating(
        player=player,
        question=question,
        correct=False,
        now=NOW,
        player_rated=ratings.Rated(ratings.START_RATING, 0),
    )
    rating = PlayerRating.objects.get(player=player)
    # A new player (1500) wrong on a new medium question (1500), right with chance 0.625:
    # 64 x 0.625 = 40 points down.
    assert (rating.rating, rating.rated_answers, rating.asked_since_review) == (
        pytest.approx(1460.0),
        1,
        0,
    )


def test_a_later_attempt_writes_no_rating_whatever_rating_was_read() -> None:
    player, question = UserFactory(), QuestionFactory()
    record_shown(player=player, question_id=question.pk, now=NOW)
    assert _answer(player, question, correct=True) is True
    before = PlayerRating.objects.values_list("rating", "rated_answers").get(player=player)
    question.refresh_from_db()
    assert not record_answer_for_rating(
        player=player,
        question=question,
        correct=True,
        now=NOW,
        player_rated=ratings.Rated(ratings.START_RATING, 0),
    )
    assert PlayerRating.objects.values_list("rating", "rated_answers").get(player=player) == before
    question.refresh_from_db()
    assert question.rated_answers == 1
