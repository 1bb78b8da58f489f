"""Play now: a guest game at once, at most so many guests an address an hour, and the
guest's games kept by signing up (UI.md "The front door")."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from blackjack_site.guests import is_guest
from game import services
from game.models import Game
from game.rules.options import Options
from tests.game.helpers import stack_shoe
from tests.game.html_tree import parse
from tests.pages import once_key
from tests.site.helpers import PASSWORD

pytestmark = pytest.mark.django_db

PLAY_NOW = "/play/"


@pytest.fixture(autouse=True)
def fast_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def play_now(address: str = "10.0.0.1") -> tuple[Client, Any]:
    client = Client(REMOTE_ADDR=address)
    return client, client.post(PLAY_NOW, once_key("guest"))


def session_user(client: Client) -> Any:
    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def test_the_home_page_offers_play_now_as_a_form_that_posts(client: Client) -> None:
    page = parse(client.get(reverse("home")).text)
    button = page.button("Play now")
    assert button is not None and button["type"] == "submit"
    form = page.one(f'form[action="{PLAY_NOW}"]')
    assert form["method"] == "post" and form.one('input[name="csrfmiddlewaretoken"]')
    # The picture of the table is one image to assistive technology, with no control in it.
    picture = page.one('[role="img"].front__table')
    assert "trivia question" in picture["aria-label"]
    assert not picture.select("button") and not picture.select("a")
    assert picture.select('[data-card="KS"]') and picture.select(".chip")


def test_play_now_makes_a_guest_and_opens_a_new_game_with_the_default_options() -> None:
    client, response = play_now()
    guest = session_user(client)
    game = Game.objects.get(owner=guest)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert is_guest(guest) and not guest.has_usable_password()
    assert game.options == Options().to_dict() and not game.is_over
    table = parse(client.get(response["Location"]).text)
    assert table.one("#table")["data-phase"] == "betting"


def test_play_now_is_a_post_with_the_csrf_token() -> None:
    assert Client().get(PLAY_NOW).status_code == 405
    assert Client(enforce_csrf_checks=True).post(PLAY_NOW).status_code == 403
    assert not get_user_model().objects.exists()


def test_a_player_resumes_their_newest_game_in_progress_or_gets_a_new_one(player) -> None:
    client = Client()
    client.force_login(player)
    first = services.new_game(user=player)
    assert client.post(PLAY_NOW)["Location"] == f"/games/{first.pk}/"
    services.end_game(game_id=first.pk, user=player, version=first.version)
    response = client.post(PLAY_NOW)
    newest = Game.objects.filter(owner=player).exclude(pk=first.pk).get()
    assert response["Location"] == f"/games/{newest.pk}/"
    assert get_user_model().objects.count() == 1  # no guest made for a player


def test_a_guest_pressing_play_now_again_keeps_playing_the_same_game() -> None:
    client, first = play_now()
    again = client.post(PLAY_NOW, once_key("guest"))
    assert again["Location"] == first["Location"]
    assert get_user_model().objects.count() == 1


def test_guests_are_limited_per_address_and_hour(settings: Any, monkeypatch) -> None:
    settings.GUESTS_PER_ADDRESS_PER_HOUR = 3
    for _ in range(3):
        assert play_now("10.0.0.7")[1].status_code == 302
    _, refused = play_now("10.0.0.7")
    assert refused.status_code == 429
    page = parse(refused.text)
    assert page.one("h1").text() == "Too many guest games"
    assert "try again in an hour" in page.one('[role="alert"]').text()
    assert page.one("main").select('a[href="/accounts/signup/"]')
    assert get_user_model().objects.count() == 3
    # Another address is not affected.
    assert play_now("10.0.0.8")[1].status_code == 302
    # An hour later the address may make guests again (the cache's clock moved on).
    later = time.time() + 3601
    monkeypatch.setattr(time, "time", lambda: later)
    assert play_now("10.0.0.7")[1].status_code == 302


def test_signing_up_as_a_guest_keeps_the_games_in_the_new_account() -> None:
    client, response = play_now()
    guest = session_user(client)
    game = Game.objects.get(owner=guest)
    # A round: 19 against the dealer's 17, stood.
    game = stack_shoe(game, ["0S", "0H", "9D", "7C"])
    game = services.place_bet_and_deal(
        game_id=game.pk, user=guest, version=game.version, bet_cents=1000
    ).game
    game = services.stand(game_id=game.pk, user=guest, version=game.version).game
    assert game.rounds_played == 1 and game.bank_cents == 101_000

    form = parse(client.get(reverse("signup")).text)
    assert form.one("h1").text() == "Save your game"
    answer = client.post(
        reverse("signup"),
        {"username": "grace", "password1": PASSWORD, "password2": PASSWORD, **once_key("sign_up")},
    )
    assert answer.status_code == 302 and answer["Location"] == reverse("my_games")

    account = session_user(client)
    assert account.pk == guest.pk and account.username == "grace"
    assert account.check_password(PASSWORD) and not is_guest(account)
    my_games = parse(client.get(reverse("my_games")).text)
    rows = my_games.select("table.games tbody tr")
    assert [row["data-game"] for row in rows] == [str(game.pk)]
    assert get_user_model().objects.count() == 1
    # The account logs in with its new password.
    login = Client().post(reverse("login"), {"username": "grace", "password": PASSWORD})
    assert login.status_code == 302


def test_a_refused_sign_up_leaves_the_guest_as_it_was() -> None:
    client, _ = play_now()
    guest = session_user(client)
    answer = client.post(
        reverse("signup"),
        {"username": "grace", "password1": PASSWORD, "password2": "other", **once_key("sign_up")},
    )
    assert answer.status_code == 400
    page = parse(answer.text)
    # The page's header still speaks to a guest: the session's user was not renamed.
    assert page.one(".site-header").select("a.save-game")
    guest.refresh_from_db()
    assert is_guest(guest) and session_user(client) == guest


def test_the_guest_names_are_kept_for_guests(client: Client) -> None:
    answer = client.post(
        reverse("signup"),
        {
            "username": "Guest-ada",
            "password1": PASSWORD,
            "password2": PASSWORD,
            **once_key("sign_up"),
        },
    )
    assert answer.status_code == 400
    assert "kept for guest players" in parse(answer.text).one(".has-error").text()
    assert not get_user_model().objects.exists()


def test_the_header_asks_a_guest_to_save_the_game_and_nobody_else(player) -> None:
    guest_client, response = play_now()
    header = parse(guest_client.get(response["Location"]).text).one(".site-header")
    save = header.one("a.save-game")
    assert save.text() == "Save your game — Sign up" and save["href"] == reverse("signup")
    assert not header.button("Log out")

    client = Client()
    client.force_login(player)
    header = parse(client.get(reverse("my_games")).text).one(".site-header")
    assert not header.select("a.save-game") and header.button("Log out")
