"""The deadlines of a decision and of an answer (R-4.13, R-8.9), applied under the game's
lock by whichever request comes first."""

from __future__ import annotations

from game.core.clock import from_epoch_ms, now_ms, pending_answer_deadline
from game.models import Game, TriviaAttempt
from game.rules.lifelines import lifeline_kinds
from game.rules.options import Options
from game.rules.records import TriviaOutcome
from game.services.saving import LockedGame, play_and_save, save_attempt

TIME_RAN_OUT = "time_ran_out"


def apply_deadlines(locked: LockedGame) -> bool:
    """Apply every deadline that has run out by now, in order, and save; True if any did.

    The stored deadline is enforced by whichever request comes first, under the row lock
    (no timer runs in a web process): a question not answered in time counts as wrong,
    and a decision not made in time stands the hand; the next decision's clock starts at
    the deadline that ran out, so a game resumed late has moved on as far as it would have.
    """
    options = locked.engine.options
    if options.turn_ms is None and options.answer_ms is None:
        return False
    fired = False
    while True:
        answer_due = pending_answer_deadline(locked.game, options)
        if answer_due is not None and now_ms() >= answer_due:
            _time_out_answer(locked, answer_due)
        elif locked.game.pending_trivia is None and locked.engine.deadline_passed():
            play_and_save(locked, locked.engine.run_clock, note={"kind": TIME_RAN_OUT})
        else:
            return fired
        fired = True


def _time_out_answer(locked: LockedGame, deadline: int) -> None:
    """The pending question was not answered in time: a wrong answer, applied (R-8.9)."""
    attempt = locked.game.pending_trivia
    assert attempt is not None  # pending_answer_deadline found it
    outcome = TriviaOutcome(
        attempt.difficulty, False, timed_out=True, lifelines=lifeline_kinds(attempt.lifelines)
    )
    attempt.correct = False
    attempt.credits_change = outcome.credit_change
    attempt.answered_at = from_epoch_ms(deadline)
    attempt.applied = True
    save_attempt(locked, attempt, "correct", "credits_change", "answered_at", "applied")
    engine = locked.engine
    action = engine.hit if attempt.action == TriviaAttempt.Action.HIT else engine.double
    engine.start_next_decision_at(deadline)
    note = {"kind": TIME_RAN_OUT, "answer": True, "credits_change": outcome.credit_change}
    play_and_save(locked, lambda: action(outcome), note=note, pending_trivia=None)


def deadline_due(game: Game) -> bool:
    options = game.options or {}
    if (
        options.get("turn_seconds", "off") == "off"
        and options.get("answer_seconds", "off") == "off"
    ):
        return False
    round_ = (game.state or {}).get("round") or {}
    now = now_ms()
    turn_due = round_.get("deadline")
    if turn_due is not None and now >= turn_due:
        return True
    answer_due = pending_answer_deadline(game, Options.from_dict(options))
    return answer_due is not None and now >= answer_due
