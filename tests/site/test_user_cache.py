"""The user of each request comes from the cache (blackjack_site/auth.py), and
every change to the account still counts at once: a new password or a deactivation logs
the sessions out, logging out ends the session."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from blackjack_site.auth import user_cache_key
from tests.site.helpers import PASSWORD
from tests.site.test_settings import run_manage

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


def _logged_in_client() -> Client:
    client = Client()
    response = client.post(reverse("login"), {"username": "ada", "password": PASSWORD})
    assert response.status_code == 302
    return client


def _logged_in(client: Client) -> bool:
    return client.get(reverse("my_games")).status_code == 200


def test_a_logged_in_request_reads_no_user_row(player, django_assert_num_queries) -> None:
    client = _logged_in_client()
    assert _logged_in(client)  # the user is cached from here on
    with django_assert_num_queries(1) as captured:  # the player's games only
        assert _logged_in(client)
    assert not any("auth_user" in query["sql"] for query in captured.captured_queries)


def test_a_new_password_logs_the_other_sessions_out(player) -> None:
    client = _logged_in_client()
    assert _logged_in(client)
    player.set_password("another-felt-table-43")
    player.save()
    assert not _logged_in(client)


def test_a_deactivated_account_is_refused_at_once(player) -> None:
    client = _logged_in_client()
    assert _logged_in(client)
    player.is_active = False
    player.save()
    assert not _logged_in(client)


def test_a_deleted_account_is_forgotten(player) -> None:
    client = _logged_in_client()
    assert _logged_in(client)
    assert cache.get(user_cache_key(player.pk)) is not None
    player.delete()
    assert cache.get(user_cache_key(player.pk)) is None
    assert not _logged_in(client)


def test_logging_out_ends_the_session_though_the_user_stays_cached(player) -> None:
    client = _logged_in_client()
    assert _logged_in(client)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    client.post(reverse("logout"))
    copy = Client()
    copy.cookies[settings.SESSION_COOKIE_NAME] = cookie
    assert not _logged_in(copy)


def test_without_a_shared_cache_production_reads_the_user_every_time() -> None:
    code = "from django.conf import settings; print(settings.USER_CACHE_SECONDS)"
    base = {"DEBUG": "0", "SECRET_KEY": "x" * 60, "ALLOWED_HOSTS": "blackjack.example"}
    plain = run_manage("shell", "-c", code, REDIS_URL="", **base)
    assert plain.stdout.strip().splitlines()[-1] == "0"
    shared = run_manage("shell", "-c", code, REDIS_URL="redis://127.0.0.1:6379/15", **base)
    assert shared.stdout.strip().splitlines()[-1] == "300"
