"""Two people in two browsers create, join and play a timed trivia
round at one table from the lobby, each seeing the other's moves appear without reloading
(T-10), and neither ever shown the hole card or the other's right answer early (T-11)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from game.rules.cards import card_name
from game.tables import services
from game.tables.models import Seat, SharedTable
from tests.browser.helpers import csp_violations, site_nav
from tests.browser.test_table_browser import patient_expectations
from tests.game.tables.helpers import stack_table_shoe, table_version
from tests.trivia.factories import QuestionFactory

pytestmark = pytest.mark.django_db(transaction=True)

patient = patient_expectations
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "tables"
# Ana (seat 1) 10+7, Ben (seat 3) 9+7, dealer hole 10 of hearts, upcard 8; then 2H to
# Ana's hit, and the dealer stands on 18.
CARDS = ["0S", "9S", "0H", "7D", "7C", "8C", "2H", "9H", "4C"]


@pytest.fixture
def two_players(browser, live_server, settings) -> Iterator[tuple[object, object]]:
    # The test plays faster than any deadline; no clock thread outlives it.
    settings.TABLE_CLOCK = "external"
    settings.TABLE_STREAM_SECONDS = 5  # streams end soon after the browsers close
    contexts, pages, violations = [], [], []
    for _ in range(2):
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": 1280, "height": 900}
        )
        context.set_default_timeout(15_000)
        page = context.new_page()
        violations.append(csp_violations(page))
        contexts.append(context)
        pages.append(page)
    yield pages[0], pages[1]
    for context in contexts:
        context.close()
    problems = [line for found in violations for line in found]
    assert not problems, "Content-Security-Policy violations:\n" + "\n".join(problems)


def seat(page, number: int):
    return page.locator(f'.seat[data-seat="{number}"]')


def test_two_players_play_a_trivia_round_at_one_table_live(
    two_players, log_in_as, axe_violations
) -> None:
    from playwright.sync_api import expect

    ana, ben = two_players
    for difficulty in ("easy", "medium", "hard"):
        QuestionFactory.create_batch(2, difficulty=difficulty)
    log_in_as(ana, "ana")
    log_in_as(ben, "ben")

    # Ana creates a table from the lobby (trivia on by default) and sits in seat 1.
    ana.get_by_role("link", name="Tables").click()
    ana.get_by_label("Table name").fill("Friday night")
    ana.get_by_role("button", name="Create Table").click()
    expect(ana.get_by_role("heading", name="Friday night")).to_be_visible()
    table = SharedTable.objects.get()
    stack_table_shoe(table, CARDS)
    assert not axe_violations(ana, "shared table, empty")
    ana.get_by_role("button", name="Sit Here, seat 1").click()
    expect(ana.get_by_role("button", name="Leave Table")).to_be_visible()

    # Ben finds it in the lobby, joins to watch, and sits in seat 3: Ana sees him arrive.
    ben.get_by_role("link", name="Tables").click()
    expect(ben.get_by_role("row", name="Friday night")).to_contain_text("1 / 5")
    ben.get_by_role("link", name="Join Friday night").click()
    expect(seat(ben, 1)).to_contain_text("ana")
    ben.get_by_role("button", name="Sit Here, seat 3").click()
    expect(seat(ana, 3)).to_contain_text("ben")  # live: Ana did not reload

    # Both bet $10 and press Ready: the deal appears on both screens.
    ana.get_by_role("button", name="$10", exact=True).click()
    ana.get_by_role("button", name="Ready").click()
    expect(seat(ben, 1)).to_contain_text("Ready")
    ben.get_by_role("button", name="$10", exact=True).click()
    ben.get_by_role("button", name="Ready").click()
    expect(ana.get_by_test_id("headline")).to_have_text("Your turn")
    expect(ben.get_by_test_id("headline")).to_have_text("ana's turn")
    expect(seat(ben, 1).get_by_role("img", name=card_name("7D"))).to_be_visible()
    expect(ana.get_by_role("timer")).to_contain_text("Time left")
    for page in (ana, ben):
        assert card_name("0H") not in page.content()  # the hole card
    assert not axe_violations(ana, "shared table, own turn")
    assert not axe_violations(ben, "shared table, watching a turn")

    # Ana hits: she picks a question, Ben sees that she is answering, not the question.
    ana.get_by_role("button", name="Hit").click()
    ana.get_by_role("button", name="Easy").click()
    expect(ana.get_by_role("heading", name="Easy question")).to_be_visible()
    question = Seat.objects.get(player__username="ana").pending_question.question
    expect(seat(ben, 1)).to_contain_text("ana is answering an Easy question")
    assert question.correct_answer not in ben.content()
    ana.get_by_role("button", name=question.correct_answer, exact=True).click()
    # The card she earned shows on Ben's screen without a reload, and the reveal in the log.
    expect(seat(ben, 1).get_by_role("img", name=card_name("2H"))).to_be_visible()
    expect(ben.locator("#table-log")).to_contain_text(question.correct_answer)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    ben.screenshot(path=str(SCREENSHOTS / "ben_watching_ana.png"), full_page=True)

    # Ana stands (19); Ben's turn; he stands (16); the dealer's 18 settles both.
    ana.get_by_role("button", name="Stand").click()
    expect(ben.get_by_test_id("headline")).to_have_text("Your turn")
    expect(ana.get_by_test_id("headline")).to_have_text("ben's turn")
    ben.get_by_role("button", name="Stand").click()
    expect(seat(ana, 3)).to_contain_text("LOSE", ignore_case=True)
    expect(seat(ben, 1)).to_contain_text("WIN", ignore_case=True)
    expect(ana.get_by_test_id("headline")).to_have_text("Place your bets.")
    # The end as the player sees it: the dealer's cards landed and the banks counted.
    ana.wait_for_function(
        "() => !window.DealSequence.playing()"
        " && document.getAnimations().every((a) => a.playState !== 'running')"
        " && !document.querySelector('#shared-table .bank-counting')"
    )
    ana.screenshot(path=str(SCREENSHOTS / "ana_after_the_round.png"), full_page=True)
    banks = dict(Seat.objects.values_list("player__username", "bank_cents"))
    assert banks == {"ana": 101_000, "ben": 99_000}


@pytest.mark.parametrize("width", [390, 1280])
def test_the_lobby_folds_the_house_rules_away_and_passes_axe(
    page, log_in_as, width, axe_violations
) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": width, "height": 900})
    log_in_as(page, f"lobby{width}")
    page.goto("/tables/")
    expect(page.get_by_label("Table name")).to_be_visible()
    expect(page.get_by_label("Decks in the shoe")).to_be_hidden()  # until House rules opens
    assert not axe_violations(page, "lobby")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"lobby_{width}.png"), full_page=True)
    page.get_by_text("House rules").click()
    expect(page.get_by_label("Decks in the shoe")).to_be_visible()


# Ana 5H 6H: a suited 11 (Perfect 11s: the dice) and a straight flush (House Money); Ben
# 0C JC: a ten-card first (the extra bet). Dealer 8D 9D (17): the parlay comes after.
SIDE_BET_CARDS = ["5H", "0C", "8D", "6H", "JC", "9D", "2C", "3C"]


def side_chip(page, bet: str, chip: str):
    """A chip of one side bet (the chips of each bet's group share the names "$1" …)."""
    return page.get_by_role("group", name=bet).get_by_role("button", name=chip, exact=True)


def test_side_bets_at_a_shared_table_dice_extra_bet_and_parlay(
    two_players, log_in_as, axe_violations
):
    from playwright.sync_api import expect

    ana, ben = two_players
    log_in_as(ana, "ana")
    log_in_as(ben, "ben")
    ana.get_by_role("link", name="Tables").click()
    ana.get_by_label("Table name").fill("Side bet night")
    ana.get_by_role("button", name="Create Table").click()  # side bets on by default
    table = SharedTable.objects.get()
    stack_table_shoe(table, SIDE_BET_CARDS)
    ana.get_by_role("button", name="Sit Here, seat 1").click()
    ben.goto(f"/tables/{table.pk}/")
    ben.get_by_role("button", name="Sit Here, seat 3").click()
    expect(seat(ana, 3)).to_contain_text("ben")

    # Ana stakes Perfect 11s and House Money in the Side Bets drawer, then bets and is ready.
    ana.get_by_role("button", name="Side Bets").click()
    side_chip(ana, "Perfect 11s", "$1").click()
    expect(ana.get_by_test_id("side-bet-total")).to_have_text("Side bets $1.00")
    side_chip(ana, "House Money", "$1").click()
    expect(ana.get_by_test_id("side-bet-total")).to_have_text("Side bets $2.00")
    assert not axe_violations(ana, "shared table, side bets drawer")
    ana.get_by_role("group", name="Chips").get_by_role("button", name="$10", exact=True).click()
    ana.get_by_role("button", name="Ready").click()
    expect(seat(ben, 1)).to_contain_text("Perfect 11s $1.00")  # live, with her Ready
    expect(seat(ben, 1)).to_contain_text("House Money $1.00")
    # Ben activates Extra Bet Blackjack.
    ben.get_by_role("button", name="Side Bets").click()
    ben.get_by_role("button", name="Activate").click()
    expect(ben.get_by_test_id("side-bet-total")).to_contain_text("Extra Bet Blackjack active")
    ben.get_by_role("group", name="Chips").get_by_role("button", name="$10", exact=True).click()
    ben.get_by_role("button", name="Ready").click()

    # R-4.3 / T-7: Ana rolls her dice; Ben, not concerned, waits.
    expect(ana.get_by_role("button", name="Roll")).to_be_visible()
    expect(ben.get_by_role("button", name="Roll")).to_have_count(0)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # caret="initial": Playwright's hidden caret would leave style="" on the focused field,
    # which htmx's settle then copies (a CSP violation of the test's own making).
    ana.screenshot(path=str(SCREENSHOTS / "side_bets_roll.png"), full_page=True, caret="initial")
    assert not axe_violations(ana, "shared table, dice to roll")
    ana.get_by_role("button", name="Roll").click()
    expect(seat(ben, 1)).to_contain_text("Perfect 11s $1.00: Won — Suited 11")
    # Ben's extra bet: up to 5× his $10 bet.
    expect(ben.get_by_role("button", name="Place Extra Bet")).to_be_visible()
    ben.get_by_label("Extra bet amount").fill("20")
    ben.screenshot(path=str(SCREENSHOTS / "side_bets_extra_bet.png"), full_page=True)
    assert not axe_violations(ben, "shared table, extra bet offer")
    ben.get_by_role("button", name="Place Extra Bet").click()
    expect(seat(ana, 3)).to_contain_text("Extra Bet Blackjack $20.00 (fee $4.00): Pending")
    # Ana's House Money: collect or parlay.
    expect(ana.get_by_role("button", name="Parlay all")).to_be_visible()
    ana.screenshot(path=str(SCREENSHOTS / "side_bets_parlay.png"), full_page=True, caret="initial")
    ana.get_by_role("button", name="Collect").click()
    expect(ana.get_by_test_id("headline")).to_have_text("Your turn")
    ana.get_by_role("button", name="Stand").click()
    ben.get_by_role("button", name="Stand").click()
    expect(seat(ana, 3)).to_contain_text("Extra Bet Blackjack $20.00 (fee $4.00): Won")
    banks = dict(Seat.objects.values_list("player__username", "bank_cents"))
    # Ben: bet 10 wins 20, extra bet 20 (fee 4) wins 60.
    assert banks["ben"] == 100_000 - 1_000 - 2_400 + 2_000 + 6_000


def test_betting_at_a_shared_table_fits_a_phone(page, log_in_as, settings, axe_violations) -> None:
    """390 px: the felt, the seats and the bet with its Side Bets drawer open fit the
    screen's width (nothing to scroll sideways) and pass axe."""
    from playwright.sync_api import expect

    settings.TABLE_CLOCK = "external"
    settings.TABLE_STREAM_SECONDS = 5
    page.set_viewport_size({"width": 390, "height": 844})
    log_in_as(page, "phone")
    page.goto("/tables/")
    page.get_by_label("Table name").fill("Phone table")
    page.get_by_role("button", name="Create Table").click()
    page.get_by_role("button", name="Sit Here, seat 1").click()
    page.get_by_role("button", name="$10", exact=True).first.click()
    expect(page.get_by_test_id("my-bet")).to_have_text("$10.00")
    page.get_by_role("button", name="Side Bets").click()
    expect(page.get_by_role("group", name="21+3")).to_be_visible()
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{overflow}px to scroll sideways"
    assert not axe_violations(page, "shared table, betting on a phone")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "betting_390.png"), full_page=True)


