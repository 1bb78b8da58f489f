"""Sessions come from the cache (cached_db): no query for the session, and logging out
still ends it everywhere, a copied cookie included."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.site.helpers import PASSWORD
from tests.site.test_settings import run_manage

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


def _logged_in_client(player) -> Client:
    client = Client()
    response = client.post(reverse("login"), {"username": "ada", "password": PASSWORD})
    assert response.status_code == 302
    return client


def test_sessions_are_cached_and_written_through() -> None:
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.cached_db"


def test_a_logged_in_page_reads_the_session_without_a_query(
    player, django_assert_num_queries
) -> None:
    client = _logged_in_client(player)
    client.get(reverse("my_games"))  # the session is in the cache from the login on
    # The player's games: no session query (and the user is cached, tests/site/test_user_cache.py).
    with django_assert_num_queries(1) as captured:
        assert client.get(reverse("my_games")).status_code == 200
    assert not any("django_session" in query["sql"] for query in captured.captured_queries)


def test_logging_out_invalidates_the_session_and_a_copied_cookie(player) -> None:
    client = _logged_in_client(player)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert client.post(reverse("logout")).status_code == 302

    copy = Client()
    copy.cookies[settings.SESSION_COOKIE_NAME] = cookie
    response = copy.get(reverse("my_games"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_logging_out_ends_the_session_for_a_process_whose_cache_still_holds_it(player) -> None:
    """The database copy is deleted too: a cache that missed the logout (another worker's
    memory) cannot bring it back once it is evicted, and Redis is shared by all workers."""
    client = _logged_in_client(player)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    client.post(reverse("logout"))
    from django.contrib.sessions.models import Session

    assert not Session.objects.filter(session_key=cookie).exists()


def test_production_without_redis_keeps_sessions_in_the_database() -> None:
    code = "from django.conf import settings; print(settings.SESSION_ENGINE)"
    base = {"DEBUG": "0", "SECRET_KEY": "x" * 60, "ALLOWED_HOSTS": "blackjack.example"}
    plain = run_manage("shell", "-c", code, REDIS_URL="", **base)
    assert plain.stdout.strip().splitlines()[-1] == "django.contrib.sessions.backends.db"
    shared = run_manage("shell", "-c", code, REDIS_URL="redis://127.0.0.1:6379/0", **base)
    assert shared.stdout.strip().splitlines()[-1] == "django.contrib.sessions.backends.cached_db"


def test_connections_persist_with_health_checks_by_default() -> None:
    database = settings.DATABASES["default"]
    assert database["CONN_MAX_AGE"] > 0 and database["CONN_HEALTH_CHECKS"] is True
