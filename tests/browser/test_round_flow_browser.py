"""The flow of a round in Chromium (UI.md): the dealer's turn is revealed card by card, the
result only after the last one; and a whole round leaves no Content-Security-Policy
violation and no console error."""

from __future__ import annotations

import pytest

from tests.browser import test_table_browser
from tests.browser.table_flows import deal, settle
from tests.browser.test_table_browser import open_game_for, sign_up, table

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


def play_to_stand(page, username: str, lucky_ladies: bool = False) -> None:
    """Sign up, open a game without trivia, bet $10 (and $5 on Lucky Ladies, a side bet
    settled at the end of the round), deal and wait for the player's turn."""
    from playwright.sync_api import expect

    sign_up(page, username)
    game = open_game_for(username, trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    if lucky_ladies:
        page.get_by_role("button", name="Side Bets", exact=True).click()
        ladies = page.locator("#side-bets-menu").get_by_role("group", name="Lucky Ladies")
        ladies.get_by_role("button", name="$5", exact=True).click()
        expect(page.get_by_test_id("side-bet-menu-total")).to_have_text("$5.00")
    deal(page)
    settle(page)


@pytest.mark.parametrize("viewport", VIEWPORTS.values(), ids=VIEWPORTS.keys())
def test_a_full_round_raises_no_policy_violation_and_no_console_error(
    browser, live_server, stack, viewport
) -> None:
    from playwright.sync_api import expect

    stack(DEALER_DRAWS_THREE_SHOE)
    context, page, problems = watched_context(browser, live_server, viewport=viewport)
    try:
        play_to_stand(page, f"clean{viewport['width']}")
        page.get_by_role("button", name="Stand").click()
        expect(table(page)).to_have_attribute("data-phase", "round_over")
        settle(page)
        page.get_by_role("button", name="Next Round").click()
        expect(table(page)).to_have_attribute("data-phase", "betting")
        deal(page)
        settle(page)
    finally:
        context.close()
    assert problems == []
