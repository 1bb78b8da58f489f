"""A stage that does not jump (UI.md "The look of the table", "The flow of a round").

A single-player game with trivia is played through every phase at a phone's 390 × 844 and
a desktop's 1280 × 800: the felt keeps one height, the trivia card never covers a card, the
phase's primary action is on screen with the page still at the top (nothing scrolled it),
and the round raises no console error or policy report. Each phase is saved as
test-artifacts/screenshots/stage/<phase>-<width>.png (gitignored; the README names it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game.models import Game
from tests.browser import test_table_browser
from tests.browser.table_flows import (
    HIT_THEN_STAND_SHOE,
    INSURANCE_SHOE,
    OFFER_ACCEPT,
    finish_animations,
)
from tests.browser.test_round_flow_browser import watched_context
from tests.browser.test_table_browser import answer_right, answer_wrong, open_game_for
from tests.browser.test_table_browser import table as table_of
from tests.game.helpers import stack_shoe

pytestmark = pytest.mark.django_db(transaction=True)

stack = test_table_browser.stack
patient_expectations = test_table_browser.patient_expectations
bank_of_questions = test_table_browser.bank_of_questions

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "stage"
VIEWPORTS = {390: 844, 1280: 800}
FELT_TOLERANCE = 4  # px

# 8S 8D against 7C (hole 0H): a split, each hand drawing one card (3H, 2C).
SPLIT_SHOE = ["8S", "0H", "8D", "7C", "3H", "2C", "KD"]
# Box 1 0S 7D (17), box 2 9S 8D (17), box 3 KS 6D (16); the dealer's 0H 6C draws KD: bust.
THREE_BOXES_SHOE = ["0S", "9S", "KS", "0H", "7D", "8D", "6D", "6C", "KD"]

# The phase as the player sees it: the felt's height, where the page is scrolled, whether
# the primary control is inside the screen, and every trivia part that overlaps a card.
MEASURE = """(primarySelector) => {
  const felt = document.querySelector("#table .felt").getBoundingClientRect();
  const visible = (element) => element.getClientRects().length > 0
    && getComputedStyle(element).visibility !== "hidden";
  // Inside the screen, and not cut off by the action area when that scrolls.
  const inside = (a, b) => {
    const frame = b.getBoundingClientRect ? b.getBoundingClientRect() : b;
    return a.top >= frame.top - 1 && a.bottom <= frame.bottom + 1
      && a.left >= frame.left - 1 && a.right <= frame.right + 1;
  };
  const primary = Array.from(document.querySelectorAll(primarySelector)).find(visible);
  const box = primary ? primary.getBoundingClientRect() : null;
  const cards = Array.from(document.querySelectorAll("#table .playing-card")).filter(visible)
    .map((card) => card.getBoundingClientRect());
  const trivia = Array.from(document.querySelectorAll(
    "#table .trivia-question, #table .answer, #table .panel--trivia_difficulty button,"
    + " #table .trivia-revealed")).filter(visible);
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const overlaps = [];
  trivia.forEach((part) => {
    const rect = part.getBoundingClientRect();
    cards.forEach((card) => {
      if (meets(rect, card)) {
        overlaps.push(part.className + ": " + part.textContent.trim().slice(0, 40));
      }
    });
  });
  return {
    feltHeight: felt.height,
    scrollY: window.scrollY,
    primaryFound: primary !== undefined,
    primaryInView: box !== null && inside(box, {top: 0, left: 0, bottom: window.innerHeight,
      right: window.innerWidth}) && inside(box, primary.closest(".action-area") || box),
    overlaps: overlaps,
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  };
}"""

PRIMARY = "#table .felt button.primary:not(:disabled)"
ANSWER = "#table .answer"


class Stage:
    """Reads each phase of one player's journey and keeps what was measured."""

    def __init__(self, page, width: int) -> None:
        self.page = page
        self.width = width
        self.phases: dict[str, dict] = {}

    def look(self, phase: str, primary: str = PRIMARY) -> dict:
        finish_animations(self.page)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        # The caret is left alone: hiding it puts a style attribute on the inputs.
        self.page.screenshot(
            path=str(SCREENSHOTS / f"{phase}-{self.width}.png"), caret="initial", full_page=True
        )
        measured = self.page.evaluate(MEASURE, primary)
        self.phases[phase] = measured
        return measured

    def problems(self) -> list[str]:
        found = []
        heights = {phase: round(m["feltHeight"]) for phase, m in self.phases.items()}
        if max(heights.values()) - min(heights.values()) > FELT_TOLERANCE:
            found.append(f"the felt changes height at {self.width}px: {heights}")
        for phase, measured in self.phases.items():
            where = f"{phase} at {self.width}px"
            if measured["scrollY"] != 0:
                found.append(f"{where}: the page scrolled to {measured['scrollY']}px")
            if not measured["primaryFound"]:
                found.append(f"{where}: no primary control")
            elif not measured["primaryInView"]:
                found.append(f"{where}: the primary control is off screen")
            if measured["overlaps"]:
                found.append(f"{where}: trivia over the cards: {measured['overlaps']}")
            if measured["scrollWidth"] > measured["innerWidth"]:
                found.append(f"{where}: scrolls sideways ({measured['scrollWidth']}px)")
        return found


