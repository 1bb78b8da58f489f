"""Playing the table in Chromium: trivia, split, insurance, options, resume, JavaScript off."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
from django.contrib.auth import get_user_model

from game import services
from game.models import Game
from game.rules.cards import standard_deck
from game.rules.shoe import Shoe
from game.services import randomness
from tests.browser.helpers import PASSWORD, start_new_game
from tests.trivia.factories import QuestionFactory

pytestmark = pytest.mark.django_db(transaction=True)


def stacked_shoe(cards: Sequence[str], deck_count: int = 6) -> Shoe:
    """``cards`` dealt first, then a plain 6-deck order (tests stay deterministic)."""
    rest = standard_deck() * deck_count
    return Shoe(list(cards) + rest, deck_count)


@pytest.fixture(autouse=True)
def patient_expectations() -> None:
    """Other suites share this 2-core machine; give swaps time before failing."""
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)


@pytest.fixture
def stack(monkeypatch: pytest.MonkeyPatch):
    def set_cards(cards: Sequence[str]) -> None:
        monkeypatch.setattr(randomness, "make_shoe", lambda deck_count, rng: stacked_shoe(cards))

    return set_cards


@pytest.fixture
def bank_of_questions() -> None:
    for difficulty in ("easy", "medium", "hard"):
        QuestionFactory.create_batch(2, difficulty=difficulty)


def sign_up(page, username: str) -> None:
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(re.compile(r"/games/$"))


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/games/$"))


def table(page):
    return page.locator("#table")


def answer_right(page) -> None:
    """Click the right answer of the question on screen (looked up in the database)."""
    from trivia.models import Question

    text = page.locator(".trivia-question").inner_text()
    question = Question.objects.get(text=text)
    page.get_by_role("button", name=question.correct_answer, exact=True).click()


def answer_wrong(page) -> None:
    """Click a wrong answer of the question on screen (looked up in the database)."""
    from trivia.models import Question

    question = Question.objects.get(text=page.locator(".trivia-question").inner_text())
    wrong = next(text for text in question.incorrect_answers)
    page.get_by_role("button", name=wrong, exact=True).click()


def open_game_for(username: str, **options) -> Game:
    user = get_user_model().objects.get(username=username)
    return services.new_game(user=user, options=options)


def test_sign_up_play_a_trivia_round_and_start_the_next(page, stack, bank_of_questions) -> None:
    from playwright.sync_api import expect

    # Player 9S 7D, dealer hole 0H, upcard 6C; the hit brings 2H; the dealer draws KD.
    stack(["9S", "0H", "7D", "6C", "2H", "KD"])
    sign_up(page, "ada")
    start_new_game(page)
    expect(table(page)).to_have_attribute("data-phase", "betting")
    expect(table(page)).to_have_attribute("data-bank", "1000.00")
    expect(table(page)).to_have_attribute("data-credits", "10")

    page.get_by_role("button", name="$5", exact=True).click()
    expect(page.get_by_label("Bet amount")).to_have_value("5.00")
    page.get_by_role("button", name="$5", exact=True).click()
    expect(page.get_by_label("Bet amount")).to_have_value("10.00")
    page.get_by_role("button", name="Deal").click()
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    expect(table(page)).to_have_attribute("data-bank", "990.00")
    expect(page.get_by_role("img", name="Face-down card")).to_be_visible()
    expect(page.get_by_role("img", name="Six of Clubs")).to_be_visible()
    expect(page.get_by_role("button", name="Split")).to_be_disabled()

    page.get_by_role("button", name="Hit").click()
    expect(page.get_by_role("button", name="Medium", exact=True)).to_be_visible()
    page.get_by_role("button", name="Medium", exact=True).click()
    expect(table(page)).to_have_attribute("data-panel", "trivia_question")
    answer_right(page)
    # A right answer deals the card at once; the reveal shows on the felt.
    expect(page.locator("#message-line")).to_contain_text("Correct!")
    expect(page.get_by_role("img", name="Two of Hearts")).to_be_visible()
    expect(table(page)).to_have_attribute("data-credits", "11")

    page.get_by_role("button", name="Stand").click()
    expect(table(page)).to_have_attribute("data-phase", "round_over")
    expect(page.get_by_role("img", name="Ten of Hearts")).to_be_visible()
    expect(page.locator("table.outcome")).to_contain_text("Win")
    expect(page.locator("table.outcome")).to_contain_text("dealer bust")
    expect(table(page)).to_have_attribute("data-bank", "1010.00")
    expect(page.locator("#status-live")).to_contain_text("you won $10.00")

    # No Next Round: the chips and Rebet are live on the outcome; a chip starts from zero.
    expect(page.get_by_role("button", name="Rebet")).to_be_visible()
    page.get_by_role("group", name="Chips").get_by_role("button", name="$5", exact=True).click()
    expect(page.get_by_label("Bet amount")).to_have_value("5.00")
    expect(page.locator("#message-line")).to_contain_text("Your bet $5.00 — Deal, or add chips.")


def test_split_two_eights(page, log_in_as, stack) -> None:
    from playwright.sync_api import expect

    # 8S 8D against a 7C upcard (hole 0H); split: hand 1 gets 3H, hand 2 gets 2C.
    stack(["8S", "0H", "8D", "7C", "3H", "2C"])
    log_in_as(page, "bea")
    game = open_game_for("bea", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    page.get_by_label("Bet amount").fill("25")
    page.get_by_role("button", name="Deal").click()
    page.get_by_role("button", name="Split").click()
    expect(page.get_by_role("heading", name=re.compile("Hand 1 of 2"))).to_be_visible()
    expect(page.locator(".split-strip")).to_contain_text("Hand 2 of 2")
    expect(table(page)).to_have_attribute("data-bank", "950.00")
    page.get_by_role("button", name="Stand").click()
    expect(page.get_by_role("heading", name=re.compile("Hand 2 of 2"))).to_be_visible()
    page.get_by_role("button", name="Stand").click()
    expect(table(page)).to_have_attribute("data-phase", "round_over")
    expect(page.locator("table.outcome tbody tr")).to_have_count(2)


def test_insurance_offered_and_declined(page, log_in_as, stack) -> None:
    from playwright.sync_api import expect

    # Ace up (hole 6H: no blackjack); player 9S 7D stands on 16; dealer soft 17 stands.
    stack(["9S", "6H", "7D", "AC"])
    log_in_as(page, "cy")
    game = open_game_for("cy", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    page.get_by_label("Bet amount").fill("10")
    page.get_by_role("button", name="Deal").click()
    expect(table(page)).to_have_attribute("data-phase", "insurance")
    expect(page.get_by_role("heading", name="Insurance?")).to_be_visible()
    # The offer is decided in its panel: the hand's buttons wait out of sight (disabled).
    expect(page.get_by_role("button", name="Hit")).to_have_count(0)
    expect(page.locator('button[data-key="h"]')).to_be_disabled()
    page.get_by_role("button", name="Decline").click()
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    page.get_by_role("button", name="Stand").click()
    expect(table(page)).to_have_attribute("data-phase", "round_over")
    expect(page.locator("table.outcome")).to_contain_text("Lose")
    expect(table(page)).to_have_attribute("data-bank", "990.00")


def test_options_applied_with_implied_options(page, log_in_as) -> None:
    from playwright.sync_api import expect

    log_in_as(page, "dot")
    start_new_game(page)
    page.get_by_role("link", name="Options").click()
    # The menu's script is deferred: it listens from DOMContentLoaded on, and a box ticked
    # before that is only completed by the server when the form is sent.
    page.wait_for_url("**/options/", wait_until="domcontentloaded")
    page.get_by_label("Double after splitting aces", exact=True).check()
    # The needed option goes from no ace splits to one (§10: max_ace_splits replaces the
    # old "Splitting aces allowed" box).
    expect(page.get_by_label("Splits of aces")).to_have_value("1")
    expect(page.get_by_label("Double after split", exact=True)).to_be_checked()
    page.get_by_label("Trivia mode").uncheck()
    page.get_by_label("Blackjack pays").select_option("6:5")
    page.get_by_role("button", name="Apply").click()
    expect(table(page)).to_have_attribute("data-phase", "betting")
    expect(table(page)).to_have_attribute("data-credits", "")
    options = Game.objects.get(owner__username="dot").options
    assert options["double_after_split_aces"] and options["max_ace_splits"] == 1
    assert options["double_after_split"] and options["trivia_mode"] is False
    assert options["blackjack_payout"] == "6:5"


def test_log_out_log_in_and_resume_on_the_same_question(
    page, log_in_as, stack, bank_of_questions
) -> None:
    from playwright.sync_api import expect

    stack(["9S", "0H", "7D", "6C", "2H", "KD"])
    log_in_as(page, "eve")
    start_new_game(page)
    page.get_by_label("Bet amount").fill("10")
    page.get_by_role("button", name="Deal").click()
    page.get_by_role("button", name="Hit").click()
    page.get_by_role("button", name="Hard", exact=True).click()
    question = page.locator(".trivia-question").inner_text()
    answers = page.locator(".answers button").all_inner_texts()

    page.get_by_role("button", name="Log out").click()
    log_in(page, "eve")
    page.get_by_role("link", name="Resume").click()
    expect(table(page)).to_have_attribute("data-panel", "trivia_question")
    expect(page.locator(".trivia-question")).to_have_text(question)
    assert page.locator(".answers button").all_inner_texts() == answers
    page.reload()
    assert page.locator(".answers button").all_inner_texts() == answers
    answer_right(page)
    expect(page.get_by_role("img", name="Two of Hearts")).to_be_visible()


def test_a_whole_round_with_javascript_off(browser, live_server, stack, bank_of_questions) -> None:
    from playwright.sync_api import expect

    stack(["9S", "0H", "7D", "6C", "2H", "KD"])
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    page = context.new_page()
    try:
        sign_up(page, "fay")
        start_new_game(page)
        # Sound is made by a script: without one its toggle is not offered.
        expect(page.get_by_role("button", name="Sound")).to_be_hidden()
        page.get_by_role("button", name="$10", exact=True).click()
        expect(page.get_by_label("Bet amount")).to_have_value("10.00")
        page.get_by_role("button", name="Deal").click()
        expect(table(page)).to_have_attribute("data-phase", "player_turn")
        page.get_by_role("button", name="Hit").click()
        page.get_by_role("button", name="Easy", exact=True).click()
        answer_right(page)
        expect(page.get_by_role("img", name="Two of Hearts")).to_be_visible()
        page.get_by_role("button", name="Stand").click()
        expect(table(page)).to_have_attribute("data-phase", "round_over")
        expect(table(page)).to_have_attribute("data-bank", "1010.00")
        page.get_by_role("link", name="End Game").click()
        page.get_by_role("button", name="End Game").click()
        expect(table(page)).to_have_attribute("data-phase", "game_over")
        expect(page.get_by_role("button", name="New Game")).to_be_visible()
    finally:
        context.close()


def test_keyboard_shortcuts_and_a_double_click_sends_one_post(page, log_in_as, stack) -> None:
    from playwright.sync_api import expect

    # Player 9S 7D against 6C (hole 0H); the hit brings 2H, the dealer then draws KD.
    stack(["9S", "0H", "7D", "6C", "2H", "KD"])
    log_in_as(page, "gus")
    game = open_game_for("gus", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    page.get_by_label("Bet amount").fill("10")
    # Typing in the amount field is not a shortcut: "n" there must not deal.
    page.get_by_label("Bet amount").press("n")
    expect(table(page)).to_have_attribute("data-phase", "betting")
    page.get_by_label("Bet amount").fill("10")
    page.get_by_role("button", name="Deal").dblclick()
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    expect(table(page)).to_have_attribute("data-bank", "990.00")
    expect(page.locator(".table-notice")).to_have_count(0)
    page.locator("body").press("h")
    expect(page.get_by_role("img", name="Two of Hearts")).to_be_visible()
    page.locator("body").press("s")
    expect(table(page)).to_have_attribute("data-phase", "round_over")
    # N on the outcome is Rebet: the same $10 dealt again.
    page.locator("body").press("n")
    expect(table(page)).to_have_attribute("data-round", "2")
    game.refresh_from_db()
    assert game.rounds_played == 2 and game.bank_cents == 100_000


def test_a_stale_page_gets_the_current_table_and_a_notice(page, log_in_as, stack) -> None:
    from playwright.sync_api import expect

    stack(["9S", "0H", "7D", "6C", "2H", "KD"])
    log_in_as(page, "hal")
    game = open_game_for("hal", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    page.get_by_label("Bet amount").fill("10")
    page.get_by_role("button", name="Deal").click()
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    # Another tab stands in the meantime: this page is now out of date.
    game.refresh_from_db()
    services.stand(game_id=game.pk, user=game.owner, version=game.version)
    page.get_by_role("button", name="Hit").click()
    expect(page.locator(".table-notice")).to_contain_text("changed since the page was shown")
    expect(table(page)).to_have_attribute("data-phase", "round_over")
    expect(page.get_by_role("button", name="Rebet")).to_be_visible()
