"""manage.py load_default_questions: load our original question bank, idempotently."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from trivia.importing import ImportFileError, import_questions

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "data" / "default_questions.json"
SOURCE = "default"


def default_questions_path() -> Path:
    return Path(getattr(settings, "TRIVIA_DEFAULT_QUESTIONS_PATH", DEFAULT_PATH))


class Command(BaseCommand):
    help = (
        "Load the default trivia questions (trivia/data/default_questions.json). Questions "
        "already in the bank (same text and right answer) are skipped, so it is safe to "
        "run on every start."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--path", type=Path, default=None, help="Load this file instead (same JSON shape)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["path"] or default_questions_path()
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror or exc}") from None
        try:
            # Our file is plain UTF-8 with no HTML entities: never unescape it.
            result = import_questions(data, fmt="opentdb-plain", source=SOURCE)
        except ImportFileError as exc:
            raise CommandError(f"Cannot load {path}: {exc}") from None
        plan = result.plan
        for error in plan.invalid:
            self.stderr.write(f"default questions, record {error.row}: {error.reason}")
        if result.added:
            self.stdout.write(
                f"Loaded {result.added} default questions "
                f"({plan.duplicates_in_bank} were already in the bank)."
            )
        else:
            self.stdout.write(
                f"No new default questions: all {plan.total_rows - len(plan.invalid)} "
                "are already in the bank."
            )
