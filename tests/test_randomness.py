"""Play is shuffled by secrets.SystemRandom (R-2.1); the seeded generator is simulator-only."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import secrets
from types import ModuleType

import game.services
from game.rules import (
    betting,
    decisions,
    engine,
    offers,
    phase_base,
    round_state,
    settlement,
    shoe,
    side_bet_phase,
)
from game.services import randomness


def _service_modules() -> list[ModuleType]:
    return [
        importlib.import_module(f"game.services.{info.name}")
        for info in pkgutil.iter_modules(game.services.__path__)
    ]


def test_games_are_dealt_from_the_system_generator() -> None:
    assert isinstance(randomness.make_rng(), secrets.SystemRandom)
    assert isinstance(shoe.default_rng(), secrets.SystemRandom)


def test_play_never_uses_the_simulators_seeded_generator() -> None:
    # The engine is its module and the modules of the game's phases.
    engine_modules = (engine, round_state, phase_base, betting, offers, decisions)
    for module in (*_service_modules(), *engine_modules, side_bet_phase, settlement, shoe):
        assert "game.rules.rng" not in inspect.getsource(module), module.__name__
