"""The simple game on the page (§10 Extensions): no side-bet menu, no side bets dealt."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from game import services
from game.models import Game
from tests.game.helpers import post

pytestmark = pytest.mark.django_db


def test_the_simple_game_offers_no_side_bets_and_deals_without_the_old_stakes(
    alice: Client, player: Any
) -> None:
    game = services.new_game(user=player, options={"trivia_mode": False})
    assert post(alice, game, "side-chip", side_chip="perfect_pair:5").status_code == 302
    game.refresh_from_db()
    assert game.pending_side_bets  # a stake is waiting in the drawer
    Game.objects.filter(pk=game.pk).update(options={**game.options, "simple": True})
    game.state["options"]["simple"] = True
    Game.objects.filter(pk=game.pk).update(state=game.state)
    page = alice.get(f"/games/{game.pk}/").text
    assert ">Side Bets</button>" not in page
    refused = post(alice, game, "side-chip", side_chip="perfect_pair:5")
    assert refused.status_code == 422 and "simple game has no side bets" in refused.text
    assert post(alice, game, "deal", amount="10").status_code == 302
    game.refresh_from_db()
    assert game.state["round"]["side_stakes"] == {}
