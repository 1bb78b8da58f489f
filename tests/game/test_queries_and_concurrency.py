"""Few, constant queries per action; one winner when two posts race (both databases)."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.game import scenarios
from tests.game.helpers import post, post_at_once

# select game FOR UPDATE, pending trivia, UPDATE game, round row, hands + side bets at the
# end of a round, the savepoint pair of atomic() inside the test transaction, session/user.
MAX_QUERIES_PER_ACTION = 12
# A player's first rated answer also writes the seen row's first answer, the
# question's rating and the player's (made if they have none), worked out from the player's
# rating read with the game's lock: one statement on PostgreSQL, three on SQLite.
FIRST_RATED_ANSWER_QUERIES = 1 if connection.vendor == "postgresql" else 3


@pytest.mark.django_db
@pytest.mark.parametrize("rounds_before", [0, 6])
def test_queries_per_action_are_few_and_do_not_grow(
    rounds_before: int, alice, player, django_assert_max_num_queries
) -> None:
    game = scenarios.trivia_off(player)
    post(alice, game, "stand")
    for _ in range(rounds_before):
        post(alice, game, "next-round")
        post(alice, game, "deal", amount="1.00")
        game.refresh_from_db()
        if game.state["round"]["phase"] != "round_over":
            post(alice, game, "stand")
    post(alice, game, "next-round")
    for action, data in (("chip", {"chip": "5"}), ("deal", {"amount": "5.00"})):
        with django_assert_max_num_queries(MAX_QUERIES_PER_ACTION):
            post(alice, game, action, htmx=False, **data)
    game.refresh_from_db()
    if game.state["round"]["phase"] == "player_turn":
        with django_assert_max_num_queries(MAX_QUERIES_PER_ACTION):
            post(alice, game, "hit")
    game.refresh_from_db()
    if game.state["round"]["phase"] == "player_turn":
        with django_assert_max_num_queries(MAX_QUERIES_PER_ACTION):
            post(alice, game, "stand")


@pytest.mark.django_db
def test_trivia_actions_take_few_queries(
    alice, player, questions, django_assert_max_num_queries
) -> None:
    game = scenarios.choosing_difficulty(player)
    with django_assert_max_num_queries(MAX_QUERIES_PER_ACTION + 3):  # + question choice
        post(alice, game, "difficulty", difficulty="easy")
    attempt = game.trivia_attempts.get()
    wrong = next(text for text in attempt.answers_shown if text != attempt.question.correct_answer)
    with django_assert_max_num_queries(MAX_QUERIES_PER_ACTION + FIRST_RATED_ANSWER_QUERIES):
        post(alice, game, "answer", answer=wrong)
    with django_assert_max_num_queries(MAX_QUERIES_PER_ACTION):
        post(alice, game, "continue")


@pytest.mark.django_db
def test_a_right_answer_and_its_card_take_few_queries(
    alice, player, questions, django_assert_max_num_queries
) -> None:
    game = scenarios.question_shown(player)
    attempt = game.trivia_attempts.get()
    with django_assert_max_num_queries(MAX_QUERIES_PER_ACTION + FIRST_RATED_ANSWER_QUERIES):
        post(alice, game, "answer", answer=attempt.question.correct_answer)


@pytest.mark.django_db
def test_rendering_the_table_takes_few_queries(
    alice, player, questions, django_assert_max_num_queries
) -> None:
    game = scenarios.question_shown(player)
    with django_assert_max_num_queries(6):
        assert alice.get(f"/games/{game.pk}/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_two_posts_of_the_same_action_race_and_exactly_one_applies(player) -> None:
    game = scenarios.betting(player)
    version = game.version
    statuses = post_at_once(
        player, f"/games/{game.pk}/deal/", {"version": str(version), "amount": "10.00"}, posts=2
    )
    assert statuses == [302, 409]
    game.refresh_from_db()
    assert game.version == version + 1
    assert game.bank_cents == 100_000 - 1_000
    assert game.rounds.count() == 1
