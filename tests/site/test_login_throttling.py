"""Wrong passwords are limited per account and per address (django-axes)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from tests.site.helpers import PASSWORD

pytestmark = pytest.mark.django_db

LIMIT = 5


@pytest.fixture(autouse=True)
def fast_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(username: str) -> Any:
    return get_user_model().objects.create_user(username=username, password=PASSWORD)


def log_in(username: str, password: str, address: str = "10.0.0.1") -> Any:
    return Client(REMOTE_ADDR=address).post(
        "/accounts/login/", {"username": username, "password": password}
    )


def test_the_right_password_logs_in() -> None:
    make_user("ada")
    assert log_in("ada", PASSWORD).status_code == 302


def test_an_account_is_locked_after_the_limit_even_with_the_right_password() -> None:
    make_user("ada")
    for attempt in range(LIMIT - 1):
        response = log_in("ada", "wrong", address=f"10.0.1.{attempt}")
        assert response.status_code == 200  # the form again, with its error
    locked = log_in("ada", "wrong", address="10.0.1.99")
    assert locked.status_code == 429
    assert "Too many wrong passwords" in locked.text
    assert "Please try again in 15 minutes." in locked.text
    # From a fresh address, with the right password: still locked (per account).
    assert log_in("ada", PASSWORD, address="10.0.2.1").status_code == 429
    # Another account from another address is not affected.
    make_user("bob")
    assert log_in("bob", PASSWORD, address="10.0.3.1").status_code == 302


def test_an_address_is_locked_after_the_limit_across_accounts() -> None:
    for number in range(LIMIT):
        log_in(f"guess{number}", "wrong", address="10.9.9.9")
    make_user("carol")
    assert log_in("carol", PASSWORD, address="10.9.9.9").status_code == 429
    assert log_in("carol", PASSWORD, address="10.9.9.8").status_code == 302


def test_the_lockout_ends_after_the_cool_off() -> None:
    make_user("dan")
    for _ in range(LIMIT):
        log_in("dan", "wrong")
    assert log_in("dan", PASSWORD).status_code == 429
    # Move the attempts back in time instead of sleeping.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert log_in("dan", PASSWORD).status_code == 302


def test_a_right_password_resets_the_count() -> None:
    make_user("eve")
    for _ in range(LIMIT - 1):
        log_in("eve", "wrong")
    assert log_in("eve", PASSWORD).status_code == 302
    for _ in range(LIMIT - 1):
        log_in("eve", "wrong")
    assert log_in("eve", PASSWORD).status_code == 302


def test_the_admin_login_is_throttled_too() -> None:
    get_user_model().objects.create_superuser(username="root", password=PASSWORD)
    client = Client(REMOTE_ADDR="10.7.7.7")
    for _ in range(LIMIT):
        client.post("/admin/login/", {"username": "root", "password": "wrong"})
    response = client.post("/admin/login/", {"username": "root", "password": PASSWORD})
    assert response.status_code == 429
