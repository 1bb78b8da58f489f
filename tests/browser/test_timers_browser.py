"""R-4.13 in the browser: the time left counts down on the table, the last seconds are
announced, and when it runs out the table shows the hand stood without a reload.

The server's clock (game.core.clock.CLOCK) is the real one moved forward, so the page starts
with two seconds left instead of twenty: the test waits those two seconds, not twenty."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.core import clock as game_clock
from game.rules.clock import system_clock
from tests.browser import test_table_browser
from tests.browser.table_flows import deal
from tests.browser.test_table_browser import open_game_for, table

pytestmark = pytest.mark.django_db(transaction=True)

stack = test_table_browser.stack
bank_of_questions = test_table_browser.bank_of_questions
patient_expectations = test_table_browser.patient_expectations

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "look"
# Player 9S 7D (16) against 6C, hole 0H; standing, the dealer's 16 draws KD and busts.
SIXTEEN = ["9S", "0H", "7D", "6C", "KD"]


class MovedClock:
    """The real clock plus an offset the test moves (the live server runs in this process)."""

    def __init__(self) -> None:
        self.offset_ms = 0

    def __call__(self) -> int:
        return system_clock() + self.offset_ms


def test_a_countdown_runs_out_and_the_hand_stands(page, log_in_as, stack, monkeypatch) -> None:
    from playwright.sync_api import expect

    clock = MovedClock()
    monkeypatch.setattr(game_clock, "CLOCK", clock)
    stack(SIXTEEN)
    log_in_as(page, "clocked")
    game = open_game_for("clocked", trivia_mode=False, turn_seconds=20)
    page.goto(f"/games/{game.pk}/")
    deal(page)
    timer = page.get_by_role("timer")
    expect(timer).to_contain_text("Time to decide")
    expect(timer.locator(".timer__count")).to_have_text("20")
    clock.offset_ms = 17_000  # as if 17 seconds went by: three are left
    page.reload()
    expect(timer.locator(".timer__count")).to_have_text("3")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "turn-timer-1280.png"))
    # The last five seconds are said to screen readers (an assertive live region).
    expect(timer.locator(".timer__announce")).to_have_text("2 seconds", timeout=5_000)
    # At 0 the page asks the server, which stood the hand when the deadline passed.
    expect(table(page)).to_have_attribute("data-phase", "round_over", timeout=10_000)
    expect(page.locator("#message-line")).to_contain_text("Time ran out: the hand stands.")
    assert page.get_by_role("timer").count() == 0
    game.refresh_from_db()
    assert game.state["round"]["hands"][0]["stand_reason"] == "timeout"


def test_a_question_left_unanswered_counts_as_wrong(
    page, log_in_as, stack, monkeypatch, bank_of_questions
) -> None:
    from playwright.sync_api import expect

    clock = MovedClock()
    monkeypatch.setattr(game_clock, "CLOCK", clock)
    stack(SIXTEEN)
    log_in_as(page, "slowpoke")
    game = open_game_for("slowpoke", answer_seconds=10)
    page.goto(f"/games/{game.pk}/")
    deal(page)
    page.get_by_role("button", name="Hit").click()
    # The game's first Hit asks which difficulty (later ones remember it).
    expect(table(page)).to_have_attribute("data-panel", "trivia_difficulty")
    page.get_by_role("button", name="Easy", exact=True).click()
    expect(table(page)).to_have_attribute("data-panel", "trivia_question")
    timer = page.get_by_role("timer")
    expect(timer).to_contain_text("Time to answer")
    clock.offset_ms = 8_000
    page.reload()
    expect(timer.locator(".timer__count")).to_have_text("2")
    page.screenshot(path=str(SCREENSHOTS / "answer-timer-1280.png"))
    expect(page.locator("#message-line")).to_contain_text(
        "Time ran out: the answer counts as wrong. Credits -1.", timeout=10_000
    )
    expect(table(page)).to_have_attribute("data-phase", "round_over")
