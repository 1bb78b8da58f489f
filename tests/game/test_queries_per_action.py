"""At most five queries an action, the same after 200 rounds and with a bank of
20,000 questions: the game locked with its pending question and latest round in one query
and the writes the action needs (the session and the user come from the cache).

The test's own transaction wraps every request, so each action's atomic() adds a
SAVEPOINT / RELEASE pair that production never runs (there it is the outermost block:
BEGIN and COMMIT, which PostgreSQL's driver does not even send as statements):
:func:`at_most_five_queries` leaves them out so that what is counted is the queries.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from game import services
from game.models import Game, TriviaAttempt
from game.rules.options import Options
from game.services import randomness
from tests.game import scenarios
from tests.game.factories import PlayerFactory
from tests.game.helpers import post, stack_shoe
from trivia.models import Category, PlayerRating, Question, question_fingerprint
from trivia.services import active_question_ids

MAX_QUERIES = 5
# A first attempt at a question also moves ratings, from the player's rating read
# with the game's lock: the seen row's first answer, the question's rating and the player's
# written, one statement on PostgreSQL (data-modifying WITH queries), three on SQLite.
RATING_QUERIES = 1 if connection.vendor == "postgresql" else 3
# Asking a question also writes that the player has seen it and counts it toward
# the next review: on PostgreSQL both go with the game's save, on SQLite (no statements
# sent together) one more.
SEEN_QUERIES = 0 if connection.vendor == "postgresql" else 1
ROUNDS_BEFORE = 200
BANK_SIZE = 20_000
MD5_HASHER = "django.contrib.auth.hashers.MD5PasswordHasher"


TRANSACTION_CONTROL = re.compile(r"^\s*(SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT)\b", re.I)


@contextmanager
def at_most_five_queries(what: str, *, extra: int = 0) -> Iterator[list[str]]:
    """The block runs at most MAX_QUERIES (and ``extra``) queries (savepoints aside: see
    above); the list yielded holds them once the block is done."""
    queries: list[str] = []
    with CaptureQueriesContext(connection) as captured:
        yield queries
    queries += [
        query["sql"]
        for query in captured.captured_queries
        if not TRANSACTION_CONTROL.match(query["sql"])
    ]
    assert len(queries) <= MAX_QUERIES + extra, f"{what}: {len(queries)} queries\n" + "\n".join(
        queries
    )


def _rating_queries(queries: list[str]) -> list[str]:
    """The queries of an answer that read or write what the bank learns (the seen rows, the
    ratings), the game's lock aside (it reads the player's rating row with the game)."""
    learned = ('"trivia_seenquestion"', '"trivia_playerrating"', 'UPDATE "trivia_question"')
    return [
        sql
        for sql in queries
        if any(table in sql for table in learned) and 'FROM "game_game" g' not in sql
    ]


def _build_big_bank() -> list[int]:
    category = Category.objects.create(name="Bulk")
    questions = Question.objects.bulk_create(
        Question(
            category=category,
            text=f"Bulk question {number}?",
            difficulty=("easy", "medium", "hard")[number % 3],
            correct_answer=f"Right {number}",
            incorrect_answers=[f"Wrong {number} {letter}" for letter in "abc"],
            fingerprint=question_fingerprint(f"Bulk question {number}?", f"Right {number}"),
        )
        for number in range(BANK_SIZE)
    )
    return [question.pk for question in questions]


def _act(game: Game, user: Any, service: Any, **kwargs: Any) -> Game:
    game.refresh_from_db()
    return service(game_id=game.pk, user=user, version=game.version, **kwargs).game


def _build_long_game(player: Any, big_bank: list[int]) -> Game:
    """A game in trivia mode after ROUNDS_BEFORE rounds, with two questions asked a round."""
    game = services.new_game(user=player)
    bet = Options.from_dict(game.options).min_bet
    for _ in range(ROUNDS_BEFORE):
        game = _act(game, player, services.place_bet_and_deal, bet_cents=bet)
        for _ in range(3):
            phase = game.state["round"]["phase"]
            if phase == "player_turn":
                game = _act(game, player, services.stand)
            elif phase in ("insurance", "even_money"):
                game = _act(game, player, services.answer_insurance, accept=False)
            elif phase == "early_surrender":
                game = _act(game, player, services.answer_early_surrender, accept=False)
        assert game.state["round"]["phase"] == "round_over"
        game = _act(game, player, services.next_round)
    TriviaAttempt.objects.bulk_create(
        TriviaAttempt(
            game=game,
            hand_index=0,
            action="hit",
            question_id=big_bank[(number * 7919) % BANK_SIZE],
            difficulty="easy",
            answers_shown=["a", "b", "c", "d"],
            answer_given="a",
            correct=False,
            credits_change=-1,
            applied=True,
            answered_at=game.created,
        )
        for number in range(2 * ROUNDS_BEFORE)
    )
    assert game.rounds.count() == ROUNDS_BEFORE
    return stack_shoe(game, scenarios.PLAIN)


@pytest.fixture(scope="module")
def long_game_id(django_db_setup: None, django_db_blocker: Any) -> Iterator[int]:
    """The long game and its 20,000 questions, built once for the module (200 rounds take
    seconds) inside a transaction of the module's own. Each test runs in a savepoint of it
    (pytest-django nests its atomic block), so each starts from this same game; the whole
    is rolled back after the module's last test."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            with (
                pytest.MonkeyPatch.context() as patch,
                override_settings(PASSWORD_HASHERS=[MD5_HASHER]),
            ):
                # The game conftest's seeded shuffles and fast hashing are per test, set up
                # after this module's fixture: the long game's shoes are seeded here too, or
                # its next deal would differ from run to run (a natural refuses Stand).
                patch.setattr(randomness, "make_rng", lambda: random.Random(6))
                seeds = random.Random(6)
                patch.setattr(randomness, "server_seeds", lambda: seeds.randbytes)
                player = PlayerFactory(username="alice")
                game = _build_long_game(player, _build_big_bank())
                # A player who has answered before: her rating's row is there.
                PlayerRating.objects.create(player=player)
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    yield game.pk
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


