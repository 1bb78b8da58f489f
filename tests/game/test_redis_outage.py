"""A single-player game goes on while Redis (the cache: sessions, users) is down: its pages
answer 200, its actions are saved, the player stays logged in (blackjack_site/cache.py)."""

from __future__ import annotations

import logging

import pytest

from tests.game.helpers import post

pytestmark = pytest.mark.django_db


def test_a_round_is_played_and_saved_while_redis_is_down(
    site_on_private_redis, client_for, player, make_game, caplog
) -> None:
    alice = client_for(player)  # logged in while Redis is up: the session is cached there
    # player 9S 7D (16), dealer 0H hole and 6C up; the dealer's 16 draws KD and busts.
    game = make_game(cards=["9S", "0H", "7D", "6C", "KD"])
    assert alice.get(f"/games/{game.pk}/").status_code == 200
    site_on_private_redis.stop()

    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert alice.get("/").status_code == 200
        assert alice.get(f"/games/{game.pk}/").status_code == 200
        assert post(alice, game, "chip", chip="5").status_code == 302
        assert post(alice, game, "chip", chip="5").status_code == 302
        assert post(alice, game, "deal", amount="10.00").status_code == 302
        assert post(alice, game, "stand", htmx=True).status_code == 200
        page = alice.get(f"/games/{game.pk}/")
    assert page.status_code == 200 and 'data-phase="round_over"' in page.text
    game.refresh_from_db()
    assert game.bank_cents == 101000
    assert [r for r in caplog.records if r.name == "django.request"] == []
