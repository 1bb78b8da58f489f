"""The engines' states are compressed with lz4 on PostgreSQL.

A game's state is 3–4 KB of JSON, over PostgreSQL's 2 KB threshold: every action's UPDATE
compresses it again, with pglz by default. lz4 is several times faster; measured here, an
UPDATE of a game's state and its COMMIT took 0.70 ms with pglz and 0.63 ms with lz4
(measured with bench/web_bench.py). A shared table's state is larger still. Values already
stored keep their compression until they are next written — every action rewrites them.

Only on PostgreSQL, and only where the server was built with lz4 (Debian's and the
official images are): elsewhere the statement fails inside its own block and pglz stays.
"""

from django.db import migrations

COLUMNS = (("game_game", "state"), ("game_sharedtable", "state"))


def _set_compression(schema_editor, method: str) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, column in COLUMNS:
        # Names from this file only; a DO block so that a server without lz4 keeps pglz
        # instead of failing the migration.
        schema_editor.execute(
            "DO $$ BEGIN "
            f"EXECUTE 'ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION {method}'; "
            "EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN NULL; "
            "END $$"
        )


def to_lz4(apps, schema_editor) -> None:
    _set_compression(schema_editor, "lz4")


def to_pglz(apps, schema_editor) -> None:
    _set_compression(schema_editor, "pglz")


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0012_seat_side_bets"),
    ]

    operations = [migrations.RunPython(to_lz4, to_pglz)]
