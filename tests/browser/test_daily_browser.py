"""The Daily Shoe walked in a phone-sized browser (FAIRNESS.md D-1, D-5, D-7, D-8): an
account plays today's twenty rounds through the table (Deal, then Rebet; Stand, declining
insurance), the Daily page shows the result, and Share copies the spoiler-free summary;
the front door shows the result too, and yesterday's revealed shoes check in the browser."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from game.core import clock as game_clock
from game.core.clock import epoch_ms
from game.models import DailyAttempt
from game.rules.clock import FakeClock
from game.services import daily
from tests.browser.table_flows import finish_animations
from tests.browser.test_table_browser import table
from tests.game.factories import PlayerFactory
from tests.game.test_daily_attempts import deal, finish_round
from tests.trivia.factories import QuestionFactory

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "daily"
TODAY = date(2026, 11, 28)
PHONE = {"width": 390, "height": 844}
DECLINE = '#table .felt .panel button[value="decline"]'
SHARE_LINE = re.compile(
    r"^Blackjack Trivia Daily 2026-11-28 · \$[0-9,]+ · [🟩🟥⬜⬛]{20} · trivia \d+/\d+$"
)


@pytest.fixture
def today(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """The game clock at noon UTC on TODAY; the live server reads it in this process."""
    clock = FakeClock(epoch_ms(datetime(2026, 11, 28, 12, tzinfo=UTC)))
    monkeypatch.setattr(game_clock, "CLOCK", clock)
    return clock


def press(page, locator) -> None:
    """Press a table control once the table is at rest, and wait for the new table."""
    finish_animations(page)
    old = page.query_selector("#table")
    locator.click()
    page.wait_for_function("old => !old.isConnected", arg=old)


def play_to_the_end(page) -> int:
    """Play the attempt on screen to its end standing on every hand; the rounds dealt."""
    dealt = 0
    for _ in range(200):
        finish_animations(page)
        panel = table(page).get_attribute("data-panel")
        if panel == "game_over":
            return dealt
        if panel in ("bet", "outcome"):
            rebet = page.get_by_role("button", name="Rebet", exact=True)
            button = rebet if rebet.count() else page.get_by_role("button", name="Deal")
            press(page, button)
            dealt += 1
            if dealt == 3:
                finish_animations(page)
                page.screenshot(path=str(SCREENSHOTS / "table-mid-attempt.png"))
        elif page.locator(DECLINE).count():
            press(page, page.locator(DECLINE))
        else:
            press(page, page.get_by_role("button", name="Stand", exact=True))
    raise AssertionError(f"the attempt did not end (panel {panel})")


@pytest.mark.django_db(transaction=True)
def test_a_whole_daily_shoe_on_a_phone_then_share(page, log_in_as, today, axe_violations) -> None:
    from playwright.sync_api import expect

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for difficulty in ("easy", "medium", "hard"):
        QuestionFactory.create_batch(4, difficulty=difficulty)
    page.set_viewport_size(PHONE)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    user = log_in_as(page, "dana")

    page.goto("/")
    expect(page.locator(".front__daily")).to_contain_text("Play today's Daily Shoe")
    page.goto("/daily/")
    page.get_by_role("button", name="Play Daily Shoe").click()
    expect(table(page)).to_be_visible()
    dealt = play_to_the_end(page)

    attempt = DailyAttempt.objects.get(player=user)
    assert attempt.finished and dealt == len(attempt.rounds)
    assert dealt == 20 or attempt.final_bank_cents < 10_000

    page.goto("/daily/")
    share = page.locator("#share-text")
    expect(share).to_be_visible()
    text = share.input_value()
    assert SHARE_LINE.match(text), text
    page.get_by_role("button", name="Share").click()
    expect(page.locator("[data-copy-note]")).to_have_text("Copied: paste it anywhere.")
    assert page.evaluate("() => navigator.clipboard.readText()") == text
    page.screenshot(path=str(SCREENSHOTS / "result.png"), full_page=True)
    expect(page.locator(".daily__status")).to_contain_text("ranked 1 of 1 so far")

    page.get_by_role("link", name="Today's leaderboard").click()
    own = page.locator("#own-row")
    expect(own).to_contain_text("dana")
    expect(own).to_have_attribute("aria-current", "true")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(SCREENSHOTS / "leaderboard.png"), full_page=True)
    leaderboard_problems = axe_violations(page, "leaderboard")
    assert not leaderboard_problems, "\n".join(leaderboard_problems)

    page.goto("/")
    card = page.locator(".front__daily")
    expect(card).to_contain_text("Your result today")
    box = card.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    overflow = page.evaluate("() => document.documentElement.scrollWidth")
    assert overflow <= PHONE["width"]
    page.screenshot(path=str(SCREENSHOTS / "front-door.png"), full_page=True)
    problems = axe_violations(page, "front door")
    assert not problems, "\n".join(problems)


@pytest.mark.django_db(transaction=True)
def test_yesterday_revealed_replayed_and_checked_in_the_browser(
    page, log_in_as, today, axe_violations
) -> None:
    from playwright.sync_api import expect

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for difficulty in ("easy", "medium", "hard"):
        QuestionFactory.create_batch(4, difficulty=difficulty)
    today.now_ms -= 24 * 3600 * 1000
    yesterday = daily.daily_shoe_for(date(2026, 11, 27))
    player = PlayerFactory(username="eli")
    attempt = daily.start_attempt(user=player, day=yesterday)
    game = attempt.game
    for _ in range(20):
        game = finish_round(deal(game, player), player, hit_first=False)
        if game.is_over:
            break
    today.now_ms += 24 * 3600 * 1000
    page.set_viewport_size(PHONE)
    log_in_as(page, "fay")
    page.goto("/daily/")
    page.get_by_role("link", name="Yesterday's Daily Shoe, revealed").click()
    expect(page.get_by_test_id("day-seed")).to_have_text(yesterday.server_seed)
    page.screenshot(path=str(SCREENSHOTS / "yesterday.png"), full_page=True)
    problems = axe_violations(page, "past day")
    page.get_by_role("link", name="eli").click()
    expect(page.locator("[data-round]").first).to_contain_text("Dealer")
    # The same replay from yesterday's leaderboard, where each name opens its attempt.
    replay_url = page.url
    page.goto("/daily/2026-11-27/leaderboard/")
    page.get_by_role("link", name="Replay eli's attempt").click()
    expect(page).to_have_url(replay_url)
    # The url changes when the new page commits, before its document is parsed.
    expect(page.locator("[data-round]").first).to_contain_text("Dealer")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(SCREENSHOTS / "replay.png"))
    problems += axe_violations(page, "replay")
    page.goto("/daily/2026-11-27/")
    page.get_by_role("link", name="Check the day's 20 shoes").click()
    verdicts = page.locator("[data-fairness-verdict]")
    expect(verdicts).to_have_count(20)
    for index in range(20):
        expect(verdicts.nth(index)).to_contain_text("✔")
    page.screenshot(path=str(SCREENSHOTS / "fairness-yesterday.png"))
    problems += axe_violations(page, "past day's fairness")
    assert not problems, "\n".join(problems)
