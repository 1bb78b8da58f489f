"""A shared table's URL takes only an id the database can hold, and an invitation link only
a token as the tables make them: anything else answers 404, never 500.

Before they were bounded at the URL, an id past 64 bits failed inside SQLite's query, and
a NUL byte in an invitation token inside PostgreSQL's (it keeps no NUL in text).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest
from django.urls import NoReverseMatch, reverse

from game.core.converters import INVITE_TOKEN_PATTERN, ROW_ID_MAX
from game.tables.models import SharedTable, new_invite_token
from tests.game.helpers import TABLE_ROUTES

pytestmark = pytest.mark.django_db

BEYOND_THE_COLUMN = [str(ROW_ID_MAX + 1), "99999999999999999999999"]


@pytest.mark.parametrize("route", TABLE_ROUTES)
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("table_id", BEYOND_THE_COLUMN)
def test_an_id_beyond_the_id_column_is_not_found_on_every_table_route(
    route: str, method: str, table_id: str, ana: Any, client_for: Any
) -> None:
    response = getattr(client_for(ana), method)(f"/tables/{table_id}/{route}")
    assert response.status_code == 404


@pytest.mark.parametrize("table_id", ["0", "-1", "%00", "１"])
def test_anything_but_a_plain_positive_table_id_is_not_found(
    table_id: str, ana: Any, client_for: Any
) -> None:
    assert client_for(ana).get(f"/tables/{table_id}/").status_code == 404


def test_a_table_under_its_id_and_not_under_a_leading_zero(
    make_table: Any, ana: Any, client_for: Any
) -> None:
    table = make_table()
    client = client_for(ana)
    assert client.get(f"/tables/{table.pk}/").status_code == 200
    assert client.get(f"/tables/0{table.pk}/").status_code == 404


@pytest.mark.parametrize(
    "token",
    [
        "%00",
        "{token}%00",
        "{token}\x00",
        "{head}%00",
        "{head}",
        "{token}A",
        "{head}+/",
        "{head}!!",
        "x" * 5000,
    ],
)
def test_an_invitation_token_not_made_as_the_tables_make_them_is_not_found(
    token: str, make_table: Any, ana: Any, ben: Any, client_for: Any
) -> None:
    table = make_table(public=False)
    path = token.format(token=table.invite_token, head=table.invite_token[:-2])
    response = client_for(ben).get(f"/tables/invite/{path}/")
    assert response.status_code == 404
    # Nothing opened: the private table is still hidden from ben.
    assert client_for(ben).get(f"/tables/{table.pk}/").status_code == 404


def test_the_invitation_link_still_opens_its_private_table(
    make_table: Any, ben: Any, client_for: Any
) -> None:
    table = make_table(public=False)
    client = client_for(ben)
    link = reverse("tables:invitation", args=[table.invite_token])
    assert client.get(link).status_code == 302
    assert client.get(f"/tables/{table.pk}/").status_code == 200


def test_every_token_the_tables_make_fits_the_invitation_url() -> None:
    for _ in range(200):
        token = new_invite_token()
        assert re.fullmatch(INVITE_TOKEN_PATTERN, token), token
        assert reverse("tables:invitation", args=[token]) == f"/tables/invite/{quote(token)}/"


def test_no_invitation_url_is_made_for_a_token_the_tables_never_make() -> None:
    with pytest.raises(NoReverseMatch):
        reverse("tables:invitation", args=["short"])


def test_nothing_changes_when_a_huge_table_id_is_posted(
    make_table: Any, ana: Any, client_for: Any
) -> None:
    make_table()
    before = list(SharedTable.objects.values())
    client = client_for(ana)
    for route in TABLE_ROUTES:
        client.post(f"/tables/{ROW_ID_MAX + 1}/{route}", {"seat": "1", "chip": "5"})
    assert list(SharedTable.objects.values()) == before
