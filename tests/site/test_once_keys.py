"""The one-time keys of the forms that create something: a repeat of a form answers what
its first post made; a form without a key this site made for it is a clear 400 page, and
nothing is made."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone

from game.core import once_keys
from game.models import Game, OnceKey
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


def sign_up_form(username: str = "grace") -> dict[str, str]:
    return {"username": username, "password1": PASSWORD, "password2": PASSWORD}


@pytest.mark.parametrize(
    "posted",
    [None, "", "made-up", once_keys.issue("new_game"), once_keys.issue("guest") + "x"],
    ids=["missing", "empty", "unsigned", "another-forms", "tampered"],
)
def test_play_now_without_its_key_is_a_clear_400_and_makes_no_guest(posted: Any) -> None:
    data = {} if posted is None else {once_keys.FIELD: posted}
    answer = Client().post("/play/", data)
    assert answer.status_code == 400
    page = parse(answer.text)
    assert page.one("h1").text() == "This page has expired"
    assert "Press Play now again" in page.one('[role="alert"]').text()
    # The page offers Play now again, with a key of its own that works.
    fresh = page.one('main form[action="/play/"] input[name="once_key"]')["value"]
    assert not get_user_model().objects.exists()
    assert Client().post("/play/", {once_keys.FIELD: fresh}).status_code == 302


def test_new_game_without_its_key_is_a_clear_400(player: Any) -> None:
    client = logged_in(player)
    answer = client.post("/games/new/", once_key("table"))
    assert answer.status_code == 400
    page = parse(answer.text)
    assert "Press New Game again" in page.one('[role="alert"]').text()
    assert page.one('main form[action="/games/new/"] input[name="once_key"]')
    assert not Game.objects.exists()


def test_create_table_without_its_key_is_a_clear_400(player: Any) -> None:
    answer = logged_in(player).post("/tables/new/", create_table_form())
    assert answer.status_code == 400
    assert "No table was created" in parse(answer.text).one('[role="alert"]').text()
    assert not SharedTable.objects.exists()


def test_sign_up_without_its_key_shows_the_form_again_with_the_name_typed() -> None:
    answer = Client().post("/accounts/signup/", sign_up_form())
    assert answer.status_code == 400
    page = parse(answer.text)
    assert "This page has expired" in page.one(".form-errors").text()
    assert page.one('input[name="username"]')["value"] == "grace"
    assert page.one('input[name="once_key"]')["value"]
    assert not get_user_model().objects.exists()


def test_each_rendering_of_a_form_has_a_key_of_its_own(player: Any) -> None:
    client = logged_in(player)
    keys = {
        parse(client.get("/games/").text).one('input[name="once_key"]')["value"] for _ in range(3)
    }
    assert len(keys) == 3


def test_new_game_again_from_a_new_page_starts_another_game(player: Any) -> None:
    client = logged_in(player)
    first = client.post("/games/new/", once_key("new_game"))
    second = client.post("/games/new/", once_key("new_game"))
    assert first["Location"] != second["Location"]
    assert Game.objects.filter(owner=player).count() == 2


def test_a_repeated_new_game_form_answers_the_game_it_made(player: Any) -> None:
    client = logged_in(player)
    form = once_key("new_game")
    first = client.post("/games/new/", form)
    assert client.post("/games/new/", form)["Location"] == first["Location"]
    assert Game.objects.count() == 1


def test_another_players_key_makes_nothing_for_them(player: Any, django_user_model: Any) -> None:
    form = once_key("new_game")
    logged_in(player).post("/games/new/", form)
    mallory = django_user_model.objects.create_user("mallory", password=PASSWORD)
    answer = logged_in(mallory).post("/games/new/", form)
    assert answer.status_code == 400
    assert not Game.objects.filter(owner=mallory).exists()


def test_a_repeated_create_table_form_answers_the_table_it_made(player: Any) -> None:
    client = logged_in(player)
    form = {**create_table_form(), **once_key("table")}
    first = client.post("/tables/new/", form)
    assert client.post("/tables/new/", form)["Location"] == first["Location"]
    assert SharedTable.objects.count() == 1


def test_a_repeated_play_now_form_logs_in_as_the_guest_it_made() -> None:
    form = once_key("guest")
    first, second = Client(), Client()
    assert first.post("/play/", form).status_code == 302
    assert second.post("/play/", form).status_code == 302
    guest = get_user_model().objects.get()
    assert first.session["_auth_user_id"] == second.session["_auth_user_id"] == str(guest.pk)
    assert Game.objects.count() == 1


def test_a_play_now_form_repeated_too_late_is_expired() -> None:
    form = once_key("guest")
    assert Client().post("/play/", form).status_code == 302
    OnceKey.objects.update(created=timezone.now() - once_keys.REPEAT_WINDOW - timedelta(1))
    late = Client()
    assert late.post("/play/", form).status_code == 400
    assert "_auth_user_id" not in late.session


def test_a_play_now_form_repeated_after_the_guest_signed_up_is_expired() -> None:
    form = once_key("guest")
    client = Client()
    client.post("/play/", form)
    client.post("/accounts/signup/", {**sign_up_form(), **once_key("sign_up")})
    stranger = Client()
    assert stranger.post("/play/", form).status_code == 400
    assert "_auth_user_id" not in stranger.session


def test_a_sign_up_form_repeated_with_another_name_is_expired() -> None:
    form = once_key("sign_up")
    assert Client().post("/accounts/signup/", {**sign_up_form(), **form}).status_code == 302
    other = Client()
    answer = other.post("/accounts/signup/", {**sign_up_form("ada"), **form})
    assert answer.status_code == 400 and "_auth_user_id" not in other.session
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["grace"]


def test_names_differing_only_in_case_are_refused_by_the_form() -> None:
    assert Client().post("/accounts/signup/", {**sign_up_form(), **once_key("sign_up")})
    answer = Client().post("/accounts/signup/", {**sign_up_form("GRACE"), **once_key("sign_up")})
    assert answer.status_code == 400
    assert "already exists" in parse(answer.text).one(".has-error").text()


def test_the_database_refuses_names_differing_only_in_case(django_user_model: Any) -> None:
    django_user_model.objects.create_user("grace")
    with pytest.raises(IntegrityError), transaction.atomic():
        django_user_model.objects.create_user("Grace")
    assert django_user_model.objects.count() == 1


def test_pages_with_a_key_that_logs_in_are_never_stored(client: Client) -> None:
    for url in ("/", "/accounts/signup/"):
        assert "no-store" in client.get(url)["Cache-Control"], url
