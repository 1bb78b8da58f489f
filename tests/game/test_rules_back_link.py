"""Every rules page opened from a game links back to that game, and only to one's own."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.game import scenarios

pytestmark = pytest.mark.django_db

PAGES = ("rules", "rules_play", "rules_trivia", "rules_side_bets", "rules_options", "rules_terms")
BACK = re.compile(r'<a class="button" href="([^"]+)">Back to your game</a>')


def test_the_tables_rules_link_names_the_game(alice: Client, player: Any) -> None:
    game = scenarios.betting(player)
    table = alice.get(f"/games/{game.pk}/").text
    assert f'href="/rules/?game={game.pk}">Rules</a>' in table


@pytest.mark.parametrize("name", PAGES)
def test_each_rules_page_links_back_and_keeps_the_game(
    alice: Client, player: Any, name: str
) -> None:
    game = scenarios.betting(player)
    page = alice.get(f"{reverse(name)}?game={game.pk}").text
    back = BACK.search(page)
    assert back is not None and back.group(1) == f"/games/{game.pk}/"
    for other in PAGES:
        assert f'href="{reverse(other)}?game={game.pk}"' in page


@pytest.mark.parametrize("raw", ["other", "", "²", "9" * 40, "https://evil.example/", "-1"])
def test_no_link_back_to_a_game_that_is_not_yours(
    alice: Client, player: Any, other_player: Any, raw: str
) -> None:
    not_mine = scenarios.betting(other_player)
    value = str(not_mine.pk) if raw == "other" else raw
    response = alice.get(reverse("rules"), {"game": value})
    assert response.status_code == 200
    assert BACK.search(response.text) is None
    assert f"/games/{not_mine.pk}/" not in response.text


def test_anonymous_readers_get_no_link_back(client: Client, player: Any) -> None:
    game = scenarios.betting(player)
    response = client.get(reverse("rules"), {"game": game.pk})
    assert response.status_code == 200
    assert BACK.search(response.text) is None
