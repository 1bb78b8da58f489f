"""The Fairness page in the browser (FAIRNESS.md F-7): a finished shoe checked by the page's
own script (✔), the same shoe tampered with (✘), and the commitment on the felt before the
first card, at 390 × 844 and 1280 × 800, with screenshots."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import services
from game.models import GameShoe

pytestmark = pytest.mark.django_db(transaction=True)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "fairness"
VIEWPORTS = {390: 844, 1280: 800}


def game_with_a_finished_shoe(user):
    """A game whose first shoe dealt a round and was finished by Shuffle now."""
    game = services.new_game(user=user, options={"trivia_mode": False})
    game = services.place_bet_and_deal(
        game_id=game.pk, user=user, version=game.version, bet_cents=1000
    ).game
    while not game.showing_outcome:
        phase = game.state["round"]["phase"]
        if phase in ("insurance", "even_money"):
            game = services.answer_insurance(
                game_id=game.pk, user=user, version=game.version, accept=False
            ).game
        else:
            game = services.stand(game_id=game.pk, user=user, version=game.version).game
    return services.shuffle_now(game_id=game.pk, user=user, version=game.version).game


@pytest.mark.parametrize("width", VIEWPORTS)
def test_a_finished_shoe_verifies_in_the_browser_and_a_tampered_one_does_not(
    page, log_in_as, width: int
) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": width, "height": VIEWPORTS[width]})
    user = log_in_as(page, f"fair{width}")
    game = game_with_a_finished_shoe(user)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    page.goto(f"/games/{game.pk}/")
    open_shoe = GameShoe.objects.get(game=game, nonce=2)
    page.locator(".shoe-proof__summary").click()
    expect(page.get_by_test_id("shoe-commitment")).to_have_text(open_shoe.commitment)
    page.screenshot(path=str(SCREENSHOTS / f"commitment-{width}.png"))
    page.get_by_role("link", name="Fairness").click()

    finished = page.locator('[data-fairness-shoe][data-nonce="1"]')
    expect(finished).to_have_attribute("data-verdict", "ok")
    expect(finished.locator("[data-fairness-verdict]")).to_contain_text("✔ Verified")
    expect(page.get_by_test_id("open-commitment")).to_have_text(open_shoe.commitment)
    page.screenshot(path=str(SCREENSHOTS / f"verified-{width}.png"), full_page=True)

    finished.get_by_text("Check other values").click()
    cards = finished.locator("textarea[name=cards_dealt]")
    dealt = cards.input_value().split()
    other = next(i for i, card in enumerate(dealt) if card != dealt[0])
    dealt[0], dealt[other] = dealt[other], dealt[0]
    cards.fill(" ".join(dealt))
    finished.get_by_role("button", name="Verify").click()
    expect(finished).to_have_attribute("data-verdict", "differs")
    expect(finished.locator("[data-fairness-verdict]")).to_contain_text("✘")
    page.screenshot(path=str(SCREENSHOTS / f"tampered-{width}.png"), full_page=True)

    # A seed one byte off is refused too, and the published values verify again.
    seed = finished.locator("input[name=server_seed]")
    original = seed.input_value()
    seed.fill(("0" if original[0] != "0" else "1") + original[1:])
    cards.fill(finished.get_attribute("data-cards") or "")
    finished.get_by_role("button", name="Verify").click()
    expect(finished).to_have_attribute("data-verdict", "differs")
    seed.fill(original)
    finished.get_by_role("button", name="Verify").click()
    expect(finished).to_have_attribute("data-verdict", "ok")
