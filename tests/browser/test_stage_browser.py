"""A stage that does not jump (UI.md "The look of the table", "The flow of a round",
"Steady controls, on every screen").

A single-player game with trivia is played through every phase at a phone's 390 × 844 and
a desktop's 1280 × 800 — with a reveal, a coach's note, side-bet results, split hands and
three boxes. In each phase: the felt keeps one height, the status bar (bank, credits, bet)
and every control of the phase are on screen with the page still at the top (nothing
scrolled it), no element of the table has a scrollbar of its own, the trivia card never
covers a card, three boxes never overlap, and the round raises no console error or policy
report. Across the states of one phase the controls keep their place: Rebet on every
outcome, Hit on every turn, each within 4 px. Each phase is saved as
test-artifacts/screenshots/stage/<phase>-<width>.png (gitignored; the README names it).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from game import services
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
STEADY_TOLERANCE = 4  # px: how far a control may move between states of one phase

# 8S 8D against 7C (hole 0H): a split, each hand drawing one card (3H, 2C).
SPLIT_SHOE = ["8S", "0H", "8D", "7C", "3H", "2C", "KD"]
# Box 1 0S 7D (17), box 2 9S 8D (17), box 3 KS 6D (16); the dealer's 0H 6C draws KD: bust.
THREE_BOXES_SHOE = ["0S", "9S", "KS", "0H", "7D", "8D", "6D", "6C", "KD"]

# The phase as the player sees it: the felt's height, where the page is scrolled, whether
# the status bar and every control of the phase are inside the screen, elements with a
# scrollbar of their own, trivia parts over a card, and parts of one box over another's.
MEASURE = """(primarySelector) => {
  const felt = document.querySelector("#table .felt").getBoundingClientRect();
  const visible = (element) => element.getClientRects().length > 0
    && getComputedStyle(element).visibility !== "hidden";
  const onScreen = (rect) => rect.top >= -1 && rect.left >= -1
    && rect.bottom <= window.innerHeight + 1 && rect.right <= window.innerWidth + 1;
  const describe = (element) => element.outerHTML.slice(0, 90);
  const primary = Array.from(document.querySelectorAll(primarySelector)).find(visible);
  const status = document.querySelector("#table .status-bar");
  const controls = Array.from(document.querySelectorAll(["button", "input:not([type=hidden])",
    "select"].map((kind) => "#table .action-area " + kind).join()))
    .filter(visible).filter((control) => !control.closest("details:not([open]) > :not(summary)"));
  const scrollers = Array.from(document.querySelectorAll("#table, #table *")).filter((element) => {
    const overflow = getComputedStyle(element).overflowY;
    const scrolls = overflow === "auto" || overflow === "scroll";
    return scrolls && element.scrollHeight > element.clientHeight + 1;
  });
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
  // Three boxes: nothing drawn in one box meets another box, nor the dock over the felt.
  const boxes = Array.from(document.querySelectorAll("#table .box"));
  const dock = document.querySelector("#table .action-area");
  const crossings = [];
  boxes.forEach((box, index) => {
    const parts = Array.from(box.querySelectorAll("*")).filter(visible);
    boxes.forEach((other, otherIndex) => {
      if (otherIndex === index) { return; }
      const area = other.getBoundingClientRect();
      parts.filter((part) => meets(part.getBoundingClientRect(), area))
        .forEach((part) => crossings.push(
          `box ${index + 1} ${describe(part)} meets box ${otherIndex + 1}`));
    });
    if (dock && visible(dock)) {
      const area = dock.getBoundingClientRect();
      parts.filter((part) => meets(part.getBoundingClientRect(), area))
        .forEach((part) => crossings.push(`box ${index + 1} ${describe(part)} under the controls`));
    }
    // A box's parts stay inside its own column.
    const column = box.getBoundingClientRect();
    parts.filter((part) => {
      const rect = part.getBoundingClientRect();
      return rect.width > 0 && (rect.left < column.left - 1 || rect.right > column.right + 1);
    }).forEach((part) => crossings.push(
      `box ${index + 1} ${describe(part)} sticks out of its column`));
  });
  const box = primary ? primary.getBoundingClientRect() : null;
  return {
    feltHeight: felt.height,
    scrollY: window.scrollY,
    primaryFound: primary !== undefined,
    primaryInView: box !== null && onScreen(box),
    statusInView: status !== null && onScreen(status.getBoundingClientRect()),
    controlsOffScreen: controls.filter((control) => !onScreen(control.getBoundingClientRect()))
      .map(describe),
    scrollers: scrollers.map(describe),
    overlaps: overlaps,
    crossings: crossings,
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  };
}"""

# Where a control is on screen (its box), or null when it is not shown.
WHERE = """(selector) => {
  const control = Array.from(document.querySelectorAll(selector))
    .find((element) => element.getClientRects().length > 0);
  if (!control) { return null; }
  const box = control.getBoundingClientRect();
  return {x: box.x, y: box.y, width: box.width, height: box.height};
}"""

PRIMARY = "#table .felt button.primary:not(:disabled)"
ANSWER = "#table .answer"
# The controls that must keep their place across the states of their phase.
STEADY = {
    "rebet": '#table .action-area button[formaction$="/rebet/"]',
    "hit": '#table .action-area button[data-key="h"]',
}


class Stage:
    """Reads each phase of one player's journey and keeps what was measured."""

    def __init__(self, page, width: int) -> None:
        self.page = page
        self.width = width
        self.phases: dict[str, dict] = {}
        self.places: dict[str, dict[str, dict]] = {name: {} for name in STEADY}

    def look(self, phase: str, primary: str = PRIMARY, steady: str | None = None) -> dict:
        finish_animations(self.page)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        # The caret is left alone: hiding it puts a style attribute on the inputs.
        self.page.screenshot(path=str(SCREENSHOTS / f"{phase}-{self.width}.png"), caret="initial")
        measured = self.page.evaluate(MEASURE, primary)
        self.phases[phase] = measured
        if steady is not None:
            self.places[steady][phase] = self.page.evaluate(WHERE, STEADY[steady])
        return measured

    def problems(self) -> list[str]:
        found = []
        heights = {phase: round(m["feltHeight"]) for phase, m in self.phases.items()}
        one_box = {p: h for p, h in heights.items() if not p.startswith("three-boxes")}
        for group in (one_box, {p: h for p, h in heights.items() if p not in one_box}):
            if group and max(group.values()) - min(group.values()) > FELT_TOLERANCE:
                found.append(f"the felt changes height at {self.width}px: {group}")
        for phase, measured in self.phases.items():
            where = f"{phase} at {self.width}px"
            if measured["scrollY"] != 0:
                found.append(f"{where}: the page scrolled to {measured['scrollY']}px")
            if not measured["primaryFound"]:
                found.append(f"{where}: no primary control")
            elif not measured["primaryInView"]:
                found.append(f"{where}: the primary control is off screen")
            if not measured["statusInView"]:
                found.append(f"{where}: the status bar is off screen")
            for control in measured["controlsOffScreen"]:
                found.append(f"{where}: a control is off screen: {control}")
            for scroller in measured["scrollers"]:
                found.append(f"{where}: a scrollbar of its own: {scroller}")
            if measured["overlaps"]:
                found.append(f"{where}: trivia over the cards: {measured['overlaps']}")
            found += [f"{where}: {crossing}" for crossing in measured["crossings"]]
            if measured["scrollWidth"] > measured["innerWidth"]:
                found.append(f"{where}: scrolls sideways ({measured['scrollWidth']}px)")
        for name, places in self.places.items():
            missing = [phase for phase, box in places.items() if box is None]
            if missing:
                found.append(f"{name} is not shown at {self.width}px in {missing}")
            shown = {phase: box for phase, box in places.items() if box is not None}
            for axis in ("x", "y"):
                values = [box[axis] for box in shown.values()]
                if values and max(values) - min(values) > STEADY_TOLERANCE:
                    spread = {phase: round(box[axis]) for phase, box in shown.items()}
                    found.append(f"{name} moves along {axis} at {self.width}px: {spread}")
        return found


