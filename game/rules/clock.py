"""The clock the timers read (R-4.13, R-8.9), injected like the random generator.

Times are whole milliseconds since the Unix epoch, so a deadline stored in a round's JSON
is exact and compares without float rounding. Production uses :func:`system_clock`;
tests pass a :class:`FakeClock` and move it instead of sleeping.
"""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], int]


def system_clock() -> int:
    return time.time_ns() // 1_000_000


class FakeClock:
    """A clock that stands still until moved: ``clock.advance(seconds=20)``."""

    def __init__(self, now_ms: int = 1_700_000_000_000) -> None:
        self.now_ms = now_ms

    def __call__(self) -> int:
        return self.now_ms

    def advance(self, *, seconds: float = 0, ms: int = 0) -> None:
        self.now_ms += ms + round(seconds * 1000)
