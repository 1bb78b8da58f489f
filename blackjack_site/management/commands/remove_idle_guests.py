"""``python manage.py remove_idle_guests [--days 30]``: delete the guests nobody plays as.

A guest (Play now, blackjack_site/guests.py) has no password, so once its session is gone
nobody can ever reach its games again. Those with no play for ``--days`` days (made, last
logged in, last played and last seated before then) are deleted with their games and the
tables they hosted that nobody uses (closed, or open and empty for as long); players who
signed up, staff, guests seated at a shared table and hosts of a table in use are never
touched. Meant to run daily (cron); running it twice removes nothing more.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from blackjack_site.guests import IDLE_DAYS, remove_idle_guests


class Command(BaseCommand):
    help = "Delete guest accounts (and their games) with no play for 30 days."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days",
            type=int,
            default=IDLE_DAYS,
            help=f"days without play before a guest is removed (default {IDLE_DAYS})",
        )

    def handle(self, *args: Any, days: int, **options: Any) -> None:
        if days < 1:
            raise CommandError("--days must be at least 1")
        guests, games = remove_idle_guests(days=days)
        self.stdout.write(f"Removed {guests} idle guest(s) and {games} game(s).")
