"""game/prepared.py and game/url_cache.py (issue 14): the lock query compiled once per
connection reads what the queryset reads; game URLs reversed once give what reverse() gives."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, models, transaction
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from game import prepared, services
from game.models import Game, Hand, Round, TriviaAttempt
from game.prepared import PreparedQuery
from game.url_cache import cached_reverse, game_url

FIELDS = [field.attname for field in Game._meta.concrete_fields]


@pytest.mark.django_db
def test_the_prepared_lock_reads_what_the_queryset_reads(make_game, player, questions) -> None:
    game = make_game(trivia_mode=True)
    round_ = Round.objects.create(game=game, number=1, phase="player_turn")
    question = questions["easy"][0]
    attempt = TriviaAttempt.objects.create(
        game=game,
        round=round_,
        hand_index=0,
        action="hit",
        question=question,
        difficulty="easy",
        answers_shown=["a", "b"],
    )
    Game.objects.filter(pk=game.pk).update(pending_trivia=attempt)
    with transaction.atomic():
        expected = services._locking_query(game.pk, player.pk).get()
        table = services._lock(game_id=game.pk, user=player)
    locked = table.game
    assert [getattr(locked, name) for name in FIELDS] == [
        getattr(expected, name) for name in FIELDS
    ]
    assert locked.round_row_id == round_.pk == table.round_row_id
    # The joined rows come with it, converted as the ORM converts them.
    assert locked.pending_trivia == attempt
    assert locked.pending_trivia.answers_shown == ["a", "b"]
    assert locked.pending_trivia.question == question
    assert locked.pending_trivia.question.category == question.category
    assert locked.state == expected.state and isinstance(locked.state, dict)
    assert locked.created == expected.created and locked.created.tzinfo is not None


@pytest.mark.django_db
def test_another_players_game_is_not_found_and_no_pending_question_is_none(
    make_game, player, other_player
) -> None:
    game = make_game()
    with transaction.atomic():
        assert services._lock(game_id=game.pk, user=player).game.pending_trivia is None
        with pytest.raises(services.GameNotFound):
            services._lock(game_id=game.pk, user=other_player)


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_prepared_lock_does_what_the_orm_does(make_game, player) -> None:
    """Refused where the database locks rows (PostgreSQL), as Django refuses the queryset."""
    game = make_game()
    try:
        services._locking_query(game.pk, player.pk).get()
    except transaction.TransactionManagementError:
        with pytest.raises(transaction.TransactionManagementError):
            services._LOCKING_QUERY.first(game_id=game.pk, owner_id=player.pk)
    else:
        assert services._LOCKING_QUERY.first(game_id=game.pk, owner_id=player.pk) == game


def _server_prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.postgres_only
@pytest.mark.django_db
def test_on_postgresql_the_lock_is_prepared_once_per_session_and_logged_with_its_values(
    make_game, player
) -> None:
    """Fourth pass: PostgreSQL plans the lock once per session (psycopg's prepared
    statements), and a prepared statement is still logged and counted like the ORM's."""
    game = make_game()
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        for _ in range(2):
            assert services._lock(game_id=game.pk, user=player).game == game
        locks = [
            statement
            for statement in _server_prepared_statements()
            if statement.startswith('SELECT "game_game"."id"') and "FOR UPDATE" in statement
        ]
    assert len(locks) == 1
    logged = [query["sql"] for query in queries if "FOR UPDATE" in query["sql"]]
    assert len(logged) == 2
    assert f'"game_game"."id" = {game.pk}' in logged[0]


@pytest.mark.django_db
def test_after_a_rollback_the_prepared_statements_are_made_again(make_game, player) -> None:
    """psycopg forgets its prepared statements when a transaction rolls back (and drops
    them on the server): the next action prepares them again and runs."""
    game = make_game()
    with pytest.raises(services.StaleVersion), transaction.atomic():
        services._lock(game_id=game.pk, user=player)
        raise services.StaleVersion("refused")
    with transaction.atomic():
        assert services._lock(game_id=game.pk, user=player).game == game
    services.place_bet_and_deal(game_id=game.pk, user=player, version=game.version, bet_cents=1000)
    assert Game.objects.get(pk=game.pk).version == game.version + 1


