"""Choosing a question by rating (R-8.10): nearest the difficulty's target chance for this
player, unseen, not asked in the game, of the chosen category; a missed question due comes
back; one query."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.trivia.factories import CategoryFactory, QuestionFactory, UserFactory
from trivia.models import Question, SeenQuestion
from trivia.ratings import GUESS, TARGET_CHANCE, chance_right
from trivia.selection import choose_rated_question, pick_rated_question
from trivia.services import NoQuestionsAvailable

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)


def _bank(ratings: range, *, category=None, difficulty: str = "medium") -> list[Question]:
    category = category or CategoryFactory()
    questions = QuestionFactory.create_batch(len(ratings), category=category, difficulty=difficulty)
    for question, rating in zip(questions, ratings, strict=True):
        Question.objects.filter(pk=question.pk).update(rating=rating)
        question.rating = rating
    return questions


def _asked(*questions: Question):
    return Question.objects.filter(pk__in=[q.pk for q in questions]).values("pk")


def _pick(rating: float = 1500, difficulty: str = "medium", **kwargs):
    arguments = {
        "player_rating": rating,
        "difficulty": difficulty,
        "category_id": None,
        "player_id": None,
        "asked_in_game": _asked(),
        "rng": random.Random(7),
        **kwargs,
    }
    return choose_rated_question(**arguments)


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
@pytest.mark.parametrize("player_rating", [1100, 1500, 1900])
def test_the_chosen_question_gives_the_player_about_the_difficultys_chance(
    difficulty: str, player_rating: float
) -> None:
    _bank(range(600, 2800, 10))
    for seed in range(10):
        question = _pick(player_rating, difficulty, rng=random.Random(seed))
        predicted = chance_right(player_rating, question.rating, GUESS["multiple"])
        assert predicted == pytest.approx(TARGET_CHANCE[difficulty], abs=0.02)


def test_a_stronger_player_gets_a_harder_question_at_the_same_difficulty() -> None:
    _bank(range(600, 2800, 10))
    assert _pick(1800).rating > _pick(1500).rating > _pick(1200).rating


def test_two_players_at_the_same_rating_do_not_always_get_the_same_question() -> None:
    _bank(range(1000, 2000, 10))
    chosen = {_pick(rng=random.Random(seed)).pk for seed in range(20)}
    assert 1 < len(chosen) <= 3


def test_a_true_false_question_is_ranked_by_its_own_guessing_chance() -> None:
    category = CategoryFactory()
    # For a player at 1500, medium aims at 60 %: a four-answer question near 1523, a
    # True/False one (half by guessing) near 1820; one of each, far from the other's target.
    four = _bank(range(1820, 1821), category=category)[0]
    boolean = QuestionFactory(category=category, difficulty="medium", boolean=True)
    Question.objects.filter(pk=boolean.pk).update(rating=1820)
    Question.objects.filter(pk=four.pk).update(rating=2300)
    assert _pick(category_id=category.pk).pk == boolean.pk


def test_seen_and_asked_questions_are_left_out() -> None:
    player = UserFactory()
    near = _bank(range(1515, 1535, 5))
    farther = _bank(range(1700, 1720, 5))
    for question in near[:2]:
        SeenQuestion.objects.create(player=player, question=question)
    chosen = {
        _pick(player_id=player.pk, asked_in_game=_asked(*near[2:]), rng=random.Random(s)).pk
        for s in range(10)
    }
    assert chosen <= {q.pk for q in farther}


def test_a_player_who_has_seen_everything_gets_the_nearest_not_asked_in_this_game() -> None:
    player = UserFactory()
    questions = _bank(range(1000, 2000, 100))
    for question in questions:
        SeenQuestion.objects.create(player=player, question=question)
    asked = _asked(*[q for q in questions if q.rating == 1500])
    assert _pick(player_id=player.pk, asked_in_game=asked).rating in {1400, 1600, 1300}


def test_every_question_of_the_category_asked_starts_over_with_the_usual_pick() -> None:
    category = CategoryFactory()
    questions = _bank(range(1400, 1700, 100), category=category)
    other = QuestionFactory(difficulty="medium")
    chosen = _pick(category_id=category.pk, asked_in_game=_asked(*questions))
    assert chosen.pk in {q.pk for q in questions} | {other.pk}


def test_only_questions_of_the_chosen_category_are_asked() -> None:
    history, science = CategoryFactory(name="History"), CategoryFactory(name="Science")
    _bank(range(1500, 1530, 5), category=history)
    mine = _bank(range(1000, 1030, 10), category=science)
    chosen = _pick(category_id=science.pk)
    assert chosen.pk in {q.pk for q in mine} and chosen.category.name == "Science"


def test_inactive_questions_are_never_asked() -> None:
    near = _bank(range(1520, 1530, 5))
    far = _bank(range(1900, 1910, 5))
    Question.objects.filter(pk__in=[q.pk for q in near]).update(active=False)
    assert _pick().pk in {q.pk for q in far}


def test_an_empty_bank_is_the_no_questions_error() -> None:
    QuestionFactory(difficulty="medium", active=False)
    with pytest.raises(NoQuestionsAvailable):
        _pick()


def test_the_pick_is_one_query_with_its_category_read_along() -> None:
    player = UserFactory()
    _bank(range(1000, 2000, 10))
    with CaptureQueriesContext(connection) as captured:
        picked = pick_rated_question(
            player_rating=1500,
            difficulty="hard",
            category_id=None,
            player_id=player.pk,
            asked_in_game=_asked(),
            rng=random.Random(1),
            review_due_by=NOW,
        )
        assert picked.question.category.name
    assert len(captured.captured_queries) == 1


@pytest.mark.sqlite_only  # SQLite's plan
def test_the_scans_use_the_rating_indexes() -> None:
    category = CategoryFactory()
    _bank(range(1000, 1100, 10), category=category)
    player = UserFactory()
    for category_id, index in (
        (None, "trivia_q_active_rating_idx"),
        (category.pk, "trivia_q_category_rating_idx"),
    ):
        with CaptureQueriesContext(connection) as captured:
            _pick(category_id=category_id, player_id=player.pk)
        sql = captured.captured_queries[0]["sql"]
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
            plan = " ".join(str(row) for row in cursor.fetchall())
        assert index in plan


def _review(**kwargs):
    arguments = {
        "player_rating": 1500,
        "difficulty": "medium",
        "category_id": None,
        "asked_in_game": _asked(),
        "rng": random.Random(3),
        **kwargs,
    }
    return pick_rated_question(**arguments)


def test_a_missed_question_due_comes_back_as_a_review() -> None:
    player = UserFactory()
    _bank(range(1500, 1600, 10))
    missed = _bank(range(900, 901))[0]
    SeenQuestion.objects.create(
        player=player, question=missed, first_correct=False, review_due=NOW - timedelta(hours=1)
    )
    picked = _review(player_id=player.pk, review_due_by=NOW)
    assert picked.review and picked.question.pk == missed.pk


def test_a_review_not_yet_due_learned_asked_or_of_another_category_does_not_come_back() -> None:
    player = UserFactory()
    category = CategoryFactory()
    _bank(range(1500, 1600, 10), category=category)
    missed = _bank(range(900, 904))
    due = [NOW + timedelta(minutes=1), NOW, NOW, NOW]
    for question, when in zip(missed, due, strict=True):
        SeenQuestion.objects.create(player=player, question=question, review_due=when)
    SeenQuestion.objects.filter(question=missed[1]).update(learned=True)
    other_category = _review(player_id=player.pk, review_due_by=NOW, category_id=category.pk)
    assert not other_category.review
    not_asked = _review(player_id=player.pk, review_due_by=NOW, asked_in_game=_asked(missed[2]))
    assert not_asked.review and not_asked.question.pk == missed[3].pk
    SeenQuestion.objects.filter(question=missed[3]).update(learned=True)
    assert not _review(
        player_id=player.pk, review_due_by=NOW, asked_in_game=_asked(missed[2])
    ).review
