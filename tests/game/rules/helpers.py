"""Build games with a known card order for rule tests."""

from __future__ import annotations

import random
from typing import Any

from game.rules.engine import Engine
from game.rules.options import Options
from game.rules.records import TriviaOutcome
from game.rules.replay import apply_action
from game.rules.shoe import Shoe

CORRECT = TriviaOutcome("easy", True)
WRONG = TriviaOutcome("easy", False)


def make_game(
    cards: list[str], *, bank: int = 100_000, credits: int = 10, **options: Any
) -> Engine:
    """A game whose shoe deals ``cards`` in order (fixed: running out is an error)."""
    return Engine(
        Options.from_dict(options),
        rng=random.Random(7),
        bank=bank,
        credits=credits,
        shoe=Shoe.from_cards(cards),
    )


def play(
    cards: list[str], bet: int = 1000, actions: tuple[str, ...] = (), **options: Any
) -> Engine:
    options.setdefault("trivia_mode", False)
    game = make_game(cards, **options)
    game.start_round(bet)
    for action in actions:
        apply_action(game, action)
    return game


def event_types(events: list[dict]) -> list[str]:
    return [event["type"] for event in events]
