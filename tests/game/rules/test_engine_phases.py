"""The engine's Game is composed of its phases (game/rules/engine.py's docstring): what
that composition must keep true however the methods move between the modules."""

from __future__ import annotations

import inspect

from game.rules.engine import Engine
from game.rules.phase_base import PhaseBase


def _declared_only(name: str) -> bool:
    source = inspect.getsource(getattr(PhaseBase, name))
    return "raise NotImplementedError" in source


def test_every_method_declared_across_phases_is_defined_by_one() -> None:
    declared = [
        name
        for name, value in vars(PhaseBase).items()
        if inspect.isfunction(value) and _declared_only(name)
    ]
    assert declared  # the base does declare some
    for name in declared:
        assert getattr(Engine, name) is not getattr(PhaseBase, name), name


def test_the_game_keeps_fixed_slots() -> None:
    # Every phase adds no slots and no __dict__: the state is the slots PhaseBase names.
    game = Engine()
    assert not hasattr(game, "__dict__")
    for klass in Engine.__mro__[:-1]:
        assert "__slots__" in vars(klass), klass.__name__
