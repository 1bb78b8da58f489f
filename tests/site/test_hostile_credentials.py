"""Credentials no account can have fail as a wrong password does, and nothing is recorded.

A 100,000-character username once answered 500 on PostgreSQL: django-axes' attempt log
(a 255-character column) could not store it. A NUL byte fails in any PostgreSQL query.
The login forms now refuse both, and passwords longer than any account may have, before
any authentication backend sees them; sign-up refuses what login would.
"""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth import get_user_model
from django.test import Client

from blackjack_site.passwords import PASSWORD_MAX_LENGTH
from tests.pages import once_key
from tests.site.helpers import PASSWORD

pytestmark = pytest.mark.django_db

LOGINS = ["/accounts/login/", "/admin/login/"]
USERNAME_MAX_LENGTH = get_user_model()._meta.get_field("username").max_length
IMPOSSIBLE = {
    "a 100,000-character username": ("u" * 100_000, "wrong"),
    "a username one character too long": ("u" * (USERNAME_MAX_LENGTH + 1), "wrong"),
    "a NUL byte in the username": ("ada\x00", "wrong"),
    "a NUL byte alone as the username": ("\x00", "wrong"),
    "a NUL byte in the password": ("ada", "wrong\x00"),
    "a NUL byte in the right password": ("ada", PASSWORD + "\x00"),
    "a password one character too long": ("ada", "p" * (PASSWORD_MAX_LENGTH + 1)),
    "a 1,000,000-character password": ("ada", "p" * 1_000_000),
}


@pytest.fixture(autouse=True)
def fast_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def staff() -> Any:
    return get_user_model().objects.create_user("ada", password=PASSWORD, is_staff=True)


def log_in(url: str, username: str, password: str) -> Any:
    client = Client(raise_request_exception=False)
    response = client.post(url, {"username": username, "password": password})
    response.logged_in = "_auth_user_id" in client.session
    return response


def error_codes(response: Any) -> dict[str, list[str]]:
    form = response.context["form"]
    return {
        name: [error.code for error in errors] for name, errors in form.errors.as_data().items()
    }


def recorded() -> int:
    return AccessAttempt.objects.count() + AccessFailureLog.objects.count()


@pytest.mark.parametrize("url", LOGINS)
@pytest.mark.parametrize("case", IMPOSSIBLE)
def test_impossible_credentials_fail_as_a_wrong_password_and_nothing_is_recorded(
    url: str, case: str, staff: Any
) -> None:
    username, password = IMPOSSIBLE[case]
    wrong = log_in(url, "ada", "wrong")
    AccessAttempt.objects.all().delete()
    AccessFailureLog.objects.all().delete()

    response = log_in(url, username, password)

    assert response.status_code == wrong.status_code == 200
    assert error_codes(response) == error_codes(wrong) == {"__all__": ["invalid_login"]}
    assert not response.logged_in
    assert recorded() == 0


@pytest.mark.parametrize("url", LOGINS)
def test_a_username_as_long_as_the_column_still_counts_as_a_wrong_password(
    url: str, staff: Any
) -> None:
    response = log_in(url, "u" * USERNAME_MAX_LENGTH, "wrong")
    assert error_codes(response) == {"__all__": ["invalid_login"]}
    assert AccessAttempt.objects.filter(username="u" * USERNAME_MAX_LENGTH).exists()


@pytest.mark.parametrize("url", LOGINS)
def test_the_longest_password_an_account_may_have_logs_in(url: str) -> None:
    longest = "p" * PASSWORD_MAX_LENGTH
    get_user_model().objects.create_user("ada", password=longest, is_staff=True)
    response = log_in(url, "ada", longest)
    assert response.status_code == 302 and response.logged_in
    assert AccessLog.objects.filter(username="ada").exists()


def sign_up(username: str, password1: str, password2: str | None = None) -> Any:
    client = Client(raise_request_exception=False)
    data = {
        "username": username,
        "password1": password1,
        "password2": password2 or password1,
        **once_key("sign_up"),
    }
    return client.post("/accounts/signup/", data)


@pytest.mark.parametrize(
    ("username", "password", "field"),
    [
        ("g" * (USERNAME_MAX_LENGTH + 1), PASSWORD, "username"),
        ("g" * 100_000, PASSWORD, "username"),
        ("grace\x00", PASSWORD, "username"),
        ("grace", PASSWORD + "\x00", "password1"),
        ("grace", "p" * (PASSWORD_MAX_LENGTH + 1), "password2"),
    ],
)
def test_sign_up_refuses_what_no_account_may_have(username: str, password: str, field: str) -> None:
    response = sign_up(username, password)
    assert response.status_code == 400
    assert field in response.context["form"].errors
    assert not get_user_model().objects.exists()


def test_sign_up_takes_the_longest_password_and_login_accepts_it() -> None:
    longest = "Felt-42-" * (PASSWORD_MAX_LENGTH // 8)
    assert len(longest) == PASSWORD_MAX_LENGTH
    assert sign_up("grace", longest).status_code == 302
    assert log_in("/accounts/login/", "grace", longest).logged_in
