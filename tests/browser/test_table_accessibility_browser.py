"""Accessibility of the base-game table in Chromium: axe-core on every panel reached in play,
focus after each htmx swap, keyboard-only play with the shortcuts, visible focus rings, and
card animations that stop under prefers-reduced-motion."""

from __future__ import annotations

import pytest

from game.models import Game
from tests.browser import test_table_browser
from tests.browser.helpers import start_new_game
from tests.browser.table_flows import (
    EVEN_MONEY_SHOE,
    FOUR_HANDS_SHOE,
    HIT_THEN_STAND_SHOE,
    INSURANCE_SHOE,
    deal,
    finish_animations,
    settle,
    split_into_four_hands,
)
from tests.browser.test_table_browser import answer_right, open_game_for, table

# The shared fixtures of test_table_browser.py, found by pytest under these names.
stack = test_table_browser.stack
bank_of_questions = test_table_browser.bank_of_questions
patient_expectations = test_table_browser.patient_expectations

pytestmark = pytest.mark.django_db(transaction=True)

FOCUSED_ID = "() => document.activeElement && document.activeElement.id"


def button(page, name: str):
    return page.get_by_role("button", name=name, exact=True)


def expect_focus(locator) -> None:
    """Focus moves in the afterSwap handler, right after the table changes (expect waits)."""
    from playwright.sync_api import expect

    expect(locator).to_be_focused()


def scan(page, axe_violations, panel: str) -> list[str]:
    from playwright.sync_api import expect

    if panel.startswith("table:"):
        expect(table(page)).to_have_attribute("data-panel", panel.removeprefix("table:"))
    finish_animations(page)
    return axe_violations(page, panel)


def test_trivia_round_options_and_game_over_panels_pass_axe(
    page, log_in_as, stack, bank_of_questions, axe_violations
) -> None:
    from playwright.sync_api import expect

    stack(HIT_THEN_STAND_SHOE)
    log_in_as(page, "ann")
    start_new_game(page)
    problems = scan(page, axe_violations, "table:bet")
    deal(page)
    problems += scan(page, axe_violations, "table:player_turn")
    page.get_by_role("button", name="Hit").click()
    problems += scan(page, axe_violations, "table:trivia_difficulty")
    page.get_by_role("button", name="Medium", exact=True).click()
    problems += scan(page, axe_violations, "table:trivia_question")
    answer_right(page)
    expect(page.locator("#message-line")).to_contain_text("Correct!")
    problems += scan(page, axe_violations, "table:player_turn")  # the reveal on the felt
    page.get_by_role("button", name="Stand").click()
    problems += scan(page, axe_violations, "table:outcome")
    expect(page.get_by_role("button", name="Rebet")).to_be_visible()

    page.get_by_role("link", name="Options").click()
    expect(page.get_by_role("heading", name="Options")).to_be_visible()
    problems += scan(page, axe_violations, "options menu")
    page.get_by_role("link", name="Close").click()
    page.get_by_role("link", name="End Game").click()
    expect(page.get_by_role("heading", name="End this game?")).to_be_visible()
    problems += scan(page, axe_violations, "End Game confirmation")
    page.get_by_role("button", name="End Game").click()
    problems += scan(page, axe_violations, "table:game_over")
    expect(page.get_by_role("button", name="New Game")).to_be_visible()
    assert problems == []


