"""The table's surprising rules on the felt (UI.md "Steady controls, on every screen"):
printed under the usual rules line without overprinting the felt's other text, on a phone
and a desktop, and each opening its rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import test_table_browser
from tests.browser.table_flows import HIT_THEN_STAND_SHOE, deal, finish_animations
from tests.browser.test_table_browser import open_game_for, table

pytestmark = pytest.mark.django_db(transaction=True)

stack = test_table_browser.stack
patient_expectations = test_table_browser.patient_expectations

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "look"
VIEWPORTS = {390: 844, 1280: 800}

# The rules line's box against the felt's text below it: the headline, the hands (or the
# boxes), the circles and the action area. (The dealer's row above is laid out apart.)
OVERLAPS = """() => {
  const rules = document.querySelector("#table .felt-rules").getBoundingClientRect();
  const below = ["#message-line", ".hands-row", ".boxes", ".circles", ".action-area"];
  return below.flatMap(selector => Array.from(document.querySelectorAll(`#table ${selector}`)))
    .filter(element => element.getClientRects().length > 0)
    .filter(element => {
      const box = element.getBoundingClientRect();
      return box.top < rules.bottom - 0.5 && box.bottom > rules.top + 0.5
        && box.left < rules.right && box.right > rules.left;
    })
    .map(element => element.className || element.id);
}"""


@pytest.mark.parametrize("width", VIEWPORTS)
def test_the_house_rules_sit_under_the_usual_line_and_overprint_nothing(
    page, log_in_as, stack, width: int
) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": width, "height": VIEWPORTS[width]})
    stack(HIT_THEN_STAND_SHOE)
    log_in_as(page, f"felt{width}")
    game = open_game_for(f"felt{width}", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    rules = page.locator("#table .felt-rules")
    expect(rules.get_by_role("link")).to_have_count(4)
    assert page.evaluate(OVERLAPS) == [], "betting"
    deal(page)
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    finish_animations(page)
    assert page.evaluate(OVERLAPS) == [], "player's turn"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"felt-rules-{width}.png"))

    boxes = open_game_for(f"felt{width}", trivia_mode=False, seats=3)
    page.goto(f"/games/{boxes.pk}/")
    deal(page)  # a first deal puts the amount on every box
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    finish_animations(page)
    assert page.evaluate(OVERLAPS) == [], "three boxes"


def test_a_house_rule_opens_its_rule(page, log_in_as) -> None:
    from playwright.sync_api import expect

    log_in_as(page, "felt-link")
    game = open_game_for("felt-link", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    page.locator("#table .felt-rules").get_by_role("link", name="No splitting aces").click()
    expect(page).to_have_url(f"/rules/play/?game={game.pk}#split-aces")
    expect(page.locator("#split-aces")).to_contain_text("Aces can be split only")
