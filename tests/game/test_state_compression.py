"""The engines' states are compressed with lz4 on PostgreSQL (migration 0013):
every action rewrites a game's 3–4 KB state, and lz4 compresses it faster than pglz."""

from __future__ import annotations

import pytest
from django.db import connection

from game.models import Game

pytestmark = pytest.mark.postgres_only

STATE_COLUMNS = [("game_game", "state"), ("game_sharedtable", "state")]


def _compression(table: str, column: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attcompression FROM pg_attribute WHERE attrelid = %s::regclass "
            "AND attname = %s",
            [table, column],
        )
        return cursor.fetchone()[0]


@pytest.mark.django_db
@pytest.mark.parametrize(("table", "column"), STATE_COLUMNS)
def test_state_columns_use_lz4(table, column):
    assert _compression(table, column) == "l"


@pytest.mark.django_db
def test_a_saved_state_is_stored_with_lz4(make_game):
    game = make_game()
    # Large enough to be compressed (PostgreSQL compresses values over ~2 KB).
    Game.objects.filter(pk=game.pk).update(state={**game.state, "padding": "x" * 8000})
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_column_compression(state) FROM game_game WHERE id = %s", [game.pk]
        )
        assert cursor.fetchone()[0] == "lz4"