@pytest.fixture
def long_game(long_game_id: int, player: Any) -> Game:
    """The module's long game (``player`` is its owner, alice, found by her username)."""
    for difficulty in ("easy", "medium", "hard"):
        # Cached as by the first question any game asked (one query a difficulty, then
        # none until a question is added, (de)activated or deleted).
        active_question_ids(difficulty)
    return Game.objects.get(pk=long_game_id, owner=player)


def _post(client: Client, game: Game, action: str, **data: str) -> Any:
    """An htmx post of ``action`` at the game's current version (read before, not counted)."""
    version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
    return lambda: client.post(
        f"/games/{game.pk}/{action}/", {"version": str(version), **data}, HTTP_HX_REQUEST="true"
    )


def _pending(game: Game) -> TriviaAttempt:
    return game.trivia_attempts.select_related("question").get(applied=False)


def _wrong(attempt: TriviaAttempt) -> str:
    return next(text for text in attempt.answers_shown if text != attempt.question.correct_answer)


@pytest.mark.django_db
def test_every_step_of_a_trivia_round_takes_five_queries_at_most(
    long_game: Game, alice: Client
) -> None:
    game = long_game
    table = f"/games/{game.pk}/"
    alice.get(table)  # the session is cached from here on
    steps: list[tuple[str, dict[str, str]]] = [
        ("chip", {"chip": "5"}),
        ("deal", {"amount": "10.00"}),
        ("", {}),  # the table page
        ("hit", {}),  # the first Hit of the game asks which difficulty
        ("difficulty", {"difficulty": "easy"}),
    ]
    for action, data in steps:
        send = (lambda: alice.get(table)) if not action else _post(alice, game, action, **data)
        extra = SEEN_QUERIES if action == "difficulty" else 0
        with at_most_five_queries(action or "table page", extra=extra):
            response = send()
        assert response.status_code == 200, action
    # A right answer deals the 2H: 9S 7D 2H is 18, the hand goes on.
    send = _post(alice, game, "answer", answer=_pending(game).question.correct_answer)
    with at_most_five_queries("answer, right", extra=RATING_QUERIES) as queries:
        assert send().status_code == 200
    assert len(_rating_queries(queries)) == RATING_QUERIES, "\n".join(queries)
    with at_most_five_queries("table page with the reveal"):
        assert alice.get(table).status_code == 200
    send = _post(alice, game, "hit", difficulty="easy")
    with at_most_five_queries("hit at the remembered difficulty", extra=SEEN_QUERIES):
        assert send().status_code == 200
    send = _post(alice, game, "answer", answer=_wrong(_pending(game)))
    with at_most_five_queries("answer, wrong", extra=RATING_QUERIES) as queries:
        assert send().status_code == 200
    assert len(_rating_queries(queries)) == RATING_QUERIES, "\n".join(queries)
    game.refresh_from_db()
    # Carried into the round at once: the hand stood.
    assert game.pending_trivia is None and game.state["round"]["phase"] == "round_over"


