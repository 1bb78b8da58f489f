"""Races against a live server, on SQLite and PostgreSQL alike: one post wins, the rest 409.

Twenty threads post the same action with the same version at once, each over its own HTTP
connection to ``live_server`` (its own database connection): exactly one is applied, every
other one is answered 409 with the current table, none 500.
"""

from __future__ import annotations

import http.client
import re
import threading
from typing import Any
from unittest import mock
from urllib.parse import urlencode, urlsplit

import pytest
from django.db import OperationalError
from django.test import Client

from game import services
from game.models import Game
from tests.game import scenarios
from tests.game.helpers import post

THREADS = 20
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class Browser:
    """One logged-in player over plain HTTP: a session cookie and a CSRF token."""

    def __init__(self, live_url: str, player: Any, game: Game) -> None:
        client = Client()
        client.force_login(player)
        self.session = client.cookies["sessionid"].value
        self.netloc = urlsplit(live_url).netloc
        page = self.request("GET", f"/games/{game.pk}/")
        assert page[0] == 200
        self.csrf = CSRF_INPUT.search(page[1])
        assert self.csrf is not None

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None
    ) -> tuple[int, str]:
        cookies = f"sessionid={self.session}"
        headers = {"Cookie": cookies}
        body = None
        if form is not None:
            token = self.csrf.group(1)  # type: ignore[union-attr]
            body = urlencode({**form, "csrfmiddlewaretoken": token})
            headers.update(
                {
                    "Content-Type": "application/x-www-form-urlencoded",
                    "HX-Request": "true",
                    "Cookie": f"{cookies}; csrftoken={self.csrf_cookie}",
                }
            )
        connection_ = http.client.HTTPConnection(self.netloc, timeout=60)
        try:
            connection_.request(method, path, body=body, headers=headers)
            response = connection_.getresponse()
            if method == "GET":
                for name, value in response.getheaders():
                    if name.lower() == "set-cookie" and value.startswith("csrftoken="):
                        self.csrf_cookie = value.split(";")[0].split("=", 1)[1]
            return response.status, response.read().decode()
        finally:
            connection_.close()


def race(browser: Browser, path: str, form: dict[str, str]) -> list[tuple[int, str]]:
    barrier = threading.Barrier(THREADS)
    answers: list[tuple[int, str]] = []
    lock = threading.Lock()

    def one_post() -> None:
        barrier.wait()
        answer = browser.request("POST", path, form)
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=one_post) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(answers) == THREADS
    return answers


def assert_one_applied(answers: list[tuple[int, str]]) -> None:
    statuses = sorted(status for status, _ in answers)
    assert 500 not in statuses
    assert statuses == [200] + [409] * (THREADS - 1), statuses
    for status, text in answers:
        if status == 409:
            assert "This table changed since the page was shown" in text


@pytest.mark.django_db(transaction=True)
def test_twenty_deals_with_one_version_deal_once(live_server: Any, player: Any) -> None:
    game = scenarios.betting(player)
    version, bank = game.version, game.bank_cents
    browser = Browser(live_server.url, player, game)
    answers = race(browser, f"/games/{game.pk}/deal/", {"version": str(version), "amount": "10"})
    assert_one_applied(answers)
    game.refresh_from_db()
    assert game.version == version + 1
    assert game.bank_cents == bank - 1000
    assert game.rounds.count() == 1


@pytest.mark.django_db(transaction=True)
def test_twenty_chips_with_one_version_add_one_chip(live_server: Any, player: Any) -> None:
    game = scenarios.betting(player)
    version = game.version
    browser = Browser(live_server.url, player, game)
    answers = race(browser, f"/games/{game.pk}/chip/", {"version": str(version), "chip": "5"})
    assert_one_applied(answers)
    game.refresh_from_db()
    assert (game.version, game.pending_bet_cents) == (version + 1, 500)


@pytest.mark.django_db(transaction=True)
def test_twenty_stands_with_one_version_stand_once(live_server: Any, player: Any) -> None:
    game = scenarios.trivia_off(player)
    version = game.version
    browser = Browser(live_server.url, player, game)
    answers = race(browser, f"/games/{game.pk}/stand/", {"version": str(version)})
    assert_one_applied(answers)
    game.refresh_from_db()
    assert game.version == version + 1
    assert game.state["round"]["phase"] == "round_over"


def chip_service_failing(message: str) -> Any:
    """The chip action's service raising ``OperationalError(message)``, as under a lock."""

    def fail(**kwargs: Any) -> Game:
        raise OperationalError(message)

    return mock.patch.object(services, "add_chip", fail)


@pytest.mark.django_db
@pytest.mark.parametrize("message", ["database is locked", "database table is locked"])
def test_a_lock_timeout_is_answered_as_a_stale_post(
    alice: Client, player: Any, message: str
) -> None:
    game = scenarios.betting(player)
    before = (game.version, game.pending_bet_cents)
    with chip_service_failing(message):
        response = post(alice, game, "chip", htmx=True, chip="5")
    assert response.status_code == 409
    assert "This table changed since the page was shown" in response.text
    assert 'id="table"' in response.text
    game.refresh_from_db()
    assert (game.version, game.pending_bet_cents) == before


@pytest.mark.django_db
def test_other_database_errors_are_not_hidden(alice: Client, player: Any) -> None:
    game = scenarios.betting(player)
    alice.raise_request_exception = True
    with chip_service_failing("disk I/O error"), pytest.raises(OperationalError, match="disk"):
        post(alice, game, "chip", chip="5")