# The table (if the page has one) is at rest: no request of its own under way and no swap
# settling.
AT_REST = """() => {
  const table = document.getElementById("table");
  return table === null || !/htmx-(request|added|settling|swapping)/.test(table.className);
}"""


def press(page, control) -> None:
    """Press ``control`` where it stands on the screen, as a player does, once the table is
    at rest. Never by scrolling to it: Playwright's click may scroll the page while it
    retries, which would read as the page scrolling by itself; a control that is not on
    the screen fails here instead."""
    from playwright.sync_api import expect

    page.wait_for_function(AT_REST)
    expect(control).to_be_enabled()
    # The control may have just arrived with the last action's answer: htmx binds the new
    # forms when the swap settles (20 ms later), and a press before that would post the
    # form natively. A player's next press comes later than that; the walk waits for it.
    page.wait_for_function(AT_REST)
    box = control.bounding_box()
    size = page.viewport_size
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (
        f"{control} is not on the screen: {box}"
    )
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def click(page, name: str) -> None:
    press(page, page.get_by_role("button", name=name, exact=True))


def play_every_phase(page, log_in_as, stage: Stage, username: str) -> None:
    """Bet, player's turn (with the coach's note), difficulty, question, wrong answer →
    outcome, Rebet, a right answer, insurance, a side bet won at the deal and split hands,
    three boxes, game over: each phase looked at with the page at the top."""
    from playwright.sync_api import expect

    table = table_of(page)
    log_in_as(page, username)
    player = get_user_model().objects.get(username=username)
    # The coach marks a move that is not basic strategy: a note beside the controls.
    game = services.new_game(user=player, coach=True)
    stack_shoe(game, HIT_THEN_STAND_SHOE)
    page.goto(f"/games/{game.pk}/")
    # Nothing bet: Deal waits, disabled, and says why where the player looks.
    deal = page.get_by_role("button", name="Deal", exact=True)
    expect(deal).to_be_disabled()
    expect(page.locator("#deal-refusal")).to_be_visible()
    stage.look("bet", primary="#table .deal-button")
    click(page, "$10")
    expect(deal).to_be_enabled()
    stage.look("bet-ten")
    click(page, "Deal")
    expect(table).to_have_attribute("data-phase", "player_turn")
    stage.look("player-turn", steady="hit")
    click(page, "Hit")  # 16 against a 6: basic strategy stands, so the coach says so
    expect(table).to_have_attribute("data-panel", "trivia_difficulty")
    stage.look("difficulty")
    click(page, "Easy")
    expect(table).to_have_attribute("data-panel", "trivia_question")
    stage.look("question", ANSWER)
    answer_wrong(page)  # the hand stands at once; the dealer plays; the reveal stays
    expect(table).to_have_attribute("data-panel", "outcome")
    expect(page.get_by_role("region", name="Trivia answer")).to_be_visible()
    stage.look("wrong-answer-outcome", steady="rebet")

    stack_shoe(Game.objects.get(pk=game.pk), HIT_THEN_STAND_SHOE)
    click(page, "Rebet")
    expect(table).to_have_attribute("data-round", "2")
    stage.look("rebet-player-turn", steady="hit")
    click(page, "Hit")  # at the remembered difficulty
    expect(table).to_have_attribute("data-panel", "trivia_question")
    answer_right(page)
    expect(page.locator("#message-line")).to_contain_text("Correct!")
    stage.look("right-answer", steady="hit")
    click(page, "Stand")
    expect(table).to_have_attribute("data-panel", "outcome")
    stage.look("outcome", steady="rebet")

    stack_shoe(Game.objects.get(pk=game.pk), INSURANCE_SHOE)
    click(page, "Rebet")
    expect(table).to_have_attribute("data-panel", "insurance")
    stage.look("insurance", OFFER_ACCEPT)
    click(page, "Decline")
    expect(table).to_have_attribute("data-panel", "player_turn")
    click(page, "Stand")
    expect(table).to_have_attribute("data-panel", "outcome")
    stage.look("plain-outcome", steady="rebet")

    # A new bet from zero: $10 on the main circle and $5 on Perfect Pair (a pair: the side
    # bet's details wait beside the controls while the round is played).
    stack_shoe(Game.objects.get(pk=game.pk), SPLIT_SHOE)
    click(page, "$5")
    click(page, "$5")
    # The second chip's answer landed and settled: the spot is pressed where it stands.
    expect(page.get_by_test_id("stake")).to_have_text("$10.00")
    press(page, page.locator("#side-spot-perfect-pair"))
    expect(page.get_by_test_id("side-bet-total")).to_contain_text("$5.00")
    click(page, "Deal")
    expect(table).to_have_attribute("data-panel", "player_turn")
    expect(page.locator(".side-bet-results > summary")).to_be_visible()
    stage.look("side-bet-details", steady="hit")
    click(page, "Split")
    expect(page.locator(".player-area h2")).to_contain_text("Hand 1 of 2")
    stage.look("split-hands", steady="hit")
    click(page, "Stand")
    expect(page.locator(".player-area h2")).to_contain_text("Hand 2 of 2")
    click(page, "Stand")
    expect(table).to_have_attribute("data-panel", "outcome")
    stage.look("split-outcome", steady="rebet")

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
    stage.look("three-boxes", steady="hit")
    for _box in (1, 2, 3):
        click(page, "Stand")
    expect(table).to_have_attribute("data-phase", "round_over")
    stage.look("three-boxes-outcome", steady="rebet")


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
    print(f"steady controls at {width}px: {stage.places}")
    assert stage.problems() == [], "\n".join(stage.problems())
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