def test_split_strip_and_offer_panels_pass_axe(page, log_in_as, stack, axe_violations) -> None:
    from playwright.sync_api import expect

    log_in_as(page, "bo")
    stack(FOUR_HANDS_SHOE)
    game = open_game_for("bo", trivia_mode=False, resplit=True)
    page.goto(f"/games/{game.pk}/")
    deal(page)
    split_into_four_hands(page)
    problems = scan(page, axe_violations, "split hands strip")

    stack(INSURANCE_SHOE)
    game = open_game_for("bo", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    deal(page)
    problems += scan(page, axe_violations, "table:insurance")

    stack(EVEN_MONEY_SHOE)
    game = open_game_for("bo", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    deal(page)
    problems += scan(page, axe_violations, "table:even_money")
    expect(page.get_by_role("heading", name="Even money?")).to_be_visible()

    stack(HIT_THEN_STAND_SHOE)
    game = open_game_for("bo", trivia_mode=False, surrender="early")
    page.goto(f"/games/{game.pk}/")
    deal(page)
    problems += scan(page, axe_violations, "table:early_surrender")
    expect(page.get_by_role("heading", name="Early surrender?")).to_be_visible()
    assert problems == []


def test_focus_follows_each_swap_to_the_control_the_player_needs(
    page, log_in_as, stack, bank_of_questions
) -> None:
    from playwright.sync_api import expect

    stack(HIT_THEN_STAND_SHOE)
    log_in_as(page, "cal")
    start_new_game(page)
    # A chip keeps focus (press it again to add more); Clear Bet hands it to the empty field.
    page.get_by_role("button", name="$5", exact=True).click()
    expect(page.get_by_label("Bet amount")).to_have_value("5.00")
    expect_focus(button(page, "$5"))
    page.get_by_role("button", name="Clear Bet").click()
    expect(page.get_by_label("Bet amount")).to_have_value("")
    expect_focus(page.get_by_label("Bet amount"))
    page.get_by_label("Bet amount").fill("10")
    page.get_by_role("button", name="Deal").click()
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    expect_focus(button(page, "Hit"))
    page.get_by_role("button", name="Hit").click()
    expect_focus(button(page, "Easy"))
    page.get_by_role("button", name="Easy", exact=True).click()
    expect(table(page)).to_have_attribute("data-panel", "trivia_question")
    expect_focus(page.locator(".answers button").first)
    answer_right(page)
    # The card is dealt at once: the next decision is the hand's.
    expect_focus(button(page, "Hit"))

    # A stale page: the 409 notice is announced (role="alert") but focus goes to the control
    # the new table needs, not to the notice.
    game = Game.objects.get(owner__username="cal")
    from game import services

    services.stand(game_id=game.pk, user=game.owner, version=game.version)
    page.get_by_role("button", name="Stand").click()
    expect(page.locator(".table-notice")).to_contain_text("changed since the page was shown")
    expect(page.get_by_role("alert")).to_be_visible()
    expect_focus(button(page, "Rebet"))


def test_keyboard_only_round_with_enter_and_shortcuts(page, log_in_as, stack) -> None:
    from playwright.sync_api import expect

    stack(HIT_THEN_STAND_SHOE)
    log_in_as(page, "dee")
    game = open_game_for("dee", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    shortcuts = page.get_by_role("region", name="Keyboard shortcuts")
    expect(shortcuts).to_be_visible()
    for key, meaning in (("H", "Hit"), ("S", "Stand"), ("D", "Double Down"), ("P", "Split")):
        expect(shortcuts.locator("li", has=page.locator("kbd", has_text=key))).to_contain_text(
            meaning
        )
    expect(shortcuts.locator("kbd")).to_have_text(
        ["H", "S", "D", "P", "R", "N", "?", "1", "4", "T", "F"]
    )

    # Tab from the top of the page to the amount field; nothing but the keyboard from here on.
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED_ID) == "bet-amount":
            break
    expect_focus(page.get_by_label("Bet amount"))
    page.keyboard.type("10")
    # Enter in the field deals (it is not the first chip, which comes first in the form).
    page.keyboard.press("Enter")
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    expect(table(page)).to_have_attribute("data-bank", "990.00")
    expect_focus(button(page, "Hit"))
    page.keyboard.press("h")
    expect(page.get_by_role("img", name="Two of Hearts")).to_be_visible()
    expect_focus(button(page, "Hit"))
    page.keyboard.press("s")
    expect(table(page)).to_have_attribute("data-phase", "round_over")
    # The outcome's primary action is Rebet: N deals the same bet again.
    expect_focus(button(page, "Rebet"))
    page.keyboard.press("n")
    expect(table(page)).to_have_attribute("data-round", "2")
    expect(table(page)).not_to_have_attribute("data-phase", "betting")
    game.refresh_from_db()
    # Round 1 won $10; round 2 is dealt with the same $10 bet.
    assert game.rounds_played == 2 and game.bank_cents == 100_000


# A closed disclosure's content is no tab stop (only its summary is) until it is opened.
TAB_STOPS = """() => Array.from(document.querySelectorAll(
  "#table button, #table a[href], #table input:not([type=hidden]), #table select, #table summary"
)).filter(e => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0)
  .filter(e => {
    const closed = e.closest("details:not([open])");
    return !closed || closed.querySelector(":scope > summary").contains(e);
  })
  .map(e => e.outerHTML)"""

FOCUS_RING = """() => {
  const style = getComputedStyle(document.activeElement);
  return {
    html: document.activeElement.outerHTML,
    outline: style.outlineStyle !== "none" ? parseFloat(style.outlineWidth) : 0,
    color: style.outlineColor,
  };
}"""


@pytest.mark.parametrize("panel", ["bet", "player_turn"])
def test_every_table_control_is_reached_by_tab_with_a_visible_ring(
    page, log_in_as, stack, panel: str
) -> None:
    stack(HIT_THEN_STAND_SHOE)
    log_in_as(page, f"eli-{panel.replace('_', '-')}")
    game = open_game_for(f"eli-{panel.replace('_', '-')}", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    if panel == "player_turn":
        deal(page)
        page.reload()  # a plain page load: the tab order alone must do
    expected = page.evaluate(TAB_STOPS)
    assert len(expected) >= (9 if panel == "bet" else 6)
    reached: dict[str, float] = {}
    for _ in range(60):
        page.keyboard.press("Tab")
        ring = page.evaluate(FOCUS_RING)
        if ring["html"] in expected:
            reached[ring["html"]] = ring["outline"]
            # The ring is the site's amber focus colour, not the browser's thin default.
            assert ring["color"] == "rgb(255, 191, 71)", ring
    assert set(reached) == set(expected)
    assert all(width >= 3 for width in reached.values()), reached


def test_the_reasons_for_disabled_actions_open_from_the_keyboard(page, log_in_as, stack) -> None:
    from playwright.sync_api import expect

    stack(HIT_THEN_STAND_SHOE)  # 9 + 7 is no pair: Split is disabled
    log_in_as(page, "gus")
    game = open_game_for("gus", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    deal(page)
    finish_animations(page)
    split = button(page, "Split")
    expect(split).to_be_disabled()
    reason = page.locator("#why-not-split")
    expect(reason).to_be_hidden()
    # The disabled button is described by the reason, for screen readers in browse mode.
    expect(split).to_have_accessible_description(split.get_attribute("title") or "-")
    disclosure = page.get_by_text("Why are some actions unavailable?", exact=True)
    for _ in range(30):
        if page.evaluate("() => document.activeElement.tagName") == "SUMMARY":
            break
        page.keyboard.press("Tab")
    expect(disclosure).to_be_focused()
    page.keyboard.press("Enter")
    expect(reason).to_be_visible()
    expect(reason.locator("xpath=..")).to_contain_text("Split:")


CARD_ANIMATION = """(selector) => Array.from(document.querySelectorAll(selector)).map(card => {
  const style = getComputedStyle(card);
  return [card.getAttribute("aria-label"), style.animationName, style.animationDuration];
})"""


def test_new_cards_are_dealt_and_the_hole_card_flips(page, log_in_as, stack) -> None:
    from playwright.sync_api import expect

    stack(HIT_THEN_STAND_SHOE)
    log_in_as(page, "fox")
    game = open_game_for("fox", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    deal(page)
    dealt = page.evaluate(CARD_ANIMATION, ".player-area .playing-card, .dealer-area .playing-card")
    assert [name for _, name, _ in dealt] == ["card-deal"] * 4
    assert {duration for _, _, duration in dealt} == {"0.3s"}
    settle(page)
    page.get_by_role("button", name="Hit").click()
    expect(page.get_by_role("img", name="Two of Hearts")).to_be_visible()
    # Only the new card moves; the cards already on the table stay still.
    player = page.evaluate(CARD_ANIMATION, ".player-area .playing-card")
    assert [(label, name) for label, name, _ in player] == [
        ("Nine of Spades", "none"),
        ("Seven of Diamonds", "none"),
        ("Two of Hearts", "card-deal"),
    ]
    settle(page)
    page.get_by_role("button", name="Stand").click()
    expect(table(page)).to_have_attribute("data-phase", "round_over")
    dealer = page.evaluate(CARD_ANIMATION, ".dealer-area .playing-card")
    assert [(label, name) for label, name, _ in dealer] == [
        ("Ten of Hearts", "card-flip"),
        ("Six of Clubs", "none"),
        ("King of Diamonds", "card-deal"),
    ]


def test_reduced_motion_turns_the_card_animations_off(page, log_in_as, stack) -> None:
    from playwright.sync_api import expect

    page.emulate_media(reduced_motion="reduce")
    stack(HIT_THEN_STAND_SHOE)
    log_in_as(page, "gil")
    game = open_game_for("gil", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    deal(page)
    page.get_by_role("button", name="Hit").click()
    expect(page.get_by_role("img", name="Two of Hearts")).to_be_visible()
    new_card = page.locator(".player-area .playing-card--dealt")
    expect(new_card).to_have_attribute("aria-label", "Two of Hearts")
    page.get_by_role("button", name="Stand").click()
    expect(page.locator(".dealer-area .playing-card--flipped")).to_have_count(1)
    cards = page.evaluate(CARD_ANIMATION, ".playing-card--dealt, .playing-card--flipped")
    assert len(cards) == 2 and all(
        name == "none" and duration == "0s" for _, name, duration in cards
    ), cards
