"""Sign up, log in, log out and the login-protected My games page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.pages import once_key, without_csrf_tokens
from tests.site.helpers import PASSWORD

pytestmark = pytest.mark.django_db


def test_home_page_offers_sign_up_and_log_in(client: Client) -> None:
    response = client.get(reverse("home"))
    assert response.status_code == 200
    content = response.content.decode()
    assert "Sign up" in content and "Log in" in content
    assert 'role="status"' in content
    assert "Skip to content" in content
    assert "hx-headers" in content and "X-CSRFToken" in content


def test_htmx_is_served_from_our_own_static_files(client: Client) -> None:
    content = without_csrf_tokens(client.get(reverse("home")).content.decode())
    assert "/static/django_htmx/htmx-2.min.js" in content
    # Addresses only: a form's random one-time key may spell "cdn" by chance.
    addresses = re.findall(r'(?:src|href)="([^"]*)"', content)
    assert addresses and not [a for a in addresses if "unpkg" in a or "cdn" in a.lower()]
    assert not [a for a in addresses if a.startswith(("http:", "https:", "//"))]


def test_sign_up_creates_the_account_and_logs_in(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {"username": "grace", "password1": PASSWORD, "password2": PASSWORD, **once_key("sign_up")},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("my_games")
    user = get_user_model().objects.get(username="grace")
    assert client.session["_auth_user_id"] == str(user.pk)


def test_sign_up_applies_django_password_validators(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "grace",
            "password1": "password",
            "password2": "password",
            **once_key("sign_up"),
        },
    )
    assert response.status_code == 400
    assert "too common" in response.content.decode()
    assert not get_user_model().objects.filter(username="grace").exists()


def test_sign_up_returns_to_next_when_it_is_local(client: Client) -> None:
    response = client.post(
        reverse("signup") + "?next=/games/",
        {
            "username": "grace",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "/games/",
            **once_key("sign_up"),
        },
    )
    assert response["Location"] == "/games/"


def test_sign_up_ignores_an_offsite_next(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "grace",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "https://evil.example/",
            **once_key("sign_up"),
        },
    )
    assert response["Location"] == reverse("my_games")


def test_log_in_and_out(client: Client, player) -> None:
    response = client.post(reverse("login"), {"username": "ada", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("my_games")).status_code == 200
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_log_in_with_a_wrong_password_fails(client: Client, player) -> None:
    response = client.post(reverse("login"), {"username": "ada", "password": "nope"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_logout_is_post_only(client: Client, player) -> None:
    client.force_login(player)
    response = client.get(reverse("logout"))
    assert response.status_code == 405
    assert "_auth_user_id" in client.session


def test_my_games_requires_login(client: Client) -> None:
    response = client.get(reverse("my_games"))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={reverse('my_games')}"


def test_my_games_lists_nothing_for_a_new_player(client: Client, player) -> None:
    client.force_login(player)
    response = client.get(reverse("my_games"))
    assert response.status_code == 200
    assert "My games" in response.content.decode()


def test_csrf_is_enforced_on_log_in_and_sign_up(player) -> None:
    strict = Client(enforce_csrf_checks=True)
    assert (
        strict.post(reverse("login"), {"username": "ada", "password": PASSWORD}).status_code == 403
    )
    response = strict.post(
        reverse("signup"),
        {"username": "x1", "password1": PASSWORD, "password2": PASSWORD, **once_key("sign_up")},
    )
    assert response.status_code == 403
    assert not get_user_model().objects.filter(username="x1").exists()


def test_csrf_is_enforced_on_log_out(player) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    assert strict.post(reverse("logout")).status_code == 403
    assert "_auth_user_id" in strict.session
