"""Nothing the player may not see yet ever reaches a response (R-2.3, R-4.2, R-8.6)."""

from __future__ import annotations

import json

import pytest

from game.rules.cards import card_name
from tests.game.helpers import post, stack_shoe
from tests.pages import without_csrf_tokens
from tests.trivia.factories import QuestionFactory

pytestmark = pytest.mark.django_db


def test_no_response_before_the_reveal_holds_the_hole_card_or_right_answer(
    alice, make_game
) -> None:
    right = "Quintessentially right"
    QuestionFactory(difficulty="easy", correct_answer=right, incorrect_answers=["W1", "W2", "W3"])
    # Hole card QH appears nowhere else; the shoe's next cards must not leak either.
    game = make_game(cards=["9S", "QH", "7D", "6C", "2D", "5S", "KC"])
    responses = []

    def act(action: str, **data: str) -> None:
        responses.append(without_csrf_tokens(post(alice, game, action, htmx=True, **data).text))
        responses.append(without_csrf_tokens(alice.get(f"/games/{game.pk}/").text))

    act("chip", chip="10")
    act("deal", amount="10.00")
    act("hit")
    act("difficulty", difficulty="easy")
    attempt = game.trivia_attempts.get()
    for html in responses:
        assert "Queen of Hearts" not in html and '"QH"' not in html and "QH" not in html
        assert "Two of Diamonds" not in html and "Five of Spades" not in html
        assert "(right answer)" not in html and "right-answer" not in html
        assert json.dumps(game.state["shoe"]["cards"][:5]) not in html
    # The right answer is shown only as one of the choices, never marked: after posting,
    # the reveal marks it; a wrong answer stands the hand, the dealer plays, the hole card
    # turns in the same answer.
    answer = next(text for text in attempt.answers_shown if text != right)
    revealed = post(alice, game, "answer", htmx=True, answer=answer).text
    assert "Right answer:" in revealed and right in revealed
    assert card_name("QH") in revealed


def test_pages_never_include_the_engine_state(alice, make_game) -> None:
    game = make_game()
    post(alice, game, "deal", amount="10.00")
    game.refresh_from_db()
    page = without_csrf_tokens(alice.get(f"/games/{game.pk}/").text)
    undealt = game.state["shoe"]["cards"]
    assert '"deck_count"' not in page and '"dealt"' not in page and '"shoe"' not in page
    assert "".join(undealt[:6]) not in page


def test_stack_helper_puts_cards_on_top(make_game) -> None:
    game = make_game()
    stack_shoe(game, ["AS", "KS"])
    assert game.state["shoe"]["cards"][:2] == ["AS", "KS"]
