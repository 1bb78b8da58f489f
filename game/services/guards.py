"""The checks several actions make before they change anything (each refusal an
ActionRefused with its reason, worded by game/presentation/notices.py)."""

from __future__ import annotations

from game.errors import ActionRefused
from game.models import Game
from game.rules.engine import Game as EngineGame
from game.rules.records import ALLOWED
from game.services.saving import LockedGame


def refuse_if_trivia_open(game: Game) -> None:
    if game.pending_trivia_id is not None:
        raise ActionRefused("trivia_open")


def require_allowed(engine: EngineGame, action: str) -> None:
    reason = engine.legal_actions().get(action)
    if reason != ALLOWED:
        if reason:
            raise ActionRefused("rule", text=reason)
        raise ActionRefused("not_allowed", action=action)


def require_playing(engine: EngineGame) -> None:
    if engine.game_over:
        raise ActionRefused("game_over")


def require_betting(locked: LockedGame) -> None:
    require_playing(locked.engine)
    if locked.engine.round_in_progress:
        raise ActionRefused("round_open")
