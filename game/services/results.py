"""What a single-player action hands back: the saved game row with what the action knows
besides it, so that the table shown next need not read or rebuild it."""

from __future__ import annotations

from dataclasses import dataclass

from game.models import Game, TriviaAttempt
from game.rules.engine import Engine


@dataclass(frozen=True)
class Played:
    """A game action's result: the saved row and the engine the action ran on it."""

    game: Game
    engine: Engine
    # The attempt just answered, whose reveal shows beside the hand; None when the
    # action answered nothing (the table reads the status note's attempt, if any).
    revealed: TriviaAttempt | None = None
    # The coach's note on the move ("" when none was made); None: not known, the table
    # reads it from the game's stored deviations.
    coach_note: str | None = None
