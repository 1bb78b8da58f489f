"""Fixtures for the game pages: players, games with a stacked shoe, trivia questions."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.test import Client

from game import services
from game.models import Game
from tests.game.factories import PlayerFactory
from tests.trivia.factories import QuestionFactory


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:  # noqa: ANN001
    # Hashing a test password with the real hasher costs far more than the test itself.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def seeded_game_rng(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game in these tests shuffles with a seeded generator."""
    monkeypatch.setattr(services, "make_rng", lambda: random.Random(6))


@pytest.fixture
def player(db) -> Any:  # noqa: ANN001
    return PlayerFactory(username="alice")


@pytest.fixture
def other_player(db) -> Any:  # noqa: ANN001
    return PlayerFactory(username="mallory")


@pytest.fixture
def client_for() -> Callable[[Any], Client]:
    def make(user: Any) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def alice(client_for, player) -> Client:  # noqa: ANN001
    return client_for(player)


def stack_shoe(game: Game, cards: Sequence[str]) -> Game:
    """Put ``cards`` on top of the game's shoe (next to be dealt), in deal order."""
    state = dict(game.state)
    shoe = dict(state["shoe"])
    shoe["cards"] = list(cards) + list(shoe["cards"])
    shoe["size"] = max(shoe["size"], len(shoe["cards"]))
    state["shoe"] = shoe
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    return game


@pytest.fixture
def make_game(player) -> Callable[..., Game]:  # noqa: ANN001
    def make(user: Any = None, cards: Sequence[str] = (), **options: Any) -> Game:
        game = services.new_game(user=user or player, options=options)
        return stack_shoe(game, cards) if cards else game

    return make


@pytest.fixture
def questions(db) -> dict[str, list[Any]]:  # noqa: ANN001
    return {
        difficulty: QuestionFactory.create_batch(3, difficulty=difficulty)
        for difficulty in ("easy", "medium", "hard")
    }


def post(client: Client, game: Game, action: str, *, htmx: bool = False, **data: Any) -> Any:
    """Post an action with the game's current version (unless given)."""
    game.refresh_from_db()
    payload = {"version": str(game.version), **{k: str(v) for k, v in data.items()}}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    url = f"/games/{game.pk}/{action}/"
    return client.post(url, payload, **headers)
