"""A round's end leads straight into the next bet: Rebet deals the same stakes again, side
bets and boxes included; a chip starts a new bet from zero; a wrong answer needs no
Continue. A round with one right hit is four posts: Rebet, Hit, the answer, Stand."""

from __future__ import annotations

from typing import Any

import pytest

from game import services
from game.core.errors import ActionRefused
from game.models import Game
from game.presentation.notices import status_line
from tests.game import scenarios
from tests.game.helpers import post, stack_shoe

pytestmark = pytest.mark.django_db

SIDE_STAKES = {"21+3": 500, "perfect_pair": 1000}


def _after_a_round_with_side_bets(player: Any) -> Game:
    game = stack_shoe(
        services.new_game(user=player, options={"trivia_mode": False, "side_bets": True}),
        ["9S", "0H", "7D", "6C", "KD", "9S", "0H", "7D", "6C", "KD"],
    )
    Game.objects.filter(pk=game.pk).update(pending_side_bets=SIDE_STAKES)
    game.refresh_from_db()
    game = services.place_bet_and_deal(
        game_id=game.pk, user=player, version=game.version, bet_cents=2500
    ).game
    game = services.stand(game_id=game.pk, user=player, version=game.version).game
    assert game.showing_outcome
    return game


def test_rebet_deals_again_with_the_same_stakes_side_bets_included(player) -> None:
    game = _after_a_round_with_side_bets(player)
    bank = game.bank_cents
    game = services.rebet(game_id=game.pk, user=player, version=game.version).game
    round_ = game.state["round"]
    assert round_["number"] == 2 and round_["bet"] == 2500
    assert round_["side_stakes"] == SIDE_STAKES
    assert game.bank_cents == bank - 2500 - sum(SIDE_STAKES.values())


def test_rebet_deals_every_box_again(player) -> None:
    game = services.new_game(user=player, options={"trivia_mode": False, "seats": 3})
    game = services.place_bet_and_deal(
        game_id=game.pk, user=player, version=game.version, bet_cents=1000
    ).game
    while not game.showing_outcome:
        if game.state["round"]["phase"] in ("insurance", "even_money"):
            game = services.answer_insurance_for_every_box(
                game_id=game.pk, user=player, version=game.version, accept=False
            ).game
        else:
            game = services.stand(game_id=game.pk, user=player, version=game.version).game
    game = services.rebet(game_id=game.pk, user=player, version=game.version).game
    assert [box["bet"] for box in game.state["round"]["boxes"]] == [1000, 1000, 1000]


def test_rebet_is_refused_without_an_outcome_or_a_bank_to_cover_it(player) -> None:
    game = scenarios.betting(player)
    with pytest.raises(ActionRefused) as refused:
        services.rebet(game_id=game.pk, user=player, version=game.version)
    assert refused.value.reason == "nothing_to_rebet"
    game = scenarios.round_over(player)
    Game.objects.filter(pk=game.pk).update(pending_bet_cents=game.bank_cents + 100)
    game.refresh_from_db()
    with pytest.raises(ActionRefused) as refused:
        services.rebet(game_id=game.pk, user=player, version=game.version)
    assert refused.value.reason == "bank_short"
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_chip_on_the_outcome_starts_a_new_bet_from_zero(player) -> None:
    game = _after_a_round_with_side_bets(player)
    game = services.add_chip(
        game_id=game.pk, user=player, version=game.version, chip_cents=1000
    ).game
    assert game.pending_bet_cents == 1000  # not the last round's $25 plus $10
    assert game.pending_side_bets == {} and not game.showing_outcome
    assert status_line(game) == "Your bet $10.00 — Deal, or add chips."
    # Once the new bet is begun, the next chip adds to it, and Rebet is gone.
    game = services.add_chip(
        game_id=game.pk, user=player, version=game.version, chip_cents=500
    ).game
    assert game.pending_bet_cents == 1500
    with pytest.raises(ActionRefused):
        services.rebet(game_id=game.pk, user=player, version=game.version)


def test_a_side_chip_on_the_outcome_also_starts_from_zero(player) -> None:
    game = _after_a_round_with_side_bets(player)
    game = services.add_side_chip(
        game_id=game.pk, user=player, version=game.version, bet="21+3", chip_cents=500
    ).game
    assert game.pending_side_bets == {"21+3": 500} and game.pending_bet_cents == 0
    assert not game.showing_outcome


def test_a_round_with_one_right_hit_is_four_posts(alice, player, questions) -> None:
    # A first round chooses the difficulty once; the game remembers it.
    game = scenarios.answered_right(player)  # 9S 7D + 2H = 18 v 6C, hole 0H
    game = services.stand(game_id=game.pk, user=player, version=game.version).game
    stack_shoe(game, ["9S", "0H", "7D", "6C", "2H", "KD"])
    rounds_before = game.rounds.count()
    assert post(alice, game, "rebet", htmx=True).status_code == 200
    assert post(alice, game, "hit", htmx=True, difficulty="easy").status_code == 200
    game.refresh_from_db()
    right = game.pending_trivia.question.correct_answer
    assert post(alice, game, "answer", htmx=True, answer=right).status_code == 200
    response = post(alice, game, "stand", htmx=True)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.rounds.count() == rounds_before + 1 and game.showing_outcome
    assert game.state["round"]["hands"][0]["cards"] == ["9S", "7D", "2H"]
    assert ">Rebet</button>" in response.text