@pytest.mark.django_db
def test_each_value_must_be_a_parameter_of_its_own() -> None:
    query = PreparedQuery(lambda game_id: Game.objects.filter(pk=1), "game_id")
    with pytest.raises(ValueError, match="game_id"):
        query._compile(None)


@pytest.mark.django_db
def test_cached_game_urls_are_what_reverse_gives() -> None:
    for name, args in [
        ("game:table", []),
        ("game:options", []),
        ("game:end_game", []),
        ("game:report_question", []),
        ("game:action", ["hit"]),
        ("game:action", ["side-bets-menu"]),
    ]:
        for game_id in (1, 42, 1234567):
            assert game_url(name, game_id, *args) == reverse(name, args=[game_id, *args])
    assert cached_reverse("game:statistics") == reverse("game:statistics")


@pytest.mark.django_db
def test_cached_urls_follow_the_script_prefix_and_the_urlconf() -> None:
    plain = game_url("game:table", 7)
    with override_settings(FORCE_SCRIPT_NAME="/casino/"):
        from django.urls import set_script_prefix

        set_script_prefix("/casino/")
        try:
            assert game_url("game:table", 7) == "/casino" + plain == reverse("game:table", args=[7])
        finally:
            set_script_prefix("/")
    assert game_url("game:table", 7) == plain


@pytest.mark.django_db
def test_the_prepared_save_writes_what_the_orm_writes(make_game, player, questions) -> None:
    game = make_game(trivia_mode=True)
    attempt = TriviaAttempt.objects.create(
        game=game,
        hand_index=0,
        action="hit",
        question=questions["easy"][0],
        difficulty="easy",
        answers_shown=["a"],
    )
    values = {
        "state": {**game.state, "marker": ["é", 1]},
        "status_note": {"kind": "phase", "shuffled": False},
        "pending_trivia": attempt,
        "showing_outcome": True,
        "last_played": game.created,
        "version": game.version + 1,
    }
    assert services._GAME_UPDATE.run(values, id=game.pk, version=game.version + 5) == 0
    assert services._GAME_UPDATE.run(values, id=game.pk, version=game.version) == 1
    stored = Game.objects.get(pk=game.pk)
    for name, value in values.items():
        assert getattr(stored, name) == value, name
    expression = {"version": models.F("version") + 1}
    assert services._GAME_UPDATE.run(expression, id=game.pk, version=game.version + 1) == 1
    assert Game.objects.get(pk=game.pk).version == game.version + 2


@pytest.mark.django_db
def test_the_prepared_insert_writes_what_create_writes(make_game, questions) -> None:
    game = make_game(trivia_mode=True)
    round_ = Round.objects.create(game=game, number=1, phase="player_turn")
    fields = {
        "game": game,
        "round_id": round_.pk,
        "hand_index": 1,
        "action": "double",
        "question": questions["hard"][0],
        "difficulty": "hard",
        "answers_shown": ["é", "b"],
        "shown_at": game.created,
    }
    expected = TriviaAttempt.objects.create(**fields)
    # One unanswered question a game: the same fields for another game of the player's.
    fields["game"] = make_game(trivia_mode=True)
    attempt = services._ATTEMPT_INSERT.save(TriviaAttempt(**fields))
    assert attempt.game_id == fields["game"].pk != expected.game_id
    assert attempt.pk and attempt.pk != expected.pk and not attempt._state.adding
    stored = TriviaAttempt.objects.get(pk=attempt.pk)
    names = [
        field.attname
        for field in TriviaAttempt._meta.concrete_fields
        if field.attname not in ("id", "game_id")
    ]
    assert [getattr(stored, name) for name in names] == [getattr(expected, name) for name in names]
    with pytest.raises(ValueError, match="new instance"):
        services._ATTEMPT_INSERT.save(attempt)


