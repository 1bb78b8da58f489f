"""Guests at shared tables (UI.md "Shared tables"): Play as guest from an invitation link
makes a guest who sits like any player, under their guest name; from the lobby a guest
sits the same way."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from blackjack_site.guests import is_guest
from game.tables import services
from game.tables.models import Seat
from tests.game.factories import PlayerFactory
from tests.game.html_tree import parse
from tests.pages import once_key

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_clock_thread(settings: Any) -> None:
    settings.TABLE_CLOCK = "external"


@pytest.fixture
def private_table() -> Any:
    host = PlayerFactory(username="ana")
    return services.create_table(
        host=host,
        name="Friday night",
        public=False,
        seat_count=5,
        intermission_seconds=30,
        options={"trivia_mode": False},
    )


def play_as_guest(client: Client, table: Any) -> Any:
    return client.post(reverse("table_guest", args=[table.invite_token]), once_key("guest"))


def sit(client: Client, table: Any, number: int) -> Any:
    return client.post(
        reverse("tables:action", args=[table.pk, "sit"]),
        {"version": str(services.NO_SEAT_VERSION), "seat": str(number)},
    )


def test_play_as_guest_makes_a_guest_who_sits_at_the_private_table(private_table) -> None:
    client = Client(REMOTE_ADDR="10.0.0.21")
    client.get(reverse("tables:invitation", args=[private_table.invite_token]))
    response = play_as_guest(client, private_table)
    table_url = reverse("tables:table", args=[private_table.pk])
    assert response.status_code == 302 and response["Location"] == table_url
    guest = get_user_model().objects.get(pk=client.session["_auth_user_id"])
    assert is_guest(guest)
    page = parse(client.get(table_url).text)
    sit_here = [button["aria-label"] for button in page.select(".seat button")]
    assert "Sit Here, seat 2" in sit_here
    assert sit(client, private_table, 2).status_code == 302
    seat = Seat.objects.get(table=private_table, player=guest)
    assert seat.number == 2
    seat_card = parse(client.get(table_url).text).one('.seat[data-seat="2"]')
    assert guest.username in seat_card.one(".seat__name").text()


def test_play_as_guest_from_someone_already_logged_in_makes_no_guest(private_table) -> None:
    client = Client()
    client.force_login(PlayerFactory(username="ben"))
    assert play_as_guest(client, private_table).status_code == 302
    assert get_user_model().objects.count() == 2
    assert client.get(reverse("tables:table", args=[private_table.pk])).status_code == 200


def test_play_as_guest_counts_towards_the_guests_an_address_may_make(
    settings: Any, private_table
) -> None:
    settings.GUESTS_PER_ADDRESS_PER_HOUR = 1
    assert play_as_guest(Client(REMOTE_ADDR="10.0.0.22"), private_table).status_code == 302
    refused = play_as_guest(Client(REMOTE_ADDR="10.0.0.22"), private_table)
    assert refused.status_code == 429
    assert get_user_model().objects.filter(username__startswith="guest-").count() == 1


def test_play_as_guest_needs_a_live_link_and_a_post(private_table) -> None:
    url = reverse("table_guest", args=[private_table.invite_token])
    assert Client().get(url).status_code == 405
    services.renew_invite(
        table_id=private_table.pk, user=private_table.host, version=private_table.version
    )
    assert Client().post(url).status_code == 404
    assert not get_user_model().objects.filter(username__startswith="guest-").exists()


def test_a_guest_sits_at_a_public_table_from_the_lobby_under_their_guest_name() -> None:
    host = PlayerFactory(username="ana")
    table = services.create_table(
        host=host, name="Open night", public=True, seat_count=3, intermission_seconds=30,
        options={"trivia_mode": False},
    )  # fmt: skip
    client = Client(REMOTE_ADDR="10.0.0.23")
    client.post("/play/", once_key("guest"))  # Play now: a guest
    guest = get_user_model().objects.get(pk=client.session["_auth_user_id"])
    lobby = parse(client.get(reverse("tables:lobby")).text)
    assert lobby.one(f'tr[data-table="{table.pk}"] a')["href"] == reverse(
        "tables:table", args=[table.pk]
    )
    assert sit(client, table, 1).status_code == 302
    seat_card = parse(client.get(reverse("tables:table", args=[table.pk])).text).one(
        '.seat[data-seat="1"]'
    )
    assert guest.username in seat_card.one(".seat__name").text()
