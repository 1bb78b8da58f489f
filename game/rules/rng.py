"""A seedable generator for the simulator, and only for it.

Play shuffles with ``secrets.SystemRandom`` (R-2.1, :func:`game.rules.shoe.default_rng`):
nobody may predict a shoe. The simulator is the opposite case: a run must be
reproducible for a seed, and the house edge it measures does not depend on the
generator being unpredictable, only on it being uniform. The standard library's only
seedable generator is the Mersenne Twister of the ``random`` module.

Production code in ``game/`` does not ``import random`` (a before-stop tripwire looks for
it, so that a shuffle can never quietly become predictable). This module is the single,
deliberate exception, imported openly so the tripwire points here: nothing in play calls
it, and a test checks that the game's services never build a generator from it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence
from functools import partial
from itertools import repeat, starmap
from typing import Any

from game.rules.shoe import Rng


class SeededRng(random.Random):
    """``random.Random`` with a faster, equally uniform shuffle.

    ``random.Random.shuffle`` draws one bounded integer per card in Python code
    (~100 µs for a 6-deck shoe). Sorting by independent uniform keys is a uniform
    permutation too (ties between 53-bit floats have probability ~1e-12 per shoe and
    only keep the original order of two cards), and ``sort`` runs in C.
    """

    def shuffle(self, x: MutableSequence[Any]) -> None:
        if not isinstance(x, list):
            super().shuffle(x)
            return
        # x.sort(key=lambda _item: self.random()) without a Python call per item: the
        # keys are drawn first, in order (as ``sort`` computes them), by starmap in C; the
        # key function hands them out in that order (next(keys, item), also in C).
        keys = starmap(self.random, repeat((), len(x)))
        x.sort(key=partial(next, iter(list(keys))))


def seeded_rng(seed: int | str) -> Rng:
    """A reproducible generator for ``seed`` (simulator only; never for play)."""
    return SeededRng(derive_seed(seed))


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from any parts, e.g. (run seed, chunk number): stable across runs,
    machines and Python versions (unlike ``hash``)."""
    text = "/".join(str(part) for part in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