# Player 9S 7D (16) stands against the upcard 6C over the hole card 2H; the dealer draws
# 3D, 4S and KD: five dealer cards.
DEALER_DRAWS_THREE_SHOE = ["9S", "2H", "7D", "6C", "3D", "4S", "KD"]

# What must never touch on a phone's felt: the dealer's cards and the shoe's count, the
# dealer's row and the rules printed under it, Extra Bet's (i) and its Activate.
APART = """() => {
  const box = (selector) => {
    const element = document.querySelector(selector);
    return element ? element.getBoundingClientRect() : null;
  };
  const meets = (a, b) => a !== null && b !== null && a.left < b.right - 0.5
    && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const cards = Array.from(document.querySelectorAll("#table .dealer-area .playing-card"))
    .map((card) => card.getBoundingClientRect());
  const shoe = box("#table .card-shoe");
  const rules = box("#table .felt-rules");
  const dealer = Array.from(document.querySelectorAll("#table .dealer-area > *"))
    .map((part) => part.getBoundingClientRect());
  return {
    dealerCards: cards.length,
    cardsOverShoe: cards.some((card) => meets(card, shoe)),
    dealerOverRules: dealer.some((part) => meets(part, rules)),
    infoOverActivate: meets(box("#table .side-spot--extra .side-spot__rules"),
      box("#table .side-spot__activate")),
  };
}"""


@pytest.mark.parametrize("viewport", [(390, 844), (360, 740)], ids=["390", "360"])
def test_a_phone_keeps_the_dealer_the_rules_and_the_side_bet_tools_apart(
    page, log_in_as, stack, viewport
) -> None:
    from playwright.sync_api import expect

    width, height = viewport
    page.set_viewport_size({"width": width, "height": height})
    stack(DEALER_DRAWS_THREE_SHOE)
    log_in_as(page, f"apart{width}")
    game = open_game_for(f"apart{width}", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    betting = page.evaluate(APART)
    click(page, "$10")
    click(page, "Deal")
    expect(table_of(page)).to_have_attribute("data-phase", "player_turn")
    click(page, "Stand")
    expect(table_of(page)).to_have_attribute("data-panel", "outcome")
    finish_animations(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"five-dealer-cards-{width}.png"), caret="initial")
    outcome = page.evaluate(APART)
    assert betting["infoOverActivate"] is False, betting
    assert outcome["dealerCards"] == 5, outcome
    assert outcome == {**outcome, "cardsOverShoe": False, "dealerOverRules": False}, outcome
    assert outcome["infoOverActivate"] is False, outcome
