"""The game clock (R-4.13, R-8.9): epoch milliseconds, read by the services that apply the
deadlines and by the pages that show the time left, of a single-player game and of a
shared table alike.

:data:`CLOCK` is the one clock they all read through :func:`now_ms`. Tests monkeypatch it
to a :class:`game.rules.clock.FakeClock` and move that instead of waiting.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from game.rules.clock import Clock, system_clock
from game.rules.engine import answer_deadline

if TYPE_CHECKING:
    from game.models import Game
    from game.rules.options import Options

CLOCK: Clock = system_clock

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)


def now_ms() -> int:
    """Now on the game clock (whatever :data:`CLOCK` is at the moment of the call)."""
    return CLOCK()


def epoch_ms(moment: datetime) -> int:
    """A stored datetime on the game clock (epoch ms), exactly (no float)."""
    return (moment - _EPOCH) // _MS


def from_epoch_ms(ms: int) -> datetime:
    """A game-clock time (epoch ms) as the datetime a model field stores, exactly."""
    return _EPOCH + ms * _MS


def pending_answer_deadline(game: Game, options: Options) -> int | None:
    """When the question on screen must be answered by (R-8.9), or None."""
    attempt = game.pending_trivia
    if attempt is None or attempt.is_answered:
        return None
    return answer_deadline(epoch_ms(attempt.shown_at), options)