@pytest.mark.django_db
def test_the_prepared_pick_skips_asked_and_inactive_questions_in_the_samples_order(
    make_game, questions
) -> None:
    from tests.trivia.factories import QuestionFactory

    game = make_game(trivia_mode=True)
    pool = [*questions["medium"], *QuestionFactory.create_batch(5, difficulty="medium")]
    asked, inactive, *rest = pool
    TriviaAttempt.objects.create(
        game=game, hand_index=0, action="hit", question=asked, difficulty="medium"
    )
    type(inactive).objects.filter(pk=inactive.pk).update(active=False)
    in_game = services._AskedInGame(game.pk)
    sample = [asked.pk, inactive.pk, *(question.pk for question in reversed(rest))]
    assert len(sample) == services.CANDIDATES  # the prepared query's case
    found = in_game.first_not_asked(sample, "medium")
    assert found == rest[-1] and found.category == rest[-1].category
    assert in_game.first_not_asked(sample, "hard") is None
    # A short sample (a small pool) takes the ORM's query: the same answer.
    assert in_game.first_not_asked(sample[:3], "medium") == rest[-1]
    assert in_game.first_not_asked(sample[:2], "medium") is None
    assert in_game.asked_ids() == {asked.pk}


@pytest.mark.django_db
def test_first_in_order_builds_only_the_row_it_returns(questions, monkeypatch) -> None:
    from trivia.models import Question

    pool = questions["easy"][:3]
    picked = PreparedQuery(
        lambda a, b, c: Question.objects.select_related("category").filter(pk__in=[a, b, c]),
        "a",
        "b",
        "c",
    )
    built = []
    real_from_db = Question.from_db.__func__
    monkeypatch.setattr(
        Question, "from_db", classmethod(lambda *args: built.append(1) or real_from_db(*args))
    )
    keys = {"a": pool[0].pk, "b": pool[1].pk, "c": pool[2].pk}
    order = [-1, pool[2].pk, pool[0].pk]  # a key no row has first: skipped
    found = picked.first_in_order(order, **keys)
    assert found == pool[2] and len(built) == 1
    # Converted and populated as the ORM does it.
    expected = Question.objects.select_related("category").get(pk=pool[2].pk)
    assert found.incorrect_answers == expected.incorrect_answers
    assert found.created == expected.created and found.category == expected.category
    assert picked.first_in_order([-1], **keys) is None


@pytest.mark.django_db
def test_the_prepared_bulk_insert_writes_what_bulk_create_writes(player) -> None:
    from game.prepared import PreparedBulkInsert
    from game.tables.models import SharedTable, TableEvent

    table = SharedTable.objects.create(name="t", host=player)
    other = SharedTable.objects.create(name="u", host=player)
    data = [("card_dealt", {"card": "AS", "seat": 1, "note": "ünïcode ✓"}), ("round_over", {})]
    PreparedBulkInsert(TableEvent).insert(
        [TableEvent(table=table, seq=n, kind=k, data=d) for n, (k, d) in enumerate(data, 1)]
    )
    TableEvent.objects.bulk_create(
        TableEvent(table=other, seq=n, kind=k, data=d) for n, (k, d) in enumerate(data, 1)
    )
    PreparedBulkInsert(TableEvent).insert([])  # nothing to write: no statement

    def rows(of: SharedTable) -> list[tuple]:
        return list(of.events.order_by("seq").values_list("seq", "kind", "data"))

    assert rows(table) == rows(other) == [(1, *data[0]), (2, *data[1])]
    assert all(event.created is not None for event in table.events.all())


def _waiting(connection_: object) -> int:
    """How many statements of the sent_together() block wait for their results."""
    batch = getattr(connection_, prepared._PIPELINE, None)
    return 0 if batch is None else len(batch.pipeline.result_queue)


@pytest.mark.postgres_only
@pytest.mark.django_db
def test_statements_sent_together_go_when_the_block_ends(make_game, player) -> None:
    """Issue 14: a round's UPDATE and the game's wait and go together when the block ends;
    the game's row count is checked then; a result read inside sends what waits first."""
    game = make_game()
    round_ = Round.objects.create(game=game, number=1, phase="player_turn")
    with transaction.atomic():
        with prepared.sent_together():
            services._ROUND_UPDATE.send({"phase": "round_over"}, id=round_.pk)
            services._GAME_UPDATE.run_checked(
                {"credits": 7}, rows=1, error=AssertionError, id=game.pk, version=game.version
            )
            assert _waiting(connection) > 0  # (their PREPAREs too, the first time)
        assert _waiting(connection) == 0
        with prepared.sent_together():
            services._ROUND_UPDATE.send({"phase": "dealer_turn"}, id=round_.pk)
            gone = services._GAME_UPDATE.run({"credits": 8}, id=game.pk, version=-1)
            assert gone == 0 and _waiting(connection) == 0  # run() read its count: sent
    assert Round.objects.get(pk=round_.pk).phase == "dealer_turn"
    assert Game.objects.get(pk=game.pk).credits == 7


