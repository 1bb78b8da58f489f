"""The front door answers only the methods it has a use for (405 otherwise), and a
request Django refuses before any view gets a page of the site, not a bare line."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.game.html_tree import parse
from tests.pages import once_key
from tests.site.helpers import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# Each front-door page and the methods it answers.
PAGES = {
    "/": {"GET", "HEAD"},
    "/accounts/signup/": {"GET", "HEAD", "POST"},
    "/accounts/login/": {"GET", "HEAD", "POST"},
    "/play/": {"POST"},
    "/games/": {"GET", "HEAD"},
    "/accounts/move-guest-game/": {"GET", "HEAD", "POST"},
    "/favicon.ico": {"GET", "HEAD"},
}
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


@pytest.mark.parametrize("path", PAGES)
def test_wrong_methods_are_answered_405(path: str, player: Any) -> None:
    client = Client()
    client.force_login(player)
    for method in METHODS:
        response = client.generic(method, path)
        if method in PAGES[path]:
            assert response.status_code != 405, (method, path)
        else:
            assert response.status_code == 405, (method, path)


def test_a_put_to_the_login_logs_nobody_in(player: Any) -> None:
    client = Client()
    data = "username=ada&password=" + PASSWORD
    response = client.put("/accounts/login/", data, "application/x-www-form-urlencoded")
    assert response.status_code == 405
    assert "_auth_user_id" not in client.session


def test_a_sign_up_body_of_3_mb_gets_a_clear_413_page() -> None:
    form = {
        "username": "grace",
        "password1": "x" * 3_000_000,
        "password2": "x",
        **once_key("sign_up"),
    }
    response = Client().post("/accounts/signup/", form)
    assert response.status_code == 413
    page = parse(response.text)
    assert page.one("h1").text() == "That was more than a form can send"
    assert "nothing was changed" in page.one('[role="alert"]').text()


def test_too_many_fields_get_a_clear_400_page(settings) -> None:
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    form = {f"field{number}": "x" for number in range(20)}
    response = Client().post("/accounts/signup/", form)
    assert response.status_code == 400
    assert parse(response.text).one("h1").text() == "That request could not be read"
