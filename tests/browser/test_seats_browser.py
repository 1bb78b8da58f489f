"""§10 seats in the browser: a three-box round from the box picker to three results."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import test_table_browser
from tests.browser.table_flows import finish_animations
from tests.browser.test_table_browser import open_game_for, table

pytestmark = pytest.mark.django_db(transaction=True)

stack = test_table_browser.stack
patient_expectations = test_table_browser.patient_expectations

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "look"
# Box 1 0S 7D (17), box 2 9S 8D (17), box 3 KS 6D (16); the dealer's 0H 6C draws KD: bust.
THREE_BOXES = ["0S", "9S", "KS", "0H", "7D", "8D", "6D", "6C", "KD"]


@pytest.mark.parametrize("width", [390, 1280])
def test_a_three_box_round(page, log_in_as, stack, axe_violations, width: int) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": width, "height": 844 if width == 390 else 800})
    stack(THREE_BOXES)
    log_in_as(page, f"boxes{width}")
    game = open_game_for(f"boxes{width}", trivia_mode=False, seats=3)
    page.goto(f"/games/{game.pk}/")
    page.get_by_role("button", name="$10", exact=True).click()
    expect(page.get_by_role("button", name="Box 1 $10.00")).to_have_attribute(
        "aria-pressed", "true"
    )
    page.get_by_role("button", name="Same bet on every box").click()
    expect(page.get_by_role("button", name="Box 3 $10.00")).to_be_visible()
    page.get_by_role("button", name="Deal").click()
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for box in (1, 2, 3):
        in_play = page.locator(f'section.box[data-box="{box}"]')
        expect(in_play).to_have_class("box box--in-play")
        if box == 2:
            page.screenshot(path=str(SCREENSHOTS / f"three-boxes-{width}.png"))
            assert axe_violations(page, "three boxes") == []
        page.get_by_role("button", name="Stand").click()
    expect(table(page)).to_have_attribute("data-phase", "round_over")
    expect(page.locator(".boxes .badge--win")).to_have_count(3)
    page.screenshot(path=str(SCREENSHOTS / f"three-boxes-outcome-{width}.png"))
    width_used = page.evaluate("() => document.documentElement.scrollWidth")
    assert width_used <= width, "nothing scrolls sideways"


# Box 1 9S 7D (16), box 2 AH KD (blackjack), box 3 0S 5C (15); the dealer's 6H under an
# ace up (soft 17, no blackjack).
THREE_BOXES_ACE_UP = ["9S", "AH", "0S", "6H", "7D", "KD", "5C", "AC"]
# Where a control sits and how it looks, to compare Accept with Decline.
CONTROL = """(element) => {
  const box = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  return {
    bottom: box.bottom, innerHeight: window.innerHeight,
    look: [style.backgroundColor, style.color, style.borderTopColor, style.fontWeight],
  };
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_insurance_is_asked_once_for_every_box_then_box_by_box(
    page, log_in_as, stack, axe_violations, width: int
) -> None:
    from playwright.sync_api import expect

    from game.models import Game

    page.set_viewport_size({"width": width, "height": 844 if width == 390 else 800})
    stack(THREE_BOXES_ACE_UP)
    log_in_as(page, f"insure{width}")
    game = open_game_for(f"insure{width}", trivia_mode=False, seats=3)
    page.goto(f"/games/{game.pk}/")
    page.get_by_role("button", name="$10", exact=True).click()
    page.get_by_role("button", name="Same bet on every box").click()
    expect(page.get_by_role("button", name="Box 3 $10.00")).to_be_visible()
    page.get_by_role("button", name="Deal").click()
    panel = page.locator("#table section.panel")
    expect(panel).to_contain_text(
        "Take even money on Box 2 and insure Boxes 1 and 3, $15.00 in all?"
    )
    expect(page.locator("#message-line")).to_have_text("Insurance and even money?")
    accept, decline = (
        page.get_by_role("button", name=name, exact=True) for name in ("Accept", "Decline")
    )
    accept_seen, decline_seen = accept.evaluate(CONTROL), decline.evaluate(CONTROL)
    assert accept_seen["look"] == decline_seen["look"], "neither answer is advice"
    for seen in (accept_seen, decline_seen):
        assert seen["bottom"] <= seen["innerHeight"], "the answers are in view"
    finish_animations(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"three-boxes-insurance-{width}.png"))
    assert axe_violations(page, "insurance for every box") == []

    page.get_by_role("button", name="Choose box by box").click()
    for line, answer in (
        ("Box 1: Insurance?", "Decline"),
        ("Box 2: Even money?", "Accept"),
        ("Box 3: Insurance?", "Accept"),
    ):
        expect(page.locator("#message-line")).to_have_text(line)
        page.get_by_role("button", name=answer, exact=True).click()
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    actions = Game.objects.get(pk=game.pk).state["round"]["actions"]
    assert actions == ["insurance:decline", "even_money:accept", "insurance:accept"]
