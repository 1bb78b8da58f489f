"""manage.py import_trivia FILE: add questions from an OpenTDB JSON or CSV file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from trivia.importing import FORMATS, ImportFileError, import_questions, summary_lines

# Exit status for a file that cannot be read at all (bad rows alone still exit 0).
BAD_FILE_EXIT = 2


class Command(BaseCommand):
    help = (
        "Import trivia questions from Open Trivia Database JSON (envelope or list; HTML, "
        "base64 or url3986 encoding) or CSV. Duplicates and invalid rows are skipped and "
        "reported; the import is one transaction."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="Path to the JSON or CSV file.")
        parser.add_argument(
            "--dry-run", action="store_true", help="Report what would happen; write nothing."
        )
        parser.add_argument(
            "--format",
            choices=FORMATS,
            default="auto",
            help="Force the format or OpenTDB encoding (default: detect).",
        )
        parser.add_argument(
            "--category-default",
            default=None,
            metavar="NAME",
            help="Category for rows that have none.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(
                f"Cannot read {path}: {exc.strerror or exc}", returncode=BAD_FILE_EXIT
            ) from None
        try:
            result = import_questions(
                data,
                fmt=options["format"],
                category_default=options["category_default"],
                source=f"import:{path.name}",
                dry_run=options["dry_run"],
            )
        except ImportFileError as exc:
            raise CommandError(f"Cannot import {path}: {exc}", returncode=BAD_FILE_EXIT) from None
        self.stdout.write(f"{path.name} — " + "\n".join(summary_lines(result)))
