"""Ratings at the shared tables (R-8.10): a seat's question is remembered as seen, its
answered first attempt moves the ratings, and a question whose time ran out moves none."""

from __future__ import annotations

import pytest

from game.tables import services
from trivia.models import PlayerRating, SeenQuestion

pytestmark = pytest.mark.django_db

PLAIN = ["0S", "9S", "0H", "7D", "7C", "8C", "5H", "9H", "4C"]


def test_a_seats_answered_question_is_seen_and_rated(question_open, ana, questions, clock):
    table = question_open(PLAIN, "easy")
    seat = table.seats.get(player=ana)
    asked = seat.pending_question
    seen = SeenQuestion.objects.get(player=ana, question=asked.question)
    assert seen.first_correct is None
    services.answer_question(
        table_id=table.pk, user=ana, version=seat.version, answer=asked.question.correct_answer
    )
    seen.refresh_from_db()
    assert seen.first_correct is True
    asked.question.refresh_from_db()
    assert asked.question.rated_answers == 1
    assert PlayerRating.objects.get(player=ana).rated_answers == 1


def test_a_question_whose_time_ran_out_moves_no_rating(question_open, ana, questions, clock):
    table = question_open(PLAIN, "hard")
    asked = table.seats.get(player=ana).pending_question
    clock.advance(seconds=15)
    assert services.apply_due_deadlines() == 1
    asked.question.refresh_from_db()
    assert asked.question.rated_answers == 0
    assert not PlayerRating.objects.filter(player=ana).exists()
    assert SeenQuestion.objects.get(player=ana, question=asked.question).first_correct is None
