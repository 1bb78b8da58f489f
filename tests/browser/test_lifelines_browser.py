"""R-8.11 on a phone (390 × 844): 50:50 then the answer, and Swap, played through the
table with htmx, the page never wider than the screen; screenshots in the test's tmp dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.models import TriviaAttempt
from tests.browser import test_table_browser
from tests.browser.table_flows import deal, finish_animations
from tests.browser.test_table_browser import open_game_for, table

pytestmark = pytest.mark.django_db(transaction=True)

stack = test_table_browser.stack
bank_of_questions = test_table_browser.bank_of_questions

PHONE = {"width": 390, "height": 844}
# Player 2S 3D (5) against 6C (hole 0H): a right answer's hit (4H) leaves the hand open.
FIVE = ["2S", "0H", "3D", "6C", "4H", "KD", "5H", "9C"]


def ask(page, username: str, log_in_as) -> object:
    from playwright.sync_api import expect

    log_in_as(page, username)
    game = open_game_for(username)
    page.set_viewport_size(PHONE)
    page.goto(f"/games/{game.pk}/")
    deal(page)
    page.get_by_role("button", name="Hit").click()
    expect(table(page)).to_have_attribute("data-panel", "trivia_difficulty")
    page.get_by_role("button", name="Easy", exact=True).click()
    expect(table(page)).to_have_attribute("data-panel", "trivia_question")
    return game


def no_overflow(page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px phone"


def shoot(page, tmp_path: Path, name: str) -> Path:
    finish_animations(page)
    path = tmp_path / f"{name}-390.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def test_fifty_fifty_then_the_answer_on_a_phone(
    page, log_in_as, stack, bank_of_questions, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    stack(FIVE)
    game = ask(page, "halves", log_in_as)
    fifty = page.get_by_role("button", name="50:50", exact=True)
    expect(fifty).to_be_enabled()
    expect(page.locator("#table")).to_contain_text("1 credit")
    no_overflow(page)
    shoot(page, tmp_path, "lifelines-question")
    fifty.click()
    expect(page.locator(".answers .answer")).to_have_count(2)
    expect(fifty).to_be_disabled()
    expect(page.locator("#message-line")).to_contain_text("50:50: two wrong answers gone.")
    no_overflow(page)
    shoot(page, tmp_path, "lifelines-after-fifty-fifty")
    attempt = TriviaAttempt.objects.select_related("question").get(game=game)
    for gone in attempt.lifelines[0]["removed"]:
        expect(page.get_by_role("button", name=gone, exact=True)).to_have_count(0)
    page.get_by_role("button", name=attempt.question.correct_answer, exact=True).click()
    expect(table(page)).to_have_attribute("data-panel", "player_turn")
    game.refresh_from_db()
    assert game.credits == 9  # 10 - 1 for 50:50 + 0 for a right Easy
    assert game.state["round"]["actions"] == ["hit:easy:fifty_fifty:correct"]


def test_swap_on_a_phone(page, log_in_as, stack, bank_of_questions, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    stack(FIVE)
    game = ask(page, "swapper", log_in_as)
    before = page.locator(".trivia-question").inner_text()
    page.get_by_role("button", name="Swap", exact=True).click()
    expect(page.locator(".trivia-question")).not_to_have_text(before)
    expect(page.get_by_role("button", name="Swap", exact=True)).to_be_disabled()
    expect(page.locator("#message-line")).to_contain_text("Swap: a new question.")
    no_overflow(page)
    shoot(page, tmp_path, "lifelines-after-swap")
    game.refresh_from_db()
    assert game.credits == 9
