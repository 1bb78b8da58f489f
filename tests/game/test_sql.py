"""game/core/sql.py: the game row read by one explicit statement is what the ORM reads, with its
pending question; the save writes what the ORM's update writes."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game.core.sql import (
    insert,
    insert_all,
    insert_all_write,
    read_game,
    run_all,
    update,
    update_game,
    update_write,
)
from game.models import Game, Hand, Round, TriviaAttempt
from trivia.models import PlayerRating, SeenQuestion
from trivia.services import question_pools_changed, read_pool_stamp

pytestmark = pytest.mark.django_db


def _values(instance: Any) -> dict[str, Any]:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.fields}


def _pending(game: Game, question: Any, **fields: Any) -> TriviaAttempt:
    attempt = TriviaAttempt.objects.create(
        game=game,
        hand_index=0,
        action="hit",
        question=question,
        difficulty=question.difficulty,
        answers_shown=["é", "b", "c", "d"],
        **fields,
    )
    Game.objects.filter(pk=game.pk).update(pending_trivia=attempt)
    return attempt


def test_the_game_and_its_pending_question_are_what_the_orm_reads(
    make_game, player, questions
) -> None:
    game = make_game(trivia_mode=True)
    _pending(game, questions["hard"][0], answered_at=timezone.now(), correct=False)
    expected = Game.objects.select_related("pending_trivia__question__category").get(pk=game.pk)
    read = read_game(game_id=game.pk, owner_id=player.pk, lock=False)
    assert read is not None
    with CaptureQueriesContext(connection) as captured:
        attempt = read.game.pending_trivia
        pairs = [
            (read.game, expected),
            (attempt, expected.pending_trivia),
            (attempt.question, expected.pending_trivia.question),
            (attempt.question.category, expected.pending_trivia.question.category),
        ]
        for made, orm in pairs:
            assert _values(made) == _values(orm), type(orm).__name__
            assert not made._state.adding
    assert captured.captured_queries == []  # the joined rows came with the game
    assert isinstance(read.game.state, dict) and read.game.created.tzinfo is not None
    assert attempt.correct is False and attempt.is_answered


def test_a_game_without_a_pending_question_reads_none_without_a_query(make_game, player) -> None:
    game = make_game()
    read = read_game(game_id=game.pk, owner_id=player.pk, lock=False)
    with CaptureQueriesContext(connection) as captured:
        assert read.game.pending_trivia is None
    assert captured.captured_queries == []
    assert read.round_row_id is None


def test_another_players_game_is_not_read(make_game, other_player) -> None:
    game = make_game()
    assert read_game(game_id=game.pk, owner_id=other_player.pk, lock=False) is None
    assert read_game(game_id=game.pk + 1000, owner_id=game.owner_id, lock=False) is None


def test_the_latest_round_and_the_banks_stamp_come_with_the_game(make_game, player) -> None:
    game = make_game()
    rounds = [Round.objects.create(game=game, number=n, phase="round_over") for n in (2, 3, 1)]
    question_pools_changed()
    read = read_game(game_id=game.pk, owner_id=player.pk, lock=False)
    assert read.round_row_id == rounds[1].pk
    assert read.question_pool_stamp == read_pool_stamp() != ""


def test_the_owners_rating_row_comes_with_the_game(make_game, player) -> None:
    game = make_game()
    read = read_game(game_id=game.pk, owner_id=player.pk, lock=False)
    assert (read.player_rating, read.player_rated_answers, read.asked_since_review) == (None, 0, 0)
    PlayerRating.objects.create(player=player, rating=1612.5, rated_answers=7, asked_since_review=3)
    read = read_game(game_id=game.pk, owner_id=player.pk, lock=False)
    assert (read.player_rating, read.player_rated_answers, read.asked_since_review) == (
        1612.5,
        7,
        3,
    )


def test_the_lock_locks_the_game_row_only_where_rows_are_locked(make_game, player) -> None:
    game = make_game()
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        assert read_game(game_id=game.pk, owner_id=player.pk, lock=True).game == game
    (sql,) = [query["sql"] for query in captured.captured_queries if "game_game" in query["sql"]]
    if connection.vendor == "postgresql":
        assert sql.rstrip().endswith("FOR UPDATE OF g")
    else:
        assert "FOR UPDATE" not in sql


def test_the_save_writes_what_the_orms_update_writes(make_game, player, questions) -> None:
    game = make_game(trivia_mode=True)
    other = make_game(trivia_mode=True)
    attempt = _pending(other, questions["easy"][0])
    values = {
        "state": {**game.state, "marker": ["é", 1, None]},
        "status_note": {"kind": "phase", "shuffled": False},
        "pending_trivia": attempt,
        "showing_outcome": True,
        "last_played": timezone.now(),
        "bank_cents": 123_456,
        "trivia_choice_for": "double",
    }
    assert not update_game(game_id=game.pk, version=game.version + 5, values=values)
    assert update_game(game_id=game.pk, version=game.version, values=values)
    Game.objects.filter(pk=other.pk).update(**values)
    stored, expected = Game.objects.get(pk=game.pk), Game.objects.get(pk=other.pk)
    for name in values:
        assert getattr(stored, name) == getattr(expected, name) == values[name], name
    assert update_game(game_id=game.pk, version=game.version, values={"pending_trivia": None})
    assert Game.objects.get(pk=game.pk).pending_trivia is None


def _stored(model: Any, pk: int, *, leave_out: tuple[str, ...] = ()) -> dict[str, Any]:
    row = _values(model.objects.get(pk=pk))
    return {name: value for name, value in row.items() if name not in ("id", *leave_out)}


def test_an_insert_writes_what_create_writes(make_game, questions) -> None:
    game, other = make_game(trivia_mode=True), make_game(trivia_mode=True)
    fields = {
        "number": 1,
        "phase": "round_over",
        "version": 3,
        "bet_cents": 1_000,
        "staked_cents": 1_500,
        "credits_change": -1,
        "record": {"hands": [["AS", "KD"]], "note": "ünïcode ✓"},
    }
    made = Round(game=game, **fields)
    insert(made)
    expected = Round.objects.create(game=other, **fields)
    assert made.pk and not made._state.adding
    times = ("started", "updated")  # auto_now_add, auto_now: set by the insert, as by save()
    assert _stored(Round, made.pk, leave_out=("game_id", *times)) == _stored(
        Round, expected.pk, leave_out=("game_id", *times)
    )
    assert all(getattr(Round.objects.get(pk=made.pk), name) is not None for name in times)
    attempt = TriviaAttempt(
        game=game,
        round_id=made.pk,
        hand_index=1,
        action="double",
        question=questions["hard"][0],
        difficulty="hard",
        answers_shown=["é", "b"],
        shown_at=timezone.now(),
    )
    insert(attempt)
    stored = TriviaAttempt.objects.get(pk=attempt.pk)
    assert _values(stored) == _values(attempt)


def test_an_insert_of_many_writes_what_bulk_create_writes(make_game) -> None:
    game = make_game()
    first, second = (
        Round.objects.create(game=game, number=number, phase="round_over") for number in (1, 2)
    )

    def hands(round_: Round) -> list[Hand]:
        return [
            Hand(round=round_, index=index, cards=["AS", "0H"], bet_cents=100 * index, result="win")
            for index in range(3)
        ]

    insert_all(hands(first))
    Hand.objects.bulk_create(hands(second))
    insert_all([])  # nothing to write: no statement
    rows = [
        [_stored(Hand, hand.pk, leave_out=("round_id",)) for hand in round_.hands.order_by("index")]
        for round_ in (first, second)
    ]
    assert rows[0] == rows[1] and len(rows[0]) == 3


def test_an_update_writes_what_the_orms_update_writes(make_game, questions) -> None:
    game = make_game(trivia_mode=True)
    attempt = _pending(game, questions["easy"][0])
    twin = _pending(make_game(trivia_mode=True), questions["easy"][1])
    values = {"answer_given": "é", "correct": True, "answered_at": timezone.now(), "applied": True}
    assert update(TriviaAttempt, values, id=attempt.pk) == 1
    TriviaAttempt.objects.filter(pk=twin.pk).update(**values)
    leave_out = ("game_id", "question_id", "shown_at")
    assert _stored(TriviaAttempt, attempt.pk, leave_out=leave_out) == _stored(
        TriviaAttempt, twin.pk, leave_out=leave_out
    )
    assert update(TriviaAttempt, values, id=attempt.pk + twin.pk + 1000) == 0


def _asked(game: Game, question: Any) -> TriviaAttempt:
    return TriviaAttempt(
        game=game,
        hand_index=0,
        action="hit",
        question=question,
        difficulty=question.difficulty,
        answers_shown=["é", "b"],
        shown_at=timezone.now(),
    )


def test_the_save_sends_the_actions_other_writes_and_new_row_with_it(make_game, questions) -> None:
    """The writes sent along with a game's save, and a new row the game points to, are
    stored as each written alone would be; on PostgreSQL all in one statement."""
    game, twin = make_game(trivia_mode=True), make_game(trivia_mode=True)
    rounds = [Round.objects.create(game=g, number=1, phase="player_turn") for g in (game, twin)]
    answered = [
        _pending(g, questions["easy"][n], answered_at=timezone.now(), applied=True)
        for n, g in enumerate((game, twin))
    ]
    asked = [_asked(g, questions["medium"][0]) for g in (game, twin)]

    def writes(number: int) -> list[Any]:
        hands = [
            Hand(round=rounds[number], index=i, cards=["AS", "0H"], bet_cents=500, result="win")
            for i in range(2)
        ]
        return [
            update_write(Round, {"phase": "round_over"}, id=rounds[number].pk),
            update_write(TriviaAttempt, {"correct": True}, id=answered[number].pk),
            insert_all_write(hands),
        ]

    values = {"bank_cents": 4_321, "pending_trivia": asked[0]}
    with CaptureQueriesContext(connection) as batched:
        assert update_game(
            game_id=game.pk, version=game.version, values=values, along=writes(0), new_row=asked[0]
        )
    for write in writes(1):
        with connection.cursor() as cursor:
            cursor.execute(write.sql, write.params)
    insert(asked[1])
    assert update_game(
        game_id=twin.pk,
        version=twin.version,
        values={"bank_cents": 4_321, "pending_trivia": asked[1]},
    )
    assert asked[0].pk and not asked[0]._state.adding
    stored, expected = Game.objects.get(pk=game.pk), Game.objects.get(pk=twin.pk)
    assert stored.pending_trivia_id == asked[0].pk and expected.pending_trivia_id == asked[1].pk
    assert stored.bank_cents == expected.bank_cents == 4_321
    leave_out = ("game_id", "question_id", "round_id", "shown_at")
    assert _stored(TriviaAttempt, asked[0].pk, leave_out=leave_out) == _stored(
        TriviaAttempt, asked[1].pk, leave_out=leave_out
    )
    for number in (0, 1):
        assert Round.objects.get(pk=rounds[number].pk).phase == "round_over"
        assert TriviaAttempt.objects.get(pk=answered[number].pk).correct is True
        assert rounds[number].hands.count() == 2
    writes_sent = [q for q in batched.captured_queries if not q["sql"].startswith("SAVEPOINT")]
    assert len(writes_sent) == (1 if connection.vendor == "postgresql" else 5)


def test_a_save_of_an_old_version_writes_nothing_it_was_sent_with(make_game, questions) -> None:
    """A save refused for its version leaves the game, and (in its transaction) the rows
    sent with it are rolled back by the action's refusal; its new row gets no key."""
    game = make_game(trivia_mode=True)
    asked = _asked(game, questions["easy"][0])
    with pytest.raises(RuntimeError), transaction.atomic():
        saved = update_game(
            game_id=game.pk,
            version=game.version + 1,
            values={"bank_cents": 1, "pending_trivia": asked},
            new_row=asked,
        )
        assert not saved
        raise RuntimeError("the action is refused")
    assert Game.objects.get(pk=game.pk).bank_cents == game.bank_cents
    assert not TriviaAttempt.objects.filter(game=game).exists()


def test_an_insert_ignoring_conflicts_skips_a_row_already_there(
    make_game, player, questions
) -> None:
    """As bulk_create(ignore_conflicts=True): a row clashing with a unique key is skipped,
    the others are written, and nothing is raised."""
    first, second = questions["easy"][:2]
    earlier = timezone.now()
    SeenQuestion.objects.create(player=player, question=first, first_seen=earlier)
    rows = [
        SeenQuestion(player=player, question=question, first_seen=timezone.now())
        for question in (first, second)
    ]
    write = insert_all_write(rows, ignore_conflicts=True)
    assert write is not None
    run_all([write])
    stored = dict(
        SeenQuestion.objects.filter(player=player).values_list("question_id", "first_seen")
    )
    assert stored[first.pk] == earlier and set(stored) == {first.pk, second.pk}
