"""Trivia in play at a table (R-8.5, T-8, T-11): the question chosen for a Hit or Double
Down, its answer carried into the round, and the questions already revealed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.clock import from_epoch_ms, now_ms
from game.services import randomness
from game.services.guards import (
    require_answer_shown,
    require_choice_waiting,
    require_difficulty,
)
from game.services.trivia import pick_question
from game.tables.models import Seat, TableQuestion
from game.tables.services.guards import own_seat, require_round, require_turn
from game.tables.services.locking import locked_table
from game.tables.services.rounds import apply_answer
from trivia import learning
from trivia.services import shuffled_answers

if TYPE_CHECKING:
    from game.tables.services.saving import Player


def revealed_questions(*, table_id: int, round_number: int) -> list[TableQuestion]:
    """The questions of a table's round already answered (or timed out) and so revealed
    (T-11), oldest first, with their trivia question: never one still open."""
    asked = TableQuestion.objects.filter(
        seat__table_id=table_id, round_number=round_number, correct__isnull=False
    )
    return list(asked.select_related("question").order_by("id"))


def choose_difficulty(*, table_id: int, user: Player, version: int, difficulty: str) -> Seat:
    """Choose the question for the Hit or Double Down waiting; the turn's clock waits while
    the question's own clock runs (R-8.5, T-8, R-8.9)."""
    require_difficulty(difficulty)
    with locked_table(table_id=table_id) as locked:
        seat = own_seat(locked, user, version)
        require_turn(locked, seat)
        action = seat.trivia_choice_for
        require_choice_waiting(action)
        asked = TableQuestion.objects.filter(seat=seat).values("question_id")
        rng = randomness.make_rng()
        question = pick_question(
            difficulty=difficulty, asked_ids=asked, rng=rng, player_id=seat.player_id
        )
        asked_question = TableQuestion.objects.create(
            seat=seat,
            round_number=locked.table.round_number,
            action=action,
            question=question,
            difficulty=difficulty,
            answers_shown=shuffled_answers(question, rng=rng),
            shown_ms=now_ms(),
        )
        # the player has seen it (once a row).
        learning.record_shown(
            player=seat.player_id,
            question_id=question.pk,
            now=from_epoch_ms(asked_question.shown_ms),
        )
        seat.pending_question = asked_question
        seat.trivia_choice_for = ""
        locked.engine.pause_turn_clock()
        # T-11: the others see who is answering and how hard, never the question's answer.
        locked.announce("question_asked", seat=seat.number, difficulty=difficulty)
        return seat


def answer_question(*, table_id: int, user: Player, version: int, answer: str) -> Seat:
    """Carry the answer into the round at once: right, the card comes; wrong, the hand
    stands (R-8.2, R-8.3). Everyone then sees the question, the answer and the right one
    (T-11)."""
    with locked_table(table_id=table_id) as locked:
        seat = own_seat(locked, user, version)
        require_round(locked)
        # A seat's open question is unanswered: its answer clears it (apply_answer).
        asked = require_answer_shown(seat.pending_question, answer)
        apply_answer(locked, seat, asked, answer=answer, deadline=None)
        # a first attempt moves the player's and the question's ratings (a question
        # whose time ran out records no answer: it is not rated).
        learning.record_answer_for_rating(
            player=seat.player_id,
            question=asked.question,
            correct=bool(asked.correct),
            now=from_epoch_ms(now_ms()),
            shown_at=from_epoch_ms(asked.shown_ms),
        )
        return seat
