"""The randomness a game is made with (R-2.1), one place for tests to replace it.

Every service and the shared tables call these through this module's attributes, so a
test's ``monkeypatch.setattr(randomness, "make_rng", ...)`` reaches them all.
"""

from __future__ import annotations

import secrets

from game.rules.shoe import Rng, Shoe


def make_rng() -> Rng:
    """Production randomness (R-2.1). Tests monkeypatch this to a seeded generator."""
    return secrets.SystemRandom()


def make_shoe(deck_count: int | str, rng: Rng) -> Shoe | None:
    """The first shoe of a new game; None lets the engine build a shuffled one.

    Tests monkeypatch this to return a stacked shoe.
    """
    return None
