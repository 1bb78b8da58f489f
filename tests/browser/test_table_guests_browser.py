"""A visitor invited to a private table by its link (UI.md "Shared tables"): the link opens
the table, says who invited them and offers Play as guest beside Log in; as a guest, on a
phone, they sit and play a round with the host, who is on a desktop."""

from __future__ import annotations

import pytest

from game.tables import services
from game.tables.models import Seat
from tests.browser import test_shared_round_flow_browser, test_table_browser
from tests.browser.test_shared_round_flow_browser import (
    DESKTOP,
    PHONE,
    open_table,
    shot,
    wait_until_still,
)
from tests.game.factories import PlayerFactory
from tests.game.tables.helpers import stack_table_shoe

pytestmark = pytest.mark.django_db(transaction=True)

# The fixtures of the other files, found by pytest under these names.
patient_expectations = test_table_browser.patient_expectations
streams_that_end_soon = test_shared_round_flow_browser.streams_that_end_soon

# Deal order: seat 1 (Ana), seat 2 (the guest), the dealer's hole card, seat 1, seat 2,
# the upcard. Ana 0S 9S (19), the guest 0C 8C (18); the dealer's 0H under 7C stands on 17.
ROUND = ["0S", "0C", "0H", "9S", "8C", "7C"]


def test_a_guest_invited_to_a_private_table_plays_a_round_from_the_link(table_screens) -> None:
    from playwright.sync_api import expect

    ana_user = PlayerFactory(username="ana")
    table = services.create_table(
        host=ana_user,
        name="Friday night",
        public=False,
        seat_count=5,
        intermission_seconds=30,
        options={"trivia_mode": False},
    )
    services.sit(table_id=table.pk, user=ana_user, version=services.NO_SEAT_VERSION, number=1)
    stack_table_shoe(table, ROUND)
    ana = table_screens(ana_user, DESKTOP)
    open_table(ana, table)
    ana.get_by_role("link", name="Invite Link").click()
    link = ana.get_by_role("dialog", name="Invite Link").get_by_role("textbox").input_value()
    ana.get_by_role("button", name="Done").click()

    # The link, opened by someone not logged in: the table itself, who invited them, and
    # Play as guest beside Log in and Sign up.
    visitor = table_screens(None, PHONE)
    visitor.goto(link)
    expect(visitor.get_by_role("heading", name="ana invited you to their table")).to_be_visible()
    expect(visitor.get_by_role("heading", name="Friday night")).to_be_visible()
    expect(visitor.locator('.seat[data-seat="1"]')).to_contain_text("ana")
    play_as_guest = visitor.get_by_role("button", name="Play as guest", exact=True)
    expect(play_as_guest).to_be_visible()
    expect(visitor.get_by_role("link", name="Log in", exact=True).last).to_be_visible()
    expect(visitor.get_by_role("link", name="Sign up", exact=True).last).to_be_visible()
    shot(visitor, "invitation-390")
    visitor.set_viewport_size(DESKTOP)
    shot(visitor, "invitation-1280")
    visitor.set_viewport_size(PHONE)
    play_as_guest.click()

    # A guest now, at the table: Sit Here, their guest name on the seat, live for Ana too.
    expect(visitor.get_by_role("link", name="Save your game — Sign up")).to_be_visible()
    visitor.wait_for_function("() => window.DealSequence !== undefined")
    visitor.get_by_role("button", name="Sit Here, seat 2").click()
    expect(visitor.locator('.seat[data-seat="2"] .seat__name')).to_contain_text("(you)")
    guest = Seat.objects.get(table=table, number=2).player
    expect(visitor.locator('.seat[data-seat="2"] .seat__name')).to_contain_text(guest.username)
    expect(ana.locator('.seat[data-seat="2"]')).to_contain_text(guest.username)

    # Both bet $10 and are ready; Ana stands on 19, the guest on 18; the dealer's 17 pays both.
    for page in (ana, visitor):
        chips = page.get_by_role("group", name="Chips")
        chips.get_by_role("button", name="$10", exact=True).click()
        # Pressed while Ana's Ready reaches the guest's page, the chip still counts.
        expect(page.get_by_test_id("my-bet")).to_have_text("$10.00")
        page.get_by_role("button", name="Ready").click()
    expect(ana.get_by_test_id("headline")).to_have_text("Your turn")
    wait_until_still(ana)
    ana.get_by_role("button", name="Stand", exact=True).click()
    expect(visitor.get_by_test_id("headline")).to_have_text("Your turn")
    wait_until_still(visitor)
    shot(visitor, "guest-turn-390")
    visitor.get_by_role("button", name="Stand", exact=True).click()
    for page in (ana, visitor):
        expect(page.get_by_test_id("headline")).to_have_text("Place your bets.")
        expect(page.locator('.seat[data-seat="2"] .badge')).to_contain_text("WIN")
    expect(visitor.get_by_test_id("my-bank")).to_have_text("$1,010.00")
    wait_until_still(visitor)
    shot(visitor, "guest-round-over-390")
    assert Seat.objects.get(table=table, player=guest).bank_cents == 101_000
