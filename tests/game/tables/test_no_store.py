"""A shared table's pages are never stored: the table is live, and the host's invitation
page (and the table page's Invite Link dialog) shows the table's secret link."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.game.tables.helpers import seat_version

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def no_store(response) -> bool:
    return "no-store" in response.get("Cache-Control", "")


def test_the_table_its_invitation_its_options_and_the_lobby_are_not_stored(make_table, ana):
    table = make_table(public=False)
    host = client_of(ana)
    for url in (
        f"/tables/{table.pk}/",
        f"/tables/{table.pk}/invite/",
        f"/tables/{table.pk}/options/",
        "/tables/",
    ):
        response = host.get(url)
        assert response.status_code == 200, url
        assert no_store(response), url
    assert table.invite_token in host.get(f"/tables/{table.pk}/invite/").text


def test_an_action_answer_and_the_live_stream_are_not_stored(make_table, ana, settings):
    settings.TABLE_STREAM_SECONDS = 0.1
    table = make_table()
    host = client_of(ana)
    answer = host.post(
        f"/tables/{table.pk}/sit/",
        {"version": str(seat_version(table, ana)), "seat": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200 and no_store(answer)
    stream = host.get(f"/tables/{table.pk}/events/")
    assert stream["Content-Type"] == "text/event-stream" and no_store(stream)
    b"".join(stream.streaming_content)
