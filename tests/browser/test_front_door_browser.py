"""The front door (UI.md): the home page's picture of the table and Play now above the
fold on a desktop's 1280 × 800 and a phone's 390 × 844; Play now seats a guest at a new
game, a round is played, signing up keeps the game in My games; then the game-over moment.
Screenshots: test-artifacts/screenshots/front/<step>-<width>.png (gitignored)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.models import Game
from tests.browser import test_table_browser
from tests.browser.helpers import site_nav
from tests.browser.table_flows import finish_animations
from tests.browser.test_table_browser import PASSWORD
from tests.browser.test_table_browser import table as table_of

pytestmark = pytest.mark.django_db(transaction=True)

stack = test_table_browser.stack
patient_expectations = test_table_browser.patient_expectations

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "front"
VIEWPORTS = {1280: 800, 390: 844}
# Ten and nine against the dealer's seven and ten (hole): 19 stands and beats 17.
WIN_SHOE = ["0S", "0H", "9D", "7C"]

# Whether the control is wholly on the screen with the page unscrolled, and nothing wider
# than the screen.
IN_VIEW = """(element) => {
  const box = element.getBoundingClientRect();
  return window.scrollY === 0 && box.top >= 0 && box.left >= 0
    && box.bottom <= window.innerHeight && box.right <= window.innerWidth
    && document.documentElement.scrollWidth <= window.innerWidth;
}"""


def shoot(page, step: str, width: int) -> None:
    finish_animations(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{step}-{width}.png"), caret="initial")


def test_play_now_as_a_guest_sign_up_and_the_game_stays(page, stack) -> None:
    from playwright.sync_api import expect

    for width, height in VIEWPORTS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto("/")
        play_now = page.get_by_role("button", name="Play now", exact=True)
        expect(play_now).to_be_visible()
        expect(page.get_by_role("img", name=re.compile("The table mid-round"))).to_be_visible()
        assert play_now.evaluate(IN_VIEW), f"Play now is not above the fold at {width}px"
        shoot(page, "home", width)

    # On the phone: Play now seats a guest at a new game, with a word on credits.
    stack(WIN_SHOE)
    page.get_by_role("button", name="Play now", exact=True).click()
    table = table_of(page)
    expect(table).to_have_attribute("data-phase", "betting")
    expect(page.get_by_test_id("credits-intro")).to_contain_text("Credits pay for questions")
    shoot(page, "guest-table", 390)
    game = Game.objects.get()

    page.get_by_role("button", name="$10", exact=True).click()
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(table).to_have_attribute("data-phase", "player_turn")
    expect(page.get_by_test_id("credits-intro")).to_have_count(0)
    page.get_by_role("button", name="Stand", exact=True).click()
    expect(table).to_have_attribute("data-panel", "outcome")
    expect(table).to_have_attribute("data-bank", "1010.00")

    page.get_by_role("link", name="Save your game — Sign up").click()
    expect(page.get_by_role("heading", name="Save your game")).to_be_visible()
    page.get_by_label("Username").fill("grace")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(re.compile(r"/games/$"))
    # On the phone the account's line is behind Menu.
    expect(site_nav(page).get_by_text("Signed in as grace")).to_be_visible()
    rows = page.locator("table.games tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-game", str(game.pk))
    expect(rows.first.get_by_role("link", name="Resume")).to_be_visible()

    # The game over: a moment centred on the felt, with New Game in view.
    page.goto(f"/games/{game.pk}/end/")
    page.get_by_role("button", name="End Game").click()
    expect(table).to_have_attribute("data-panel", "game_over")
    moment = page.get_by_role("region", name="Game ended")
    expect(moment.get_by_test_id("best-hand")).to_contain_text("Win +$10.00")
    expect(moment.get_by_test_id("final-bank")).to_have_text("$1,010.00")
    for width, height in VIEWPORTS.items():
        page.set_viewport_size({"width": width, "height": height})
        new_game = moment.get_by_role("button", name="New Game")
        expect(new_game).to_be_visible()
        assert new_game.evaluate(IN_VIEW), f"New Game is not in view at {width}px"
        shoot(page, "game-over", width)
