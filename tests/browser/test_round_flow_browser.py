"""The flow of a round in Chromium (UI.md): the dealer's turn is revealed card by card, the
result only after the last one; and a whole round, then the next one's deal, leave no
Content-Security-Policy violation and no console error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.models import Game
from tests.browser import test_table_browser
from tests.browser.table_flows import deal, settle
from tests.browser.test_table_browser import answer_wrong, open_game_for, table

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "round-flow"

# The shared fixtures of test_table_browser.py, found by pytest under these names.
stack = test_table_browser.stack
patient_expectations = test_table_browser.patient_expectations

pytestmark = pytest.mark.django_db(transaction=True)

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

# Player 9S 7D (16) stands against the upcard 6C over the hole card 2H; the dealer draws
# 3D (11), 4S (15) and KD (25, bust): the $10 bet wins $10.
DEALER_DRAWS_THREE_SHOE = ["9S", "2H", "7D", "6C", "3D", "4S", "KD"]

# Run in every document before its own scripts (an init script is not inline in the page,
# so the policy allows it). It reports each violation the browser raises to the page, and
# each style attribute put on an element: under style-src 'self' the browser refuses such
# an attribute whenever it is applied again from markup or by setAttribute (htmx's settle
# copies class and style between elements of the same id, its history restores markup).
WATCH_THE_POLICY = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportPolicyProblem("violation: " + event.violatedDirective + " " + event.blockedURI);
});
new MutationObserver((records) => {
  records.forEach((record) => {
    if (record.target.hasAttribute && record.target.hasAttribute("style")) {
      window.reportPolicyProblem("style attribute on " + record.target.outerHTML.slice(0, 120));
    }
  });
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["style"] });
"""


