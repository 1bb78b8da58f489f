"""``python manage.py daily_shoes [--ahead 2]``: make today's Daily Shoe and the next days'.

Run it daily (cron, a timer): each day's server seed and question lists then exist, and
their commitments are published on the Daily page, at least a day before the day starts
(FAIRNESS.md D-4). A day already made is left as it is; a request that finds its day
missing makes it itself.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from game.services.daily import make_days_ahead


class Command(BaseCommand):
    help = "Make today's Daily Shoe and the next --ahead days' (already made days stay)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ahead", type=int, default=2, help="days after today (default 2)")

    def handle(self, *args: Any, ahead: int, **options: Any) -> None:
        if ahead < 1:
            self.stderr.write("--ahead must be at least 1: a day's seed is made a day early")
            raise SystemExit(2)
        for day in make_days_ahead(ahead=ahead):
            self.stdout.write(f"{day.date.isoformat()} {day.commitment}")
