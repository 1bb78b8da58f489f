"""The question a Hit or Double Down asks, chosen by rating (R-8.10): one query of its own,
read with its category; for this player's rating, in the game's category, never one asked
in the game; a missed question due for review comes back, at most one in five."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from game import services
from game.core import clock as game_clock
from game.core.clock import from_epoch_ms
from game.models import Game, TriviaAttempt
from game.rules.clock import FakeClock
from game.services import randomness
from tests.game import scenarios
from tests.game.helpers import asked_before, post
from tests.trivia.factories import CategoryFactory, QuestionFactory
from trivia.models import PlayerRating, Question, SeenQuestion

pytestmark = pytest.mark.django_db

DAY = 24 * 3600


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(game_clock, "CLOCK", fake)
    return fake


@pytest.fixture
def bank(db) -> list[Question]:
    """Forty questions rated 1000 to 2950, 50 points apart, in one category."""
    category = CategoryFactory(name="General")
    questions = QuestionFactory.create_batch(40, category=category, difficulty="medium")
    for number, question in enumerate(questions):
        question.rating = 1000 + 50 * number
        Question.objects.filter(pk=question.pk).update(rating=question.rating)
    return questions


def _ask(player: Any, difficulty: str = "medium", game: Game | None = None) -> TriviaAttempt:
    game = game or scenarios.choosing_difficulty(player)
    game.refresh_from_db()
    played = services.choose_difficulty(
        game_id=game.pk, user=player, version=game.version, difficulty=difficulty
    )
    return TriviaAttempt.objects.select_related("question").get(pk=played.game.pending_trivia_id)


def _question_reads(captured: CaptureQueriesContext) -> list[str]:
    """The statements that read the questions table on their own (not the lock's)."""
    return [
        query["sql"]
        for query in captured.captured_queries
        if query["sql"].lstrip().upper().startswith("SELECT")
        and "trivia_question" in query["sql"]
        and "game_game" not in query["sql"]
    ]


def test_the_question_is_chosen_in_one_query_and_shown_with_its_category(
    player, bank, monkeypatch
) -> None:
    game = scenarios.choosing_difficulty(player)
    monkeypatch.setattr(randomness, "make_rng", lambda: random.Random(7))
    client = Client()
    client.force_login(player)
    with CaptureQueriesContext(connection) as captured:
        response = post(client, game, "difficulty", htmx=True, difficulty="medium")
    assert response.status_code == 200
    assert len(_question_reads(captured)) == 1
    attempt = TriviaAttempt.objects.select_related("question__category").get(
        game=game, applied=False
    )
    question = attempt.question
    page = response.content.decode()
    answers = [question.correct_answer, *question.incorrect_answers]
    for text in (question.text, question.category.name, *answers):
        assert escape(text) in page


@pytest.mark.parametrize(
    ("difficulty", "around"), [("easy", 1324), ("medium", 1523), ("hard", 1825)]
)
def test_a_new_player_gets_the_question_nearest_the_difficultys_aim(
    player, bank, difficulty: str, around: int
) -> None:
    # At the bank's middle (1500): 80 %, 60 %, 35 % aim at these ratings.
    assert abs(_ask(player, difficulty).question.rating - around) <= 75


def test_a_stronger_player_gets_a_harder_question(player, other_player, bank) -> None:
    PlayerRating.objects.create(player=other_player, rating=2000)
    assert _ask(other_player).question.rating - _ask(player).question.rating >= 400


def test_a_question_asked_in_the_game_or_seen_before_is_not_asked(player, bank) -> None:
    game = scenarios.choosing_difficulty(player)
    near = [q for q in bank if 1400 <= q.rating <= 1650]
    for question in near[:3]:
        asked_before(game, question)
    for question in near[3:]:
        SeenQuestion.objects.create(player=player, question=question)
    chosen = _ask(player, game=game).question
    assert chosen.pk not in {q.pk for q in near}


def test_the_games_category_is_kept(player, bank) -> None:
    science = CategoryFactory(name="Science")
    mine = QuestionFactory(category=science, difficulty="hard")
    game = scenarios.choosing_difficulty(player)
    Game.objects.filter(pk=game.pk).update(trivia_category=science)
    assert _ask(player, game=game).question.pk == mine.pk


def test_each_question_asked_counts_towards_the_next_review(player, bank) -> None:
    _ask(player)
    _ask(player)
    assert PlayerRating.objects.get(player=player).asked_since_review == 2
    # A player with no rating row gets one at the bank's middle.
    assert PlayerRating.objects.get(player=player).rating == 1500


def _missed(player: Any, question: Question, clock: FakeClock, days: int) -> None:
    """The player missed ``question`` now; its review falls due ``days`` later."""
    shown = from_epoch_ms(clock())
    SeenQuestion.objects.create(
        player=player,
        question=question,
        first_seen=shown,
        first_correct=False,
        review_step=1,
        review_due=shown + timedelta(days=days),
    )


def test_a_missed_question_comes_back_after_a_day_and_not_before(player, bank, clock) -> None:
    missed = bank[-1]  # far from any aim: it comes back only as a review
    _missed(player, missed, clock, days=1)
    PlayerRating.objects.create(player=player, asked_since_review=4)
    clock.advance(seconds=DAY - 60)
    assert _ask(player).question.pk != missed.pk  # not yet due
    clock.advance(seconds=60)
    assert _ask(player).question.pk == missed.pk
    assert PlayerRating.objects.get(player=player).asked_since_review == 0


def test_at_most_one_question_in_five_is_a_review(player, bank, clock) -> None:
    for question in bank[-6:]:
        _missed(player, question, clock, days=1)
    clock.advance(seconds=2 * DAY)
    reviews = {q.pk for q in bank[-6:]}
    asked = [_ask(player).question.pk in reviews for _ in range(10)]
    # The first ask finds no count yet (0): four new questions, then a review, and so on.
    assert asked == [False, False, False, False, True] * 2


def test_a_learned_review_does_not_come_back(player, bank, clock) -> None:
    missed = bank[-1]
    _missed(player, missed, clock, days=1)
    SeenQuestion.objects.filter(question=missed).update(learned=True)
    PlayerRating.objects.create(player=player, asked_since_review=4)
    clock.advance(seconds=2 * DAY)
    assert _ask(player).question.pk != missed.pk


def test_a_review_outside_the_games_category_waits(player, bank, clock) -> None:
    missed = bank[-1]
    _missed(player, missed, clock, days=1)
    PlayerRating.objects.create(player=player, asked_since_review=4)
    clock.advance(seconds=2 * DAY)
    science = CategoryFactory(name="Science")
    QuestionFactory(category=science, difficulty="medium")
    game = scenarios.choosing_difficulty(player)
    Game.objects.filter(pk=game.pk).update(trivia_category=science)
    assert _ask(player, game=game).question.category_id == science.pk
    assert _ask(player).question.pk == missed.pk  # still due, in a game of any category