@pytest.mark.django_db
def test_fifty_fifty_and_swap_take_five_queries_at_most(long_game: Game, alice: Client) -> None:
    game = long_game
    alice.get(f"/games/{game.pk}/")
    for action, data in (("deal", {"amount": "10.00"}), ("hit", {"difficulty": "medium"})):
        assert _post(alice, game, action, **data)().status_code == 200
    # 50:50 is the lock and the save; Swap adds its pick and the questions this
    # game swapped away before, and that the player has seen the new one.
    for lifeline in ("fifty-fifty", "swap"):
        send = _post(alice, game, lifeline)
        with at_most_five_queries(lifeline, extra=SEEN_QUERIES if lifeline == "swap" else 0):
            assert send().status_code == 200
    game.refresh_from_db()
    assert game.credits == game.state["credits"] and len(_pending(game).lifelines) == 2


def _each_in_five_queries(alice: Client, game: Game, steps: tuple[tuple[str, dict], ...]) -> None:
    alice.get(f"/games/{game.pk}/")
    for action, data in steps:
        send = _post(alice, game, action, **data)
        with at_most_five_queries(action):
            assert send().status_code == 200
    game.refresh_from_db()


@pytest.mark.django_db
def test_the_round_end_and_the_next_deal_take_five_queries_at_most(
    long_game: Game, alice: Client
) -> None:
    steps = (
        ("deal", {"amount": "10.00"}),
        ("stand", {}),  # the dealer plays; the round, its hand and its record are written
        ("chip", {"chip": "25"}),  # a new bet from zero, on the outcome
        ("clear-bet", {}),
        ("chip", {"chip": "25"}),
        ("deal", {"amount": "25.00"}),
        ("stand", {}),
        ("rebet", {}),  # the same stakes dealt again
    )
    # Three plain rounds (17 against the dealer's 17, no natural, no offer), whatever the
    # shoe's order: Stand is then always the hand's decision.
    stack_shoe(long_game, ["KS", "8H", "7D", "9C"] * 3)
    _each_in_five_queries(alice, long_game, steps)
    assert long_game.rounds.count() == ROUNDS_BEFORE + 3


@pytest.mark.django_db
def test_the_next_round_of_an_older_page_takes_five_queries_at_most(
    long_game: Game, alice: Client
) -> None:
    steps = (("deal", {"amount": "10.00"}), ("stand", {}), ("next-round", {}), ("clear-bet", {}))
    _each_in_five_queries(alice, long_game, steps)
    assert long_game.rounds.count() == ROUNDS_BEFORE + 1


@pytest.mark.django_db
def test_a_wrong_answer_that_ends_the_round_takes_five_queries_at_most(
    long_game: Game, alice: Client
) -> None:
    game = long_game
    alice.get(f"/games/{game.pk}/")
    post(alice, game, "deal", amount="10.00")
    post(alice, game, "hit", difficulty="medium")
    # The hand stands, the dealer plays and the round is written: the game locked, the
    # attempt answered and applied, the game, the round and its hands (the user comes
    # from the cache).
    send = _post(alice, game, "answer", answer=_wrong(_pending(game)))
    with at_most_five_queries("answer, wrong", extra=RATING_QUERIES) as queries:
        assert send().status_code == 200
    assert len(_rating_queries(queries)) == RATING_QUERIES, "\n".join(queries)
    game.refresh_from_db()
    assert game.pending_trivia is None and game.state["round"]["phase"] == "round_over"


@pytest.mark.django_db
def test_a_right_answer_whose_card_ends_the_round_takes_five_queries_at_most(
    long_game: Game, alice: Client
) -> None:
    game = long_game
    alice.get(f"/games/{game.pk}/")
    post(alice, game, "deal", amount="10.00")
    post(alice, game, "double", difficulty="medium")
    attempt = _pending(game)
    asked, right = attempt.question.times_asked, attempt.question.times_correct
    # Doubled 9S 7D gets the 2H; the dealer's 16 draws the KD: the round is over. The game
    # locked, the attempt answered (the question's counters in the same statement), the
    # game, the round and its hands.
    send = _post(alice, game, "answer", answer=attempt.question.correct_answer)
    with at_most_five_queries("answer, right, round over", extra=RATING_QUERIES) as queries:
        assert send().status_code == 200
    assert len(_rating_queries(queries)) == RATING_QUERIES, "\n".join(queries)
    game.refresh_from_db()
    assert game.pending_trivia is None and game.state["round"]["phase"] == "round_over"
    attempt.question.refresh_from_db()
    assert (attempt.question.times_asked, attempt.question.times_correct) == (asked + 1, right + 1)
