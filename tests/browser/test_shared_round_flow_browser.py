"""The dealer's turn at a shared table in Chromium (UI.md "The flow of a round", "Shared
tables"): on every screen at once -- the player who acted (the htmx answer) and the other
(the live stream), a desktop and a phone -- the hole card turns, each draw lands on its own,
and only after the last one do the badges, the headline and the bank change; a press
finishes it at once; under reduced motion, and without JavaScript, the end shows at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.tables import services
from game.tables.models import Seat, SharedTable
from tests.browser import test_table_browser
from tests.game.factories import PlayerFactory
from tests.game.tables.helpers import bet_and_ready, stack_table_shoe

pytestmark = pytest.mark.django_db(transaction=True)

patient_expectations = test_table_browser.patient_expectations

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "shared"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# Deal order: seat 1, seat 3, the dealer's hole card, seat 1, seat 3, the dealer's upcard.
# Round 1: Ana 0S 9S (19), Ben 0C 8C (18); the dealer's 2H under 3C draws 4D, 5S and KD
# (24, bust): both win $10. Round 2: the same again with other cards.
TWO_ROUNDS = [
    *["0S", "0C", "2H", "9S", "8C", "3C", "4D", "5S", "KD"],
    *["0H", "0D", "2C", "9H", "8D", "3S", "4C", "5H", "KS"],
]
ONE_PLAYER_ROUND = ["0S", "2H", "9S", "3C", "4D", "5S", "KD"]  # the same, for one seat

# What the felt shows of the round's end, read in the page: the dealer's cards that have
# landed face up (no animation still to play), the badges that can be seen, the headline
# ("hidden" while held) and the viewer's bank in the status bar.
READ_THE_FELT = """() => {
  const table = document.getElementById("shared-table");
  const seen = (element) => element && element.checkVisibility(
    {visibilityProperty: true, opacityProperty: true});
  const landed = Array.from(table.querySelectorAll(".dealer-area .playing-card")).filter(
    (card) => !card.classList.contains("playing-card--back")
      && card.getAnimations().every((animation) => animation.playState === "finished"));
  const headline = table.querySelector(".headline");
  return {
    faceUp: landed.length,
    badges: Array.from(table.querySelectorAll(".seat .badge")).filter(seen).length,
    headline: seen(headline) ? headline.textContent.trim() : "hidden",
    bank: table.querySelector('[data-testid="my-bank"]').textContent.trim(),
    at: Date.now(),
  };
}"""

# Installed before the dealer's turn: records the felt at each dealer card's landing (its
# animation's end) and, frame by frame, each change of how many dealer cards lie face up;
# window.dealerTurn settles once the round's end is shown, no card moving, the bank counted.
WATCH_THE_DEALER = """(readTheFelt) => {
  const watch = { landings: [], counts: [], started: null };
  document.addEventListener("animationend", (event) => {
    if (!event.target.closest || !event.target.closest("#shared-table .dealer-area")) { return; }
    watch.landings.push({ name: event.animationName, card: event.target.dataset.card,
                          felt: readTheFelt() });
  }, true);
  window.dealerTurn = new Promise((resolve, reject) => {
    const begun = performance.now();
    const look = () => {
      const felt = readTheFelt();
      const counts = watch.counts;
      if (!counts.length || counts[counts.length - 1] !== felt.faceUp) { counts.push(felt.faceUp); }
      const moving = document.querySelector("#shared-table .dealer-area .playing-card--dealt");
      if (moving && watch.started === null) { watch.started = felt.at; }
      const still = document.getAnimations().every((a) => a.playState !== "running")
        && !document.querySelector("#shared-table .bank-counting");
      if (watch.started !== null && felt.headline === "Place your bets." && still) {
        resolve({ ...watch, after: felt });
      } else if (performance.now() - begun > 30000) {
        reject(new Error("no dealer's turn: " + JSON.stringify(watch)));
      } else {
        requestAnimationFrame(look);
      }
    };
    look();
  });
}"""


@pytest.fixture(autouse=True)
def streams_that_end_soon(settings) -> None:
    settings.TABLE_STREAM_SECONDS = 5


def shared_table(players: list, cards: list[str]) -> SharedTable:
    """A public table without trivia, ``players`` seated in seats 1, 3, …, its shoe
    stacked with ``cards``."""
    table = services.create_table(
        host=players[0],
        name="Friday night",
        public=True,
        seat_count=5,
        intermission_seconds=30,
        options={"trivia_mode": False},
    )
    for index, user in enumerate(players):
        number = 1 + 2 * index
        services.sit(table_id=table.pk, user=user, version=services.NO_SEAT_VERSION, number=number)
    return stack_table_shoe(table, cards)


def open_table(page, table: SharedTable) -> None:
    page.goto(f"/tables/{table.pk}/")
    # The page's scripts have run (deal_sequence.js, the stream opened).
    page.wait_for_function("() => window.DealSequence !== undefined")


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), caret="initial")


def wait_until_still(page) -> None:
    page.wait_for_function(
        "() => !window.DealSequence.playing()"
        " && document.getAnimations().every((a) => a.playState !== 'running')"
        " && !document.querySelector('#shared-table .bank-counting')"
    )


def test_both_screens_see_the_dealers_cards_land_one_by_one(table_screens) -> None:
    from playwright.sync_api import expect

    ana_user, ben_user = PlayerFactory(username="ana"), PlayerFactory(username="ben")
    table = shared_table([ana_user, ben_user], TWO_ROUNDS)
    ana, ben = table_screens(ana_user, DESKTOP), table_screens(ben_user, PHONE)
    for page in (ana, ben):
        open_table(page, table)
    bet_and_ready(table, ana_user)
    bet_and_ready(table, ben_user)
    # The deal reaches both screens through the stream, card by card too.
    for page in (ana, ben):
        expect(page.locator(".seat .playing-card--dealt")).to_have_count(4)
        wait_until_still(page)
    expect(ana.get_by_test_id("headline")).to_have_text("Your turn")
    expect(ben.get_by_test_id("headline")).to_have_text("ana's turn")
    expect(ben.get_by_test_id("my-bank")).to_have_text("$990.00")

    # Ana stands; Ben, on his phone, stands last: the dealer plays on his screen from his
    # own answer, on Ana's from the stream.
    ana.get_by_role("button", name="Stand").click()
    expect(ben.get_by_test_id("headline")).to_have_text("Your turn")
    wait_until_still(ana)
    for page in (ana, ben):
        page.evaluate(f"({WATCH_THE_DEALER})({READ_THE_FELT})")
    ben.get_by_role("button", name="Stand").click()
    turns = {"ana": ana.evaluate("window.dealerTurn"), "ben": ben.evaluate("window.dealerTurn")}
    shot(ana, "dealer-turn-over-1280")
    shot(ben, "dealer-turn-over-390")

    for name, turn in turns.items():
        landings = turn["landings"]
        # The hole card turns first, then each of the three draws lands, in order.
        assert [(x["name"], x["card"]) for x in landings] == [
            ("card-flip", "2H"),
            ("card-deal", "4D"),
            ("card-deal", "5S"),
            ("card-deal", "KD"),
        ], (name, landings)
        # Until the last card has landed nothing of the result shows: no badge, no headline,
        # the bank as it was; the cards land one at a time.
        for landing in landings[:-1]:
            felt = landing["felt"]
            assert felt["badges"] == 0 and felt["headline"] == "hidden", (name, felt)
            assert felt["bank"] == "$990.00", (name, felt)
        assert turn["counts"][0] == 1 and turn["counts"][-1] == 5, (name, turn["counts"])
        assert turn["counts"] == sorted(turn["counts"]), (name, turn["counts"])
        assert len(turn["counts"]) >= 4, (name, turn["counts"])  # seen one by one
        after = turn["after"]
        assert after["badges"] == 2 and after["faceUp"] == 5, (name, after)
        assert after["bank"] == "$1,010.00", (name, after)
    # At once on both screens: the stream's copy starts soon after the answer's.
    assert abs(turns["ana"]["started"] - turns["ben"]["started"]) < 3_000, turns
    # The log's lines came once the cards had landed.
    expect(ana.locator("#table-log")).to_contain_text("ben (seat 3): WIN")

    # Round 2 (the same $10 bets again): a press during the dealer's turn shows its end
    # at once.
    for user in (ana_user, ben_user):
        seat = Seat.objects.get(table=table, player=user)
        assert seat.bet_cents == 1_000
        services.ready(table_id=table.pk, user=user, version=seat.version)
    expect(ana.get_by_test_id("headline")).to_have_text("Your turn")
    wait_until_still(ana)
    ana.get_by_role("button", name="Stand").click()
    expect(ben.get_by_test_id("headline")).to_have_text("Your turn")
    wait_until_still(ana)
    watch_the_turn(ana, press=True)
    ben.get_by_role("button", name="Stand").click()
    pressed = ana.evaluate("window.atTheTurn")
    assert pressed["before"]["badges"] == 0 and pressed["before"]["headline"] == "hidden", pressed
    assert pressed["after"]["badges"] == 2, pressed
    assert pressed["after"]["headline"] == "Place your bets." and pressed["after"]["faceUp"] == 5
    assert pressed["after"]["bank"] == "$1,020.00", pressed
    assert dict(Seat.objects.values_list("player__username", "bank_cents")) == {
        "ana": 102_000,
        "ben": 102_000,
    }


# Installed before the dealer's turn: at the first frame after the swap that turned the hole
# card, the felt as it is (``press``: after a press -- a pointerdown on the document -- at
# that moment); window.atTheTurn settles with the felt before and after it.
AT_THE_TURN = """([readTheFelt, press]) => {
  window.atTheTurn = new Promise((resolve, reject) => {
    const begun = performance.now();
    const look = () => {
      if (document.querySelector("#shared-table .dealer-area .playing-card--flipped")) {
        const before = readTheFelt();
        if (press) { document.dispatchEvent(new PointerEvent("pointerdown")); }
        resolve({ before, after: readTheFelt() });
      } else if (performance.now() - begun > 30000) {
        reject(new Error("the hole card never turned"));
      } else {
        requestAnimationFrame(look);
      }
    };
    look();
  });
}"""


def watch_the_turn(page, *, press: bool) -> None:
    page.evaluate(f"(args) => ({AT_THE_TURN})([{READ_THE_FELT}, args.press])", {"press": press})


def test_under_reduced_motion_and_without_javascript_the_end_shows_at_once(
    table_screens,
) -> None:
    from playwright.sync_api import expect

    still_user, plain_user = PlayerFactory(username="still"), PlayerFactory(username="plain")
    table = shared_table([still_user, plain_user], TWO_ROUNDS)
    still = table_screens(still_user, PHONE, reduced_motion="reduce")
    plain = table_screens(plain_user, DESKTOP, java_script_enabled=False)
    open_table(still, table)
    bet_and_ready(table, still_user)
    bet_and_ready(table, plain_user)
    expect(still.get_by_test_id("headline")).to_have_text("Your turn")
    still.get_by_role("button", name="Stand").click()
    expect(still.get_by_test_id("headline")).to_have_text("plain's turn")
    watch_the_turn(still, press=False)
    plain.goto(f"/tables/{table.pk}/")
    plain.get_by_role("button", name="Stand").click()
    # Without JavaScript: the plain post's redirect shows the round's end whole.
    expect(plain.get_by_test_id("headline")).to_have_text("Place your bets.")
    expect(plain.locator(".seat .badge")).to_have_count(2)
    expect(plain.get_by_test_id("my-bank")).to_have_text("$1,010.00")
    # Reduced motion: the swap that brought the dealer's cards showed the end at once.
    seen = still.evaluate("window.atTheTurn")["before"]
    assert seen["badges"] == 2 and seen["faceUp"] == 5, seen
    assert seen["headline"] == "Place your bets." and seen["bank"] == "$1,010.00", seen


# --------------------------------------------------------------------- steady controls

# Deal order as above. Ana (seat 1) 5S 6D (11) hits a right answer for 9H (20) and stands;
# Ben (seat 3) 0C 7C stands on 17; the dealer's 2H under 3C draws 4D, 5D, KD (24, bust).
STEADY_ROUND = ["5S", "0C", "2H", "6D", "7C", "3C", "9H", "4D", "5D", "KD"]

# The elements of the table that scroll by themselves (their own vertical scrollbar).
INNER_SCROLLERS = """() => Array.from(document.querySelectorAll("#shared-table, #shared-table *"))
  .filter((element) => {
    const overflow = getComputedStyle(element).overflowY;
    return (overflow === "auto" || overflow === "scroll")
      && element.scrollHeight > element.clientHeight + 1;
  })
  .map((element) => element.tagName + "." + element.className)"""


def box_of(page, locator) -> dict:
    """Where ``locator`` is on screen once shown; measured again when a live update swaps
    the table between finding and measuring it."""
    from playwright.sync_api import expect

    for _ in range(20):
        expect(locator).to_be_visible()
        box = locator.bounding_box()
        if box is not None:
            return box
        page.wait_for_timeout(50)
    raise AssertionError(f"not shown: {locator}")


def in_view(page, locator) -> dict:
    """``locator`` wholly on screen without scrolling; its box."""
    box = box_of(page, locator)
    size = page.viewport_size
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], f"off screen: {box}"
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], f"off screen: {box}"
    return box


def steady(page, what: str) -> None:
    """The status bar in view and nothing in the table scrolling by itself."""
    in_view(page, page.get_by_test_id("status-bar"))
    assert page.evaluate(INNER_SCROLLERS) == [], what
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{what}: {overflow}px to scroll sideways"


def middle(box: dict) -> float:
    return float(box["y"] + box["height"] / 2)


def same_place(before: dict, after: dict, what: str) -> None:
    moved = max(abs(before["x"] - after["x"]), abs(before["y"] - after["y"]))
    assert moved <= 4, f"{what} moved {moved:.0f}px: {before} → {after}"


def rack_chip(page, name: str):
    return page.get_by_role("group", name="Chips").get_by_role("button", name=name, exact=True)


def test_the_viewers_controls_keep_their_place_on_a_phone_and_a_desktop(table_screens) -> None:
    """A whole shared round, Ana on a 390 × 844 phone and Ben on a 1280 × 800 desktop, with
    trivia and side bets: the status bar and the controls of each phase on screen, nothing
    in the table scrolling by itself, and no control moving within a phase."""
    from playwright.sync_api import expect

    from tests.trivia.factories import QuestionFactory

    QuestionFactory.create_batch(2, difficulty="easy")
    ana_user, ben_user = PlayerFactory(username="ana"), PlayerFactory(username="ben")
    table = services.create_table(
        host=ana_user,
        name="Friday night",
        public=True,
        seat_count=5,
        intermission_seconds=30,
        # The longest turn (and answer time): the walk's checks and screenshots on a busy
        # machine must not outlast a turn, which would stand the hand before the Hit.
        options={"trivia_mode": True, "turn_seconds": 60},
    )
    for user, number in ((ana_user, 1), (ben_user, 3)):
        services.sit(table_id=table.pk, user=user, version=services.NO_SEAT_VERSION, number=number)
    stack_table_shoe(table, STEADY_ROUND)
    ana, ben = table_screens(ana_user, PHONE), table_screens(ben_user, DESKTOP)
    for page in (ana, ben):
        open_table(page, table)

    # Betting: the rack and Ready stay put through a chip, the side bets' drawer opening
    # over the felt, and a side bet; the drawer's controls are on screen too.
    ready = ana.get_by_role("button", name="Ready")
    steady(ana, "betting")
    start = in_view(ana, ready)
    chip_place = in_view(ana, rack_chip(ana, "$500"))
    rack_chip(ana, "$10").click()
    expect(ana.get_by_test_id("my-bet")).to_have_text("$10.00")
    expect(ana.get_by_test_id("my-stake")).to_have_text("$10.00")
    same_place(start, in_view(ana, ready), "Ready after a chip")
    ana.get_by_role("button", name="Side Bets").click()
    pair = ana.get_by_role("group", name="Perfect Pair")
    in_view(ana, pair.get_by_role("button", name="$1", exact=True))
    in_view(ana, ana.get_by_role("button", name="Activate"))
    pair.get_by_role("button", name="$1", exact=True).click()
    expect(ana.get_by_test_id("stake-perfect-pair")).to_have_text("$1.00")
    same_place(start, in_view(ana, ready), "Ready with the drawer open")
    same_place(chip_place, in_view(ana, rack_chip(ana, "$500")), "the rack with the drawer open")
    steady(ana, "betting, side bets")
    shot(ana, "steady-betting-side-bets-390")
    steady(ben, "betting")
    ben_ready = in_view(ben, ben.get_by_role("button", name="Ready"))
    # A desktop's bet bar is one row (the rack beside Ready), low under the felt.
    ben_chip = in_view(ben, rack_chip(ben, "$1"))
    assert abs(middle(ben_ready) - middle(ben_chip)) <= 4, (ben_ready, ben_chip)
    felt_docked = box_of(ben, ben.locator("#shared-table .felt"))
    shot(ben, "steady-betting-1280")
    ready.click()
    expect(seat_of(ben, 1)).to_contain_text("Ready")
    rack_chip(ben, "$10").click()
    expect(ben.get_by_test_id("my-bet")).to_have_text("$10.00")
    ben.get_by_role("button", name="Ready").click()

    # Ana's turn: Hit and Stand on her phone, equal in weight (neither advises), and in
    # the same place again once her right answer's card and reveal are on the felt.
    expect(ana.get_by_test_id("headline")).to_have_text("Your turn")
    wait_until_still(ana)
    hit, stand = (ana.get_by_role("button", name=n, exact=True) for n in ("Hit", "Stand"))
    hit_place, stand_place = in_view(ana, hit), in_view(ana, stand)
    assert "primary" not in (hit.get_attribute("class") or "")
    assert "primary" not in (stand.get_attribute("class") or "")
    steady(ana, "own turn")
    shot(ana, "steady-your-turn-390")
    expect(ben.get_by_test_id("headline")).to_have_text("ana's turn")
    steady(ben, "another's turn")
    # The bar no longer docked (nothing for Ben to do): the felt keeps its place and size.
    felt = box_of(ben, ben.locator("#shared-table .felt"))
    same_place(felt_docked, felt, "the felt once the bar went")
    assert abs(felt["width"] - felt_docked["width"]) <= 1, (felt_docked, felt)
    card = seat_of(ben, 1).locator(".playing-card").first
    assert box_of(ben, card)["width"] >= 44  # seat cards on a desktop
    shot(ben, "steady-their-turn-1280")
    hit.click()
    ana.get_by_role("button", name="Easy").click()
    answers = ana.get_by_role("group", name="Answers")
    expect(answers).to_be_visible()
    for button in answers.get_by_role("button").all():
        in_view(ana, button)
    steady(ana, "question")
    shot(ana, "steady-question-390")
    question = Seat.objects.get(player=ana_user).pending_question.question
    answers.get_by_role("button", name=question.correct_answer, exact=True).click()
    expect(seat_of(ana, 1).get_by_test_id("seat-reveal")).to_contain_text(question.text)
    expect(seat_of(ana, 1).locator(".playing-card")).to_have_count(3)
    wait_until_still(ana)
    same_place(hit_place, in_view(ana, hit), "Hit after a reveal")
    same_place(stand_place, in_view(ana, stand), "Stand after a reveal")
    steady(ana, "own turn, after a reveal")
    shot(ana, "steady-reveal-390")
    stand.click()

    # Ben's turn on his desktop; Ana waits, her status bar still on screen.
    expect(ben.get_by_test_id("headline")).to_have_text("Your turn")
    in_view(ben, ben.get_by_role("button", name="Stand", exact=True))
    steady(ben, "own turn")
    shot(ben, "steady-your-turn-1280")
    expect(ana.get_by_test_id("headline")).to_have_text("ben's turn")
    steady(ana, "waiting")
    shot(ana, "steady-their-turn-390")
    ben.get_by_role("button", name="Stand", exact=True).click()

    # The round is over: the next bet's controls on both screens, the banks paid.
    for page in (ana, ben):
        expect(page.get_by_test_id("headline")).to_have_text("Place your bets.")
        wait_until_still(page)
        in_view(page, page.get_by_role("button", name="Ready"))
        steady(page, "round over")
    expect(ana.get_by_test_id("my-bank")).to_have_text("$1,009.00")  # +$10, −$1 side bet
    expect(ben.get_by_test_id("my-bank")).to_have_text("$1,010.00")
    shot(ana, "steady-round-over-390")
    shot(ben, "steady-round-over-1280")
    # On the desktop every seat's result shows above the docked bar, none under it.
    bar_top = box_of(ben, ben.get_by_role("region", name="Your controls"))["y"]
    badges = ben.locator(".seat .badge")
    expect(badges).to_have_count(2)
    for badge in badges.all():
        assert box_of(ben, badge)["y"] + box_of(ben, badge)["height"] <= bar_top, "under the bar"


def seat_of(page, number: int):
    return page.locator(f'.seat[data-seat="{number}"]')
