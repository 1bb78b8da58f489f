"""Stacked-shoe routes to the base-game panels, shared by the accessibility and layout tests.

Each shoe lists the first cards in deal order: player, dealer hole, player, dealer upcard,
then the cards drawn. Helpers from test_table_browser.py are imported, not copied.
"""

from __future__ import annotations

from tests.browser.test_table_browser import table

# 8S 8D against 7C (hole 0H); split, split hand 1 again, stand twice, split the third hand:
# four hands 8S 3H · 8H 2C · 8D 4D · 8C 5S, the third one in play.
FOUR_HANDS_SHOE = ["8S", "0H", "8D", "7C", "8H", "8C", "3H", "2C", "4D", "5S"]
# Player 9S 7D against 6C (hole 0H); a hit brings 2H, the dealer then draws KD and busts.
HIT_THEN_STAND_SHOE = ["9S", "0H", "7D", "6C", "2H", "KD"]
# Dealer shows an ace, hole 6H (no blackjack); the player has 16.
INSURANCE_SHOE = ["9S", "6H", "7D", "AC"]
# The player's blackjack against the dealer's ace (hole 6H): even money is offered.
EVEN_MONEY_SHOE = ["AS", "6H", "KD", "AC"]
# The insurance panel has no primary control: Accept and Decline weigh the same (UI.md
# "Steady controls"), so its controls are measured by Accept.
OFFER_ACCEPT = '#table .felt .panel button[value="accept"]:not(:disabled)'

ANIMATIONS_RUNNING = "() => document.getAnimations().some(a => a.playState === 'running')"


STILL = f"() => !({ANIMATIONS_RUNNING})() && !document.querySelector('.bank-counting')"
# table.js (UI.md "The flow of a round"): a press during an animation shows its end at
# once, the held result and the bank's count included. A pointerdown sent to the document
# is that press without a click's side effects (no focus moves, no keyboard focus ring).
# Sent again at each frame while anything still moves: a finished result can start the
# paid chips' animation.
STILL_AT_ONCE = f"""() => {{
  const still = ({STILL})();
  if (!still) {{ document.dispatchEvent(new PointerEvent("pointerdown")); }}
  return still;
}}"""


def settle(page) -> None:
    """Wait until the card animations and the bank's count are over (a scan mid-fade
    would see faded text, a screenshot a bank on its way), as they play."""
    page.wait_for_function(STILL)


def finish_animations(page) -> None:
    """Bring the table to rest at once, as a player's press does, for checks of what a
    phase looks like when still (screenshots, measures, scans). Tests of the animations
    themselves wait for them with settle()."""
    page.wait_for_function(STILL_AT_ONCE)


def deal(page, amount: str = "10") -> None:
    from playwright.sync_api import expect

    page.get_by_label("Bet amount").fill(amount)
    page.get_by_role("button", name="Deal").click()
    expect(table(page)).not_to_have_attribute("data-phase", "betting")


def split_into_four_hands(page) -> None:
    """On a FOUR_HANDS_SHOE table with resplitting on, reach four hands (the third in play)."""
    from playwright.sync_api import expect

    steps = (
        ("Split", "Hand 1 of 2"),
        ("Split", "Hand 1 of 3"),
        ("Stand", "Hand 2 of 3"),
        ("Stand", "Hand 3 of 3"),
        ("Split", "Hand 3 of 4"),
    )
    for action, heading in steps:
        page.get_by_role("button", name=action, exact=True).click()
        expect(page.locator(".player-area h2")).to_contain_text(heading)
    expect(page.locator(".split-strip li")).to_have_count(3)
