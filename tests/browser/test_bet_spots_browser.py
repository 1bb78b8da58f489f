"""The chip rack and the betting spots in Chromium: side bets placed on their circles,
their results, Rebet, no JavaScript, axe, and a felt that stays compact."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.helpers import start_new_game
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


def side_spot(page, label: str):
    """One side bet's circle on the felt (its name, top payout, stake, (i) and ×)."""
    return (
        page.get_by_role("list", name="Side bets", exact=True)
        .get_by_role("listitem")
        .filter(has=page.get_by_text(label, exact=True))
    )


def press_spot(page, label: str) -> None:
    """Press a side-bet circle: it adds the rack's selected chip."""
    side_spot(page, label).get_by_role("button", name=re.compile("^" + re.escape(label))).click()


def rack_chip(page, name: str):
    return page.get_by_role("group", name="Chips").get_by_role("button", name=name, exact=True)


def outcome_row(page, name: re.Pattern[str]):
    """A row of the round's details (closed by default: the felt tells the round)."""
    details = page.locator("details.round-details")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    return page.locator("table.outcome tbody tr").filter(
        has=page.get_by_role("rowheader", name=name)
    )


def test_place_three_side_bets_on_their_circles_and_rebet_them(page, log_in_as, stack) -> None:  # noqa: F811
    from playwright.sync_api import expect

    # The same cards twice: the Rebet round is the first one again.
    stack(TWENTY_ONE_PLUS_THREE_WINS * 2)
    log_in_as(page, "sid")
    start_new_game(page)
    expect(table(page)).to_have_attribute("data-phase", "betting")

    # No drawer: the side bets are circles on the felt, each with its top payout and an (i).
    expect(page.get_by_role("button", name="Side Bets", exact=True)).to_have_count(0)
    expect(page.get_by_role("button", name="Activate", exact=True)).to_be_visible()
    expect(side_spot(page, "21+3")).to_contain_text("1000:1")
    expect(side_spot(page, "21+3").get_by_role("link", name="21+3 rules")).to_have_attribute(
        "href", re.compile(r"^/rules/side-bets/\?game=\d+#twenty-one-plus-three$")
    )
    # The $5 chip is selected at first.
    expect(rack_chip(page, "$5")).to_have_attribute("aria-pressed", "true")

    press_spot(page, "Perfect Pair")
    expect(page.get_by_test_id("stake-perfect-pair")).to_have_text("$5.00")
    # Focus returns to the circle pressed once htmx has settled the swap; only then is it
    # safe to move the focus ourselves (a later settle would move it back).
    expect(
        side_spot(page, "Perfect Pair").get_by_role("button", name=re.compile("^Perfect Pair"))
    ).to_be_focused()
    press_spot(page, "21+3")
    expect(page.get_by_test_id("stake-twenty-one-plus-three")).to_have_text("$5.00")
    expect(
        side_spot(page, "21+3").get_by_role("button", name=re.compile(r"^21\+3"))
    ).to_be_focused()
    # The rack's chips now go to 21+3, the current spot; a chip pressed from the keyboard
    # is selected (pressed) and keeps the focus for the next press.
    rack_chip(page, "$1").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("stake-twenty-one-plus-three")).to_have_text("$6.00")
    expect(rack_chip(page, "$1")).to_be_focused()
    expect(rack_chip(page, "$1")).to_have_attribute("aria-pressed", "true")
    expect(rack_chip(page, "$5")).to_have_attribute("aria-pressed", "false")
    side_spot(page, "21+3").get_by_role("button", name="Clear 21+3").click()
    expect(page.get_by_test_id("stake-twenty-one-plus-three")).to_have_text("$0.00")
    rack_chip(page, "$5").click()
    expect(page.get_by_test_id("stake-twenty-one-plus-three")).to_have_text("$5.00")
    press_spot(page, "House Money")
    expect(page.get_by_test_id("side-bet-total")).to_have_text("Side bets $15.00")
    expect(page.locator("#status-live")).to_contain_text("Side bets $15.00")

    # The main circle makes the main bet the current spot again and adds the selected chip.
    page.get_by_role("button", name="Main bet", exact=True).click()
    expect(page.get_by_label("Bet amount")).to_have_value("5.00")
    rack_chip(page, "$5").click()
    expect(page.get_by_label("Bet amount")).to_have_value("10.00")
    expect(page.get_by_test_id("side-bet-total")).to_have_text("Side bets $15.00")

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
    # Each result stays on its own circle until the next bet starts.
    expect(side_spot(page, "21+3")).to_contain_text("+$175.00")
    expect(table(page)).to_have_attribute("data-bank", "1155.00")

    # Rebet deals the same stakes again, the side bets placed on the circles included:
    # $10 + 3 × $5 off the bank, then 21+3 paid again on the same cards.
    expect(page.locator("#rebet-stakes")).to_contain_text("$25.00")
    page.get_by_role("button", name="Rebet").click()
    expect(table(page)).to_have_attribute("data-round", "2")
    expect(table(page)).to_have_attribute("data-bank", "1310.00")
    riding = page.locator("ul.side-circles [data-side-circle]")
    expect(riding).to_have_count(3)