def click(page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def play_every_phase(page, log_in_as, stage: Stage, username: str) -> None:
    """Bet, player's turn, difficulty, question, wrong answer → outcome, Rebet, insurance,
    split hands, three boxes, game over: each phase looked at with the page at the top."""
    from playwright.sync_api import expect

    table = table_of(page)
    log_in_as(page, username)
    game = open_game_for(username)
    stack_shoe(game, HIT_THEN_STAND_SHOE)
    page.goto(f"/games/{game.pk}/")
    stage.look("bet")
    click(page, "Deal")  # no bet yet: refused, next to the controls
    expect(page.locator(".table-notice")).to_be_visible()
    stage.look("bet-refused")
    click(page, "$10")
    click(page, "Deal")
    expect(table).to_have_attribute("data-phase", "player_turn")
    stage.look("player-turn")
    click(page, "Hit")
    expect(table).to_have_attribute("data-panel", "trivia_difficulty")
    stage.look("difficulty")
    click(page, "Easy")
    expect(table).to_have_attribute("data-panel", "trivia_question")
    stage.look("question", ANSWER)
    answer_wrong(page)  # the hand stands at once; the dealer plays; the reveal stays
    expect(table).to_have_attribute("data-panel", "outcome")
    stage.look("wrong-answer-outcome")

    stack_shoe(Game.objects.get(pk=game.pk), HIT_THEN_STAND_SHOE)
    click(page, "Rebet")
    expect(table).to_have_attribute("data-round", "2")
    stage.look("rebet-player-turn")
    click(page, "Hit")  # at the remembered difficulty
    expect(table).to_have_attribute("data-panel", "trivia_question")
    answer_right(page)
    expect(page.locator("#message-line")).to_contain_text("Correct!")
    stage.look("right-answer")
    click(page, "Stand")
    expect(table).to_have_attribute("data-panel", "outcome")
    stage.look("outcome")

    stack_shoe(Game.objects.get(pk=game.pk), INSURANCE_SHOE)
    click(page, "Rebet")
    expect(table).to_have_attribute("data-panel", "insurance")
    stage.look("insurance", OFFER_ACCEPT)
    click(page, "Decline")
    expect(table).to_have_attribute("data-panel", "player_turn")
    click(page, "Stand")
    expect(table).to_have_attribute("data-panel", "outcome")

    stack_shoe(Game.objects.get(pk=game.pk), SPLIT_SHOE)
    click(page, "Rebet")
    expect(table).to_have_attribute("data-panel", "player_turn")
    click(page, "Split")
    expect(page.locator(".player-area h2")).to_contain_text("Hand 1 of 2")
    stage.look("split-hands")
    click(page, "Stand")
    expect(page.locator(".player-area h2")).to_contain_text("Hand 2 of 2")
    click(page, "Stand")
    expect(table).to_have_attribute("data-panel", "outcome")
    stage.look("split-outcome")

    page.goto(f"/games/{game.pk}/end/")
    click(page, "End Game")
    expect(table).to_have_attribute("data-panel", "game_over")
    stage.look("game-over")

    boxes = open_game_for(username, seats=3)
    stack_shoe(boxes, THREE_BOXES_SHOE)
    page.goto(f"/games/{boxes.pk}/")
    click(page, "$10")
    click(page, "Same bet on every box")
    expect(page.locator("#status-live")).to_contain_text("each of the 3 boxes")
    stage.look("three-boxes-bet")
    click(page, "Deal")
    expect(table).to_have_attribute("data-phase", "player_turn")
    stage.look("three-boxes")
    for _box in (1, 2, 3):
        click(page, "Stand")
    expect(table).to_have_attribute("data-phase", "round_over")
    stage.look("three-boxes-outcome")


@pytest.mark.parametrize("width", VIEWPORTS)
def test_every_phase_plays_on_one_stage_that_never_scrolls(
    log_in_as, browser, live_server, bank_of_questions, width: int
) -> None:
    viewport = {"width": width, "height": VIEWPORTS[width]}
    context, page, problems = watched_context(browser, live_server, viewport=viewport)
    stage = Stage(page, width)
    try:
        play_every_phase(page, log_in_as, stage, f"stage{width}")
    finally:
        context.close()
    heights = {phase: round(m["feltHeight"]) for phase, m in stage.phases.items()}
    print(f"felt heights at {width}px: {heights}")
    assert stage.problems() == [], "\n".join(stage.problems())
    # The Deal without a bet is refused on purpose (422): the browser logs the answer.
    problems = [problem for problem in problems if "status of 422" not in problem]
    assert problems == [], "console errors or policy reports:\n" + "\n".join(problems)


@pytest.mark.parametrize("width", VIEWPORTS)
def test_a_round_with_one_right_hit_is_four_clicks_from_the_outcome(
    log_in_as, browser, live_server, bank_of_questions, width: int
) -> None:
    from playwright.sync_api import expect

    viewport = {"width": width, "height": VIEWPORTS[width]}
    context, page, problems = watched_context(browser, live_server, viewport=viewport)
    username = f"quick{width}"
    try:
        log_in_as(page, username)
        game = open_game_for(username)
        stack_shoe(game, HIT_THEN_STAND_SHOE + HIT_THEN_STAND_SHOE)
        page.goto(f"/games/{game.pk}/")
        table = table_of(page)
        # The first round chooses the difficulty; the game remembers it.
        click(page, "$10")
        click(page, "Deal")
        click(page, "Hit")
        click(page, "Easy")
        answer_right(page)
        click(page, "Stand")
        expect(table).to_have_attribute("data-panel", "outcome")
        finish_animations(page)

        clicks = 0
        click(page, "Rebet")
        clicks += 1
        expect(table).to_have_attribute("data-panel", "player_turn")
        click(page, "Hit")
        clicks += 1
        expect(table).to_have_attribute("data-panel", "trivia_question")
        answer_right(page)
        clicks += 1
        expect(page.locator("#message-line")).to_contain_text("Correct!")
        click(page, "Stand")
        clicks += 1
        expect(table).to_have_attribute("data-panel", "outcome")
        expect(table).to_have_attribute("data-round", "2")
        finish_animations(page)
        scrolled = page.evaluate("() => window.scrollY")
    finally:
        context.close()
    assert clicks == 4
    assert scrolled == 0, "no click scrolled the page"
    assert problems == [], "console errors or policy reports:\n" + "\n".join(problems)
