"""A private table's invitation link (T-1): renewed, the old one's access ends at once --
the page, the actions and an open live stream of a watcher who came in by it -- while the
host and the players seated there carry on."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse

from game.core.errors import StaleVersion
from game.rules.cards import card_name
from game.tables import presentation, services
from game.tables.models import SharedTable
from tests.game.tables.helpers import seat_version, table_version

pytestmark = pytest.mark.django_db

RENEWED_LINE = presentation.EVENT_LINES["invite_renewed"]


def client_by_link(user: Any, table: SharedTable) -> Client:
    """A client logged in as ``user`` that opened the table's invitation link."""
    client = Client()
    client.force_login(user)
    response = client.get(reverse("tables:invitation", args=[table.invite_token]))
    assert response.status_code == 302
    return client


def open_stream(client: Client, table: SharedTable) -> Iterator[bytes]:
    """The table's live stream, read up to its first snapshot."""
    response = client.get(reverse("tables:events", args=[table.pk]))
    assert response.status_code == 200
    chunks = iter(response.streaming_content)
    assert next(chunks).startswith(b"retry:")
    assert b"event: table" in next(chunks)
    return chunks


@pytest.fixture
def streams(settings) -> None:
    """Streams that live long and never poll: what ends or wakes one is the renewal."""
    settings.REDIS_URL = ""
    settings.TABLE_STREAM_SECONDS = 4
    settings.TABLE_STREAM_POLL_SECONDS = 4
    settings.TABLE_STREAM_HEARTBEAT_SECONDS = 4


def renew(table: SharedTable, host: Any, capture_on_commit) -> None:
    # The news goes out on commit, as it does outside the test's transaction.
    with capture_on_commit(execute=True):
        services.renew_invite(table_id=table.pk, user=host, version=table_version(table))


def test_a_renewed_link_ends_the_open_stream_of_a_watcher_who_came_by_the_old_one(
    make_table, ana, watcher, streams, django_capture_on_commit_callbacks
):
    table = make_table(public=False)
    chunks = open_stream(client_by_link(watcher, table), table)
    renew(table, ana, django_capture_on_commit_callbacks)
    started = time.monotonic()
    rest = list(chunks)
    # Ended at its next wake (the renewal's own news), not at the end of its life, and
    # nothing more sent but the end itself (the page stops listening and says so):
    # neither the new table nor the line about the new link.
    assert time.monotonic() - started < 1.0
    assert rest == [b"event: end\ndata: gone\n\n"]


def test_the_host_and_a_seated_player_keep_their_streams_through_a_renewal(
    make_table, ana, ben, streams, django_capture_on_commit_callbacks
):
    table = make_table(public=False)
    seated = client_by_link(ben, table)
    services.sit(table_id=table.pk, user=ben, version=seat_version(table, ben), number=2)
    host = Client()
    host.force_login(ana)
    host_chunks, seated_chunks = open_stream(host, table), open_stream(seated, table)
    renew(table, ana, django_capture_on_commit_callbacks)
    news = {}
    for who, chunks in (("host", host_chunks), ("seated", seated_chunks)):
        started = time.monotonic()
        news[who] = next(chunks).decode()
        assert time.monotonic() - started < 1.0
        assert "event: log" in news[who] and RENEWED_LINE in news[who]
        assert "event: table" in news[who]
    table.refresh_from_db()
    # The host's own view of the table carries the new link; nobody else's does.
    assert table.invite_token in news["host"] and table.invite_token not in news["seated"]


def test_a_renewed_link_ends_the_old_ones_page_and_actions(make_table, ana, watcher):
    table = make_table(public=False)
    client = client_by_link(watcher, table)
    page = reverse("tables:table", args=[table.pk])
    assert client.get(page).status_code == 200
    services.renew_invite(table_id=table.pk, user=ana, version=table_version(table))
    assert client.get(page).status_code == 404
    assert client.get(reverse("tables:events", args=[table.pk])).status_code == 404
    response = client.post(
        reverse("tables:action", args=[table.pk, "sit"]), {"version": "0", "seat": "1"}
    )
    assert response.status_code == 404
    assert not table.seats.exists()
    # The new link opens it again.
    table.refresh_from_db()
    assert client_by_link(watcher, table).get(page).status_code == 200


def test_a_renewal_is_announced_and_a_repeated_one_is_stale(make_table, ana):
    table = make_table(public=False)
    version = table_version(table)
    services.renew_invite(table_id=table.pk, user=ana, version=version)
    table.refresh_from_db()
    token = table.invite_token
    assert table.events.order_by("seq").last().kind == "invite_renewed"
    with pytest.raises(StaleVersion):
        services.renew_invite(table_id=table.pk, user=ana, version=version)
    table.refresh_from_db()
    assert table.invite_token == token


# --------------------------------------------------------------------- the link's landing


def test_an_invitation_opens_the_table_to_a_visitor_naming_the_host(make_table, ana, ben):
    from tests.game.html_tree import parse
    from tests.game.tables.helpers import bet_and_ready, stack_table_shoe

    table = make_table(public=False)
    services.sit(table_id=table.pk, user=ana, version=seat_version(table, ana), number=1)
    stack_table_shoe(table, ["0S", "0H", "9S", "8C"])
    bet_and_ready(table, ana)  # a round in play: the hole card 0H lies face down
    response = Client().get(reverse("tables:invitation", args=[table.invite_token]))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    page = parse(response.text)
    assert page.one("h1#invitation-line").text() == "ana invited you to their table"
    guest_form = page.one(".invitation form")
    assert guest_form["method"] == "post"
    assert guest_form["action"] == reverse("table_guest", args=[table.invite_token])
    assert guest_form.one("button").text() == "Play as guest"
    landing = reverse("tables:invitation", args=[table.invite_token])
    links = {link.text(): link["href"] for link in page.select(".invitation a")}
    assert links["Log in"] == f"{reverse('login')}?next={quote(landing)}"
    assert links["Sign up"] == f"{reverse('signup')}?next={quote(landing)}"
    # The table as a watcher sees it: the seats, the dealer's upcard, no hole card, and
    # nothing to press at the table until the visitor is someone.
    shared = page.one("#shared-table")
    assert shared.one(".table-name").text() == "Friday night"
    assert "ana" in shared.one('.seat[data-seat="1"]').text()
    dealer = [card["aria-label"] for card in shared.select(".dealer-area .playing-card")]
    assert dealer == ["Face-down card", card_name("8C")]
    assert not shared.select("form button")
    assert "0H" not in response.text.replace(table.invite_token, "")


def test_a_player_opening_an_invitation_goes_to_the_table_told_who_invited_them(
    make_table, watcher
):
    table = make_table(public=False)
    client = Client()
    client.force_login(watcher)
    response = client.get(reverse("tables:invitation", args=[table.invite_token]), follow=True)
    assert response.redirect_chain == [(reverse("tables:table", args=[table.pk]), 302)]
    assert "ana invited you to their table" in response.text


def test_an_unknown_or_closed_invitation_is_not_found(make_table, ana):
    table = make_table(public=False)
    unknown = "x" * len(table.invite_token)
    assert Client().get(reverse("tables:invitation", args=[unknown])).status_code == 404
    services.close_table(table_id=table.pk, user=ana, version=table_version(table))
    table.refresh_from_db()
    assert Client().get(reverse("tables:invitation", args=[table.invite_token])).status_code == 404
