"""``python manage.py replay FILE|-``: run a REPLAY.md file through the pure rules engine."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from game.rules.replay import ReplayError, run_replay

EXIT_REPLAY_ERROR = 2


class Command(BaseCommand):
    help = "Replay a round file (REPLAY.md) and print the result JSON. Needs no database."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="replay JSON file, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = self._load(options["file"])
            result = run_replay(data)
        except ReplayError as error:
            self._fail(error.describe())
        self.stdout.write(json.dumps(result, indent=2))

    def _load(self, path: str) -> Any:
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
        except OSError as error:
            raise ReplayError(f"cannot read {path}: {error.strerror}") from None
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise ReplayError(f"malformed JSON: {error}") from None

    def _fail(self, message: str) -> None:
        # One line naming round and action; exit 2, not CommandError's 1 (REPLAY.md).
        self.stderr.write("error: " + " ".join(message.split()))
        raise SystemExit(EXIT_REPLAY_ERROR)
