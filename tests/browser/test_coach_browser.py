"""The coach in Chromium: the Hint on "?", the Coach option's note, the live house edge."""

from __future__ import annotations

import re

import pytest

from game.models import CoachDeviation, Game
from tests.browser import test_table_browser
from tests.browser.helpers import start_new_game
from tests.browser.test_table_browser import open_game_for, table

pytestmark = pytest.mark.django_db(transaction=True)

# The table tests' fixtures: the stacked shoe, and patience on this shared machine.
stack = test_table_browser.stack
patient_expectations = test_table_browser.patient_expectations

# Player 9S 7D (hard 16) against 6C, hole 0H; then 2H, KD.
HARD_16_V_6 = ["9S", "0H", "7D", "6C", "2H", "KD"]


def test_question_mark_shows_the_hint_and_changes_nothing(
    page, log_in_as, stack, axe_violations
) -> None:
    from playwright.sync_api import expect

    stack(HARD_16_V_6)
    log_in_as(page, "hana")
    game = open_game_for("hana", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    page.get_by_label("Bet amount").fill("10")
    page.get_by_role("button", name="Deal").click()
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    version = table(page).get_attribute("data-version")
    expect(page.get_by_role("button", name="Hint")).to_be_visible()

    page.locator("body").press("?")
    hint = page.get_by_test_id("coach-hint")
    expect(hint).to_contain_text("Basic strategy: Stand")
    expect(hint).to_contain_text("16 against a 6")
    expect(page.locator("#status-live")).to_contain_text("Basic strategy: Stand")
    # Swapped in place by htmx (no navigation), and the game did not move on.
    assert "hint=1" not in page.url
    expect(table(page)).to_have_attribute("data-version", version)
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    assert axe_violations(page, "table with the hint") == []
    # The Hint is not a move: the hand is still to be played.
    page.get_by_role("button", name="Stand").click()
    expect(table(page)).to_have_attribute("data-phase", "round_over")
    expect(page.get_by_role("button", name="Hint")).to_have_count(0)


def test_coach_option_marks_a_deviating_move(page, log_in_as, stack, axe_violations) -> None:
    from playwright.sync_api import expect

    stack(HARD_16_V_6)
    log_in_as(page, "ivo")
    start_new_game(page)
    page.get_by_role("link", name="Options").click()
    coach = page.get_by_role("checkbox", name="Coach")
    expect(coach).not_to_be_checked()
    coach.check()
    page.get_by_role("button", name="Apply").click()
    expect(table(page)).to_have_attribute("data-phase", "betting")
    assert Game.objects.get(owner__username="ivo").coach is True

    page.get_by_label("Bet amount").fill("10")
    page.get_by_role("button", name="Deal").click()
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    # Hitting 16 against a 6 is not basic strategy; in trivia mode it counts at the click.
    page.get_by_role("button", name="Hit").click()
    note = page.get_by_test_id("coach-note")
    expect(note).to_have_text("Coach: basic strategy was Stand (hard 16 against 6).")
    expect(page.get_by_role("button", name="Easy", exact=True)).to_be_visible()
    assert axe_violations(page, "table with the coach's note") == []
    deviation = CoachDeviation.objects.get(game__owner__username="ivo")
    assert (deviation.move, deviation.advised) == ("hit", "stand")


def test_house_edge_updates_live_in_the_options_menu(page, log_in_as, axe_violations) -> None:
    from playwright.sync_api import expect

    log_in_as(page, "jun")
    start_new_game(page)
    page.get_by_role("link", name="Options").click()
    # htmx wires the form's hx-get on DOMContentLoaded: a change before that sends nothing.
    page.wait_for_load_state()
    figure = page.get_by_test_id("house-edge-figure")
    expect(figure).to_contain_text("House edge of these rules: about")
    expect(page.get_by_test_id("house-edge-change")).to_have_text(
        "No change vs your current rules."
    )
    before = float(re.search(r"about (-?\d+\.\d\d)", figure.inner_text()).group(1))
    page.get_by_label("Blackjack pays").select_option("6:5")
    expect(page.get_by_test_id("house-edge-change")).to_contain_text("vs your current rules")
    expect(page.get_by_test_id("house-edge-change")).to_have_text(re.compile(r"^\+\d+\.\d\d %"))
    after = float(re.search(r"about (-?\d+\.\d\d)", figure.inner_text()).group(1))
    assert after > before + 1.0
    assert axe_violations(page, "options menu with the house edge") == []
    # Nothing was applied by looking.
    assert Game.objects.get(owner__username="jun").options["blackjack_payout"] == "3:2"


def test_hint_with_javascript_off(browser, live_server, log_in_as, stack) -> None:
    from playwright.sync_api import expect

    stack(HARD_16_V_6)
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    page = context.new_page()
    try:
        log_in_as(page, "kai")
        game = open_game_for("kai", trivia_mode=False)
        page.goto(f"/games/{game.pk}/")
        page.get_by_label("Bet amount").fill("10")
        page.get_by_role("button", name="Deal").click()
        expect(table(page)).to_have_attribute("data-phase", "player_turn")
        page.get_by_role("button", name="Hint").click()
        expect(page.get_by_test_id("coach-hint")).to_contain_text("Basic strategy: Stand")
        page.get_by_role("button", name="Stand").click()
        expect(table(page)).to_have_attribute("data-phase", "round_over")
    finally:
        context.close()