# --------------------------------------------------------------------- following in time

IN_TIME_SCREENSHOTS = SCREENSHOTS.parent / "shared"
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def player_pages(table_screens, settings):
    """``open_as(user, viewport)``: a table screen (conftest.py) logged in as ``user``, the
    clipboard allowed (Invite Link's Copy)."""
    settings.TABLE_STREAM_SECONDS = 2  # a logged-out page is told within this

    def open_as(user, viewport):
        return table_screens(user, viewport, permissions=["clipboard-read", "clipboard-write"])

    return open_as


def box_of(page, locator) -> dict:
    """Where ``locator`` is on screen, once shown. A live update may swap the table in
    between finding the element and measuring it; a box lost to the swap is measured again."""
    from playwright.sync_api import expect

    for _ in range(20):
        expect(locator).to_be_visible()
        box = locator.bounding_box()
        if box is not None:
            return box
        page.wait_for_timeout(50)
    raise AssertionError(f"not shown: {locator}")


def in_viewport(page, locator) -> None:
    """``locator`` is wholly on screen, without scrolling."""
    box = box_of(page, locator)
    size = page.viewport_size
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], f"below the fold: {box}"
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], f"off the side: {box}"


def chip(page, name: str):
    return page.get_by_role("group", name="Chips").get_by_role("button", name=name, exact=True)


