"""Sound at the tables (static/js/sound.js): off until the player presses Sound, and then
a tick for each card, a clack for each chip and a chime for a won round, all made in the
browser; the choice is kept in the browser, at the single-player and the shared table.

What is heard is counted in the page: an init script (not inline in the page, so the policy
allows it) counts the AudioContexts made and the sound sources started."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.tables import services as table_services
from tests.browser import test_table_browser
from tests.browser.table_flows import settle
from tests.browser.test_round_flow_browser import watched_context
from tests.browser.test_table_browser import open_game_for, table
from tests.game.factories import PlayerFactory
from tests.game.tables.helpers import stack_table_shoe

pytestmark = pytest.mark.django_db(transaction=True)

# The shared fixtures of test_table_browser.py, found by pytest under these names.
stack = test_table_browser.stack
patient_expectations = test_table_browser.patient_expectations

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "sound"
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

# Player 0S 9D (19) stands against the upcard 6C over the hole card 0H (16); the dealer
# draws 8D and busts: the round is won.
PLAYER_WINS_SHOE = ["0S", "0H", "9D", "6C", "8D"]

COUNT_THE_SOUNDS = """
window.soundCount = { contexts: 0, started: 0 };
if (window.AudioContext) {
  window.AudioContext = class extends window.AudioContext {
    constructor(...args) { super(...args); window.soundCount.contexts += 1; }
  };
}
if (window.AudioScheduledSourceNode) {
  const start = AudioScheduledSourceNode.prototype.start;
  AudioScheduledSourceNode.prototype.start = function (...args) {
    window.soundCount.started += 1;
    return start.apply(this, args);
  };
}
"""

# The top bar's controls that are shown, and how many rows they take.
TOP_BAR_ROWS = """(selector) => {
  const shown = Array.from(document.querySelector(selector).children)
    .filter((element) => element.getClientRects().length > 0);
  return new Set(shown.map((element) => Math.round(element.getBoundingClientRect().top))).size;
}"""


def sounds(page) -> dict:
    return page.evaluate("() => ({ ...window.soundCount })")


def sound_toggle(page):
    return page.get_by_role("button", name="Sound", exact=True)


def look_at_both_sizes(page, name: str, top_bar: str) -> None:
    """Screenshots at a phone's and a desktop's size; the top bar stays on one row."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{size}.png"), caret="initial")
        assert page.evaluate(TOP_BAR_ROWS, top_bar) == 1, f"{name}: the top bar wraps ({size})"
    page.set_viewport_size(VIEWPORTS["desktop"])


def test_sound_is_off_until_turned_on_then_plays_and_is_remembered(
    log_in_as, browser, live_server, stack, settings
) -> None:
    from playwright.sync_api import expect

    settings.TABLE_CLOCK = "external"  # nothing at the shared table times out meanwhile
    settings.TABLE_STREAM_SECONDS = 5
    stack(PLAYER_WINS_SHOE)
    context, page, problems = watched_context(browser, live_server, viewport=VIEWPORTS["desktop"])
    context.add_init_script(COUNT_THE_SOUNDS)
    try:
        log_in_as(page, "sol")
        game = open_game_for("sol", trivia_mode=False)
        page.goto(f"/games/{game.pk}/")

        # Off by default: a chip makes no sound and no audio is even set up.
        toggle = sound_toggle(page)
        expect(toggle).to_have_attribute("aria-pressed", "false")
        page.get_by_role("button", name="$5", exact=True).click()
        expect(page.get_by_test_id("bet")).to_have_text("$5.00")
        assert sounds(page) == {"contexts": 0, "started": 0}
        look_at_both_sizes(page, "table-sound-off", ".top-bar")

        # On: a chip clacks, the deal ticks, the won round chimes.
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        assert sounds(page)["contexts"] == 1
        heard = sounds(page)["started"]
        page.get_by_role("button", name="$10", exact=True).click()
        expect(page.get_by_test_id("bet")).to_have_text("$15.00")
        assert sounds(page)["started"] > heard, "no chip sound"
        heard = sounds(page)["started"]
        page.get_by_role("button", name="Deal", exact=True).click()
        expect(page.get_by_role("button", name="Stand")).to_be_enabled()
        settle(page)
        assert sounds(page)["started"] > heard, "no card sound"
        heard = sounds(page)["started"]
        page.get_by_role("button", name="Stand").click()
        expect(table(page)).to_have_attribute("data-round-won", "")
        settle(page)
        # The hole card and the dealer's draw tick (two sources each), the chime is eight.
        assert sounds(page)["started"] - heard >= 8, "no chime for the won round"
        look_at_both_sizes(page, "table-sound-on", ".top-bar")

        # Remembered: on after a reload, where nothing plays before the player's first click.
        page.reload()
        expect(sound_toggle(page)).to_have_attribute("aria-pressed", "true")
        assert sounds(page) == {"contexts": 0, "started": 0}

        # And at a shared table, where the deal ticks and turning sound off silences it.
        host = PlayerFactory(username="ana")
        shared = table_services.create_table(
            host=host, name="Friday night", public=True, seat_count=5,
            options={"trivia_mode": False},
        )  # fmt: skip
        # Sol's 0S 7D (17) against the dealer's 8C over the hole card 0H (18).
        stack_table_shoe(shared, ["0S", "0H", "7D", "8C"])
        page.goto(f"/tables/{shared.pk}/")
        toggle = sound_toggle(page)
        expect(toggle).to_have_attribute("aria-pressed", "true")
        page.get_by_role("button", name="Sit Here, seat 1").click()
        page.get_by_role("button", name="$10", exact=True).click()
        expect(page.get_by_test_id("my-bet")).to_have_text("$10.00")
        assert sounds(page)["started"] > 0, "no chip sound at the shared table"
        look_at_both_sizes(page, "shared-table-sound-on", "#shared-table .top-bar")
        heard = sounds(page)["started"]
        page.get_by_role("button", name="Ready").click()
        expect(page.locator(".seat--mine .playing-card")).to_have_count(2)
        page.wait_for_function("(heard) => window.soundCount.started > heard", arg=heard)

        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "false")
        heard = sounds(page)["started"]
        page.get_by_role("button", name="Stand").click()
        expect(page.get_by_role("button", name="Stand")).to_have_count(0)
        page.wait_for_timeout(300)  # room for a late tick
        assert sounds(page)["started"] == heard, "a sound after Sound was turned off"
        page.reload()
        expect(sound_toggle(page)).to_have_attribute("aria-pressed", "false")
    finally:
        context.close()
    assert problems == []