def watched_context(browser, live_server, **options):
    """A browser context whose pages report policy problems and console errors to a list."""
    context = browser.new_context(base_url=live_server.url, **options)
    context.set_default_timeout(10_000)
    problems: list[str] = []
    context.expose_binding("reportPolicyProblem", lambda source, text: problems.append(text))
    context.add_init_script(WATCH_THE_POLICY)
    page = context.new_page()

    def on_console(message) -> None:
        if message.type == "error" or "Content Security Policy" in message.text:
            problems.append(f"console {message.type}: {message.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    return context, page, problems


def play_to_stand(page, log_in_as, username: str, lucky_ladies: bool = False) -> None:
    """Log in, open a game without trivia, bet $10 (and $5 on Lucky Ladies, a side bet
    settled at the end of the round), deal and wait for the player's turn."""
    from playwright.sync_api import expect

    log_in_as(page, username)
    game = open_game_for(username, trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    if lucky_ladies:
        # Lucky Ladies' circle takes the selected chip ($5 until another is pressed).
        page.get_by_role("button", name=re.compile("^Lucky Ladies")).click()
        expect(page.get_by_test_id("side-bet-total")).to_have_text("Side bets $5.00")
    deal(page)
    settle(page)


# What the felt shows of the result, read in the page: each part is None when absent,
# otherwise its text when it can be seen and "hidden" when it cannot.
READ_THE_FELT = """() => {
  const seen = (selector) => {
    const element = document.querySelector(selector);
    if (!element) { return null; }
    return element.checkVisibility({visibilityProperty: true, opacityProperty: true})
      ? element.textContent.trim() : "hidden";
  };
  return {
    badge: seen(".player-area .badge"),
    headline: seen("#message-line"),
    dealerTotal: seen(".dealer-area .total"),
    dealerMessage: seen(".dealer-area .hand-message"),
    sideBetResult: seen(".side-circle__result"),
    paidChips: seen(".chip-stack--paid"),
    roundDetails: seen(".round-details") === null ? null : seen(".round-details") !== "hidden",
    // Inside a disclosure, closed: what counts is whether its result is held back.
    sideBetRow: (() => {
      const row = document.querySelector(".side-bet-results .side-bet");
      if (!row) { return null; }
      return row.classList.contains("result-held") ? "hidden" : row.textContent.trim();
    })(),
    bank: seen('[data-testid="bank"]'),
    gameOver: seen('[data-testid="game-over"]') === null ? null
      : seen('[data-testid="game-over"]') !== "hidden",
    announced: document.getElementById("status-live").textContent.trim(),
  };
}"""

# Waits, frame by frame, for the moment of the dealer's turn when the hole card has turned
# but the last draw has not landed; there it stops every animation (for a screenshot) and
# reads the felt. Rejects if the round ended without such a moment.
AT_THE_LAST_DRAW = """(readTheFelt) => new Promise((resolve, reject) => {
  const started = performance.now();
  const look = () => {
    const turned = document.querySelector(".dealer-area .playing-card--flipped");
    const draws = document.querySelectorAll(".dealer-area .playing-card--dealt");
    const last = draws[draws.length - 1];
    const turn = turned && turned.getAnimations()[0];
    const landing = last && last.getAnimations()[0];
    if (turn && landing && turn.playState === "finished" && landing.playState !== "finished") {
      document.getAnimations().forEach((animation) => animation.pause());
      resolve(readTheFelt());
    } else if (performance.now() - started > 10000 || (turned && !landing)) {
      reject(new Error("no moment between the hole card's turn and the last draw"));
    } else {
      requestAnimationFrame(look);
    }
  };
  look();
})"""


def felt_at_the_last_draw(page) -> dict:
    return page.evaluate(f"() => ({AT_THE_LAST_DRAW})({READ_THE_FELT})")


def screenshot(page, name: str) -> None:
    """The whole page into test-artifacts/screenshots/round-flow/ (gitignored). The caret is
    left alone: hiding it, Playwright puts a style attribute on the page's inputs, which the
    policy watch would report."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), caret="initial", full_page=True)


def resume_animations(page) -> None:
    page.evaluate("() => document.getAnimations().forEach((animation) => animation.play())")


@pytest.mark.parametrize("viewport", VIEWPORTS.values(), ids=VIEWPORTS.keys())
def test_the_result_shows_after_the_last_dealer_card_and_rounds_raise_no_console_error(
    browser, live_server, log_in_as, stack, viewport
) -> None:
    from playwright.sync_api import expect

    stack(DEALER_DRAWS_THREE_SHOE)
    context, page, problems = watched_context(browser, live_server, viewport=viewport)
    width = viewport["width"]
    try:
        play_to_stand(page, log_in_as, f"patient{width}", lucky_ladies=True)
        expect(page.get_by_test_id("bank")).to_have_text("$985.00")
        before = page.evaluate(READ_THE_FELT)
        page.get_by_role("button", name="Stand").click()
        during = felt_at_the_last_draw(page)
        screenshot(page, f"dealer-turn-{width}")
        resume_animations(page)
        expect(page.locator(".player-area .badge")).to_be_visible()
        expect(table(page)).to_have_attribute("data-phase", "round_over")
        settle(page)
        after = page.evaluate(READ_THE_FELT)
        screenshot(page, f"round-over-{width}")

        # The next round from the outcome, still watched: a chip starts the next bet from
        # zero, then Deal.
        page.get_by_role("group", name="Chips").get_by_role(
            "button", name="$10", exact=True
        ).click()
        expect(table(page)).to_have_attribute("data-phase", "betting")
        page.get_by_role("button", name="Deal").click()
        expect(table(page)).to_have_attribute("data-round", "2")
        settle(page)
    finally:
        context.close()

    # Mid-sequence: the cards so far, and nothing of the result.
    assert during == {
        "badge": "hidden",
        "headline": "hidden",
        "dealerTotal": before["dealerTotal"],
        "dealerMessage": "hidden",
        "sideBetResult": "hidden",
        "paidChips": "hidden",
        "roundDetails": False,
        "sideBetRow": "hidden",
        "bank": "$985.00",
        "gameOver": None,
        "announced": "",
    }, during
    assert after["badge"] == "WIN +$10.00"
    assert "Bust" in after["dealerMessage"] and after["dealerTotal"] == "Bust 25"
    assert "won" in after["headline"] and "won" in after["announced"]
    assert after["sideBetResult"] == "LOST −$5.00"
    assert after["paidChips"] == ""  # the paid chips are drawn, with no text
    assert after["roundDetails"] and "Lost" in after["sideBetRow"]
    assert after["bank"] == "$1,005.00"
    assert problems == [], "console errors or policy reports:\n" + "\n".join(problems)


def test_a_click_during_the_dealer_turn_shows_the_result_at_once(page, log_in_as, stack) -> None:
    stack(DEALER_DRAWS_THREE_SHOE)
    play_to_stand(page, log_in_as, "hasty")
    page.get_by_role("button", name="Stand").click()
    during = felt_at_the_last_draw(page)
    assert during["badge"] == "hidden"
    resume_animations(page)
    page.mouse.click(5, 5)
    # At once: read in the same breath as the click, with no waiting.
    felt = page.evaluate(READ_THE_FELT)
    assert felt["badge"] == "WIN +$10.00"
    assert felt["dealerMessage"].startswith("Bust")
    assert felt["bank"] == "$1,010.00"
    assert "won" in felt["headline"] and "won" in felt["announced"]
    cards_moving = page.evaluate(
        "() => document.getAnimations().filter(a => a.effect.target.closest('.cards')"
        " && a.playState === 'running').length"
    )
    assert cards_moving == 0


def test_reduced_motion_shows_the_result_at_once(browser, live_server, log_in_as, stack) -> None:
    from playwright.sync_api import expect

    stack(DEALER_DRAWS_THREE_SHOE)
    context, page, problems = watched_context(browser, live_server, reduced_motion="reduce")
    try:
        play_to_stand(page, log_in_as, "calm")
        # Every frame from the click on: was any part of the result held back?
        page.evaluate(
            f"""() => {{
              window.heldFrames = 0;
              const read = {READ_THE_FELT};
              const look = () => {{
                const felt = read();
                if (felt.badge === "hidden" || felt.headline === "hidden"
                    || (felt.badge && felt.bank === "$990.00")) {{ window.heldFrames += 1; }}
                requestAnimationFrame(look);
              }};
              look();
            }}"""
        )
        page.get_by_role("button", name="Stand").click()
        expect(table(page)).to_have_attribute("data-phase", "round_over")
        felt = page.evaluate(READ_THE_FELT)
        held_frames = page.evaluate("() => window.heldFrames")
        animations = page.evaluate("() => document.getAnimations().length")
    finally:
        context.close()
    assert felt["badge"] == "WIN +$10.00" and felt["bank"] == "$1,010.00"
    assert "won" in felt["headline"] and "won" in felt["announced"]
    assert held_frames == 0
    assert animations == 0
    assert problems == []


def test_with_javascript_off_the_round_plays_to_its_result(
    browser, live_server, log_in_as, stack
) -> None:
    from playwright.sync_api import expect

    stack(DEALER_DRAWS_THREE_SHOE)
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    try:
        log_in_as(page, "plain")
        game = open_game_for("plain", trivia_mode=False)
        page.goto(f"/games/{game.pk}/")
        page.get_by_label("Bet amount").fill("10")
        page.get_by_role("button", name="Deal").click()
        expect(table(page)).to_have_attribute("data-phase", "player_turn")
        page.get_by_role("button", name="Stand").click()
        expect(table(page)).to_have_attribute("data-phase", "round_over")
        expect(page.get_by_role("img", name="King of Diamonds")).to_be_visible()
        expect(page.locator(".player-area .badge")).to_have_text("WIN +$10.00")
        expect(page.locator(".player-area .badge")).to_be_visible()
        expect(page.locator(".dealer-area .hand-message")).to_be_visible()
        expect(page.locator("#message-line")).to_contain_text("won")
        expect(page.get_by_test_id("bank")).to_have_text("$1,010.00")
    finally:
        context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS.values(), ids=VIEWPORTS.keys())
def test_game_over_comes_after_the_round_s_last_dealer_card(
    browser, live_server, log_in_as, stack, viewport
) -> None:
    """The last credit spent on a wrong answer ends the game, but the round plays out first
    (UI.md "Steady controls"): the hole card turns, each draw lands, the badges and the bank
    show, and only then the game over moment."""
    from playwright.sync_api import expect

    from tests.trivia.factories import QuestionFactory

    QuestionFactory.create_batch(2, difficulty="easy")
    stack(DEALER_DRAWS_THREE_SHOE)
    context, page, problems = watched_context(browser, live_server, viewport=viewport)
    width = viewport["width"]
    try:
        username = f"last{width}"
        log_in_as(page, username)
        game = open_game_for(username)
        state = {**game.state, "credits": 1}
        Game.objects.filter(pk=game.pk).update(credits=1, state=state)
        page.goto(f"/games/{game.pk}/")
        deal(page)
        page.get_by_role("button", name="Hit", exact=True).click()
        page.get_by_role("button", name="Easy", exact=True).click()
        answer_wrong(page)  # the hand stands, the last credit is gone: the dealer plays
        during = felt_at_the_last_draw(page)
        # The last question's answer stays in view while the round plays out.
        reveal_shown = page.get_by_role("region", name="Trivia answer").is_visible()
        screenshot(page, f"last-round-dealer-turn-{width}")
        resume_animations(page)
        expect(page.get_by_test_id("game-over")).to_be_visible()
        settle(page)
        after = page.evaluate(READ_THE_FELT)
        screenshot(page, f"game-over-after-the-last-card-{width}")
    finally:
        context.close()
    assert during["gameOver"] is False and reveal_shown, during
    assert during["badge"] in ("hidden", None) and during["bank"] == "$990.00", during
    assert after["gameOver"] is True and after["badge"] == "WIN +$10.00", after
    assert problems == [], "console errors or policy reports:\n" + "\n".join(problems)
