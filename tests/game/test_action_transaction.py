"""Each action is one transaction: its writes are committed together, or not at all; the
lock reads in one query what the action needs; on PostgreSQL, a connection has the busy
statements prepared (Django's server_side_binding and prepare_threshold options)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game import services
from game.core.errors import ActionRefused, StaleVersion
from game.models import Game, Hand, Round, TriviaAttempt
from game.services import coach
from tests.game import scenarios

WRITES = ("INSERT", "UPDATE", "DELETE")


def _is_write(sql: str) -> bool:
    """A write, or writes sent together as data-modifying WITH queries (PostgreSQL)."""
    sql = sql.lstrip().upper()
    return sql.startswith(WRITES) or (sql.startswith("WITH") and " UPDATE " in sql)


class _Statements:
    """An execute wrapper (Django's documented hook): each statement, and whether it ran
    inside an atomic block."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, bool]] = []

    def __call__(self, execute, sql, params, many, context):
        self.seen.append((sql, connection.in_atomic_block))
        return execute(sql, params, many, context)

    @property
    def writes(self) -> list[tuple[str, bool]]:
        return [(sql, atomic) for sql, atomic in self.seen if _is_write(sql)]


@pytest.mark.django_db(transaction=True)
def test_an_actions_writes_are_committed_together(player) -> None:
    """A Stand that ends the round writes the round, its hand and the game inside one
    transaction, and that transaction is committed when the action returns."""
    game = scenarios.trivia_off(player)
    statements = _Statements()
    with connection.execute_wrapper(statements):
        services.stand(game_id=game.pk, user=player, version=game.version)
    tables = " ".join(sql for sql, _ in statements.writes)
    for table in ("game_game", "game_round", "game_hand"):
        assert table in tables
    assert all(atomic for _, atomic in statements.writes)
    assert not connection.in_atomic_block
    # What a new connection reads was committed.
    connection.close()
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == game.version + 1
    assert Round.objects.get(game=game).phase == "round_over"
    assert Hand.objects.filter(round__game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_action_that_fails_after_its_writes_changes_nothing(player, monkeypatch) -> None:
    """The round, its hand and the game are written, then the action fails: every one
    of its writes is rolled back."""
    game = scenarios.trivia_off(player)
    statements = _Statements()

    def failing_record(*args: Any, **kwargs: Any) -> None:
        raise ActionRefused("rule", text="refused after the writes")

    monkeypatch.setattr(coach, "record", failing_record)
    with connection.execute_wrapper(statements), pytest.raises(ActionRefused):
        services.stand(game_id=game.pk, user=player, version=game.version)
    assert any("game_hand" in sql for sql, _ in statements.writes)
    connection.close()
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.state) == (game.version, game.state)
    assert Round.objects.get(game=game).phase == "player_turn"
    assert not Hand.objects.filter(round__game=game).exists()


@pytest.mark.django_db
def test_a_version_changed_underneath_the_lock_is_refused_by_the_save(player, monkeypatch) -> None:
    """The save repeats the version check (it holds on SQLite too, where the lock is a
    no-op): another write that moved the version on makes the action stale."""
    game = scenarios.trivia_off(player)
    real_judge = coach.judge

    def judge_while_another_request_writes(*args: Any, **kwargs: Any) -> Any:
        Game.objects.filter(pk=game.pk).update(version=game.version + 1)
        return real_judge(*args, **kwargs)

    monkeypatch.setattr(coach, "judge", judge_while_another_request_writes)
    with pytest.raises(StaleVersion):
        services.stand(game_id=game.pk, user=player, version=game.version)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.state) == (game.version, game.state)
    assert not Hand.objects.filter(round__game=game).exists()


@pytest.mark.django_db
def test_the_lock_reads_the_pending_question_and_the_latest_round_in_one_query(
    player, questions
) -> None:
    game = scenarios.question_shown(player)
    attempt = TriviaAttempt.objects.select_related("question__category").get(game=game)
    round_id = Round.objects.get(game=game).pk
    with (
        CaptureQueriesContext(connection) as captured,
        services.locked_game(game_id=game.pk, user=player, version=game.version) as table,
    ):
        locked = table.game
        pending = locked.pending_trivia
        assert pending == attempt and pending.answers_shown == attempt.answers_shown
        assert pending.question == attempt.question
        assert pending.question.category == attempt.question.category
        assert table.round_row_id == round_id
        assert table.engine.round_in_progress and table.round_was_open
    selects = [query["sql"] for query in captured.captured_queries if "SELECT" in query["sql"]]
    assert len(selects) == 1 and "game_game" in selects[0]


@pytest.mark.django_db(transaction=True)
def test_after_refused_actions_the_next_one_runs(player) -> None:
    """A refusal rolls its transaction back (and with it, on PostgreSQL, the statements
    the connection had prepared); the same connection's next action runs as usual."""
    game = scenarios.betting(player)
    for _ in range(settings.PREPARE_THRESHOLD + 1):
        services.add_chip(game_id=game.pk, user=player, version=game.version, chip_cents=100)
        game.refresh_from_db()
        with pytest.raises(ActionRefused):
            services.stand(game_id=game.pk, user=player, version=game.version)
    services.add_chip(game_id=game.pk, user=player, version=game.version, chip_cents=500)
    stored = Game.objects.get(pk=game.pk)
    assert stored.pending_bet_cents == 100 * (settings.PREPARE_THRESHOLD + 1) + 500


def _prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.postgres_only
@pytest.mark.skipif(not settings.GAME_PREPARED_STATEMENTS, reason="GAME_PREPARED_STATEMENTS is off")
@pytest.mark.django_db
def test_on_postgresql_a_connection_prepares_the_games_lock_once(player) -> None:
    """After PREPARE_THRESHOLD runs the lock is a statement prepared on the server, once
    for the connection, and still logged with its values like any query."""
    game = scenarios.betting(player)
    with CaptureQueriesContext(connection) as captured:
        for number in range(settings.PREPARE_THRESHOLD + 2):
            services.add_chip(
                game_id=game.pk, user=player, version=game.version + number, chip_cents=100
            )
    locks = [
        statement
        for statement in _prepared_statements()
        if "FOR UPDATE" in statement and '"game_game"' in statement
    ]
    assert len(locks) == 1
    logged = [query["sql"] for query in captured.captured_queries if "FOR UPDATE" in query["sql"]]
    assert len(logged) == settings.PREPARE_THRESHOLD + 2
    assert str(game.pk) in logged[-1]


def _database_options(**environment: str) -> str:
    """The default database's OPTIONS as the settings make them from ``environment``."""
    code = (
        "from blackjack_site import settings; "
        "print(sorted(settings.DATABASES['default'].get('OPTIONS', {}).items()))"
    )
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("DJANGO_SETTINGS_MODULE", "GAME_PREPARED_STATEMENTS")
    }
    env.update(DEBUG="1", **environment)
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(  # noqa: S603 - this interpreter, the project's own settings
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    return result.stdout


def test_prepared_statements_are_on_for_postgresql_unless_switched_off() -> None:
    postgres = "postgres://someone@db.example:5432/blackjack"
    on = _database_options(DATABASE_URL=postgres)
    assert "('server_side_binding', True)" in on and "('prepare_threshold', 5)" in on
    off = _database_options(DATABASE_URL=postgres, GAME_PREPARED_STATEMENTS="0")
    assert "server_side_binding" not in off and "prepare_threshold" not in off
    sqlite = _database_options(DATABASE_URL="sqlite:///unused.sqlite3")
    assert "server_side_binding" not in sqlite
