"""Per-player and per-address limits: games in progress, open tables hosted, sign-ups an
hour; each refusal a page or a form error that says so (429), and nothing made."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from game import services
from game.models import Game
from game.tables import services as table_services
from game.tables.models import SharedTable
from tests.game.html_tree import parse
from tests.pages import once_key
from tests.site.helpers import PASSWORD, create_table_form

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.TABLE_CLOCK = "external"


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_new_game_past_the_games_in_progress_limit_is_refused(settings, player) -> None:
    settings.GAMES_IN_PROGRESS_PER_PLAYER = 3
    client = logged_in(player)
    for _ in range(3):
        assert client.post("/games/new/", once_key("new_game")).status_code == 302
    refused = client.post("/games/new/", once_key("new_game"))
    assert refused.status_code == 429
    page = parse(refused.text)
    assert page.one("h1").text() == "Too many games in progress"
    assert "You have 3 games in progress" in page.one('[role="alert"]').text()
    assert Game.objects.filter(owner=player).count() == 3
    # An ended game does not count: there is room again.
    game = Game.objects.filter(owner=player).first()
    assert game is not None
    services.end_game(game_id=game.pk, user=player, version=game.version)
    assert client.post("/games/new/", once_key("new_game")).status_code == 302


def test_play_now_at_the_limit_resumes_a_game_in_progress(settings, player) -> None:
    settings.GAMES_IN_PROGRESS_PER_PLAYER = 1
    client = logged_in(player)
    made = client.post("/games/new/", once_key("new_game"))["Location"]
    assert client.post("/play/", once_key("guest"))["Location"] == made


def test_create_table_past_the_hosting_limit_is_refused_in_the_form(settings, player) -> None:
    settings.TABLES_HOSTED_PER_PLAYER = 2
    client = logged_in(player)
    for _ in range(2):
        form = {**create_table_form(), **once_key("table")}
        assert client.post("/tables/new/", form).status_code == 302
    refused = client.post("/tables/new/", {**create_table_form(), **once_key("table")})
    assert refused.status_code == 429
    alert = parse(refused.text).one('.create-table [role="alert"]').text()
    assert "You host 2 open tables" in alert
    assert SharedTable.objects.count() == 2
    # A closed table does not count.
    table = SharedTable.objects.first()
    assert table is not None
    table_services.close_table(table_id=table.pk, user=player, version=table.version)
    form = {**create_table_form(), **once_key("table")}
    assert client.post("/tables/new/", form).status_code == 302


def sign_up(username: str, address: str) -> Any:
    form = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return Client(REMOTE_ADDR=address).post("/accounts/signup/", {**form, **once_key("sign_up")})


def test_sign_ups_are_limited_per_address_and_hour(settings) -> None:
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 2
    assert sign_up("ada", "10.0.0.9").status_code == 302
    assert sign_up("grace", "10.0.0.9").status_code == 302
    # A refused form does not use up the address's sign-ups.
    assert sign_up("ada", "10.0.0.9").status_code == 400
    refused = sign_up("alan", "10.0.0.9")
    assert refused.status_code == 429
    assert "at most 2 accounts an hour" in parse(refused.text).one(".form-errors").text()
    assert sign_up("alan", "10.0.0.10").status_code == 302
    names = set(get_user_model().objects.values_list("username", flat=True))
    assert names == {"ada", "grace", "alan"}
