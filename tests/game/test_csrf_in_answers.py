"""CSRF on the table: an htmx answer's forms carry no token field, htmx posts
them with the page's token in the X-CSRFToken header; a form posted without htmx keeps its
field, and a post with neither is refused."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from game import services
from game.models import Game
from tests.game import scenarios

pytestmark = pytest.mark.django_db

HEADER_TOKEN = re.compile(r'"X-CSRFToken": "([^"]+)"')
FIELD = 'name="csrfmiddlewaretoken"'


@pytest.fixture
def strict(player) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    return client


def page_token(client: Client, game: Game) -> str:
    page = client.get(f"/games/{game.pk}/").text
    assert FIELD in page  # the full page works without JavaScript
    match = HEADER_TOKEN.search(page)
    assert match is not None
    return match.group(1)


def htmx_post(client: Client, game: Game, action: str, token: str | None, **data: str):
    game.refresh_from_db()
    headers = {"HTTP_HX_REQUEST": "true"}
    if token is not None:
        headers["HTTP_X_CSRFTOKEN"] = token
    payload = {"version": str(game.version), **data}
    return client.post(f"/games/{game.pk}/{action}/", payload, **headers)


def test_actions_post_from_htmx_answers_with_the_header_token(strict, player) -> None:
    game = scenarios.betting(player)
    token = page_token(strict, game)
    dealt = htmx_post(strict, game, "deal", token, amount="10.00")
    assert dealt.status_code == 200
    assert FIELD not in dealt.text
    # The next action is posted from that answer's forms, with the same header.
    stood = htmx_post(strict, game, "stand", token)
    assert stood.status_code == 200
    game.refresh_from_db()
    assert game.rounds_played == 1


def test_a_post_with_no_token_is_refused_and_changes_nothing(strict, player) -> None:
    game = scenarios.betting(player)
    version = game.version
    assert htmx_post(strict, game, "deal", None, amount="10.00").status_code == 403
    game.refresh_from_db()
    assert (game.version, game.rounds_played) == (version, 0)


def test_the_game_over_form_keeps_its_field_in_an_htmx_answer(alice, player) -> None:
    game = scenarios.dealt(player)
    services.end_game(game_id=game.pk, user=player, version=game.version)
    answer = alice.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true").text
    assert 'data-phase="game_over"' in answer
    # New Game is a plain form (it leaves the table), posted without htmx.
    new_game_form = answer[answer.index('action="/games/new/"') :]
    assert FIELD in new_game_form[: new_game_form.index("</form>")]