def shot(page, name: str) -> None:
    IN_TIME_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(IN_TIME_SCREENSHOTS / f"{name}.png"), caret="initial")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_each_player_follows_the_shared_table_in_time(player_pages, axe_violations, size) -> None:
    """Two players, one round, on a desktop and on a phone: each reads whose turn it is,
    their own controls on screen whenever they have something to press, the other's wrong
    answer at her seat, Invite Link's Copy, and the notice once the stream has ended."""
    from playwright.sync_api import expect

    from tests.game.factories import PlayerFactory

    viewport = VIEWPORTS[size]
    width = viewport["width"]
    QuestionFactory.create_batch(2, difficulty="easy")
    ana_user, ben_user = PlayerFactory(username="ana"), PlayerFactory(username="ben")
    table = services.create_table(
        host=ana_user,
        name="Friday night",
        public=True,
        seat_count=5,
        intermission_seconds=30,
        options={"trivia_mode": True},
    )
    for user, number in ((ana_user, 1), (ben_user, 3)):
        services.sit(table_id=table.pk, user=user, version=services.NO_SEAT_VERSION, number=number)
    stack_table_shoe(table, CARDS)
    ana, ben = player_pages(ana_user, viewport), player_pages(ben_user, viewport)
    for page in (ana, ben):
        page.goto(f"/tables/{table.pk}/")
        # The last live update the page has had (applied, or skipped as older than shown).
        page.evaluate(
            "document.addEventListener('table:updated',"
            " e => { window.lastUpdate = Number(e.detail.id); })"
        )

    # The intermission: the chips and Ready on screen for both; the toolbar one row.
    for page in (ana, ben):
        in_viewport(page, page.get_by_role("button", name="Ready"))
        in_viewport(page, chip(page, "$500"))
    tools = [
        ana.get_by_role(role, name=name)
        for role, name in (
            ("link", "Table Options"),
            ("link", "Invite Link"),
            ("button", "Close Table"),
            ("button", "Leave Table"),
            ("link", "Lobby"),
        )
    ]
    boxes = [box_of(ana, tool) for tool in tools]
    assert len({round(box["y"]) for box in boxes}) == 1 and max(b["height"] for b in boxes) < 48
    assert boxes[-1]["x"] + boxes[-1]["width"] <= width
    shot(ana, f"betting-{width}")

    # Invite Link: a dialog with the link and Copy.
    ana.get_by_role("link", name="Invite Link").click()
    dialog = ana.get_by_role("dialog", name="Invite Link")
    expect(dialog).to_be_visible()
    link = dialog.get_by_role("textbox").input_value()
    assert link.endswith(f"/tables/invite/{table.invite_token}/")
    dialog.get_by_role("button", name="Copy").click()
    expect(dialog.get_by_role("status")).to_have_text("Copied")
    assert ana.evaluate("navigator.clipboard.readText()") == link
    shot(ana, f"invite-{width}")
    if size == "phone":
        assert not axe_violations(ana, "shared table, invite dialog")
    # A new link: the table is answered anew, the dialog stays open with the new link.
    dialog.get_by_role("button", name="New link").click()
    expect(dialog.get_by_role("textbox")).not_to_have_value(link)
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Done").click()
    expect(dialog).to_be_hidden()
    # The new link's live update has come too (it replaces the table: a chip pressed while
    # it lands could press the table being replaced).
    ana.wait_for_function("v => (window.lastUpdate || 0) >= v", arg=table_version(table))

    # Both bet; Ana's turn: "Your turn" for her (said in the live region too), Hit and
    # Stand on her screen; Ben reads her name and waits.
    def bet_ten_and_ready(page) -> None:
        chip(page, "$10").click()
        expect(page.get_by_test_id("my-bet")).to_have_text("$10.00")
        page.get_by_role("button", name="Ready").click()

    bet_ten_and_ready(ana)
    # Ben's page has Ana's Ready before he bets (a live update rendered before his own
    # chip would show his bet as it was before it).
    expect(seat(ben, 1)).to_contain_text("Ready")
    bet_ten_and_ready(ben)
    expect(ana.get_by_test_id("headline")).to_have_text("Your turn")
    expect(ana.locator("#turn-live")).to_have_text("Your turn")
    expect(ben.get_by_test_id("headline")).to_have_text("ana's turn")
    expect(ben.locator("#turn-live")).to_have_text("ana's turn")
    assert ben.get_by_text("Your turn").count() == 0
    for name in ("Hit", "Stand"):
        in_viewport(ana, ana.get_by_role("button", name=name, exact=True))
    in_viewport(ana, ana.get_by_test_id("headline"))
    card = seat(ana, 1).get_by_role("img", name=card_name("7D"))
    if width >= 1024:
        assert box_of(ana, card)["width"] >= 44
    shot(ana, f"your-turn-{width}")
    shot(ben, f"their-turn-{width}")

    # Ana hits and answers wrong (the answers lettered A–D, on her screen); Ben sees her
    # question, her answer and the right one at her seat, then plays his own turn.
    ana.get_by_role("button", name="Hit", exact=True).click()
    ana.get_by_role("button", name="Easy").click()
    answers = ana.get_by_role("group", name="Answers")
    expect(answers.locator(".answer-letter")).to_have_text(["A", "B", "C", "D"])
    in_viewport(ana, answers.get_by_role("button").last)
    asked = Seat.objects.get(player=ana_user).pending_question
    question = asked.question
    wrong = next(answer for answer in asked.answers_shown if answer != question.correct_answer)
    assert question.correct_answer not in ben.content()
    shot(ana, f"question-{width}")
    answers.get_by_role("button", name=wrong, exact=True).click()
    reveal = seat(ben, 1).get_by_test_id("seat-reveal")
    expect(reveal).to_contain_text(question.text)
    expect(reveal).to_contain_text(f"ana's answer: {wrong}")
    expect(reveal).to_contain_text(f"Right answer: {question.correct_answer}")
    expect(ben.get_by_test_id("headline")).to_have_text("Your turn")
    in_viewport(ben, ben.get_by_role("button", name="Stand", exact=True))
    shot(ben, f"reveal-{width}")
    ben.get_by_role("button", name="Stand", exact=True).click()
    expect(ana.get_by_test_id("headline")).to_have_text("Place your bets.")
    in_viewport(ana, ana.get_by_role("button", name="Ready"))
    shot(ana, f"round-over-{width}")

    # Ben logs out in another tab: his table's page says its live updates ended.
    other = ben.context.new_page()
    other.goto("/tables/")
    site_nav(other).get_by_role("button", name="Log out").click()
    # Closed only once the front door has loaded: Chromium can drop a close that races a
    # navigation's commit, and Playwright's close() then waits for ever (crbug.com/536385539).
    other.wait_for_url(lambda url: urlsplit(url).path == "/")
    other.close()
    notice = ben.locator("#live-ended")
    expect(notice).to_be_visible(timeout=8_000)
    expect(notice).to_contain_text("Live updates have stopped")
    in_viewport(ben, notice.get_by_role("button", name="Reload"))
    shot(ben, f"stream-ended-{width}")


