"""Play is shuffled by secrets.SystemRandom (R-2.1); the seeded generator is simulator-only."""

from __future__ import annotations

import inspect
import secrets

from game import services
from game.rules import engine, shoe


def test_games_are_dealt_from_the_system_generator() -> None:
    assert isinstance(services.make_rng(), secrets.SystemRandom)
    assert isinstance(shoe.default_rng(), secrets.SystemRandom)


def test_play_never_uses_the_simulators_seeded_generator() -> None:
    for module in (services, engine, shoe):
        assert "game.rules.rng" not in inspect.getsource(module), module.__name__
