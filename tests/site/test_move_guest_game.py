"""A guest who logs in to an existing account is offered to move the guest game into it
(Move / Leave it, a plain form): moved, the game carries on in the account."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from blackjack_site.guests import is_guest
from game import services
from game.models import Game
from game.tables.models import SharedTable
from tests.game.html_tree import parse
from tests.pages import once_key
from tests.site.helpers import PASSWORD

pytestmark = pytest.mark.django_db
OFFER = "/accounts/move-guest-game/"


@pytest.fixture(autouse=True)
def fast_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.TABLE_CLOCK = "external"


def guest_with_a_game() -> tuple[Client, Any, Game]:
    client = Client()
    assert client.post("/play/", once_key("guest")).status_code == 302
    guest = get_user_model().objects.get(pk=client.session["_auth_user_id"])
    return client, guest, Game.objects.get(owner=guest)


def log_in(client: Client, **extra: str) -> Any:
    return client.post("/accounts/login/", {"username": "ada", "password": PASSWORD, **extra})


def test_logging_in_from_a_guest_game_offers_to_move_it(player: Any) -> None:
    client, guest, game = guest_with_a_game()
    answer = log_in(client)
    assert answer.status_code == 302 and answer["Location"].startswith(OFFER)
    assert client.session["_auth_user_id"] == str(player.pk)
    page = parse(client.get(answer["Location"]).text)
    assert page.one("h1").text() == "Move your guest game into ada?"
    assert "bank $1,000.00 , 0 rounds played" in page.one("main").text()
    assert page.button("Move") and page.button("Leave it")

    moved = client.post(OFFER, {"choice": "move", "next": "/games/"})
    assert moved.status_code == 302 and moved["Location"] == "/games/"
    game.refresh_from_db()
    assert game.owner == player
    # The guest, whose session is over, is gone; pressing Move again moves nothing more.
    assert not get_user_model().objects.filter(pk=guest.pk).exists()
    assert client.post(OFFER, {"choice": "move"})["Location"] == "/games/"
    rows = parse(client.get("/games/").text).select("table.games tbody tr")
    assert [row["data-game"] for row in rows] == [str(game.pk)]


def test_move_without_a_next_page_opens_the_moved_game(player: Any) -> None:
    client, _, game = guest_with_a_game()
    log_in(client)
    assert client.post(OFFER, {"choice": "move"})["Location"] == f"/games/{game.pk}/"


def test_leave_it_leaves_the_game_with_the_guest(player: Any) -> None:
    client, guest, game = guest_with_a_game()
    log_in(client, next="/tables/")
    left = client.post(OFFER, {"choice": "leave", "next": "/tables/"})
    assert left["Location"] == "/tables/"
    game.refresh_from_db()
    assert game.owner == guest and is_guest(guest)
    assert client.get(OFFER)["Location"] == "/games/"  # no offer any more


def test_a_guest_without_a_game_in_progress_logs_in_straight_on(player: Any) -> None:
    client, guest, game = guest_with_a_game()
    services.end_game(game_id=game.pk, user=guest, version=game.version)
    assert log_in(client)["Location"] == "/games/"


def test_a_player_logging_in_is_offered_nothing(player: Any) -> None:
    assert log_in(Client())["Location"] == "/games/"
    client = Client()
    client.force_login(player)
    assert client.get(OFFER)["Location"] == "/games/"


def test_moving_past_the_games_in_progress_limit_is_refused(settings, player: Any) -> None:
    settings.GAMES_IN_PROGRESS_PER_PLAYER = 1
    services.new_game(user=player)
    client, guest, game = guest_with_a_game()
    log_in(client)
    refused = client.post(OFFER, {"choice": "move"})
    assert refused.status_code == 429
    assert "You have 1 games in progress" in parse(refused.text).one('[role="alert"]').text()
    game.refresh_from_db()
    assert game.owner == guest


def test_a_guest_hosting_a_table_keeps_its_account_after_the_move(player: Any) -> None:
    client, guest, game = guest_with_a_game()
    SharedTable.objects.create(name="Mine", host=guest)
    log_in(client)
    client.post(OFFER, {"choice": "move"})
    game.refresh_from_db()
    assert game.owner == player
    assert get_user_model().objects.filter(pk=guest.pk).exists()


@pytest.mark.parametrize("how", ["sign up", "log in"])
def test_a_guest_invited_to_a_private_table_still_reaches_it_after(how: str, player: Any) -> None:
    host = get_user_model().objects.create_user("host", password=PASSWORD)
    table = SharedTable.objects.create(name="Private", host=host, public=False)
    client, _, _ = guest_with_a_game()
    assert client.get(f"/tables/invite/{table.invite_token}/").status_code == 302
    assert client.get(f"/tables/{table.pk}/").status_code == 200
    if how == "sign up":
        form = {"username": "grace", "password1": PASSWORD, "password2": PASSWORD}
        assert client.post("/accounts/signup/", {**form, **once_key("sign_up")}).status_code == 302
    else:
        log_in(client)
        client.post(OFFER, {"choice": "leave"})
    assert client.get(f"/tables/{table.pk}/").status_code == 200
