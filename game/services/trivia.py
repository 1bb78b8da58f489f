"""Trivia in play (RULES.md §8): a Hit or Double Down in trivia mode asks a question, and
its answer deals the card or stands the hand.

An action that may ask a question draws a candidate from the process's kept list of the
difficulty's questions before the game is locked (:func:`draw_candidate`), and the lock
reads it in the same query (game/core/sql.py): asked when it may be, else the usual pick runs.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.utils import timezone

from game.core import sql
from game.core.clock import from_epoch_ms, now_ms
from game.core.errors import ActionRefused
from game.models import DailyAttempt, TriviaAttempt
from game.rules.daily import QuestionListExhausted, is_daily, nth_question
from game.rules.lifelines import lifeline_kinds
from game.rules.records import TriviaOutcome
from game.rules.shoe import Rng
from game.services import randomness
from game.services.guards import (
    refuse_if_trivia_open,
    require_allowed,
    require_answer_shown,
    require_choice_waiting,
    require_difficulty,
)
from game.services.locking import locked_game
from game.services.results import Played
from game.services.saving import LockedGame, StatusNote, play_and_save, save_attempt, save_game
from trivia import learning
from trivia import services as question_bank
from trivia.models import Question

if TYPE_CHECKING:
    from game.services.saving import Player


def draw_candidate(difficulty: str, rng: Rng) -> question_bank.QuestionCandidate | None:
    """The question an action at ``difficulty`` would ask, drawn before the lock."""
    return question_bank.question_candidate(difficulty, rng)


def choose_difficulty(*, game_id: int, user: Player, version: int, difficulty: str) -> Played:
    """Pick the question for the Hit/Double waiting on trivia and keep it pending (R-8.6)."""
    require_difficulty(difficulty)
    rng = randomness.make_rng()
    candidate = draw_candidate(difficulty, rng)
    with locked_game(
        game_id=game_id, user=user, version=version, question_candidate=candidate
    ) as locked:
        game = locked.game
        refuse_if_trivia_open(game)
        action = game.trivia_choice_for
        require_choice_waiting(action)
        require_allowed(locked.engine, action)
        return ask_question(locked, action=action, difficulty=difficulty, rng=rng)


def ask_question(locked: LockedGame, *, action: str, difficulty: str, rng: Rng) -> Played:
    """Draw a question not yet asked in this game and keep it pending (R-8.6); the
    difficulty is remembered for the next Hit or Double Down. The candidate read with
    the lock is asked when it may be (:func:`draw_candidate`), else the usual
    pick runs."""
    game, engine = locked.game, locked.engine
    assert engine.round is not None  # a question is asked in a hand's turn
    if is_daily(engine):
        question = _daily_question(locked, difficulty)  # D-3: the day's n-th, for everyone
    else:
        question = locked.candidate_question or _pick_question(locked, difficulty, rng)
    attempt = TriviaAttempt(
        game=game,
        # The round in play is the game's latest (its row is written at the deal).
        round_id=locked.round_row_id,
        hand_index=engine.round.current,
        action=action,
        question=question,
        difficulty=difficulty,
        answers_shown=question_bank.shuffled_answers(question, rng=rng),
        # the answer's clock starts now, and a reload does not restart it.
        shown_at=from_epoch_ms(now_ms()),
    )
    # Inserted with the game's save, which points the game at it.
    locked.new_row = attempt
    # the player has seen it (once a row), written with the game's save too.
    seen = learning.shown_row(player=game.owner_id, question_id=question.pk, now=attempt.shown_at)
    locked.pending_writes.extend(
        filter(None, [sql.insert_all_write([seen], ignore_conflicts=True)])
    )
    # The decision is made (Hit or Double): the turn's clock waits for the answer.
    engine.pause_turn_clock()
    return save_game(
        locked,
        pending_trivia=attempt,
        trivia_choice_for="",
        trivia_difficulty=difficulty,
        note={"kind": "question_asked"},
    )


def answer_question(*, game_id: int, user: Player, version: int, answer: str) -> Played:
    """Record the answer to the pending question (a second answer is refused) and carry it
    into the round at once (R-8.2): right, the card is dealt; wrong, the hand stands. Either
    way its reveal shows beside the hand and the round goes on with no extra click."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        pending = locked.game.pending_trivia
        waiting = None if pending is None or pending.is_answered else pending
        attempt = require_answer_shown(waiting, answer)
        correct = answer == attempt.question.correct_answer
        outcome = TriviaOutcome(
            attempt.difficulty, correct, lifelines=lifeline_kinds(attempt.lifelines)
        )
        attempt.answer_given = answer
        attempt.correct = correct
        attempt.credits_change = outcome.credit_change
        attempt.answered_at = timezone.now()
        # Applied in this same action: one UPDATE says both.
        attempt.applied = True
        note = {
            "kind": "answered",
            "correct": correct,
            "credits_change": outcome.credit_change,
            "attempt": attempt.pk,
        }
        # The question's answer counters are kept by the database, in the attempt's UPDATE
        # (trivia/migrations/0003_count_answers_in_the_database.py).
        save_attempt(
            locked, attempt, "answer_given", "correct", "credits_change", "answered_at", "applied"
        )
        # a first attempt moves the player's and the question's ratings.
        learning.record_answer_for_rating(
            player=locked.game.owner_id,
            question=attempt.question,
            correct=correct,
            now=from_epoch_ms(now_ms()),
            shown_at=attempt.shown_at,
        )
        return _apply_answer(locked, attempt, note=note)


