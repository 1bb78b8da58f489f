"""Bad input to every shared-table action, in every phase: a 4xx or a redirect, never a
500, and nothing changes on a refusal (house rule; T-12)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.tables import presentation
from game.tables.models import Seat, SharedTable, TableEvent, TableQuestion
from game.tables.views import TABLE_ACTIONS
from tests.game.tables.conftest import bet_and_ready
from tests.game.tables.test_services import ACE_UP, PLAIN
from tests.game.tables.test_side_bets import OFFERS, place

pytestmark = pytest.mark.django_db

ACTIONS = (*TABLE_ACTIONS, "no-such-action")
FIELDS = (
    "seat",
    "chip",
    "version",
    "answer",
    "play",
    "difficulty",
    "side_chip",
    "bet",
    "active",
    "amount",
)
JUNK = st.one_of(
    st.sampled_from(
        [
            "",
            "0",
            "-1",
            "1e9",
            "99999999999999999999",
            "hit",
            "stand",
            "\x00",
            "5",
            "21+3:5",
            "perfect_pair:500",
            "on",
            "extra_bet",
            "extra_bet:99999",
            "parlay:all",
            "roll",
            "12.50",
            "²",
        ]
    ),
    st.text(max_size=12),
)


def _phase(name: str, seated_pair, ana, ben) -> SharedTable:
    if name == "betting":
        return seated_pair()
    if name == "side_offers":
        # The Perfect 11s dice open to ana; then ben's extra bet, then both parlays.
        table = seated_pair(OFFERS)
        place(table, ana, 10, perfect_11s=1, house_money=1)
        place(table, ben, 10, house_money=2, extra_bet=1)
        return table
    table = seated_pair(ACE_UP if name == "offers" else PLAIN)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    return table


@pytest.mark.parametrize("phase", ["betting", "offers", "side_offers", "turns"])
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_junk_posts_never_500_and_a_refusal_changes_nothing(phase, data, seated_pair, ana, ben):
    table = _phase(phase, seated_pair, ana, ben)
    client = Client()
    client.force_login(data.draw(st.sampled_from([ana, ben])))
    action = data.draw(st.sampled_from(ACTIONS))
    payload = {name: data.draw(JUNK) for name in data.draw(st.sets(st.sampled_from(FIELDS)))}
    payload = {k: v.replace("\x00", "") for k, v in payload.items()}
    table.refresh_from_db()
    before = (table.version, TableEvent.objects.filter(table=table).count())
    response = client.post(
        reverse("tables:action", args=[table.pk, action]), payload, HTTP_HX_REQUEST="true"
    )
    assert response.status_code in (200, 404, 409, 422), response.status_code
    table.refresh_from_db()
    if response.status_code != 200:
        assert (table.version, TableEvent.objects.filter(table=table).count()) == before
    SharedTable.objects.all().delete()


# --------------------------------------------------------------------- seats are plain numbers


def table_as_stored(table: SharedTable) -> tuple[Any, ...]:
    """Everything stored of the table: its row, its seats, its events, its questions."""
    return (
        SharedTable.objects.filter(pk=table.pk).values().get(),
        list(Seat.objects.filter(table=table).order_by("pk").values()),
        list(TableEvent.objects.filter(table=table).order_by("seq").values_list("seq", "kind")),
        list(TableQuestion.objects.filter(seat__table=table).order_by("pk").values()),
    )


def action_url(table: SharedTable, action: str) -> str:
    return reverse("tables:action", args=[table.pk, action])


@pytest.mark.parametrize(
    "seat",
    ["𝟜", "٤", "４", "+4", " 4", "4 ", "4.0", "4e0", "0x4", "-1", "0", "6", "", "9" * 18, "9" * 40],
)
def test_a_seat_that_is_not_a_number_of_the_table_is_refused_and_changes_nothing(
    make_table, ben, seat
):
    table = make_table()
    before = table_as_stored(table)
    client = Client()
    client.force_login(ben)
    response = client.post(
        action_url(table, "sit"), {"version": "0", "seat": seat}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 422
    assert presentation.TABLE_REFUSALS["no_such_seat"] in response.content.decode()
    assert table_as_stored(table) == before


def test_a_seat_in_plain_digits_seats_the_player(make_table, ben):
    table = make_table()
    client = Client()
    client.force_login(ben)
    response = client.post(
        action_url(table, "sit"), {"version": "0", "seat": "4"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert Seat.objects.get(table=table, player=ben).number == 4
