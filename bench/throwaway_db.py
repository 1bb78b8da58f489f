"""Django set up on a throwaway SQLite file, for the benchmarks that need the database.

Imported by the *_bench.py scripts (run as ``python bench/<name>.py``, so this folder is on
``sys.path``); ``make bench`` runs only *_bench.py, not this module.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def setup_django(db_path: Path) -> None:
    """Point Django at ``db_path`` (a new SQLite file) and migrate it."""
    sys.path.insert(0, str(REPO))
    os.environ["DJANGO_SETTINGS_MODULE"] = "blackjack_site.settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


class QueryCounter:
    """A database execute wrapper that counts the queries run inside it."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)
