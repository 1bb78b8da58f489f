"""The statistics page: figures from rounds played through the services, own data only."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pytest
from django.utils import timezone

from game import services
from game.models import Game, Hand, Round, SideBet, TriviaAttempt
from game.presentation.statistics import player_statistics
from tests.game import scenarios
from tests.game.helpers import stack_shoe
from tests.trivia.factories import QuestionFactory

pytestmark = pytest.mark.django_db

STATISTICS_URL = "/games/statistics/"


def act(game: Game, user: Any, action: str, **kwargs: Any) -> Game:
    game.refresh_from_db()
    service = getattr(services, action)
    return service(game_id=game.pk, user=user, version=game.version, **kwargs).game


def play_round(
    game: Game,
    user: Any,
    cards: Sequence[str],
    actions: Sequence[str] = (),
    *,
    bet_cents: int = 1000,
    side_bets: dict[str, int] | None = None,
) -> Round:
    """One round on a stacked shoe; returns its finished Round row."""
    game.refresh_from_db()
    if game.showing_outcome:
        act(game, user, "next_round")
        game.refresh_from_db()
    stack_shoe(game, cards)
    act(game, user, "place_bet_and_deal", bet_cents=bet_cents, side_bets=side_bets)
    for action in actions:
        act(game, user, action)
    game.refresh_from_db()
    row = Round.objects.get(game=game, number=game.rounds_played)
    assert row.phase == "round_over", f"round not finished: {row.phase}"
    return row


@pytest.fixture
def seven_rounds(player, make_game) -> Game:
    """Natural, loss, push, split (two wins), surrender, both naturals, side bets."""
    game = make_game(trivia_mode=False, surrender="late")
    play_round(game, player, ["AS", "9H", "KD", "8C"])  # natural 3:2: +$15
    play_round(game, player, ["0S", "0H", "7D", "9C"], ["stand"])  # 17 v 19: -$10
    play_round(game, player, ["0S", "0H", "8D", "8C"], ["stand"])  # 18 v 18: push
    # 8-8 split against 17: both hands draw a ten and stand on 18: +$20.
    play_round(game, player, ["8S", "0H", "8D", "7C", "0D", "0C"], ["split", "stand", "stand"])
    play_round(game, player, ["0S", "0H", "6D", "0C"], ["surrender"])  # half back: -$5
    play_round(game, player, ["AS", "AD", "KD", "KC"])  # natural v dealer natural: push
    # Mixed pair 8S 8D pays 5:1 on $5; 21+3 (8 8 7) loses $5; 16 v 17 loses $10: +$10.
    play_round(
        game,
        player,
        ["8S", "0H", "8D", "7C"],
        ["stand"],
        side_bets={"perfect_pair": 500, "21+3": 500},
    )
    return game


def test_figures_match_the_rounds_played(player, seven_rounds) -> None:
    stats = player_statistics(player)
    assert (stats.games, stats.rounds, stats.hands) == (1, 7, 8)
    assert (stats.hands_won, stats.hands_lost, stats.hands_pushed) == (3, 2, 2)
    assert (stats.hands_surrendered, stats.naturals) == (1, 2)
    assert (stats.staked, stats.paid, stats.net) == (9000, 12000, 3000)
    assert stats.biggest_win == 2000
    # The engine's own bank agrees with the net: it started at $1,000.00.
    seven_rounds.refresh_from_db()
    assert seven_rounds.bank_cents == 100_000 + stats.net
    side_bets = {line.name: line for line in stats.side_bets}
    assert list(side_bets) == ["perfect_pair", "21+3"]
    pair, three = side_bets["perfect_pair"], side_bets["21+3"]
    assert (pair.played, pair.won, pair.staked, pair.paid, pair.net) == (1, 1, 500, 3000, 2500)
    assert (three.played, three.won, three.staked, three.paid, three.net) == (1, 0, 500, 0, -500)


def test_the_page_shows_the_figures_in_dollars(alice, player, seven_rounds) -> None:
    response = alice.get(STATISTICS_URL)
    assert response.status_code == 200
    html = response.text
    for testid, text in [
        ("stat-rounds", "7"),
        ("stat-hands-won", "3"),
        ("stat-hands-lost", "2"),
        ("stat-hands-pushed", "2"),
        ("stat-hands-surrendered", "1"),
        ("stat-naturals", "2"),
        ("stat-net", "+$30.00"),
        ("stat-biggest-win", "$20.00"),
    ]:
        assert re.search(rf'data-testid="{testid}"[^>]*>{re.escape(text)}<', html), testid
    assert '<tr data-side-bet="perfect_pair"><th scope="row">Perfect Pair</th>' in html
    assert "−$5.00" in html  # 21+3 lost its stake


def test_a_losing_player_sees_a_negative_net_and_no_biggest_win(
    player, make_game, client_for
) -> None:
    game = make_game(trivia_mode=False)
    play_round(game, player, ["0S", "0H", "7D", "9C"], ["stand"], bet_cents=12_345)
    stats = player_statistics(player)
    assert (stats.net, stats.biggest_win) == (-12_345, None)
    html = client_for(player).get(STATISTICS_URL).text
    assert "−$123.45" in html
    assert 'data-testid="stat-biggest-win">—<' in html


def test_trivia_answered_and_correct_by_difficulty(player, questions) -> None:
    game = scenarios.dealt(player)  # 9S 7D v 6C; next 2H then KD
    act(game, player, "hit")
    act(game, player, "choose_difficulty", difficulty="easy")
    attempt = game.trivia_attempts.get()
    act(game, player, "answer_question", answer=attempt.question.correct_answer)  # 2H: 18
    act(game, player, "hit")
    act(game, player, "choose_difficulty", difficulty="medium")
    attempt = game.trivia_attempts.get(difficulty="medium")
    wrong = next(a for a in attempt.answers_shown if a != attempt.question.correct_answer)
    act(game, player, "answer_question", answer=wrong)
    # The wrong answer stood the hand at once; the dealer busts on KD.
    # A second game with a question shown but not answered: it is not counted.
    pending = scenarios.question_shown(player)
    assert pending.trivia_attempts.get().answered_at is None

    stats = player_statistics(player)
    lines = {line.difficulty: line for line in stats.trivia}
    assert [(line.answered, line.correct) for line in lines.values()] == [(1, 1), (1, 0), (0, 0)]
    assert [line.percent_correct for line in lines.values()] == [100, 0, None]
    assert (stats.trivia_answered, stats.trivia_correct, stats.trivia_percent_correct) == (2, 1, 50)
    # The unfinished round of the second game is not a round played.
    assert (stats.games, stats.rounds, stats.hands_won) == (1, 1, 1)


def test_percent_correct_rounds_half_up() -> None:
    from game.presentation.statistics import TriviaLine

    assert TriviaLine("easy", "Easy", 3, 2).percent_correct == 67
    assert TriviaLine("easy", "Easy", 8, 1).percent_correct == 13  # 12.5 rounds up
    assert TriviaLine("easy", "Easy", 3, 1).percent_correct == 33


def test_another_players_rounds_are_not_counted(
    player, other_player, make_game, client_for
) -> None:
    mine = make_game(trivia_mode=False)
    play_round(mine, player, ["0S", "0H", "8D", "8C"], ["stand"])  # push
    theirs = make_game(user=other_player, trivia_mode=False)
    play_round(theirs, other_player, ["AS", "9H", "KD", "8C"], side_bets={"perfect_pair": 500})
    attempt_question = QuestionFactory(difficulty="hard")
    TriviaAttempt.objects.create(
        game=theirs,
        hand_index=0,
        action="hit",
        question=attempt_question,
        difficulty="hard",
        answer_given="x",
        correct=True,
        answered_at=timezone.now(),
        applied=True,
    )
    stats = player_statistics(player)
    assert (stats.rounds, stats.hands_pushed, stats.naturals, stats.net) == (1, 1, 0, 0)
    assert stats.side_bets == []
    assert stats.trivia_answered == 0
    theirs_stats = player_statistics(other_player)
    assert (theirs_stats.rounds, theirs_stats.naturals, theirs_stats.trivia_correct) == (1, 1, 1)
    html = client_for(player).get(STATISTICS_URL).text
    assert "No side bets yet." in html


def test_the_page_needs_a_login(client) -> None:
    response = client.get(STATISTICS_URL)
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_the_page_is_linked_from_my_games(alice) -> None:
    assert 'href="/games/statistics/"' in alice.get("/games/").text


def bulk_rounds(game: Game, count: int, question: Any) -> None:
    """``count`` finished rounds with two hands, a side bet and an attempt each, in bulk."""
    rounds = Round.objects.bulk_create(
        Round(
            game=game,
            number=number,
            phase="round_over",
            bet_cents=1000,
            staked_cents=2500,
            winnings_cents=(number % 5) * 1000,
            bank_after_cents=0,
        )
        for number in range(1, count + 1)
    )
    Hand.objects.bulk_create(
        Hand(round=row, index=index, bet_cents=1000, result=result, how="higher_total")
        for row in rounds
        for index, result in enumerate(("win", "lose") if row.number % 2 else ("push", "natural"))
    )
    SideBet.objects.bulk_create(
        SideBet(round=row, name="perfect_pair", stake_cents=500, result="lose") for row in rounds
    )
    TriviaAttempt.objects.bulk_create(
        TriviaAttempt(
            game=game,
            round=row,
            hand_index=0,
            action="hit",
            question=question,
            difficulty="easy",
            correct=row.number % 3 == 0,
            answered_at=timezone.now(),
            applied=True,
        )
        for row in rounds
    )


def test_a_fixed_number_of_queries_however_many_rounds(
    player, make_game, alice, django_assert_num_queries, django_assert_max_num_queries
) -> None:
    game = make_game(trivia_mode=False)
    bulk_rounds(game, 600, QuestionFactory(difficulty="easy"))
    with django_assert_num_queries(6):
        stats = player_statistics(player)
    assert (stats.rounds, stats.hands) == (600, 1200)
    assert (stats.hands_won, stats.hands_lost, stats.hands_pushed, stats.naturals) == (
        600,
        300,
        300,
        300,
    )
    # Winnings cycle 0, 10, 20, 30, 40 dollars against 25 staked: 120 rounds of each.
    assert stats.net == 120 * (0 + 1000 + 2000 + 3000 + 4000) - 600 * 2500
    assert stats.biggest_win == 1500
    assert (stats.trivia_answered, stats.trivia_correct) == (600, 200)
    # Session, user, the six aggregates and the coach's count; no query per round.
    with django_assert_max_num_queries(9):
        response = alice.get(STATISTICS_URL)
    assert response.status_code == 200


def _answered(game: Game, question: Any, correct: bool) -> None:
    TriviaAttempt.objects.create(
        game=game,
        hand_index=0,
        action="hit",
        question=question,
        difficulty="medium",
        answers_shown=[question.correct_answer, *question.incorrect_answers],
        answer_given=question.correct_answer if correct else question.incorrect_answers[0],
        correct=correct,
        credits_change=1 if correct else -1,
        applied=True,
        answered_at=timezone.now(),
    )


def test_categories_by_strength_strongest_first_with_counts(player, alice) -> None:
    from tests.trivia.factories import CategoryFactory

    game = scenarios.dealt(player)
    history, science, art = (CategoryFactory(name=name) for name in ("History", "Science", "Art"))
    for category, results in (
        (history, [True, False]),
        (science, [True, True, False]),
        (art, [True]),
    ):
        for correct in results:
            _answered(game, QuestionFactory(category=category), correct)
    stats = player_statistics(player)
    assert [(c.name, c.answered, c.correct, c.percent_correct) for c in stats.categories] == [
        ("Art", 1, 1, 100),
        ("Science", 3, 2, 67),
        ("History", 2, 1, 50),
    ]
    html = alice.get(STATISTICS_URL).content.decode()
    rows = re.findall(r"<tr><th scope=\"row\">(\w+)</th>", html.split("stat-trivia-categories")[1])
    assert rows[:3] == ["Art", "Science", "History"]


def test_questions_learned_counted_with_the_latest_listed(player, other_player, alice) -> None:
    from datetime import timedelta

    from trivia.models import SeenQuestion

    start = timezone.now()
    for number in range(7):
        SeenQuestion.objects.create(
            player=player,
            question=QuestionFactory(text=f"Learned question {number}?"),
            first_seen=start + timedelta(minutes=number),
            learned=number != 6,  # the latest seen is not learned yet
        )
    SeenQuestion.objects.create(player=other_player, question=QuestionFactory(), learned=True)
    stats = player_statistics(player)
    assert stats.learned == 6
    assert stats.latest_learned == [f"Learned question {n}?" for n in (5, 4, 3, 2, 1)]
    html = alice.get(STATISTICS_URL).content.decode()
    assert "Missed questions you later answered right: 6." in html
    assert "Learned question 5?" in html and "Learned question 0?" not in html