class _Refused(Exception):
    pass


@pytest.mark.django_db
def test_a_row_count_checked_when_sent_refuses_before_the_commit(make_game) -> None:
    """run_checked: at once outside a block (and on SQLite), when the block's statements
    are sent inside one — either way inside the transaction, which rolls back."""
    game = make_game()
    with pytest.raises(_Refused), transaction.atomic(), prepared.sent_together():
        services._GAME_UPDATE.run_checked(
            {"credits": 7}, rows=1, error=AssertionError, id=game.pk, version=game.version
        )
        services._GAME_UPDATE.run_checked(
            {"credits": 8}, rows=1, error=_Refused, id=game.pk, version=-1
        )
    assert Game.objects.get(pk=game.pk).credits == game.credits


@pytest.mark.postgres_only
@pytest.mark.django_db
def test_an_actions_writes_take_one_round_trip(player, questions, monkeypatch) -> None:
    """A stand that ends the round (the round's UPDATE, its hands, the game's UPDATE) and a
    Continue (the attempt's flag too) each send their writes once: one pipeline sync."""
    from psycopg._pipeline_base import BasePipeline

    from tests.game import scenarios

    stand_game = scenarios.trivia_off(player)
    continue_game = scenarios.answered(player)
    syncs: list[int] = []
    real = BasePipeline._enqueue_sync
    monkeypatch.setattr(BasePipeline, "_enqueue_sync", lambda self: syncs.append(1) or real(self))
    scenarios._act(stand_game, player, services.stand)
    assert len(syncs) == 1
    assert Round.objects.get(game=stand_game).hands.exists()
    scenarios._act(continue_game, player, services.continue_after_reveal)
    assert len(syncs) == 2
    assert TriviaAttempt.objects.get(game=continue_game).applied


@pytest.mark.postgres_only
@pytest.mark.django_db
def test_an_error_sent_together_is_djangos_and_rolls_back(make_game) -> None:
    game = make_game()
    round_ = Round.objects.create(game=game, number=1, phase="player_turn")
    other = Round.objects.create(game=game, number=2, phase="player_turn")
    with pytest.raises(IntegrityError), transaction.atomic(), prepared.sent_together():
        services._ROUND_UPDATE.send({"phase": "round_over"}, id=round_.pk)
        # (game, number) is unique: this one fails when the two are sent.
        services._ROUND_UPDATE.send({"number": 1}, id=other.pk)
    assert Round.objects.get(pk=round_.pk).phase == "player_turn"


@pytest.mark.postgres_only
@pytest.mark.django_db
def test_an_orm_update_is_refused_inside_sent_together(make_game) -> None:
    game = make_game()
    with transaction.atomic(), prepared.sent_together(), pytest.raises(ValueError, match="ORM"):
        services._GAME_UPDATE.run({"credits": models.F("credits") + 1}, id=game.pk)


@pytest.mark.django_db
def test_without_prepared_statements_each_statement_is_sent_at_once(make_game) -> None:
    """SQLite, or GAME_PREPARED_STATEMENTS off: sent_together changes nothing."""
    game = make_game()
    with (
        override_settings(GAME_PREPARED_STATEMENTS=False),
        transaction.atomic(),
        prepared.sent_together(),
    ):
        assert getattr(connection, prepared._PIPELINE, None) is None
        assert services._GAME_UPDATE.run({"credits": 9}, id=game.pk, version=game.version) == 1
    assert Game.objects.get(pk=game.pk).credits == 9


