"""The in-round side-bet panels in Chromium: parlay, extra bet, Infinity dice, results, axe.

Rounds start with their side bets through ``services.place_bet_and_deal`` (the side-bet
menu that stakes them is another panel), with a stacked shoe, then the page is driven.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from game import services
from game.models import Game
from tests.browser.test_table_browser import (  # noqa: F401 - fixtures used by name
    open_game_for,
    patient_expectations,
    sign_up,
    stack,
    table,
)
from tests.game.helpers import script_dice

pytestmark = pytest.mark.django_db(transaction=True)

# Deal order: player, dealer hole, player, dealer upcard, then draws.
FLUSH = ["4H", "KC", "6H", "9H", "2C"]  # 21+3 flush; hole KC; player 10 v 19
SUITED_11 = ["5H", "9C", "6H", "2D", "0C", "0D"]  # Perfect 11s rolls the dice
TEN_FIRST = ["KH", "7D", "9S", "8C", "0S"]  # extra bet offered; dealer busts on 0S
EIGHTS = ["8S", "9C", "8D", "7H", "KD"]  # House Money pair 3:1; dealer busts on KD


def start_round(
    page: Any,
    log_in_as: Any,
    username: str,
    *,
    side_bets: dict[str, int] | None = None,
    extra_bet: bool = False,
    bet_cents: int = 1000,
) -> Game:
    """Log in, open a trivia-off game, deal with the given side bets and show the table."""
    log_in_as(page, username)
    game = open_game_for(username, trivia_mode=False)
    services.place_bet_and_deal(
        game_id=game.pk,
        user=get_user_model().objects.get(username=username),
        version=game.version,
        bet_cents=bet_cents,
        side_bets=side_bets or {},
        extra_bet=extra_bet,
    )
    page.goto(f"/games/{game.pk}/")
    return game


def result_row(page: Any, name: str) -> Any:
    return page.locator(f'.side-bet-results [data-side-bet="{name}"]')


def outcome_row(page: Any, name: str) -> Any:
    return page.locator(f'table.outcome tr[data-side-bet="{name}"]')


def overflows_at_phone_width(page: Any) -> bool:
    """Whether the page scrolls sideways on a 360 px wide phone (the viewport is restored)."""
    size = page.viewport_size
    page.set_viewport_size({"width": 360, "height": 740})
    try:
        return page.evaluate(
            "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"
        )
    finally:
        page.set_viewport_size(size)


def test_win_house_money_and_parlay(page, log_in_as, stack, axe_violations) -> None:  # noqa: F811
    from playwright.sync_api import expect

    stack(EIGHTS)
    start_round(page, log_in_as, "hana", side_bets={"house_money": 1000})
    expect(table(page)).to_have_attribute("data-phase", "house_money_parlay")
    panel = page.locator(".panel--house_money_parlay")
    expect(panel).to_contain_text("Pair pays 3 to 1: your $10.00 stake returns $40.00.")
    expect(panel.locator('[data-choice="all"]')).to_contain_text("New base bet $50.00")
    expect(panel.locator('[data-choice="bet"]')).to_contain_text("New base bet $20.00")
    expect(result_row(page, "house_money")).to_have_attribute("data-status", "won")
    assert axe_violations(page, "House Money parlay") == []
    assert not overflows_at_phone_width(page)

    page.get_by_role("button", name="Parlay all").click()
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    expect(page.get_by_test_id("bet")).to_have_text("$50.00")
    expect(table(page)).to_have_attribute("data-bank", "980.00")

    page.get_by_role("button", name="Stand").click()
    expect(table(page)).to_have_attribute("data-phase", "round_over")
    expect(outcome_row(page, "house_money")).to_contain_text("$40.00 parlayed onto hand 1's bet.")
    expect(page.locator("table.outcome tbody tr").first).to_contain_text("$100.00")
    expect(table(page)).to_have_attribute("data-bank", "1080.00")
    assert axe_violations(page, "outcome after a parlay") == []


def test_take_the_extra_bet(page, log_in_as, stack, axe_violations) -> None:  # noqa: F811
    from playwright.sync_api import expect

    stack(TEN_FIRST)
    start_round(page, log_in_as, "ezra", extra_bet=True)
    expect(table(page)).to_have_attribute("data-phase", "extra_bet")
    panel = page.locator(".panel--extra_bet")
    amount = page.get_by_label("Extra bet amount")
    fee = panel.locator(".extra-fee")
    expect(amount).to_have_value("10.00")
    expect(fee).to_contain_text("Fee: $2.00")
    assert axe_violations(page, "extra bet") == []
    assert not overflows_at_phone_width(page)

    # The fee follows the amount as it is typed, and the chips add to it (integer cents).
    amount.fill("12.34")
    expect(fee).to_contain_text("Fee: $2.46")  # 20% of $12.34 = $2.468, rounded down
    amount.fill("30")
    expect(fee).to_contain_text("Fee: $6.00")
    panel.get_by_role("button", name="$5", exact=True).click()
    expect(amount).to_have_value("35.00")
    expect(fee).to_contain_text("Fee: $7.00")
    expect(panel.get_by_role("button", name="$25", exact=True)).to_be_disabled()
    expect(panel.get_by_role("button", name="$10", exact=True)).to_be_enabled()

    # Over the 5× cap: told in the page, and the server refuses it (nothing changes).
    amount.fill("60")
    expect(panel.locator(".extra-problem")).to_contain_text("Over the limit of 5× your base bet")
    page.get_by_role("button", name="Place Extra Bet").click()
    expect(page.locator(".table-notice")).to_contain_text("at most 5× the base bet")
    expect(table(page)).to_have_attribute("data-phase", "extra_bet")
    expect(table(page)).to_have_attribute("data-bank", "990.00")

    page.get_by_label("Extra bet amount").fill("25")
    page.get_by_role("button", name="Place Extra Bet").click()
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    expect(table(page)).to_have_attribute("data-bank", "960.00")
    expect(result_row(page, "extra_bet_blackjack")).to_contain_text("Fee $5.00 (not returned).")

    page.get_by_role("button", name="Stand").click()
    expect(table(page)).to_have_attribute("data-phase", "round_over")
    row = outcome_row(page, "extra_bet_blackjack")
    expect(row).to_have_attribute("data-result", "won")
    expect(row).to_contain_text("Hand 1 wins (2 to 1)")
    expect(row).to_contain_text("$75.00")
    expect(table(page)).to_have_attribute("data-bank", "1055.00")


def test_extra_bet_chips_work_with_javascript_off(browser, live_server, log_in_as, stack) -> None:  # noqa: F811
    from playwright.sync_api import expect

    stack(TEN_FIRST)
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    page = context.new_page()
    try:
        start_round(page, log_in_as, "nojs", extra_bet=True)
        page.get_by_role("button", name="$25", exact=True).click()
        expect(page.get_by_label("Extra bet amount")).to_have_value("35.00")
        expect(page.locator(".extra-fee")).to_contain_text("Fee: $7.00")
        page.get_by_role("button", name="Place Extra Bet").click()
        expect(table(page)).to_have_attribute("data-phase", "player_turn")
        expect(table(page)).to_have_attribute("data-bank", "948.00")
    finally:
        context.close()


def test_roll_the_dice(page, log_in_as, stack, axe_violations) -> None:  # noqa: F811
    from playwright.sync_api import expect

    stack(SUITED_11)
    game = start_round(page, log_in_as, "dina", side_bets={"perfect_11s": 1000})
    script_dice(game, [6, 6, 6])
    expect(table(page)).to_have_attribute("data-phase", "dealing")
    expect(page.locator(".panel--dealing")).to_contain_text("Your suited 11 wins Perfect 11s")
    assert axe_violations(page, "Perfect 11s roll") == []

    page.get_by_role("button", name="Roll").click()
    dice = page.locator(".dice-result")
    for number in (1, 2, 3):
        expect(dice.get_by_role("img", name=f"Die {number}: infinity")).to_be_visible()
    expect(dice).to_contain_text("Suited 11, three infinities pays 25 to 1: you win $260.00.")
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    expect(table(page)).to_have_attribute("data-bank", "1240.00")
    assert axe_violations(page, "Perfect 11s dice") == []
    assert not overflows_at_phone_width(page)


def test_side_bet_results_after_the_deal_and_at_the_end(
    page,
    log_in_as,
    stack,  # noqa: F811
    axe_violations,
) -> None:
    from playwright.sync_api import expect

    stack(FLUSH)
    stakes = {"21+3": 1000, "perfect_pair": 500, "lucky_ladies": 500}
    start_round(page, log_in_as, "sami", side_bets=stakes)
    # The details are a disclosure beside the controls (each circle says its result).
    page.locator(".side-bet-results > summary").click()
    results = page.get_by_role("region", name="Side bet results")
    expect(results).to_be_visible()
    expect(result_row(page, "21+3")).to_contain_text("Flush, pays 5 to 1")
    expect(result_row(page, "21+3")).to_contain_text("Winnings $60.00")
    expect(result_row(page, "21+3").get_by_role("list")).to_contain_text("Nine of Hearts")
    expect(result_row(page, "perfect_pair")).to_have_attribute("data-status", "pending")
    expect(page.get_by_text("King of Clubs")).to_have_count(0)
    assert axe_violations(page, "side-bet results after the deal") == []

    page.get_by_role("button", name="Stand").click()
    expect(table(page)).to_have_attribute("data-phase", "round_over")
    for name in ("perfect_pair", "lucky_ladies"):
        expect(result_row(page, name)).to_have_attribute("data-status", "lost")
        expect(outcome_row(page, name)).to_contain_text("Lost")
    expect(outcome_row(page, "21+3")).to_contain_text("$60.00")
    assert axe_violations(page, "side-bet results at the end") == []
    assert not overflows_at_phone_width(page)
