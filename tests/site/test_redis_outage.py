"""A Redis outage degrades the site, never breaks it (blackjack_site/cache.py): sessions and
users are read from the database while the cache cannot answer, logins and their throttling
go on, the outage is logged once, and what changed meanwhile still counts when Redis comes
back with what it held before."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.redis_server import OUTAGE_RETRY_SECONDS
from tests.site.helpers import PASSWORD

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_hashing")]


@pytest.fixture
def fast_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def redis(site_on_private_redis):
    return site_on_private_redis


def log_in(password: str = PASSWORD, address: str = "10.0.0.1") -> tuple[Client, Any]:
    client = Client(REMOTE_ADDR=address)
    response = client.post(reverse("login"), {"username": "ada", "password": password})
    return client, response


def logged_in(client: Client) -> bool:
    response = client.get(reverse("my_games"))
    assert response.status_code in (200, 302), response.status_code
    return response.status_code == 200


def after_the_retry_pause() -> None:
    """Long enough for the cache to try Redis again."""
    time.sleep(OUTAGE_RETRY_SECONDS * 1.5)


def test_a_logged_in_player_stays_logged_in_while_redis_is_down(player, redis) -> None:
    client, response = log_in()
    assert response.status_code == 302 and logged_in(client)
    redis.stop()
    for _ in range(3):
        assert logged_in(client)
        assert client.get("/").status_code == 200
        after_the_retry_pause()  # each round tries Redis again, and fails again
    redis.start()
    after_the_retry_pause()
    assert logged_in(client)


def test_logging_in_and_its_throttling_work_while_redis_is_down(player, redis) -> None:
    """django-axes keeps its counts in the database (its default handler), not the cache."""
    redis.stop()
    client, response = log_in()
    assert response.status_code == 302 and logged_in(client)
    _, wrong = log_in(password="not-the-password", address="10.0.0.2")
    assert wrong.status_code == 200  # the form again, with its error
    assert AccessAttempt.objects.filter(username="ada", failures_since_start=1).exists()


def test_the_outage_is_logged_once_not_per_request(player, redis, caplog) -> None:
    client, _ = log_in()
    assert logged_in(client)
    redis.stop()
    with caplog.at_level(logging.WARNING):
        for _ in range(4):
            assert logged_in(client)
            after_the_retry_pause()
        redis.start()
        after_the_retry_pause()
        assert logged_in(client)
    cache_lines = [r for r in caplog.records if r.name == "blackjack_site.cache"]
    assert [r.levelno for r in cache_lines] == [logging.ERROR, logging.WARNING], cache_lines
    assert "is unreachable" in cache_lines[0].getMessage()
    assert "answers again" in cache_lines[1].getMessage()
    # Nothing else complained: no session backend error, no failed request.
    assert [r for r in caplog.records if r.name != "blackjack_site.cache"] == []


def test_a_logout_during_the_outage_holds_when_redis_comes_back_with_its_data(
    player, redis
) -> None:
    """The logout could not delete the session's cached copy; Redis comes back holding it
    (persistence, or a network cut): the copy is forgotten before anything reads it."""
    client, _ = log_in()
    assert logged_in(client)  # the session and the user are in Redis now
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    redis.stop(keep_data=True)
    assert client.post(reverse("logout")).status_code == 302
    redis.start()
    after_the_retry_pause()
    copy = Client()
    copy.cookies[settings.SESSION_COOKIE_NAME] = cookie
    assert not logged_in(copy)


def test_an_account_deactivated_during_the_outage_is_refused_when_redis_comes_back(
    player, redis
) -> None:
    client, _ = log_in()
    assert logged_in(client)
    redis.stop(keep_data=True)
    player.is_active = False
    player.save()
    assert not logged_in(client)
    redis.start()
    after_the_retry_pause()
    assert not logged_in(client)


def test_every_cache_call_answers_as_an_empty_cache_while_redis_is_down(redis) -> None:
    from django.core.cache import cache

    cache.set("kept", 1)
    redis.stop()
    assert cache.get("kept") is None and cache.get("kept", "default") == "default"
    assert cache.get_many(["kept", "other"]) == {}
    assert "kept" not in cache
    assert cache.add("new", 1) is False
    assert cache.set("new", 1) is None
    assert cache.set_many({"a": 1, "b": 2}) == ["a", "b"]  # the keys not stored
    assert cache.touch("kept") is False
    assert cache.delete("kept") is False
    assert cache.delete_many(["a", "b"]) is None
    assert cache.get_or_set("computed", 7) == 7
    with pytest.raises(ValueError):
        cache.incr("kept")
    assert cache.clear() is False
