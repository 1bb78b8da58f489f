"""Back, the back/forward cache and DEBUG mode never show a table that is not the current one."""

from __future__ import annotations

import re

import pytest

from game.models import Game
from tests.browser.helpers import start_new_game
from tests.browser.test_table_browser import (  # noqa: F401 - stack, bank_of_questions: fixtures
    answer_right,
    bank_of_questions,
    sign_up,
    stack,
    table,
)

pytestmark = pytest.mark.django_db(transaction=True)

# Player 9S 7D, dealer hole 0H, upcard 6C; the hit brings 2H.
HIT_SHOE = ["9S", "0H", "7D", "6C", "2H", "KD"]


def test_rules_then_back_shows_the_current_table(page, log_in_as, stack, bank_of_questions) -> None:  # noqa: F811
    from playwright.sync_api import expect

    stack(HIT_SHOE)
    log_in_as(page, "nav")
    start_new_game(page)
    page.get_by_label("Bet amount").fill("10")
    page.get_by_role("button", name="Deal").click()
    page.get_by_role("button", name="Hit").click()
    page.get_by_role("button", name="Medium", exact=True).click()
    expect(table(page)).to_have_attribute("data-panel", "trivia_question")
    answer_right(page)
    expect(page.locator("#message-line")).to_contain_text("Correct!")
    game = Game.objects.get(owner__username="nav")

    page.get_by_role("link", name="Rules", exact=True).click()
    page.wait_for_url(re.compile(r"/rules/\?game="))
    page.go_back()
    page.wait_for_url(re.compile(rf"/games/{game.pk}/$"))
    game.refresh_from_db()
    expect(table(page)).to_have_attribute("data-version", str(game.version))
    expect(table(page)).not_to_have_attribute("data-panel", "trivia_question")
    expect(page.locator("#message-line")).to_contain_text("Correct!")

    # And the rules page's own way back.
    page.get_by_role("link", name="Rules", exact=True).click()
    page.get_by_role("link", name="Back to your game").click()
    page.wait_for_url(re.compile(rf"/games/{game.pk}/$"))
    expect(table(page)).to_have_attribute("data-version", str(game.version))


@pytest.mark.parametrize("debug", [True, False])
def test_a_refused_bet_is_shown_in_place(page, log_in_as, settings, debug: bool) -> None:
    from playwright.sync_api import expect

    settings.DEBUG = debug
    log_in_as(page, f"bet{int(debug)}")
    start_new_game(page)
    expect(table(page)).to_have_attribute("data-phase", "betting")
    assert ("django-htmx.js" in page.content()) is debug
    for typed, message in (("abc", "Enter an amount in dollars"), ("99999", "The maximum bet")):
        page.get_by_label("Bet amount").fill(typed)
        page.get_by_role("button", name="Deal").click()
        expect(page.locator(".table-notice")).to_contain_text(message)
        # The page is intact: the site's header, the table and its controls are all there.
        expect(page.get_by_role("link", name="Blackjack Trivia")).to_be_visible()
        expect(table(page)).to_have_attribute("data-phase", "betting")
        expect(page.get_by_role("button", name="Deal")).to_be_visible()
