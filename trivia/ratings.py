"""A question's and a player's ratings on one scale, and the chance they give (R-8.10).

A player of rating θ answers a question of rating b right with the chance

    P(right) = c + (1 − c) / (1 + 10^((b − θ)/400))

where c is the chance of guessing it (GUESS: ¼ for four answers, ½ for True/False). Solved
for b, the question's rating that gives this player a chance P is

    b = θ + 400 · log10((1 − P) / (P − c))

and a chance at or under the guess (or at 1) is out of reach: it is clamped to the
nearest one within (c, 1), the hardest (or easiest) question the formula can name.

Pure Python: no Django, no database.
"""

from __future__ import annotations

import math

# The chance of a right answer each difficulty aims at for the player choosing it.
TARGET_CHANCE: dict[str, float] = {"easy": 0.80, "medium": 0.60, "hard": 0.35}
# The chance of a right answer by guessing, by question type.
GUESS: dict[str, float] = {"multiple": 0.25, "boolean": 0.5}

# How close to the guess (or to certainty) a target chance may come: the rating gap it
# names stays finite (about ±800 points).
_CLAMP = 0.01


def chance(theta: float, b: float, guess: float) -> float:
    """The chance that a player rated ``theta`` answers a question rated ``b`` right."""
    return guess + (1.0 - guess) / (1.0 + math.pow(10.0, (b - theta) / 400.0))


def target_rating(theta: float, chance: float, guess: float) -> float:
    """The question rating at which a player rated ``theta`` has ``chance`` of a right
    answer (clamped into the reachable range above ``guess``)."""
    wanted = min(max(chance, guess + _CLAMP), 1.0 - _CLAMP)
    return theta + 400.0 * math.log10((1.0 - wanted) / (wanted - guess))
