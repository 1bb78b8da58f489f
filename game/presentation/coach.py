"""The coach's part of the single-player table: whether a hint can be asked for, the hint
asked for, and the note on a move that was not basic strategy."""

from __future__ import annotations

from typing import Any

from game.models import Game
from game.presentation.table import TableView
from game.services.coach import HINT_PANELS, hint_for_game


def table_context(game: Game, view: TableView, *, hint: bool, note: str) -> dict[str, Any]:
    """The coach's part of the table template's context; ``note``: the coach's note on the
    move that made this version (read by the view, or handed over by the action)."""
    hint_available = view.panel in HINT_PANELS and not game.is_over
    return {
        "hint_available": hint_available,
        "hint_requested": hint,
        "coach_hint": hint_for_game(game) if hint and hint_available else None,
        "coach_note": note,
    }
