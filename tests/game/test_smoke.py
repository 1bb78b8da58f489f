from __future__ import annotations

import pytest

from tests.game.helpers import post

pytestmark = pytest.mark.django_db


def test_a_whole_round_with_trivia(alice, make_game, questions) -> None:
    # player 9S, hole 0H, player 7D, upcard 6C; hit card 2H; dealer draws KD.
    game = make_game(cards=["9S", "0H", "7D", "6C", "2H", "KD"])
    page = alice.get(f"/games/{game.pk}/")
    assert page.status_code == 200
    assert 'data-phase="betting"' in page.text
    assert post(alice, game, "chip", chip="5").status_code == 302
    assert post(alice, game, "chip", chip="5").status_code == 302
    response = post(alice, game, "deal", amount="10.00")
    assert response.status_code == 302, response.text
    page = alice.get(f"/games/{game.pk}/")
    assert 'data-phase="player_turn"' in page.text
    assert "Ten of Hearts" not in page.text
    post(alice, game, "hit")
    page = alice.get(f"/games/{game.pk}/")
    assert 'data-panel="trivia_difficulty"' in page.text, page.text
    post(alice, game, "difficulty", difficulty="medium")
    page = alice.get(f"/games/{game.pk}/")
    assert 'data-panel="trivia_question"' in page.text
    attempt = game.trivia_attempts.get()
    post(alice, game, "answer", answer=attempt.question.correct_answer)
    # A right answer deals the card at once; its reveal shows on the felt.
    page = alice.get(f"/games/{game.pk}/")
    assert "Two of Hearts" in page.text and 'aria-label="Trivia answer"' in page.text
    post(alice, game, "stand")
    page = alice.get(f"/games/{game.pk}/")
    assert 'data-phase="round_over"' in page.text, page.text
    game.refresh_from_db()
    assert game.bank_cents == 101000
    assert game.credits == 11
    # The outcome offers Rebet at once: the same $10 dealt again in one click.
    assert ">Rebet</button>" in page.text
    post(alice, game, "rebet")
    page = alice.get(f"/games/{game.pk}/")
    assert 'data-round="2"' in page.text
    game.refresh_from_db()
    assert game.state["round"]["bet"] == 1000
