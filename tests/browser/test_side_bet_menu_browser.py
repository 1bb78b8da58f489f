"""The side-bet menu in Chromium: place three side bets, play the round, see their results."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.test_table_browser import (  # noqa: F401 - fixtures used by name
    open_game_for,
    patient_expectations,
    sign_up,
    stack,
    table,
)

pytestmark = pytest.mark.django_db(transaction=True)

# Player 7H 9H, dealer hole 0S, upcard 8H: 21+3 is a straight flush (35:1); Perfect Pair
# and House Money lose; the player stands on 16 against the dealer's 18.
TWENTY_ONE_PLUS_THREE_WINS = ["7H", "0S", "9H", "8H"]


def side_bet(page, name: str):
    """One bet's group in the open menu (the chips inside are named "$1" … "$500")."""
    return page.locator("#side-bets-menu").get_by_role("group", name=name, exact=True)


def outcome_row(page, name: re.Pattern[str]):
    """A row of the round's details (closed by default: the felt tells the round)."""
    details = page.locator("details.round-details")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    return page.locator("table.outcome tbody tr").filter(
        has=page.get_by_role("rowheader", name=name)
    )


def test_place_three_side_bets_and_see_their_results(page, stack) -> None:  # noqa: F811
    from playwright.sync_api import expect

    stack(TWENTY_ONE_PLUS_THREE_WINS)
    sign_up(page, "sid")
    page.get_by_role("button", name="New Game").click()
    expect(table(page)).to_have_attribute("data-phase", "betting")

    toggle = page.get_by_role("button", name="Side Bets", exact=True)
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_role("button", name="Activate", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Clear All", exact=True)).to_be_visible()
    expect(side_bet(page, "21+3").get_by_role("link", name="21+3 rules")).to_have_attribute(
        "href", re.compile(r"^/rules/side-bets/\?game=\d+#twenty-one-plus-three$")
    )

    side_bet(page, "Perfect Pair").get_by_role("button", name="$5", exact=True).click()
    expect(side_bet(page, "Perfect Pair")).to_contain_text("Stake $5.00")
    # Focus returns to the chip pressed once htmx has settled the swap; only then is it safe
    # to move the focus ourselves (a later settle would move it back).
    expect(
        side_bet(page, "Perfect Pair").get_by_role("button", name="$5", exact=True)
    ).to_be_focused()
    # A chip pressed from the keyboard keeps the focus for the next press.
    side_bet(page, "21+3").get_by_role("button", name="$1", exact=True).focus()
    page.keyboard.press("Enter")
    expect(side_bet(page, "21+3")).to_contain_text("Stake $1.00")
    expect(side_bet(page, "21+3").get_by_role("button", name="$1", exact=True)).to_be_focused()
    side_bet(page, "21+3").get_by_role("button", name="Clear", exact=True).click()
    expect(side_bet(page, "21+3")).to_contain_text("Stake $0.00")
    side_bet(page, "21+3").get_by_role("button", name="$5", exact=True).click()
    expect(side_bet(page, "21+3")).to_contain_text("Stake $5.00")
    side_bet(page, "House Money").get_by_role("button", name="$5", exact=True).click()
    expect(page.get_by_test_id("side-bet-menu-total")).to_have_text("$15.00")
    expect(page.locator("#status-live")).to_contain_text("Side bets $15.00")

    # The base-bet chips still work with the menu open (the "Chips" group tells them apart).
    page.get_by_role("group", name="Chips").get_by_role("button", name="$10", exact=True).click()
    expect(page.get_by_label("Bet amount")).to_have_value("10.00")
    expect(page.get_by_test_id("side-bet-menu-total")).to_have_text("$15.00")

    page.get_by_role("button", name="Deal").click()
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    # 21+3 is settled right after the deal: $1,000 - $10 - 3 × $5 + $5 × 36.
    expect(table(page)).to_have_attribute("data-bank", "1155.00")
    page.get_by_role("button", name="Stand").click()
    expect(table(page)).to_have_attribute("data-phase", "round_over")

    won = outcome_row(page, re.compile(r"21\+3"))
    expect(won).to_contain_text(re.compile("won|win", re.I))
    expect(won).to_contain_text(re.compile(r"straight.flush", re.I))
    expect(won).to_contain_text("$180.00")
    for name in (r"perfect.pair", r"house.money"):
        lost = outcome_row(page, re.compile(name, re.I))
        expect(lost).to_contain_text(re.compile("lose|lost", re.I))
        expect(lost).to_contain_text("$0.00")
    # The base bet lost; Perfect Pair and House Money lost.
    expect(table(page)).to_have_attribute("data-bank", "1155.00")

    # Rebet deals the same stakes again, side bets included: $10 + 3 × $5 off the bank,
    # then 21+3 settled on the new cards.
    expect(page.locator("#rebet-stakes")).to_contain_text("$25.00")
    page.get_by_role("button", name="Rebet").click()
    expect(table(page)).to_have_attribute("data-round", "2")


def test_the_bet_panel_with_the_menu_open_passes_axe(
    page,
    axe_violations,
    tmp_path: Path,
) -> None:
    from playwright.sync_api import expect

    sign_up(page, "axel")
    page.get_by_role("button", name="New Game").click()
    page.get_by_role("button", name="Side Bets", exact=True).click()
    expect(page.get_by_role("button", name="Clear All")).to_be_visible()
    side_bet(page, "Lucky Ladies").get_by_role("button", name="$25", exact=True).click()
    page.get_by_role("button", name="Activate", exact=True).click()
    expect(page.get_by_role("button", name="Deactivate", exact=True)).to_be_visible()
    assert axe_violations(page, "bet panel with the side-bet menu open") == []
    # The open menu fits a 360 px phone: nothing scrolls sideways.
    page.set_viewport_size({"width": 360, "height": 800})
    page.screenshot(path=str(tmp_path / "side-bet-menu-360.png"), full_page=True)
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0


def test_the_side_bet_menu_without_javascript(browser, live_server, stack) -> None:  # noqa: F811
    from playwright.sync_api import expect

    stack(TWENTY_ONE_PLUS_THREE_WINS)
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        sign_up(page, "nojs")
        page.get_by_role("button", name="New Game").click()
        page.get_by_role("button", name="Side Bets", exact=True).click()
        expect(page.get_by_role("button", name="Side Bets")).to_have_attribute(
            "aria-expanded", "true"
        )
        page.get_by_label("Bet amount").fill("20")
        side_bet(page, "21+3").get_by_role("button", name="$5", exact=True).click()
        # Plain post, redirect, get: the typed base bet came along with the side chip.
        expect(page.get_by_label("Bet amount")).to_have_value("20.00")
        expect(side_bet(page, "21+3")).to_contain_text("Stake $5.00")
        page.get_by_role("button", name="Activate", exact=True).click()
        expect(page.get_by_test_id("side-bet-total")).to_contain_text("Extra Bet Blackjack active")
        page.get_by_role("button", name="Clear All", exact=True).click()
        expect(page.get_by_test_id("side-bet-menu-total")).to_have_text("$0.00")
        side_bet(page, "21+3").get_by_role("button", name="$10", exact=True).click()
        page.get_by_role("button", name="Side Bets", exact=True).click()
        expect(page.locator("#side-bets-menu")).to_be_hidden()
        expect(page.get_by_test_id("side-bet-total")).to_have_text("Side bets $10.00")

        page.get_by_role("button", name="Deal").click()
        # $1,000 - $20 - $10, and 21+3 pays $10 × 36 at once.
        expect(table(page)).to_have_attribute("data-bank", "1330.00")
        page.get_by_role("button", name="Stand").click()
        expect(table(page)).to_have_attribute("data-phase", "round_over")
        expect(outcome_row(page, re.compile(r"21\+3"))).to_contain_text("$360.00")
    finally:
        context.close()