@pytest.mark.parametrize("width", [768, 1024, 1280])
def test_the_hosts_tools_keep_one_row_with_the_tables_name(table_screens, width) -> None:
    """A seated host's five tools and Sound share the table name's row from a tablet up
    (on narrower screens than a laptop's each shows its key word), and nothing scrolls
    sideways."""
    from tests.game.factories import PlayerFactory

    host = PlayerFactory(username="ana")
    table = services.create_table(host=host, name="Friday night", public=True, seat_count=5)
    services.sit(table_id=table.pk, user=host, version=services.NO_SEAT_VERSION, number=1)
    page = table_screens(host, {"width": width, "height": 900})
    page.goto(f"/tables/{table.pk}/")
    name = page.get_by_role("heading", name="Friday night", level=1).bounding_box()
    assert name is not None
    row = name["y"] + name["height"] / 2
    tools = [
        page.get_by_role("link", name="Table Options"),
        page.get_by_role("link", name="Invite Link"),
        page.get_by_role("button", name="Close Table"),
        page.get_by_role("button", name="Leave Table"),
        page.get_by_role("link", name="Lobby", exact=True).last,
        page.get_by_role("button", name="Sound"),
    ]
    for tool in tools:
        box = tool.bounding_box()
        assert box is not None and abs(box["y"] + box["height"] / 2 - row) <= 12, (tool, box)
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


def test_the_side_bets_drawer_on_a_desktop_keeps_each_bets_chips_on_one_line(
    table_screens,
) -> None:
    from tests.game.factories import PlayerFactory

    host = PlayerFactory(username="ana")
    table = services.create_table(host=host, name="Friday night", public=True, seat_count=5)
    services.sit(table_id=table.pk, user=host, version=services.NO_SEAT_VERSION, number=1)
    page = table_screens(host, {"width": 1280, "height": 800})
    page.goto(f"/tables/{table.pk}/")
    page.get_by_role("button", name="Side Bets").click()
    from playwright.sync_api import expect

    chips = page.get_by_role("group", name="Perfect Pair").get_by_role("button", name="$")
    expect(chips).to_have_count(6)
    expect(chips.last).to_be_visible()
    lines = {round(chip.bounding_box()["y"]) for chip in chips.all()}
    assert len(lines) == 1, lines
