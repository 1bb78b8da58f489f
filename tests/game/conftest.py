"""Fixtures for the game pages: players, games with a stacked shoe, trivia questions."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.test import Client

from game import services
from game.models import Game
from game.services import randomness
from tests.game.factories import PlayerFactory
from tests.game.helpers import stack_shoe
from tests.trivia.factories import QuestionFactory


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:
    # Hashing a test password with the real hasher costs far more than the test itself.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def seeded_game_rng(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game in these tests shuffles from seeded server seeds (the committed stream of
    FAIRNESS.md, its seeds from a seeded generator) and draws questions with one."""
    monkeypatch.setattr(randomness, "make_rng", lambda: random.Random(6))
    # One stream for the test: every shoe gets seeds of its own, the same in every run.
    seeds = random.Random(6)
    monkeypatch.setattr(randomness, "server_seeds", lambda: seeds.randbytes)


@pytest.fixture
def player(db) -> Any:
    return PlayerFactory(username="alice")


@pytest.fixture
def other_player(db) -> Any:
    return PlayerFactory(username="mallory")


@pytest.fixture
def client_for() -> Callable[[Any], Client]:
    def make(user: Any) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def alice(client_for, player) -> Client:
    return client_for(player)


@pytest.fixture
def make_game(player) -> Callable[..., Game]:
    def make(user: Any = None, cards: Sequence[str] = (), **options: Any) -> Game:
        game = services.new_game(user=user or player, options=options)
        return stack_shoe(game, cards) if cards else game

    return make


@pytest.fixture
def questions(db) -> dict[str, list[Any]]:
    return {
        difficulty: QuestionFactory.create_batch(3, difficulty=difficulty)
        for difficulty in ("easy", "medium", "hard")
    }
