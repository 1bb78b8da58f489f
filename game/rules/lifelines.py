"""Lifelines (RULES.md R-8.11): when 50:50 and Swap may be used, and what 50:50 removes.

Pure rules: the services pass in what they read (the attempt, the credits, the clock) and
get back the reason a lifeline is refused, as a code the presentation words, or None.
The credit a lifeline costs is taken by the engine (:meth:`Engine.use_lifeline`), so a
replay and the game-over rule R-8.7 see it as they see an answer's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from game.rules.records import FIFTY_FIFTY, LIFELINE_COST, LIFELINES, SWAP
from game.rules.shoe import Rng

__all__ = [
    "FIFTY_FIFTY",
    "LIFELINES",
    "LIFELINE_COST",
    "SWAP",
    "credits_refusal",
    "fifty_fifty_removed",
    "lifeline_kinds",
    "lifeline_refusal",
]

# The refusal codes (game/presentation/notices.py words them).
LIFELINES_OFF: Final = "lifelines_off"
NO_QUESTION: Final = "no_unanswered_question"
ALREADY_USED: Final = "lifeline_used"
NOT_FOUR_ANSWERS: Final = "fifty_fifty_two_answers"
LAST_CREDIT: Final = "lifeline_last_credit"
TIME_RAN_OUT: Final = "lifeline_time_ran_out"
UNKNOWN: Final = "no_such_lifeline"

# 50:50 needs a question of this many answers (True/False has two: nothing to halve).
FOUR_ANSWERS: Final = 4
REMOVED_BY_FIFTY_FIFTY: Final = 2


def lifeline_kinds(records: Iterable[Mapping[str, Any]] | None) -> tuple[str, ...]:
    """The kinds of lifeline an attempt's records name (``{"kind": "swap", ...}``), in the
    order they were used: the ones its answer's record names."""
    return tuple(str(record.get("kind")) for record in records or ())


def credits_refusal(credits: int, cost: int = LIFELINE_COST) -> str | None:
    """R-8.11: refused while paying would leave no credit (one credit left, or fewer), so a
    lifeline alone never ends the game."""
    return LAST_CREDIT if credits - cost < 1 else None


def lifeline_refusal(
    kind: str,
    *,
    enabled: bool,
    pending: bool,
    used: Sequence[str],
    answer_count: int,
    credits: int,
    time_left_ms: int | None,
) -> str | None:
    """Why lifeline ``kind`` may not be used now, or None when it may (R-8.11).

    ``pending``: an unanswered question is shown; ``used``: the kinds already used on it;
    ``answer_count``: the answers it was shown with (now, before any is removed);
    ``time_left_ms``: what its answer timer has left, None when it has none (R-8.9: a
    lifeline does not stop the clock, and there is no help once the time ran out)."""
    if kind not in LIFELINES:
        return UNKNOWN
    if not enabled:
        return LIFELINES_OFF
    if not pending:
        return NO_QUESTION
    if time_left_ms is not None and time_left_ms <= 0:
        return TIME_RAN_OUT
    if kind in used:
        return ALREADY_USED
    if kind == FIFTY_FIFTY and answer_count != FOUR_ANSWERS:
        return NOT_FOUR_ANSWERS
    return credits_refusal(credits)


def fifty_fifty_removed(answers: Sequence[str], correct: str, rng: Rng) -> list[str]:
    """The two wrong answers 50:50 takes away, chosen with ``rng`` (on the server), in the
    order they were shown; never the right one."""
    wrong = [answer for answer in answers if answer != correct]
    if len(answers) != FOUR_ANSWERS or len(wrong) != len(answers) - 1:
        raise ValueError("50:50 needs four answers, exactly one of them right")
    kept = wrong[rng.randrange(len(wrong))]
    return [answer for answer in wrong if answer != kept]
