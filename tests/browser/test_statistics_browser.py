"""The statistics page after a few rounds played in Chromium, and its axe-core scan."""

from __future__ import annotations

import re

import pytest

from game import services
from tests.browser.test_table_browser import open_game_for, sign_up, stack, table  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

# Round 1: AS KD natural against 9H 8C (+$15). Round 2: 0S 7D (17) against 0H 9C (19),
# stand: -$10. Round 3: 0S 8D (18) against 0H 8C (18), stand: push.
THREE_ROUNDS = ["AS", "9H", "KD", "8C", "0S", "0H", "7D", "9C", "0S", "0H", "8D", "8C"]


@pytest.fixture(autouse=True)
def patient_expectations() -> None:
    """Other suites share this 2-core machine; give swaps time before failing."""
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)


def deal(page, *, stand: bool, button: str = "Deal") -> None:
    from playwright.sync_api import expect

    round_number = int(table(page).get_attribute("data-round") or 0)
    page.get_by_role("button", name=button).click()
    expect(table(page)).to_have_attribute("data-round", str(round_number + 1))
    if stand:
        expect(table(page)).to_have_attribute("data-phase", "player_turn")
        page.get_by_role("button", name="Stand").click()
    expect(table(page)).to_have_attribute("data-phase", "round_over")


def rebet(page, *, stand: bool) -> None:
    """The outcome's Rebet: the same bet dealt again in one click."""
    deal(page, stand=stand, button="Rebet")


def test_statistics_after_three_rounds(page, log_in_as, stack, axe_violations) -> None:  # noqa: F811
    from playwright.sync_api import expect

    stack(THREE_ROUNDS)
    log_in_as(page, "stats-ada")
    game = open_game_for("stats-ada", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    page.get_by_label("Bet amount").fill("10")
    deal(page, stand=False)
    expect(table(page)).to_have_attribute("data-bank", "1015.00")
    rebet(page, stand=True)
    expect(table(page)).to_have_attribute("data-bank", "1005.00")
    rebet(page, stand=True)
    expect(table(page)).to_have_attribute("data-bank", "1005.00")

    page.get_by_role("navigation", name="Account").get_by_role("link", name="Statistics").click()
    page.wait_for_url(re.compile(r"/games/statistics/$"))
    expect(page.get_by_role("heading", name="Your statistics")).to_be_visible()
    for testid, text in [
        ("stat-games", "1"),
        ("stat-rounds", "3"),
        ("stat-hands", "3"),
        ("stat-hands-won", "1"),
        ("stat-hands-lost", "1"),
        ("stat-hands-pushed", "1"),
        ("stat-hands-surrendered", "0"),
        ("stat-naturals", "1"),
        ("stat-staked", "$30.00"),
        ("stat-paid", "$35.00"),
        ("stat-net", "+$5.00"),
        ("stat-biggest-win", "$15.00"),
    ]:
        expect(page.get_by_test_id(testid)).to_have_text(text)
    # Trivia was off: every difficulty shows nothing answered yet.
    expect(page.locator('tr[data-difficulty="all"]')).to_contain_text("0")
    expect(page.get_by_text("No side bets yet.")).to_be_visible()

    assert axe_violations(page, "statistics page") == []

    # A round with two side bets (played through the services: the side-bet menu is
    # another panel's test) adds its rows: both lose on AS KD against an 8C upcard.
    side_game = open_game_for("stats-ada", trivia_mode=False)
    services.place_bet_and_deal(
        game_id=side_game.pk,
        user=side_game.owner,
        version=side_game.version,
        bet_cents=1000,
        side_bets={"perfect_pair": 500, "21+3": 500},
    )
    page.reload()
    expect(page.get_by_test_id("stat-rounds")).to_have_text("4")
    expect(page.get_by_test_id("stat-net")).to_have_text("+$10.00")
    pair_row = page.locator('tr[data-side-bet="perfect_pair"]')
    expect(pair_row).to_contain_text("Perfect Pair")
    expect(pair_row.locator("td").last).to_have_text("−$5.00")
    assert axe_violations(page, "statistics page with side bets") == []
    # No horizontal scrolling on a 360 px phone either.
    page.set_viewport_size({"width": 360, "height": 800})
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    inner_overflow = page.evaluate(
        "() => [...document.querySelectorAll('.table-scroll')]"
        ".map(region => region.scrollWidth - region.clientWidth)"
    )
    assert inner_overflow == [0, 0]
    assert axe_violations(page, "statistics page at 360 px") == []
