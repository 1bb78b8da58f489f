"""The randomness a game is made with (R-2.1, FAIRNESS.md F-1), one place for tests to
replace it.

Every service and the shared tables call these through this module's attributes, so a
test's ``monkeypatch.setattr(randomness, "make_rng", ...)`` reaches them all. Shoes and
dice come from the committed stream (:func:`shoe_source`), server seeds from
:func:`server_seeds`; trivia questions stay drawn by :func:`make_rng` (F-8).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from game.rules.fair import CommittedShoes
from game.rules.shoe import Rng, Shoe

# A new game's client seed: 16 hex characters, as secrets.token_hex(8).
CLIENT_SEED_BYTES = 8


def make_rng() -> Rng:
    """Production randomness (R-2.1). Tests monkeypatch this to a seeded generator."""
    return secrets.SystemRandom()


def server_seeds() -> Callable[[int], bytes]:
    """Where new shoes' server seeds come from (F-1); tests monkeypatch a seeded one."""
    return secrets.token_bytes


def shoe_source() -> CommittedShoes:
    """A new game's or table's source of committed shoes, with a random client seed (from
    the same source as the server seeds, so a test's seeded source fixes both)."""
    seed_bytes = server_seeds()
    return CommittedShoes(seed_bytes(CLIENT_SEED_BYTES).hex(), seed_bytes=seed_bytes)


def make_shoe(deck_count: int | str, rng: Rng) -> Shoe | None:
    """The first shoe of a new game; None lets the engine build a shuffled one.

    Tests monkeypatch this to return a stacked shoe.
    """
    return None
