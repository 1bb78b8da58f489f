"""The checks several actions make before they change anything (each refusal an
ActionRefused with its reason, worded by game/presentation/notices.py).

The checks of what a player posts (a chip, a side bet, a difficulty, an answer to the
question shown) are the shared tables' too (game/tables/services): both kinds of table
refuse them alike, with the same reasons.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from game.core.errors import ActionRefused
from game.models import Game
from game.rules.engine import Engine
from game.rules.money import CHIP_CENTS
from game.rules.records import ALLOWED, DIFFICULTIES
from game.rules.sidebets import STAKED_SIDE_BETS
from game.services.saving import LockedGame

# The decisions a trivia question stands before in trivia mode.
TRIVIA_ACTIONS = ("hit", "double")


def require_chip(chip_cents: int) -> None:
    """Refuse an amount that is none of the chip buttons' (R-1.4): ``no_such_chip``."""
    if chip_cents not in CHIP_CENTS:
        raise ActionRefused("no_such_chip")


def require_side_bet(bet: str) -> None:
    """Refuse a name that is none of the staked side bets' (§9): ``no_such_side_bet``."""
    if bet not in STAKED_SIDE_BETS:
        raise ActionRefused("no_such_side_bet")


def require_difficulty(difficulty: str) -> None:
    """Refuse a difficulty that is not Easy, Medium or Hard (R-8.1): ``no_such_difficulty``."""
    if difficulty not in DIFFICULTIES:
        raise ActionRefused("no_such_difficulty")


def require_choice_waiting(action: str) -> None:
    """Refuse a difficulty chosen while no Hit or Double Down waits on trivia (R-8.1):
    ``no_choice_waiting``."""
    if action not in TRIVIA_ACTIONS:
        raise ActionRefused("no_choice_waiting")


class AskedQuestion(Protocol):
    """A question shown to a player: a game's TriviaAttempt or a table's TableQuestion."""

    answers_shown: Any


Asked = TypeVar("Asked", bound=AskedQuestion)


def require_answer_shown(waiting: Asked | None, answer: str) -> Asked:
    """The question waiting for an answer, once ``answer`` is checked against it: refused
    with ``no_unanswered_question`` when none waits (R-8.6: a second answer is rejected)
    and ``not_an_answer_shown`` when the answer is not one of the choices it showed."""
    if waiting is None:
        raise ActionRefused("no_unanswered_question")
    if answer not in waiting.answers_shown:
        raise ActionRefused("not_an_answer_shown")
    return waiting


def refuse_if_trivia_open(game: Game) -> None:
    """Refuse while a question waits for its answer (R-8.6): ``trivia_open``."""
    if game.pending_trivia_id is not None:
        raise ActionRefused("trivia_open")


def require_allowed(engine: Engine, action: str) -> None:
    """Refuse an action the rules do not allow now, with their reason when they give one."""
    reason = engine.legal_actions().get(action)
    if reason != ALLOWED:
        if reason:
            raise ActionRefused("rule", text=reason)
        raise ActionRefused("not_allowed", action=action)


def require_playing(engine: Engine) -> None:
    """Refuse any play once the game is over (R-1.6, R-8.7): ``game_over``."""
    if engine.game_over:
        raise ActionRefused("game_over")


def require_betting(locked: LockedGame) -> None:
    """Refuse a bet while a round is in play: ``round_open``."""
    require_playing(locked.engine)
    if locked.engine.round_in_progress:
        raise ActionRefused("round_open")
