"""An action that may ask a question draws a candidate from the process's kept list before
the game is locked and reads it with the lock; it is asked when it may be (active, of its
difficulty, not asked in the game, drawn from the list the bank's stamp still names), else
the usual pick runs."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from game import services
from game.models import Game, TriviaAttempt
from game.services import randomness
from tests.game import scenarios
from tests.game.helpers import asked_before, post
from trivia import services as trivia_services
from trivia.models import Question
from trivia.services import QuestionCandidate, active_question_ids, read_pool_stamp

pytestmark = pytest.mark.django_db


def _ask(game: Game, player: Any, reads: list[str] | None = None) -> TriviaAttempt:
    """The difficulty chosen; ``reads`` gets the action's own reads of the questions table."""
    game.refresh_from_db()
    with CaptureQueriesContext(connection) as captured:
        game = services.choose_difficulty(
            game_id=game.pk, user=player, version=game.version, difficulty="medium"
        ).game
    if reads is not None:
        reads.extend(_question_reads(captured))
    return TriviaAttempt.objects.select_related("question__category").get(pk=game.pending_trivia_id)


def _question_reads(captured: CaptureQueriesContext) -> list[str]:
    """The statements that read the questions table on their own (not the lock's)."""
    return [
        query["sql"]
        for query in captured.captured_queries
        if query["sql"].lstrip().upper().startswith("SELECT")
        and "trivia_question" in query["sql"]
        and "game_game" not in query["sql"]
    ]


def _use_candidate(monkeypatch: pytest.MonkeyPatch, question_id: int, stamp: str) -> None:
    monkeypatch.setattr(
        trivia_services,
        "question_candidate",
        lambda difficulty, rng: QuestionCandidate(difficulty, question_id, stamp),
    )


def test_the_drawn_candidate_is_asked_with_no_query_of_its_own(
    player, questions, monkeypatch
) -> None:
    """Asked as the page asks it (an htmx post): the table it answers with shows the
    question read with the lock — its text, its category, its answers."""
    game = scenarios.choosing_difficulty(player)
    pool = active_question_ids("medium")  # kept, as after any earlier question
    monkeypatch.setattr(randomness, "make_rng", lambda: random.Random(7))
    expected = pool[random.Random(7).randrange(len(pool))]
    client = Client()
    client.force_login(player)
    with CaptureQueriesContext(connection) as captured:
        response = post(client, game, "difficulty", htmx=True, difficulty="medium")
    assert response.status_code == 200
    assert _question_reads(captured) == []
    question = Question.objects.select_related("category").get(pk=expected)
    attempt = TriviaAttempt.objects.get(game=game, applied=False)
    assert attempt.question_id == expected
    answers = [question.correct_answer, *question.incorrect_answers]
    assert sorted(attempt.answers_shown) == sorted(answers)
    page = response.content.decode()
    for text in (question.text, question.category.name, *answers):
        assert escape(text) in page


def test_a_candidate_already_asked_in_the_game_is_not_asked_again(
    player, questions, monkeypatch
) -> None:
    game = scenarios.choosing_difficulty(player)
    stamp = read_pool_stamp()
    active_question_ids("medium", stamp)
    asked = questions["medium"][0]
    asked_before(game, asked)
    _use_candidate(monkeypatch, asked.pk, stamp)
    reads: list[str] = []
    attempt = _ask(game, player, reads)
    assert attempt.question_id != asked.pk
    assert len(reads) >= 1  # the usual pick ran


@pytest.mark.parametrize("why", ["stale list", "deactivated", "other difficulty"])
def test_a_candidate_that_may_not_be_asked_gives_way_to_the_usual_pick(
    player, questions, monkeypatch, why
) -> None:
    game = scenarios.choosing_difficulty(player)
    stamp = read_pool_stamp()
    active_question_ids("medium", stamp)
    candidate = questions["medium"][0]
    if why == "stale list":
        stamp = "a list read under another stamp"
    elif why == "deactivated":
        # Behind the stamp's back (raw SQL or a shell's update): the lock's read finds it so.
        Question.objects.filter(pk=candidate.pk).update(active=False)
    else:
        candidate = questions["hard"][0]
    _use_candidate(monkeypatch, candidate.pk, stamp)
    reads: list[str] = []
    attempt = _ask(game, player, reads)
    assert attempt.question_id != candidate.pk
    assert attempt.question.difficulty == "medium"
    assert len(reads) >= 1


def test_without_a_kept_list_there_is_no_candidate(questions) -> None:
    trivia_services.forget_question_pools()
    assert trivia_services.question_candidate("medium", random.Random(1)) is None
    active_question_ids("medium")
    candidate = trivia_services.question_candidate("medium", random.Random(1))
    assert candidate is not None and candidate.pool_stamp == read_pool_stamp()
    assert candidate.question_id in {question.pk for question in questions["medium"]}
