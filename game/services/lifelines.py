"""Lifelines on the question shown (RULES.md R-8.11): 50:50 and Swap, one credit each.

Each is used on the game's pending, unanswered trivia attempt, at most once per question,
and recorded on it (``TriviaAttempt.lifelines``). The credit goes through the engine
(:meth:`game.rules.engine.Engine.use_lifeline`), which keeps it in the round's credit
change, so the round's replay names the lifeline (``hit:easy:fifty_fifty:correct``) and
the game-over rule R-8.7 holds. What 50:50 removes and the question Swap brings are
chosen here, on the server: the page learns nothing of the right answer from them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.core.clock import from_epoch_ms, now_ms, pending_answer_deadline
from game.core.errors import ActionRefused
from game.models import TriviaAttempt
from game.rules.lifelines import (
    FIFTY_FIFTY,
    SWAP,
    fifty_fifty_removed,
    lifeline_kinds,
    lifeline_refusal,
)
from game.services import randomness
from game.services.locking import locked_game
from game.services.results import Played
from game.services.saving import LockedGame, play_and_save, save_attempt
from game.services.trivia import pick_for_locked, record_shown_with_save
from trivia import services as question_bank

if TYPE_CHECKING:
    from game.services.saving import Player

# The status note of a lifeline used (game/presentation/notices.py words it).
LIFELINE_USED = "lifeline_used"


def lifeline_refusal_for(locked: LockedGame, kind: str) -> str | None:
    """Why lifeline ``kind`` may not be used on the game's question now, or None."""
    game, engine = locked.game, locked.engine
    attempt = game.pending_trivia
    pending = attempt is not None and not attempt.is_answered
    deadline = pending_answer_deadline(game, engine.options) if pending else None
    return lifeline_refusal(
        kind,
        enabled=engine.options.lifelines and engine.options.trivia_mode,
        pending=pending,
        used=lifeline_kinds(attempt.lifelines) if attempt is not None else (),
        answer_count=len(attempt.answers_shown) if attempt is not None else 0,
        credits=_credits_of(locked),
        time_left_ms=None if deadline is None else deadline - now_ms(),
    )


def _credits_of(locked: LockedGame) -> int:
    return locked.engine.credits


def _pending(locked: LockedGame, kind: str) -> TriviaAttempt:
    reason = lifeline_refusal_for(locked, kind)
    if reason is not None:
        raise ActionRefused(reason)
    attempt = locked.game.pending_trivia
    assert attempt is not None  # no refusal: a question is pending
    return attempt


def use_fifty_fifty(*, game_id: int, user: Player, version: int) -> Played:
    """50:50: two wrong answers of the four-answer question shown are taken away, for one
    credit (R-8.11). The answers left are the ones that may be posted."""
    rng = randomness.make_rng()
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        attempt = _pending(locked, FIFTY_FIFTY)
        shown = list(attempt.answers_shown)
        removed = fifty_fifty_removed(shown, attempt.question.correct_answer, rng)
        attempt.answers_shown = [answer for answer in shown if answer not in removed]
        attempt.lifelines = [*attempt.lifelines, {"kind": FIFTY_FIFTY, "removed": removed}]
        save_attempt(locked, attempt, "answers_shown", "lifelines")
        return _pay(locked, FIFTY_FIFTY)


def swap_question(*, game_id: int, user: Player, version: int) -> Played:
    """Swap: the question shown is replaced by another of the same difficulty (and
    category), not asked before in this game, with its answers newly shuffled, for one
    credit (R-8.11). The old question counts as shown (R-8.5), not as answered; the
    answer's clock, if any, keeps running."""
    rng = randomness.make_rng()
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        attempt = _pending(locked, SWAP)
        old = attempt.question
        # Not asked in this game, nor swapped away earlier in it (both count as shown).
        question = pick_for_locked(locked, difficulty=attempt.difficulty, rng=rng)
        if question.pk == old.pk:
            # Every question of the difficulty has been asked: there is none to swap in.
            raise ActionRefused("no_questions", difficulty=attempt.difficulty)
        attempt.question = question
        attempt.swapped_away = old
        attempt.answers_shown = question_bank.shuffled_answers(question, rng=rng)
        attempt.lifelines = [*attempt.lifelines, {"kind": SWAP, "question": old.pk}]
        save_attempt(locked, attempt, "question", "swapped_away", "answers_shown", "lifelines")
        # The question swapped in is shown now: its answer may be a first attempt (rated).
        record_shown_with_save(locked, question, from_epoch_ms(now_ms()))
        return _pay(locked, SWAP)


def _pay(locked: LockedGame, kind: str) -> Played:
    """The lifeline's credit, taken by the engine at once, and the game saved with it."""
    engine = locked.engine
    note: dict[str, Any] = {"kind": LIFELINE_USED, "lifeline": kind}
    return play_and_save(locked, lambda: engine.use_lifeline(kind), note=note)
