"""The layout from 360 px phones to desktops: no horizontal scroll, no overlapping controls.

Screenshots land in test-artifacts/screenshots/<name>-<width>.png (gitignored) for a person
to look at; the assertions check what can be measured.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser import test_table_browser
from tests.browser.table_flows import (
    FOUR_HANDS_SHOE,
    HIT_THEN_STAND_SHOE,
    deal,
    finish_animations,
    split_into_four_hands,
)
from tests.browser.test_table_browser import answer_right, open_game_for, table
from tests.trivia.factories import QuestionFactory

pytestmark = pytest.mark.django_db(transaction=True)

# The shared fixtures of test_table_browser.py, found by pytest under these names.
stack = test_table_browser.stack
patient_expectations = test_table_browser.patient_expectations

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
WIDTHS = (360, 768, 1280)

# Every visible control of a region whose box overlaps another's by more than a pixel.
OVERLAPS = """(selector) => {
  const kinds = ["button", "a.button", "input:not([type=hidden])", "select"];
  const controls = Array.from(document.querySelectorAll(kinds.map(k => `${selector} ${k}`).join()))
    .filter(e => e.getAttribute("aria-hidden") !== "true" && e.getClientRects().length > 0);
  const boxes = controls.map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()]);
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i], [b, rb] = boxes[j];
      const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (x > 1 && y > 1) { overlaps.push(`${a} overlaps ${b}`); }
    }
  }
  return {count: controls.length, overlaps};
}"""
OVERFLOW = """() => ({
  scrollWidth: document.documentElement.scrollWidth,
  innerWidth: window.innerWidth,
  // The innermost elements that stick out: the cause, not every ancestor around it.
  widest: Array.from(document.querySelectorAll("body *"))
    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
    .filter((e, _, all) => !all.some(other => other !== e && e.contains(other)))
    .slice(0, 3).map(e => e.outerHTML.slice(0, 100)),
})"""


def check_layout(page, name: str, width: int, region: str = "#table") -> list[str]:
    """Save a screenshot; return what is wrong (horizontal overflow, overlapping controls)."""
    finish_animations(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # The caret is left alone: hiding it, Playwright injects a style the policy blocks.
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}.png"), caret="initial", full_page=True)
    problems = []
    overflow = page.evaluate(OVERFLOW)
    if overflow["scrollWidth"] > overflow["innerWidth"]:
        problems.append(f"{name} at {width}px scrolls sideways: {overflow}")
    controls = page.evaluate(OVERLAPS, region)
    if controls["count"] == 0:
        problems.append(f"{name} at {width}px: no controls found in {region}")
    problems += [f"{name} at {width}px: {overlap}" for overlap in controls["overlaps"]]
    return problems


LONG_ANSWERS = [
    "The Treaty of Westphalia together with the Peace of Augsburg and its later amendments",
    "Pneumonoultramicroscopicsilicovolcanoconiosis-and-supercalifragilistic",
    "A rather long answer that wraps onto several lines on a narrow phone screen",
]


@pytest.mark.parametrize("width", WIDTHS)
def test_pages_fit_the_width_without_overlap(page, log_in_as, stack, width: int) -> None:
    from playwright.sync_api import expect

    for difficulty in ("easy", "medium", "hard"):
        QuestionFactory(
            difficulty=difficulty,
            text=f"Which of these long answers is the right one for a {difficulty} question "
            "whose text itself runs on for quite a while to test the wrapping?",
            correct_answer=LONG_ANSWERS[0],
            incorrect_answers=[*LONG_ANSWERS[1:], "Short"],
        )
    page.set_viewport_size({"width": width, "height": 800})
    username = f"wide{width}"
    log_in_as(page, username)

    stack(HIT_THEN_STAND_SHOE)
    game = open_game_for(username)
    page.goto(f"/games/{game.pk}/")
    problems = check_layout(page, "bet", width)
    deal(page)
    page.get_by_role("button", name="Hit").click()
    # The difficulty buttons with the category choice beside them.
    expect(page.get_by_role("combobox", name="Category")).to_be_visible()
    problems += check_layout(page, "trivia-difficulty", width)
    page.get_by_role("button", name="Hard", exact=True).click()
    expect(table(page)).to_have_attribute("data-panel", "trivia_question")
    problems += check_layout(page, "trivia-question", width)
    answer_right(page)
    page.get_by_role("button", name="Stand").click()
    expect(table(page)).to_have_attribute("data-panel", "outcome")
    problems += check_layout(page, "outcome", width)
    # The outcome is between rounds: Options is there at once. Wait for the swap to settle:
    # a click on the outgoing table's Options link can be lost while htmx replaces it
    # (seen on a loaded machine).
    expect(table(page)).not_to_have_class(re.compile("htmx-(added|settling|swapping)"))
    page.get_by_role("link", name="Options").click()
    expect(page.get_by_role("heading", name="Options")).to_be_visible()
    problems += check_layout(page, "options", width, region="#options-menu")

    stack(FOUR_HANDS_SHOE)
    game = open_game_for(username, trivia_mode=False, resplit=True)
    page.goto(f"/games/{game.pk}/")
    deal(page)
    split_into_four_hands(page)
    problems += check_layout(page, "split-hands", width)

    page.goto("/games/")
    expect(page.locator("table.games tbody tr")).to_have_count(2)
    problems += check_layout(page, "my-games", width, region="main")
    page.goto("/rules/side-bets/")
    problems += check_layout(page, "rules", width, region="body")
    assert problems == []


@pytest.mark.parametrize("width", WIDTHS)
def test_side_bet_screens_and_statistics_fit_the_width(page, log_in_as, stack, width: int) -> None:
    from playwright.sync_api import expect

    from tests.browser.test_side_bet_panels_browser import EIGHTS, SUITED_11, TEN_FIRST, start_round

    page.set_viewport_size({"width": width, "height": 800})
    stack(EIGHTS)
    game = start_round(
        page, log_in_as, f"side{width}", side_bets={"house_money": 1000, "perfect_pair": 500}
    )
    expect(table(page)).to_have_attribute("data-phase", "house_money_parlay")
    problems = check_layout(page, "house-money-parlay", width)
    page.get_by_role("button", name="Collect").click()
    page.get_by_role("button", name="Stand").click()
    expect(table(page)).to_have_attribute("data-panel", "outcome")
    problems += check_layout(page, "side-bet-outcome", width)
    # The outcome is the next bet's panel: the side-bet circles are on the felt, results on them.
    expect(page.get_by_role("list", name="Side bets", exact=True)).to_be_visible()
    expect(page.get_by_role("link", name="21+3 rules")).to_be_visible()
    problems += check_layout(page, "side-bet-spots", width)

    user = game.owner.username
    stack(TEN_FIRST)
    game = open_game_for(user, trivia_mode=False)
    from game import services

    services.place_bet_and_deal(
        game_id=game.pk, user=game.owner, version=game.version, bet_cents=1000, extra_bet=True
    )
    page.goto(f"/games/{game.pk}/")
    expect(table(page)).to_have_attribute("data-phase", "extra_bet")
    problems += check_layout(page, "extra-bet", width)

    stack(SUITED_11)
    game = open_game_for(user, trivia_mode=False)
    services.place_bet_and_deal(
        game_id=game.pk,
        user=game.owner,
        version=game.version,
        bet_cents=1000,
        side_bets={"perfect_11s": 500},
    )
    page.goto(f"/games/{game.pk}/")
    expect(page.get_by_role("button", name="Roll")).to_be_visible()
    problems += check_layout(page, "dice-roll", width)
    page.get_by_role("button", name="Roll").click()
    expect(page.get_by_role("img", name=re.compile(r"^Die 1: "))).to_be_visible()
    problems += check_layout(page, "dice-rolled", width)

    page.goto("/games/statistics/")
    problems += check_layout(page, "statistics", width, region="body")
    assert problems == []
