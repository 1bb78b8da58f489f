"""A generator that refuses to be used: for reading a stored game without dealing."""

from __future__ import annotations

from typing import Any


class NoRandom:
    """A generator for reading a stored game (rendering, hints): any draw is a bug."""

    def __init__(self, purpose: str) -> None:
        self.purpose = purpose

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"{self.purpose} must not use randomness")

    shuffle = random = randrange = randint = _refuse
