"""A private table's invitation is the browser's (game/tables/invitations.py): it stays
through a login in that browser -- a guest signing up, a guest or a visitor logging in --
while the table still checks it against its current link, and a logout ends it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from game.tables import invitations, services
from game.tables.models import SharedTable
from tests.game.factories import PASSWORD
from tests.game.tables.helpers import table_version
from tests.pages import once_key
from tests.site.helpers import PASSWORD as NEW_PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def table_page(client: Client, table: SharedTable) -> int:
    return client.get(reverse("tables:table", args=[table.pk])).status_code


def by_the_link(client: Client, table: SharedTable) -> None:
    table.refresh_from_db()
    assert client.get(reverse("tables:invitation", args=[table.invite_token])).status_code in (
        200,
        302,
    )


def as_guest(client: Client, table: SharedTable) -> Any:
    """Play as guest from the table's invitation: the guest now logged in on ``client``."""
    response = client.post(reverse("table_guest", args=[table.invite_token]), once_key("guest"))
    assert response.status_code == 302
    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def log_in(client: Client, username: str) -> None:
    response = client.post(reverse("login"), {"username": username, "password": PASSWORD})
    assert response.status_code == 302, response.content


def test_a_session_keeps_each_token_once_and_only_the_newest():
    session: dict[str, Any] = {}
    for number in range(invitations.KEPT + 5):
        invitations.remember(session, f"token-{number}")
    invitations.remember(session, "token-10")
    held = invitations.held(session)
    assert len(held) == invitations.KEPT and held[-1] == "token-10"
    assert held.count("token-10") == 1 and "token-0" not in held
    assert invitations.grants(session, "token-10") and not invitations.grants(session, "")
    assert invitations.held({invitations.SESSION_KEY: "not a list"}) == []


def test_a_guest_who_came_by_the_link_keeps_the_table_on_signing_up(make_table):
    table = make_table(public=False)
    client = Client()
    by_the_link(client, table)
    guest = as_guest(client, table)
    assert table_page(client, table) == 200  # watching, not seated
    response = client.post(
        reverse("signup"),
        {
            "username": "grace",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
            **once_key("sign_up"),
        },
    )
    assert response.status_code == 302
    account = get_user_model().objects.get(pk=client.session["_auth_user_id"])
    assert account.pk == guest.pk and account.username == "grace"
    assert table_page(client, table) == 200


def test_a_guest_who_came_by_the_link_keeps_the_table_on_logging_in(make_table, ben):
    table = make_table(public=False)
    client = Client()
    by_the_link(client, table)
    as_guest(client, table)
    log_in(client, "ben")
    assert client.session["_auth_user_id"] == str(ben.pk)
    assert table_page(client, table) == 200


def test_a_visitor_who_came_by_the_link_keeps_the_table_on_logging_in(make_table, ben):
    table = make_table(public=False)
    client = Client()
    by_the_link(client, table)
    log_in(client, "ben")
    assert table_page(client, table) == 200


def test_without_the_link_a_login_lets_nobody_into_a_private_table(make_table, ana, ben):
    table = make_table(public=False)
    client = Client()
    log_in(client, "ben")
    assert table_page(client, table) == 404
    # A renewed link ends the old one's access, kept across a login or not.
    other = Client()
    by_the_link(other, table)
    services.renew_invite(table_id=table.pk, user=ana, version=table_version(table))
    log_in(other, "ben")
    assert table_page(other, table) == 404


def test_a_logout_ends_the_invitation_the_browser_held(make_table, ben):
    table = make_table(public=False)
    client = Client()
    log_in(client, "ben")
    by_the_link(client, table)
    assert table_page(client, table) == 200
    client.post(reverse("logout"))
    log_in(client, "ben")
    assert table_page(client, table) == 404
