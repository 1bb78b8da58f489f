"""R-1.4a through the views: hostile amounts are refused with a sentence, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client

from game import services
from game.models import Game
from game.rules.money import MAX_AMOUNT_CENTS
from tests.game.helpers import post, stack_shoe
from tests.game.test_options_house_edge import form_data
from tests.pages import once_key

pytestmark = pytest.mark.django_db

FORMAT = "Enter an amount in dollars, like 25 or 12.50."
CEILING = "The most the table accepts is $1,000,000,000.00."


def saved(game: Game) -> dict[str, Any]:
    game.refresh_from_db()
    return {
        "version": game.version,
        "bank": game.bank_cents,
        "bet": game.pending_bet_cents,
        "options": game.options,
        "state": game.state,
    }


def betting_game(player: Any, **options: Any) -> Game:
    return services.new_game(user=player, options={"trivia_mode": False, **options})


def test_a_20_digit_starting_bank_is_refused_and_new_games_still_start(
    alice: Client, player: Any
) -> None:
    game = betting_game(player)
    before = saved(game)
    response = alice.post(
        f"/games/{game.pk}/options/",
        {**form_data(starting_bank="9" * 20), "version": str(game.version)},
    )
    assert response.status_code == 422
    assert CEILING in response.text
    assert saved(game) == before
    assert alice.post("/games/new/", once_key("new_game")).status_code == 302


def test_the_largest_starting_bank_is_accepted_and_a_win_settles(
    alice: Client, player: Any
) -> None:
    game = betting_game(player)
    response = alice.post(
        f"/games/{game.pk}/options/",
        {**form_data(starting_bank="1,000,000,000.00"), "version": str(game.version)},
    )
    assert response.status_code == 302
    assert alice.post("/games/new/", once_key("new_game")).status_code == 302
    rich = Game.objects.filter(owner=player).order_by("-id").first()
    assert rich is not None and rich.bank_cents == MAX_AMOUNT_CENTS
    stack_shoe(rich, ["AS", "7H", "KD", "9C"])  # a natural: paid at once, 3:2
    assert post(alice, rich, "deal", amount="10").status_code == 302
    rich.refresh_from_db()
    assert rich.bank_cents == MAX_AMOUNT_CENTS


@pytest.mark.parametrize("chip", ["²", "9" * 5000, "𝟙𝟘", "-5", "5.0", ""])
def test_hostile_extra_bet_chips_are_refused(alice: Client, player: Any, chip: str) -> None:
    from tests.game.presentation.test_side_bet_panels import TEN_FIRST, deal

    game = deal(player, TEN_FIRST, extra_bet=True)
    before = saved(game)
    url = f"/games/{game.pk}/extra-bet/chip/"
    response = alice.post(url, {"version": game.version, "chip": chip, "amount": "10.00"})
    assert response.status_code == 422
    assert "There is no such chip." in response.text
    assert saved(game) == before


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"amount": "𝟙𝟘"}, FORMAT),
        ({"amount": "1e3"}, FORMAT),
        ({"amount": "9" * 5000}, CEILING),
        ({"amount": ""}, "Place a bet first."),
        ({}, "Place a bet first."),
        ({"amount": "0"}, "Place a bet first."),
    ],
)
def test_a_bad_deal_is_refused_with_a_sentence(
    alice: Client, player: Any, data: dict[str, str], message: str
) -> None:
    game = betting_game(player)
    before = saved(game)
    response = post(alice, game, "deal", htmx=True, **data)
    assert response.status_code == 422
    assert message in response.text
    assert saved(game) == before


@pytest.mark.parametrize("chip", ["²", "𝟙𝟘", "9" * 5000, "1e2"])
def test_hostile_chips_are_refused(alice: Client, player: Any, chip: str) -> None:
    game = betting_game(player)
    before = saved(game)
    response = post(alice, game, "chip", chip=chip)
    assert response.status_code == 422
    assert "There is no such chip." in response.text
    assert saved(game) == before


@pytest.mark.parametrize("version", ["²", "9" * 5000, "-1", "1.0", ""])
def test_a_hostile_version_is_refused(alice: Client, player: Any, version: str) -> None:
    game = betting_game(player)
    before = saved(game)
    response = post(alice, game, "chip", chip="5", version=version)
    assert response.status_code == 422
    assert "This page is out of date" in response.text
    assert saved(game) == before


def test_the_database_refuses_a_bank_above_the_ceiling(player: Any) -> None:
    game = betting_game(player)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(bank_cents=MAX_AMOUNT_CENTS + 1)


def test_the_database_ceiling_is_the_rules_ceiling() -> None:
    from game.models import BANK_CEILING_CENTS

    assert BANK_CEILING_CENTS == MAX_AMOUNT_CENTS