def continue_after_reveal(*, game_id: int, user: Player, version: int) -> Played:
    """A wrong answer recorded but not yet carried into the round (a game saved while its
    reveal waited for Continue, before answers were applied at once): the hand stands."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        attempt = locked.game.pending_trivia
        if attempt is None or not attempt.is_answered:
            raise ActionRefused("no_answered_question")
        return _apply_answer(locked, attempt)


def _apply_answer(
    locked: LockedGame, attempt: TriviaAttempt, *, note: StatusNote | None = None
) -> Played:
    """Carry an answer into the round: the card is dealt, or the hand stands (R-8.2)."""
    outcome = TriviaOutcome(
        attempt.difficulty, bool(attempt.correct), lifelines=lifeline_kinds(attempt.lifelines)
    )
    engine = locked.engine
    action = engine.hit if attempt.action == TriviaAttempt.Action.HIT else engine.double
    # A right answer was applied by its own UPDATE (answer_question): its reveal shows on
    # the felt with the card just dealt. Else it is applied now.
    revealed = attempt.applied
    if not revealed:
        attempt.applied = True
        save_attempt(locked, attempt, "applied")
    played = play_and_save(locked, lambda: action(outcome), note=note, pending_trivia=None)
    return replace(played, revealed=attempt) if revealed else played


def _pick_question(locked: LockedGame, difficulty: str, rng: Rng) -> Question:
    return pick_question(
        difficulty=difficulty,
        asked_ids=_asked_in(locked.game.pk),
        rng=rng,
        pool_stamp=locked.question_pool_stamp,
    )


def pick_question(
    *,
    difficulty: str,
    asked_ids: question_bank.Asked,
    rng: Rng,
    pool_stamp: str | None = None,
) -> Question:
    """A random active question of ``difficulty`` not among ``asked_ids`` (a subquery of
    the questions asked so far), refused with ``no_questions`` when the bank has none of
    that difficulty (R-8.5). A shared table's seat picks its questions here too."""
    try:
        return question_bank.choose_question(
            difficulty=difficulty, asked_ids=asked_ids, rng=rng, pool_stamp=pool_stamp
        )
    except question_bank.NoQuestionsAvailable as error:
        raise ActionRefused("no_questions", difficulty=error.difficulty) from None


def _daily_question(locked: LockedGame, difficulty: str) -> Question:
    """The n-th question a Daily Shoe attempt asks of a difficulty: the n-th of the day's
    list for it (D-3)."""
    game = locked.game
    attempt = DailyAttempt.objects.select_related("day").get(game_id=game.pk)
    asked = TriviaAttempt.objects.filter(game_id=game.pk, difficulty=difficulty).count()
    try:
        question_id = nth_question(attempt.day.questions, difficulty, asked + 1)
    except QuestionListExhausted:
        raise ActionRefused("no_questions", difficulty=difficulty) from None
    return Question.objects.get(pk=question_id)


def _asked_in(game_id: int) -> QuerySet[TriviaAttempt, Any]:
    """The ids of the questions a game has asked (its trivia attempts'), as a subquery."""
    return TriviaAttempt.objects.filter(game_id=game_id).values("question_id")
