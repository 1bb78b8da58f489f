"""A shared table's committed shoe in Chromium (FAIRNESS.md F-1, F-2, F-6; UI.md "Steady
controls"): the commitment by the felt on a 390 × 844 phone and a 1280 × 800 desktop, the
whole value a click away, without pushing the controls out of view; a player's Client seed
typed on their seat survives the others' live updates and joins the shoe's seed; the
host's Shuffle now between rounds opens the next shoe on every screen."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest

from game.core.errors import ActionRefused
from game.services import randomness
from game.tables import services
from game.tables.models import Seat, SharedTable, TableShoe
from tests.browser import test_table_browser
from tests.game.factories import PlayerFactory
from tests.game.tables.helpers import bet_and_ready

pytestmark = pytest.mark.django_db(transaction=True)

patient_expectations = test_table_browser.patient_expectations
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "shared"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(autouse=True)
def known_server_seeds(monkeypatch: pytest.MonkeyPatch, settings) -> None:
    """The shoes' seeds from a seeded source, so that the round plays the same every run."""
    settings.TABLE_STREAM_SECONDS = 5
    seeds = random.Random(390)
    monkeypatch.setattr(randomness, "server_seeds", lambda: seeds.randbytes)


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), caret="initial")


def in_view(page, locator) -> None:
    from playwright.sync_api import expect

    expect(locator).to_be_visible()
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box


def no_sideways_scroll(page, what: str) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{what}: {overflow}px to scroll sideways"


def test_the_shoe_and_the_seats_seeds_on_a_phone_and_a_desktop(
    table_screens, axe_violations
) -> None:
    from playwright.sync_api import expect

    ana_user, ben_user = PlayerFactory(username="ana"), PlayerFactory(username="ben")
    table = services.create_table(
        host=ana_user,
        name="Friday night",
        public=True,
        seat_count=5,
        intermission_seconds=60,
        options={"trivia_mode": False},
    )
    for user, number in ((ana_user, 1), (ben_user, 3)):
        services.sit(table_id=table.pk, user=user, version=services.NO_SEAT_VERSION, number=number)
    services.set_seat_client_seed(
        table_id=table.pk,
        user=ana_user,
        version=Seat.objects.get(player=ana_user).version,
        client_seed="ana-seed",
    )
    commitment = TableShoe.objects.get(table=table, nonce=1).commitment
    ana, ben = table_screens(ana_user, PHONE), table_screens(ben_user, DESKTOP)
    for page in (ana, ben):
        page.goto(f"/tables/{table.pk}/")
        shoe = page.get_by_test_id("shoe-info")
        expect(shoe).to_contain_text(f"Shoe 1 · commitment {commitment[:10]}…")
        fairness = page.get_by_role("link", name="Fairness", exact=True)
        expect(fairness).to_have_attribute("href", f"/tables/{table.pk}/fairness/")
    # Only the host has Shuffle now, disabled while no card has left the shoe.
    expect(ana.get_by_role("button", name="Shuffle now")).to_be_disabled()
    expect(ben.get_by_role("button", name="Shuffle now")).to_have_count(0)

    # On the phone the commitment opens whole, and the betting controls stay in view.
    ana.locator("#shoe-details > summary").click()
    expect(ana.get_by_test_id("commitment")).to_have_text(commitment)
    expect(ana.get_by_test_id("shoe-info")).to_contain_text("ana-seed|")
    in_view(ana, ana.get_by_role("button", name="Ready"))
    in_view(ana, ana.get_by_role("group", name="Chips"))
    in_view(ana, ana.get_by_test_id("status-bar"))
    no_sideways_scroll(ana, "phone, the commitment open")
    shot(ana, "shoe-commitment-390")
    assert not axe_violations(ana, "shared table, the shoe's commitment open")

    # Ben types his seed on his seat; Ana's Ready reaches his screen meanwhile, and his
    # disclosure stays open with what he typed.
    ben.get_by_role("region", name="Seat 3: ben").locator("summary", has_text="Client seed").click()
    field = ben.get_by_role("textbox", name="Client seed")
    expect(field).to_have_attribute("maxlength", "64")
    field.fill("ben-seed")
    bet_and_ready(table, ana_user)
    expect(ben.locator("#table-log")).to_contain_text("ana (seat 1) bets $10.00 and is ready.")
    expect(field).to_be_visible()
    expect(field).to_have_value("ben-seed")
    shot(ben, "shoe-seat-seed-1280")
    no_sideways_scroll(ben, "desktop, the seat's seed open")
    ben.get_by_role("button", name="Save").click()
    # The shoe no card has left shows the seeds it will be dealt with, on every screen.
    for page in (ana, ben):
        expect(page.locator("#table-log")).to_contain_text(
            "ben (seat 3) chose a new client seed for the next shoe."
        )
    expect(ana.get_by_test_id("shoe-info")).to_contain_text("ana-seed|ben-seed")
    assert not axe_violations(ben, "shared table, the seat's seed open")

    # The round is dealt from the shoe of both seeds and played out; then Ana shuffles.
    bet_and_ready(table, ben_user)
    assert TableShoe.objects.get(table=table, nonce=1).client_seed == "ana-seed|ben-seed"
    for user in (ana_user, ben_user):
        table.refresh_from_db()
        if table.phase == SharedTable.Phase.ROUND:
            with contextlib.suppress(ActionRefused):  # a blackjack has nothing to decide
                version = Seat.objects.get(player=user).version
                services.play(table_id=table.pk, user=user, version=version, action="stand")
    expect(ana.get_by_test_id("headline")).to_have_text("Place your bets.")
    shuffle = ana.get_by_role("button", name="Shuffle now")
    expect(shuffle).to_be_enabled()
    in_view(ana, ana.get_by_role("button", name="Ready"))
    shot(ana, "shoe-between-rounds-390")
    shuffle.click()
    for page in (ana, ben):
        expect(page.get_by_test_id("shoe-info")).to_contain_text("Shoe 2 · commitment")
    revealed = TableShoe.objects.get(table=table, nonce=1)
    assert revealed.server_seed and revealed.cards_dealt
    no_sideways_scroll(ana, "phone, after Shuffle now")
