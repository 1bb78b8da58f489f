"""A game page is never shown from a cache: no-store on pages and every htmx answer."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.game import scenarios
from tests.game.helpers import post

pytestmark = pytest.mark.django_db


def no_store(response: Any) -> bool:
    return "no-store" in response.get("Cache-Control", "")


def test_game_pages_are_not_stored(alice: Client, player: Any) -> None:
    game = scenarios.betting(player)
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/options/", "/games/"):
        response = alice.get(url)
        assert response.status_code == 200
        assert no_store(response), url


@pytest.mark.parametrize(
    ("action", "data", "status"),
    [("chip", {"chip": "5"}, 200), ("chip", {"chip": "7"}, 422), ("stand", {}, 422)],
)
def test_every_htmx_answer_is_not_stored(
    alice: Client, player: Any, action: str, data: dict[str, str], status: int
) -> None:
    game = scenarios.betting(player)
    response = post(alice, game, action, htmx=True, **data)
    assert response.status_code == status
    assert no_store(response)


def test_a_stale_answer_is_not_stored(alice: Client, player: Any) -> None:
    game = scenarios.betting(player)
    response = post(alice, game, "chip", htmx=True, chip="5", version=str(game.version + 1))
    assert response.status_code == 409
    assert no_store(response)


def test_static_content_pages_may_be_cached(client: Client) -> None:
    assert not no_store(client.get("/rules/"))
