"""game/services speaks in domain terms: no HTTP, keyword-only arguments, one lock."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import pytest

from game import services
from game.core.errors import ActionRefused, GameNotFound
from game.models import Game
from tests.game import scenarios

SERVICE_FILES = sorted(Path(services.__file__).parent.glob("*.py"))


def _imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    found |= {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    return found


@pytest.mark.parametrize("path", SERVICE_FILES, ids=lambda path: path.name)
def test_services_know_nothing_of_http(path: Path) -> None:
    assert not any(
        module.startswith(("django.http", "django.shortcuts")) for module in _imported(path)
    )


def test_every_action_takes_keyword_only_arguments() -> None:
    actions = [getattr(services, name) for name in services.__all__]
    checked = 0
    for function in filter(inspect.isfunction, actions):
        parameters = inspect.signature(function).parameters
        if "game_id" in parameters:
            checked += 1
            assert all(p.kind is p.KEYWORD_ONLY for p in parameters.values()), function.__name__
    assert checked >= 25


def test_every_action_returns_what_it_played() -> None:
    """An action hands the table its result (services.Played), never extras on the row."""
    actions = [getattr(services, name) for name in services.__all__]
    checked = 0
    for function in filter(inspect.isfunction, actions):
        signature = inspect.signature(function)
        # locked_game is the lock every action runs in, not an action.
        if "version" in signature.parameters and function is not services.locked_game:
            checked += 1
            # The modules annotate lazily (from __future__ import annotations): a name.
            assert signature.return_annotation == "Played", function.__name__
    assert checked >= 25


@pytest.mark.django_db
def test_another_players_game_is_not_found(player: Any, other_player: Any) -> None:
    game = scenarios.betting(other_player)
    with pytest.raises(GameNotFound):
        services.add_chip(game_id=game.pk, user=player, version=game.version, chip_cents=500)
    game.refresh_from_db()
    assert game.pending_bet_cents == 0


@pytest.mark.django_db
def test_a_refusal_inside_the_lock_rolls_everything_back(player: Any) -> None:
    game = scenarios.betting(player)
    version = game.version
    with (
        pytest.raises(ActionRefused),
        services.locked_game(game_id=game.pk, user=player, version=game.version) as table,
    ):
        Game.objects.filter(pk=table.game.pk).update(pending_bet_cents=500, version=version + 1)
        raise ActionRefused("refused after a write")
    game.refresh_from_db()
    assert (game.pending_bet_cents, game.version) == (0, version)
