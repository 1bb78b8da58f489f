"""The look of the table (UI.md): every phase at a phone's 390 × 844 and a desktop's 1280 × 800.

For each phase a screenshot lands in test-artifacts/screenshots/look/<phase>-<width>.png
(gitignored; the README names the folder) and the measurable parts are checked: the
phase's primary action is on screen without scrolling, nothing scrolls sideways, and the
rendered colours of the controls stand out from the felt (WCAG 1.4.11: 3:1; text 4.5:1).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.models import Game
from tests.browser import test_table_browser
from tests.browser.table_flows import (
    HIT_THEN_STAND_SHOE,
    INSURANCE_SHOE,
    OFFER_ACCEPT,
    deal,
    finish_animations,
)
from tests.browser.test_table_browser import (
    answer_right,
    answer_wrong,
    open_game_for,
    table,
)
from tests.game.helpers import stack_shoe

pytestmark = pytest.mark.django_db(transaction=True)

stack = test_table_browser.stack
patient_expectations = test_table_browser.patient_expectations
bank_of_questions = test_table_browser.bank_of_questions

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "look"
VIEWPORTS = {390: 844, 1280: 800}

# Where the phase's primary control is, relative to the top of the page, and whether the
# page scrolls sideways. Measured with the page scrolled to the top.
MEASURE = """(selector) => {
  window.scrollTo(0, 0);
  const primary = document.querySelector(selector);
  const box = primary ? primary.getBoundingClientRect() : null;
  return {
    found: primary !== null,
    bottom: box ? box.bottom + window.scrollY : 0,
    right: box ? box.right : 0,
    innerHeight: window.innerHeight,
    innerWidth: window.innerWidth,
    scrollWidth: document.documentElement.scrollWidth,
  };
}"""

# The rendered colours: the felt's two tones and each kind of control on it.
COLOURS = """() => {
  const felt = document.querySelector(".felt");
  const style = getComputedStyle(felt);
  const read = (element) => {
    if (!element) { return null; }
    const s = getComputedStyle(element);
    return {background: s.backgroundColor, border: s.borderTopColor, text: s.color};
  };
  return {
    felt: [style.getPropertyValue("--felt"), style.getPropertyValue("--felt-light")],
    primary: read(felt.querySelector("button.primary:not(:disabled)")),
    secondary: read(felt.querySelector("button.secondary:not(:disabled)")),
  };
}"""


def rgba(text: str) -> tuple[float, float, float, float]:
    text = text.strip()
    if text.startswith("#"):
        digits = text[1:]
        return (*(int(digits[i : i + 2], 16) for i in (0, 2, 4)), 1.0)
    parts = [float(part) for part in re.findall(r"[\d.]+", text)]
    return (parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else 1.0)


def over(colour: tuple[float, float, float, float], base: tuple[float, ...]) -> tuple[float, ...]:
    """A translucent colour as it shows over an opaque one."""
    alpha = colour[3]
    return tuple(colour[i] * alpha + base[i] * (1 - alpha) for i in range(3))


def luminance(colour: tuple[float, ...]) -> float:
    def channel(value: float) -> float:
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(value) for value in colour[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(one: tuple[float, ...], other: tuple[float, ...]) -> float:
    lighter, darker = sorted((luminance(one), luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def colour_problems(page, phase: str) -> list[str]:
    colours = page.evaluate(COLOURS)
    problems = []
    for felt_text in colours["felt"]:
        felt = rgba(felt_text)[:3]
        for kind in ("primary", "secondary"):
            control = colours[kind]
            if control is None:
                continue
            background = over(rgba(control["background"]), felt)
            # An outlined control is seen by its border; a filled one by its fill.
            edge = max(contrast(background, felt), contrast(rgba(control["border"])[:3], felt))
            if edge < 3:
                problems.append(f"{phase}: {kind} control {edge:.2f}:1 against the felt")
            text = contrast(over(rgba(control["text"]), background), background)
            if text < 4.5:
                problems.append(f"{phase}: {kind} text {text:.2f}:1 on its button")
    return problems


def check_phase(page, phase: str, width: int, primary: str, axe=None) -> list[str]:
    finish_animations(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # The caret is left alone: hiding it, Playwright injects a style the policy blocks.
    page.screenshot(path=str(SCREENSHOTS / f"{phase}-{width}.png"), caret="initial", full_page=True)
    found = page.evaluate(MEASURE, primary)
    problems = []
    if not found["found"]:
        problems.append(f"{phase} at {width}px: no primary control {primary!r}")
    elif found["bottom"] > found["innerHeight"]:
        problems.append(
            f"{phase} at {width}px: the primary action ends at {found['bottom']:.0f}px, "
            f"below the {found['innerHeight']}px screen"
        )
    if found["scrollWidth"] > found["innerWidth"]:
        problems.append(f"{phase} at {width}px scrolls sideways ({found['scrollWidth']}px)")
    if axe is not None:
        problems += axe(page, f"{phase} at {width}px")
    return problems + colour_problems(page, phase)


PRIMARY = "#table .felt button.primary:not(:disabled)"


@pytest.mark.parametrize("width", VIEWPORTS)
def test_every_phase_shows_its_primary_action_without_scrolling(
    page, log_in_as, stack, bank_of_questions, axe_violations, width: int
) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": width, "height": VIEWPORTS[width]})
    username = f"look{width}"
    log_in_as(page, username)
    stack(HIT_THEN_STAND_SHOE)
    game = open_game_for(username)
    page.goto(f"/games/{game.pk}/")
    # Nothing is bet yet: Deal is the phase's primary control, disabled, with its reason.
    deal_button = page.get_by_role("button", name="Deal", exact=True)
    expect(deal_button).to_be_disabled()
    expect(deal_button).to_have_attribute("title", re.compile("place a bet first"))
    problems = check_phase(page, "bet", width, "#table .deal-button", axe_violations)
    deal(page)
    problems += check_phase(page, "player-turn", width, PRIMARY, axe_violations)
    page.get_by_role("button", name="Hit").click()
    expect(table(page)).to_have_attribute("data-panel", "trivia_difficulty")
    problems += check_phase(page, "trivia-difficulty", width, PRIMARY, axe_violations)
    page.get_by_role("button", name="Easy", exact=True).click()
    expect(table(page)).to_have_attribute("data-panel", "trivia_question")
    problems += check_phase(page, "trivia-question", width, "#table .answer", axe_violations)
    answer_wrong(page)  # the hand stands at once; the dealer plays; the reveal stays
    expect(table(page)).to_have_attribute("data-panel", "outcome")
    expect(page.get_by_role("region", name="Trivia answer")).to_contain_text("Right answer:")
    problems += check_phase(page, "wrong-answer-outcome", width, PRIMARY, axe_violations)
    # The side-bet circles stand round the main one on the outcome, as on every bet.
    expect(page.get_by_role("link", name="21+3 rules")).to_be_visible()
    problems += check_phase(page, "side-bet-spots", width, PRIMARY, axe_violations)
    # The next hit asks at the remembered difficulty: Hit, then the answer.
    stack_shoe(Game.objects.get(pk=game.pk), HIT_THEN_STAND_SHOE)
    # Opening the side bets starts the next bet from zero (no Rebet there): a typed amount.
    deal(page)
    expect(page.get_by_label("Questions")).to_have_value("easy")
    page.get_by_role("button", name="Hit").click()
    expect(table(page)).to_have_attribute("data-panel", "trivia_question")
    answer_right(page)
    expect(page.locator("#message-line")).to_contain_text("Correct!")
    problems += check_phase(page, "right-answer-revealed", width, PRIMARY, axe_violations)

    stack(INSURANCE_SHOE)
    game = open_game_for(username, trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    deal(page)
    expect(table(page)).to_have_attribute("data-panel", "insurance")
    problems += check_phase(page, "insurance", width, OFFER_ACCEPT, axe_violations)
    page.goto(f"/games/{game.pk}/end/")
    page.get_by_role("button", name="End Game").click()
    expect(table(page)).to_have_attribute("data-panel", "game_over")
    problems += check_phase(page, "game-over", width, PRIMARY, axe_violations)
    assert problems == [], "\n".join(problems)


DEAL_ORDER = """() => Array.from(document.querySelectorAll("#table .playing-card--dealt"))
  .map(card => [card.dataset.card || "hole", getComputedStyle(card).animationDelay])
  .sort((a, b) => parseFloat(a[1]) - parseFloat(b[1]))"""
RUNNING = "() => document.getAnimations().filter(a => a.playState === 'running').length"


def test_cards_arrive_one_at_a_time_and_a_click_finishes_the_deal(page, log_in_as, stack) -> None:
    from playwright.sync_api import expect

    log_in_as(page, "pacing")
    stack(HIT_THEN_STAND_SHOE)
    game = open_game_for("pacing", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    page.get_by_label("Bet amount").fill("10")
    page.get_by_role("button", name="Deal").click()
    expect(table(page)).to_have_attribute("data-phase", "player_turn")
    # Dealt as at a real table: player, dealer (the hole card), player, dealer, 0.4 s apart.
    assert page.evaluate(DEAL_ORDER) == [
        ["9S", "0s"],
        ["hole", "0.4s"],
        ["7D", "0.8s"],
        ["6C", "1.2s"],
    ]
    assert page.evaluate(RUNNING) > 0
    page.mouse.click(5, 5)
    assert page.evaluate(RUNNING) == 0


def test_reduced_motion_deals_at_once(page, log_in_as, stack) -> None:
    from playwright.sync_api import expect

    page.emulate_media(reduced_motion="reduce")
    log_in_as(page, "still")
    stack(HIT_THEN_STAND_SHOE)
    game = open_game_for("still", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    deal(page)
    page.get_by_role("button", name="Stand").click()
    expect(table(page)).to_have_attribute("data-panel", "outcome")
    assert page.evaluate("() => document.getAnimations().length") == 0


def test_a_question_is_answered_with_its_number_key(
    page, log_in_as, stack, bank_of_questions
) -> None:
    from playwright.sync_api import expect

    from trivia.models import Question

    log_in_as(page, "keys")
    stack(HIT_THEN_STAND_SHOE)
    game = open_game_for("keys")
    page.goto(f"/games/{game.pk}/")
    deal(page)
    page.get_by_role("button", name="Hit").click()
    page.get_by_role("button", name="Easy", exact=True).click()
    expect(table(page)).to_have_attribute("data-panel", "trivia_question")
    question = Question.objects.get(text=page.locator(".trivia-question").inner_text())
    shown = [
        text.strip() for text in page.locator(".answers button > span:last-child").all_inner_texts()
    ]
    page.keyboard.press("1234"[shown.index(question.correct_answer)])
    expect(page.locator("#message-line")).to_contain_text("Correct!")
    expect(page.get_by_role("img", name="Two of Hearts")).to_be_visible()


def test_the_bank_counts_to_its_new_value_and_chips_are_paid_into_the_circle(
    page, log_in_as, stack
) -> None:
    from playwright.sync_api import expect

    log_in_as(page, "payday")
    stack(["9S", "0H", "7D", "6C", "KD"])  # 16 stands against 16; the dealer draws KD: bust
    game = open_game_for("payday", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    deal(page)
    bank = page.get_by_test_id("bank")
    expect(bank).to_have_text("$990.00")
    # Every text the bank shows from here on, whatever the timing.
    page.evaluate(
        """() => {
          window.bankTexts = [];
          new MutationObserver(() => {
            const shown = document.querySelector('[data-testid="bank"]');
            if (shown) { window.bankTexts.push(shown.textContent); }
          }).observe(document.body, {subtree: true, childList: true, characterData: true});
        }"""
    )
    page.get_by_role("button", name="Stand").click()
    expect(table(page)).to_have_attribute("data-bank", "1010.00")
    expect(page.locator(".bank-counting")).to_have_count(0)  # the count is over
    expect(bank).to_have_text("$1,010.00")
    texts = page.evaluate("() => window.bankTexts")
    between = [text for text in texts if text not in ("$990.00", "$1,010.00")]
    assert between, texts  # it counted up through amounts in between
    assert all(990 < float(text.strip("$").replace(",", "")) < 1010 for text in between)
    expect(page.locator(".betting-circle .chip-stack--paid .stack-chip")).to_have_count(1)


def test_a_touch_screen_shows_no_keyboard_shortcut_list(
    browser, live_server, log_in_as, stack
) -> None:
    """UI.md: the keyboard-shortcut list is not shown on touch screens (a phone has no keys)."""
    from playwright.sync_api import expect

    phone = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
    )
    desktop = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 800})
    try:
        phone_page, desktop_page = phone.new_page(), desktop.new_page()
        log_in_as(phone_page, "thumbs")
        game = open_game_for("thumbs", trivia_mode=False)
        phone_page.goto(f"/games/{game.pk}/")
        expect(phone_page.get_by_role("button", name="Deal")).to_be_visible()
        expect(phone_page.locator(".keyboard-shortcuts")).to_be_hidden()
        # The same page with a mouse and keyboard keeps the list: the rule is the device's.
        log_in_as(desktop_page, "keyboard")
        desktop_game = open_game_for("keyboard", trivia_mode=False)
        desktop_page.goto(f"/games/{desktop_game.pk}/")
        expect(desktop_page.locator(".keyboard-shortcuts")).to_be_visible()
    finally:
        phone.close()
        desktop.close()


# For every face-up card: the smallest gap, in CSS pixels, between one of its pips and one
# of its two corner indices as the browser lays them out (negative: they overlap).
PIP_GAPS = """() => Array.from(document.querySelectorAll("#table .playing-card[data-card]"))
  .filter(card => card.querySelector(".pip"))
  .map(card => {
    const corners = Array.from(card.querySelectorAll(".pc-corner"), c => c.getBoundingClientRect());
    let smallest = Infinity;
    card.querySelectorAll(".pip").forEach(pip => {
      const p = pip.getBoundingClientRect();
      corners.forEach(c => {
        const across = Math.max(c.left - p.right, p.left - c.right);
        const down = Math.max(c.top - p.bottom, p.top - c.bottom);
        smallest = Math.min(smallest, Math.max(across, down));
      });
    });
    return [card.dataset.card, card.getBoundingClientRect().width, smallest];
  })"""
# Each chip of the rack: its colour, and the felt's two tones.
CHIP_COLOURS = """() => ({
  felt: ["--felt", "--felt-light"].map(name =>
    getComputedStyle(document.querySelector(".felt")).getPropertyValue(name)),
  chips: Array.from(document.querySelectorAll("#table .bet-form > .chips .chip"), chip =>
    [chip.textContent.trim(), getComputedStyle(chip).getPropertyValue("--chip")]),
})"""


def distance(one: str, other: str) -> float:
    """How far apart two colours are (Euclidean, in RGB)."""
    return sum((a - b) ** 2 for a, b in zip(rgba(one)[:3], rgba(other)[:3], strict=True)) ** 0.5


@pytest.mark.parametrize("width", VIEWPORTS)
def test_pips_keep_clear_of_the_indices_and_no_chip_is_the_felts_colour(
    page, log_in_as, stack, width: int
) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": width, "height": VIEWPORTS[width]})
    log_in_as(page, f"art{width}")
    # Player 7S 8D against the dealer's 9C (the hole card KH); the hit deals 0D: bust.
    stack(["7S", "KH", "8D", "9C", "0D"])
    game = open_game_for(f"art{width}", trivia_mode=False)
    page.goto(f"/games/{game.pk}/")
    colours = page.evaluate(CHIP_COLOURS)
    chips = dict(colours["chips"])
    assert list(chips) == ["$1", "$5", "$10", "$25", "$100", "$500"]
    for name, colour in chips.items():
        assert all(distance(colour, felt) > 60 for felt in colours["felt"]), (name, colour)
    assert len({rgba(colour) for colour in chips.values()}) == len(chips)
    deal(page)
    page.get_by_role("button", name="Hit").click()
    expect(table(page)).to_have_attribute("data-panel", "outcome")
    expect(page.get_by_role("img", name="King of Hearts")).to_be_visible()
    finish_animations(page)
    gaps = page.evaluate(PIP_GAPS)
    assert sorted(code for code, _, _ in gaps) == ["0D", "7S", "8D", "9C"]
    assert all(gap >= 1 for _, _, gap in gaps), gaps
