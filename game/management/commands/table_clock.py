"""``python manage.py table_clock [--interval SECONDS] [--once]``: the shared tables' clock.

Applies every deadline that ran out (intermissions, simultaneous decisions, turns, trivia
answers; T-13) every ``--interval`` seconds (default settings.TABLE_CLOCK_INTERVAL, 0.2),
until SIGTERM or SIGINT, which stop it after the current tick. Run it beside the app
servers (README "Production"); more than one is safe, and a restarted clock carries on
from the deadlines stored. A database error is logged and the loop goes on.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from game.tables import clock_runner

# What signal.signal() takes and signal.getsignal() gives back.
SignalHandler = Callable[[int, FrameType | None], Any] | int | None


class Command(BaseCommand):
    help = "Applies the shared tables' deadlines as they run out (the table clock)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--interval",
            type=float,
            default=None,
            help="seconds between ticks (default: settings.TABLE_CLOCK_INTERVAL, 0.2)",
        )
        parser.add_argument("--once", action="store_true", help="apply what is due now, then exit")

    def handle(self, *args: Any, interval: float | None, once: bool, **options: Any) -> None:
        if interval is None:
            interval = float(getattr(settings, "TABLE_CLOCK_INTERVAL", 0.2))
        if interval <= 0:
            raise CommandError("--interval must be more than 0")
        stop = threading.Event()
        if once:
            applied = clock_runner.run_clock(stop, interval=interval, once=True)
            if options.get("verbosity", 1) > 1:
                self.stdout.write(f"applied {applied} deadline(s)")
            return
        previous = self._install_signal_handlers(stop)
        try:
            if options.get("verbosity", 1) > 0:
                self.stdout.write(f"table clock: ticking every {interval:g} s")
            applied = clock_runner.run_clock(stop, interval=interval)
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)
        if options.get("verbosity", 1) > 0:
            self.stdout.write(f"table clock: stopped ({applied} deadline(s) applied)")

    @staticmethod
    def _install_signal_handlers(stop: threading.Event) -> dict[int, SignalHandler]:
        """SIGTERM and SIGINT set ``stop`` (only the main thread may install handlers)."""
        if threading.current_thread() is not threading.main_thread():
            return {}

        def request_stop(signum: int, frame: FrameType | None) -> None:
            stop.set()

        previous: dict[int, SignalHandler] = {}
        for signum in (signal.SIGTERM, signal.SIGINT):
            previous[signum] = signal.getsignal(signum)
            signal.signal(signum, request_stop)
        return previous
