"""game/services.py speaks in domain terms: no HTTP, keyword-only arguments, one lock."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import pytest

from game import services
from game.errors import ActionRefused, GameNotFound
from game.models import Game
from tests.game import scenarios

SERVICES = Path(services.__file__)


def test_services_know_nothing_of_http() -> None:
    tree = ast.parse(SERVICES.read_text())
    modules = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert not any(module.startswith(("django.http", "django.shortcuts")) for module in modules)


def test_every_action_takes_keyword_only_arguments() -> None:
    for name, function in inspect.getmembers(services, inspect.isfunction):
        if name.startswith("_") or function.__module__ != services.__name__:
            continue
        parameters = inspect.signature(function).parameters.values()
        if "game_id" in inspect.signature(function).parameters:
            assert all(p.kind is p.KEYWORD_ONLY for p in parameters), name


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
