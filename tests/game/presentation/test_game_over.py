"""The end of a game (UI.md "Game over"): why, the final bank, the rounds played, the best
hand and the right answers, from what the game's finished rounds stored; and the first
round's line on what credits are for."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from game import services
from game.models import Game, Hand, Round
from game.presentation.game_over import GameOverView
from game.presentation.table import table_view
from game.selectors import TABLE_RELATED, table_reads
from tests.game import scenarios
from tests.game.helpers import asked_before, stack_shoe
from tests.game.html_tree import parse
from tests.trivia.factories import QuestionFactory

pytestmark = pytest.mark.django_db

CREDITS_LINE = (
    "Credits pay for questions: a wrong answer costs 1, a right one earns "
    "Easy +0, Medium +1, Hard +5."
)


def over(game: Game, reason: str) -> GameOverView:
    Game.objects.filter(pk=game.pk).update(status=Game.Status.OVER, over_reason=reason)
    game.refresh_from_db()
    view = table_view(game, reads=table_reads(game))
    assert view.panel == "game_over" and view.game_over is not None
    return view.game_over


def hands(game: Game, *rows: tuple[list[str], str, str, int, int, bool]) -> None:
    """Finished rounds, one a hand: (cards, result, how, bet, winnings, doubled)."""
    for number, (cards, result, how, bet, winnings, doubled) in enumerate(rows, start=1):
        round_ = Round.objects.create(game=game, number=number, phase="round_over")
        Hand.objects.create(
            round=round_,
            index=0,
            cards=cards,
            bet_cents=bet,
            result=result,
            how=how,
            winnings_cents=winnings,
            doubled=doubled,
        )
    Game.objects.filter(pk=game.pk).update(rounds_played=len(rows))


def test_the_best_hand_is_the_one_that_won_the_most(player) -> None:
    game = services.new_game(user=player)
    hands(
        game,
        (["0S", "9D"], "win", "higher_total", 1000, 2000, False),
        (["AS", "KD"], "natural", "natural", 1000, 2500, False),
        (["5S", "6D", "9C"], "win", "dealer_bust", 2000, 4000, True),
        (["0S", "8D"], "lose", "lower_total", 5000, 0, False),
    )
    view = over(game, "bank")
    assert (view.heading, view.reason_text) == (
        "Bank empty",
        "Your bank fell below the table minimum.",
    )
    assert (view.final_bank, view.rounds_played) == (game.bank_cents, 4)
    best = view.best_hand
    assert best is not None
    assert (best.cards, best.label, best.net, best.doubled) == (
        ["5S", "6D", "9C"],
        "Dealer bust",
        2000,
        True,
    )


def test_a_blackjack_is_the_best_hand_of_equal_wins(player) -> None:
    game = services.new_game(user=player)
    hands(
        game,
        (["0S", "6D", "5C"], "win", "charlie", 3000, 7500, False),
        (["AS", "KD"], "natural", "natural", 3000, 7500, False),
    )
    best = over(game, "ended").best_hand
    assert best is not None and (best.label, best.net) == ("Blackjack", 4500)


def test_a_game_with_no_winning_hand_says_so(player) -> None:
    view = over(scenarios.round_over(player), "ended")
    assert view.best_hand is None and view.no_best_hand_text == "No hand won this game"
    assert (view.heading, view.rounds_played) == ("Game ended", 1)


def test_right_answers_count_the_games_own_answers(player, other_player) -> None:
    game = services.new_game(user=player)
    questions = QuestionFactory.create_batch(3)
    for question in questions[:2]:
        asked_before(game, question)
    wrong = asked_before(game, questions[2])
    type(wrong).objects.filter(pk=wrong.pk).update(correct=False, credits_change=-1)
    asked_before(services.new_game(user=other_player), questions[0])  # not this game's
    view = over(game, "credits")
    assert view.heading == "Out of credits" and view.trivia_mode
    assert (view.right_answers, view.answered) == (2, 3)


def test_the_moment_shows_the_figures_and_new_game(alice: Client, player) -> None:
    game = stack_shoe(services.new_game(user=player), ["0S", "0H", "9D", "7C"])
    game = services.place_bet_and_deal(
        game_id=game.pk, user=player, version=game.version, bet_cents=1000
    ).game
    game = services.stand(game_id=game.pk, user=player, version=game.version).game
    services.end_game(game_id=game.pk, user=player, version=game.version)
    page = parse(alice.get(f"/games/{game.pk}/").text)
    moment = page.one('#table .felt section[data-testid="game-over"]')
    assert moment.one("h2").text() == "Game ended"
    assert moment.one('[data-testid="final-bank"]').text() == "$1,010.00"
    assert moment.one('[data-testid="rounds-played"]').text() == "1"
    assert moment.one('[data-testid="right-answers"]').text() == "0"
    best = moment.one('[data-testid="best-hand"]')
    assert [card["aria-label"] for card in best.select(".playing-card")] == [
        "Ten of Spades",
        "Nine of Diamonds",
    ]
    assert "Win +$10.00" in best.text()
    new_game = moment.one('form[action="/games/new/"]')
    assert new_game["method"] == "post" and new_game.button("New Game")["data-key"] == "n"


def test_credits_are_explained_on_the_felt_until_the_first_deal(alice: Client, player) -> None:
    fresh = services.new_game(user=player)
    assert table_view(fresh, reads=table_reads(fresh)).credits_intro == CREDITS_LINE
    felt = parse(alice.get(f"/games/{fresh.pk}/").text).one("#table .felt")
    assert felt.one('[data-testid="credits-intro"]').text() == CREDITS_LINE

    dealt = scenarios.dealt(player)
    assert table_view(dealt, reads=table_reads(dealt)).credits_intro == ""
    trivia_off = services.new_game(user=player, options={"trivia_mode": False})
    assert table_view(trivia_off, reads=table_reads(trivia_off)).credits_intro == ""


def test_no_game_over_moment_while_the_game_goes_on(player: Any) -> None:
    game = scenarios.round_over(player)
    assert table_view(game, reads=table_reads(game)).game_over is None


def test_the_table_view_makes_no_query_of_its_own(
    player: Any, questions: Any, django_assert_num_queries: Any
) -> None:
    """The view reads what the table shows besides its row (table_reads); the presentation
    builds from that alone, a finished game's figures included."""
    finished = scenarios.round_over(player)
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.OVER, over_reason="ended")
    finished.refresh_from_db()
    for game in (
        services.new_game(user=player),
        scenarios.dealt(player),
        scenarios.question_shown(player),
        scenarios.answered(player),
        scenarios.round_over(player),
        finished,
    ):
        # Read as the table's view reads it: with its pending question.
        game = Game.objects.select_related(*TABLE_RELATED).get(pk=game.pk)
        reads = table_reads(game)
        with django_assert_num_queries(0):
            view = table_view(game, reads=reads)
        assert view.panel
    assert view.game_over is not None