def test_the_bet_spots_pass_axe(
    page,
    log_in_as,
    axe_violations,
    tmp_path: Path,
) -> None:
    from playwright.sync_api import expect

    log_in_as(page, "axel")
    start_new_game(page)
    rack_chip(page, "$25").click()
    press_spot(page, "Lucky Ladies")
    expect(page.get_by_test_id("stake-lucky-ladies")).to_have_text("$25.00")
    page.get_by_role("button", name="Activate", exact=True).click()
    expect(page.get_by_role("button", name="Deactivate", exact=True)).to_be_visible()
    assert axe_violations(page, "bet panel with side bets on their circles") == []
    # The circles fit a 360 px phone: nothing scrolls sideways.
    page.set_viewport_size({"width": 360, "height": 800})
    page.screenshot(path=str(tmp_path / "bet-spots-360.png"), full_page=True)
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0


def test_the_chip_rack_and_the_circles_without_javascript(
    browser,
    live_server,
    log_in_as,
    stack,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    stack(TWENTY_ONE_PLUS_THREE_WINS)
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        log_in_as(page, "nojs")
        start_new_game(page)
        page.get_by_label("Bet amount").fill("20")
        rack_chip(page, "$10").click()
        # Plain post, redirect, get: the typed base bet came along, the chip went on it and
        # stays selected.
        expect(page.get_by_label("Bet amount")).to_have_value("30.00")
        expect(rack_chip(page, "$10")).to_have_attribute("aria-pressed", "true")
        # A side-bet circle adds the selected chip and becomes the current spot.
        press_spot(page, "21+3")
        expect(page.get_by_test_id("stake-twenty-one-plus-three")).to_have_text("$10.00")
        expect(page.get_by_label("Bet amount")).to_have_value("30.00")
        rack_chip(page, "$5").click()
        expect(page.get_by_test_id("stake-twenty-one-plus-three")).to_have_text("$15.00")
        page.get_by_role("button", name="Activate", exact=True).click()
        expect(page.get_by_test_id("side-bet-total")).to_contain_text("Extra Bet Blackjack active")
        page.get_by_role("button", name="Clear Bet", exact=True).click()
        expect(page.get_by_test_id("side-bet-total")).to_have_text("Side bets $0.00")
        # The current spot survived Clear Bet: the $10 chip goes to 21+3 again.
        rack_chip(page, "$10").click()
        expect(page.get_by_test_id("side-bet-total")).to_have_text("Side bets $10.00")
        page.get_by_role("button", name="Main bet", exact=True).click()
        page.get_by_role("button", name="Main bet", exact=True).click()
        expect(page.get_by_label("Bet amount")).to_have_value("20.00")

        page.get_by_role("button", name="Deal").click()
        # $1,000 - $20 - $10, and 21+3 pays $10 × 36 at once.
        expect(table(page)).to_have_attribute("data-bank", "1330.00")
        page.get_by_role("button", name="Stand").click()
        expect(table(page)).to_have_attribute("data-phase", "round_over")
        expect(outcome_row(page, re.compile(r"21\+3"))).to_contain_text("$360.00")
    finally:
        context.close()


SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "bet-spots"


def felt_height(page) -> float:
    return page.evaluate("() => document.querySelector('.felt').getBoundingClientRect().height")


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_side_bets_on_their_circles_keep_the_felt_compact(
    page, log_in_as, width: int, height: int
) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": width, "height": height})
    username = f"felt{width}"
    log_in_as(page, username)
    page.goto(f"/games/{open_game_for(username, trivia_mode=False, side_bets=False).pk}/")
    expect(page.get_by_role("button", name="Main bet", exact=True)).to_be_visible()
    without_side_bets = felt_height(page)

    page.goto(f"/games/{open_game_for(username, trivia_mode=False).pk}/")
    rack_chip(page, "$25").click()
    press_spot(page, "Perfect Pair")
    expect(page.get_by_test_id("stake-perfect-pair")).to_have_text("$25.00")
    # $25 on the main circle (the first chip), $25 on Perfect Pair, then $10 each.
    rack_chip(page, "$10").click()
    expect(page.get_by_test_id("stake-perfect-pair")).to_have_text("$35.00")
    page.get_by_role("button", name="Main bet", exact=True).click()
    expect(page.get_by_label("Bet amount")).to_have_value("35.00")
    page.get_by_role("button", name="Activate", exact=True).click()
    expect(page.get_by_test_id("side-bet-total")).to_contain_text("Extra Bet Blackjack active")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"bet-with-side-bets-{width}.png"))

    # The chip rack stays in one row.
    tops = page.evaluate(
        "() => [...document.querySelectorAll('.chip-rack .chip')]"
        ".map(chip => Math.round(chip.getBoundingClientRect().top))"
    )
    # (the selected chip stands a little higher: pressed).
    assert max(tops) - min(tops) <= 6, tops
    # The Deal button (the primary action) is in view without scrolling.
    deal = page.get_by_role("button", name="Deal", exact=True)
    box = deal.bounding_box()
    assert box is not None and box["y"] + box["height"] <= height
    if width == 1280:
        # On a wide felt the side-bet circles stand beside the main one: no extra height.
        assert abs(felt_height(page) - without_side_bets) <= 4, (
            felt_height(page),
            without_side_bets,
        )
