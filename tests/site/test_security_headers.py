"""The Content-Security-Policy header on pages, partials and the admin; the favicon."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.test import Client

from tests.game import scenarios

pytestmark = pytest.mark.django_db

REQUIRED = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def directives(response: Any) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    parts = (part.strip().split(" ", 1) for part in header.split(";") if part.strip())
    return dict(parts)


def assert_strict(response: Any) -> None:
    policy = directives(response)
    for name, value in REQUIRED.items():
        assert policy[name] == value, (name, policy.get(name))
    header = response["Content-Security-Policy"]
    assert "unsafe-inline" not in header and "unsafe-eval" not in header


def test_pages_carry_the_strict_policy(client: Client) -> None:
    for url in ("/", "/accounts/login/", "/rules/"):
        assert_strict(client.get(url))


def test_the_table_and_its_htmx_partial_carry_it() -> None:
    player = get_user_model().objects.create_user(username="ada", password="x")
    client = Client()
    client.force_login(player)
    game = scenarios.betting(player)
    assert_strict(client.get(f"/games/{game.pk}/"))
    partial = client.post(
        f"/games/{game.pk}/chip/", {"version": game.version, "chip": "5"}, HTTP_HX_REQUEST="true"
    )
    assert partial.status_code == 200
    assert_strict(partial)


def test_the_admin_carries_it() -> None:
    staff = get_user_model().objects.create_superuser(username="root", password="x")
    client = Client()
    client.force_login(staff)
    for url in ("/admin/", "/admin/trivia/question/", "/admin/trivia/question/add/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_strict(response)


def test_htmx_runs_without_eval_or_injected_styles(client: Client) -> None:
    page = client.get("/").text
    assert '"allowEval":false' in page and '"includeIndicatorStyles":false' in page


def test_the_favicon_is_served(client: Client) -> None:
    page = client.get("/").text
    assert 'rel="icon" href="/static/img/favicon.svg" type="image/svg+xml"' in page
    redirect = client.get("/favicon.ico")
    assert redirect.status_code == 301
    assert redirect["Location"] == "/static/img/favicon.svg"
    icon = finders.find("img/favicon.svg")
    assert icon is not None and Path(icon).read_text().startswith("<svg")
