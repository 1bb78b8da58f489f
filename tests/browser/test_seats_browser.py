"""§10 seats in the browser: a three-box round from the box picker to three results."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import test_table_browser
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