@pytest.mark.postgres_only
@pytest.mark.django_db
def test_an_actions_writes_wait_for_the_games_update(player, questions, monkeypatch) -> None:
    """Issue 14: the deal's round INSERT, the answer's and Continue's attempt UPDATE, the
    round's UPDATE and its hands go to PostgreSQL with the game's UPDATE, not each alone:
    when each is handed over, it waits."""
    from tests.game import scenarios

    waits: list[tuple[str, int]] = []
    for kind in (prepared.PreparedInsert, prepared.PreparedUpdate):
        real_send = kind.send

        def send(self, *args, _real=real_send, **kwargs):
            _real(self, *args, **kwargs)
            waits.append((self.model.__name__, _waiting(connection)))

        monkeypatch.setattr(kind, "send", send)
    game = scenarios.answered(player)  # deal, Hit, difficulty, a wrong answer
    scenarios._act(game, player, services.continue_after_reveal)  # the hand stands
    assert [model for model, _ in waits] == ["Round", "TriviaAttempt", "TriviaAttempt", "Round"]
    assert all(waiting > 0 for _, waiting in waits), waits
    round_ = Round.objects.get(game=game)
    assert round_.phase == "round_over" and round_.hands.exists()
    assert round_.version == Game.objects.get(pk=game.pk).version
    assert TriviaAttempt.objects.get(game=game).applied


def _commits_sent(monkeypatch) -> list[bool]:
    """Records, for each COMMIT psycopg is asked for or sent, whether a pipeline held it."""
    from psycopg import Connection

    sent: list[bool] = []
    execute, commit = Connection.execute, Connection.commit

    def spy_execute(self, query, *args, **kwargs):
        if query in (b"COMMIT", "COMMIT"):
            sent.append(self._pipeline is not None)
        return execute(self, query, *args, **kwargs)

    def spy_commit(self):
        if self.info.transaction_status != 0:  # a COMMIT is sent (0 = IDLE: none is)
            sent.append(self._pipeline is not None)
        return commit(self)

    monkeypatch.setattr(Connection, "execute", spy_execute)
    monkeypatch.setattr(Connection, "commit", spy_commit)
    return sent


@pytest.mark.postgres_only
@pytest.mark.django_db(transaction=True)
def test_an_actions_commit_goes_with_its_writes(player, questions, monkeypatch) -> None:
    """Issue 14: an action's writes and its COMMIT reach PostgreSQL in one round trip
    (one pipeline sync), and the action is committed: a new connection sees it."""
    from psycopg._pipeline_base import BasePipeline

    from tests.game import scenarios

    game = scenarios.trivia_off(player)
    sent = _commits_sent(monkeypatch)
    syncs: list[int] = []
    real = BasePipeline._enqueue_sync
    monkeypatch.setattr(BasePipeline, "_enqueue_sync", lambda self: syncs.append(1) or real(self))
    scenarios._act(game, player, services.stand)
    assert sent == [True] and len(syncs) == 1
    assert not connection.in_atomic_block
    assert connection.connection.info.transaction_status == 0  # IDLE: nothing left open
    # A transaction left uncommitted would be rolled back with the connection: what is
    # read on a new one was committed.
    connection.close()
    version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
    rounds = Hand.objects.filter(round__game=game).count()
    assert version == game.version + 1 and rounds == 1


@pytest.mark.postgres_only
@pytest.mark.django_db(transaction=True)
def test_an_action_that_fails_after_its_writes_sends_no_commit(make_game, monkeypatch) -> None:
    """A body that raises once its writes wait sends no COMMIT: atomic rolls them back."""
    game = make_game()
    sent = _commits_sent(monkeypatch)
    with (
        pytest.raises(_Refused),
        services.locked_game(game_id=game.pk, user=game.owner, version=game.version),
    ):
        services._GAME_UPDATE.send({"credits": 77}, id=game.pk, version=game.version)
        raise _Refused
    assert sent == []
    assert Game.objects.get(pk=game.pk).credits == game.credits


@pytest.mark.postgres_only
@pytest.mark.django_db
def test_inside_an_enclosing_transaction_an_action_commits_nothing(
    player, questions, monkeypatch
) -> None:
    """Within an outer atomic (here the test's own) the action's block is only a
    savepoint: its writes are sent together, and no COMMIT goes with them."""
    from tests.game import scenarios

    game = scenarios.trivia_off(player)
    sent = _commits_sent(monkeypatch)
    scenarios._act(game, player, services.stand)
    assert sent == []
    assert connection.in_atomic_block
    assert connection.connection.info.transaction_status != 0  # the test's, still open
    assert Game.objects.get(pk=game.pk).version == game.version + 1
