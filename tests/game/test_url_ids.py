"""A game's URL takes only an id the database can hold: any other answers 404, never 500.

SQLite cannot bind an integer past 64 bits: before the ids were bounded at the URL,
``/games/9223372036854775808/`` and every route under it failed inside the query.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import NoReverseMatch, Resolver404, resolve, reverse

from game.core.converters import ROW_ID_MAX
from game.models import Game
from tests.game.helpers import GAME_ROUTES

pytestmark = pytest.mark.django_db

# With a path that is no action: refused by the id before the action is looked at.
ROUTES_AND_A_WRONG_ONE = [*GAME_ROUTES, "no-such-action/"]
BEYOND_THE_COLUMN = [str(ROW_ID_MAX + 1), "99999999999999999999999", "9" * 5000]
NOT_AN_ID = ["0", "01", "-1", "%00", "1%00", "１", "٣", "1e3", "+1", "%201"]


@pytest.mark.parametrize("route", ROUTES_AND_A_WRONG_ONE)
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("game_id", BEYOND_THE_COLUMN)
def test_an_id_beyond_the_id_column_is_not_found_on_every_game_route(
    route: str, method: str, game_id: str, player: Any, client_for: Any
) -> None:
    response = getattr(client_for(player), method)(f"/games/{game_id}/{route}")
    assert response.status_code == 404


@pytest.mark.parametrize("route", ROUTES_AND_A_WRONG_ONE)
def test_the_largest_id_the_column_holds_is_looked_up_and_not_found(
    route: str, player: Any, client_for: Any
) -> None:
    response = client_for(player).post(f"/games/{ROW_ID_MAX}/{route}")
    assert response.status_code in {404, 405}


@pytest.mark.parametrize("game_id", NOT_AN_ID)
def test_anything_but_a_plain_positive_id_is_not_found(
    game_id: str, player: Any, client_for: Any
) -> None:
    assert client_for(player).get(f"/games/{game_id}/").status_code == 404


def test_an_id_with_a_leading_zero_is_not_another_spelling_of_the_game(
    player: Any, make_game: Any, client_for: Any
) -> None:
    game = make_game()
    client = client_for(player)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert client.get(f"/games/0{game.pk}/").status_code == 404


def test_the_ids_resolve_to_integers_and_reverse_back() -> None:
    match = resolve(f"/games/{ROW_ID_MAX}/end/")
    assert match.kwargs == {"game_id": ROW_ID_MAX}
    assert reverse("game:end_game", args=[ROW_ID_MAX]) == f"/games/{ROW_ID_MAX}/end/"
    with pytest.raises(Resolver404):
        resolve(f"/games/{ROW_ID_MAX + 1}/end/")


@pytest.mark.parametrize("bad", [0, -1, ROW_ID_MAX + 1])
def test_no_url_is_made_for_an_id_no_row_can_have(bad: int) -> None:
    with pytest.raises(NoReverseMatch):
        reverse("game:table", args=[bad])


def test_nothing_changes_when_a_huge_id_is_posted(
    player: Any, make_game: Any, client_for: Any
) -> None:
    game = make_game()
    before = list(Game.objects.values())
    client = client_for(player)
    for route in ROUTES_AND_A_WRONG_ONE:
        client.post(f"/games/{ROW_ID_MAX + 1}/{route}", {"version": str(game.version)})
    assert list(Game.objects.values()) == before
