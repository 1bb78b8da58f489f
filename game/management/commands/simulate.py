"""``python manage.py simulate``: measure the house edge of a rule set.

Plays basic strategy through the game's own rules engine (see
:mod:`game.rules.simulator`). Needs no database. Uses the optional mypyc build of the
same engine sources when it is built and current (``make accelerated``), else Python.
"""

from __future__ import annotations

import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from game.rules import accelerated


class Command(BaseCommand):
    help = (
        "Play N rounds of basic strategy (flat table-minimum bet, trivia off, no side bets, "
        "insurance declined) through the rules engine and report the house edge."
    )
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--rounds", type=int, required=True, help="rounds to play")
        parser.add_argument(
            "--options",
            default="{}",
            help="table options as JSON (RULES.md §10 names), e.g. '{\"deck_count\": 8}'",
        )
        parser.add_argument("--seed", type=int, default=0, help="seed (default 0)")
        parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        engines = parser.add_mutually_exclusive_group()
        engines.add_argument(
            "--accelerated",
            action="store_true",
            help="require the mypyc-compiled engine built from the current sources "
            "(make accelerated); the same results, faster",
        )
        engines.add_argument(
            "--python",
            action="store_true",
            help="use the pure-Python engine even when a compiled build is available",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        rounds: int = options["rounds"]
        workers: int = options["workers"]
        if rounds < 1:
            raise CommandError("--rounds must be at least 1")
        if workers < 1:
            raise CommandError("--workers must be at least 1")
        try:
            raw = json.loads(options["options"])
        except json.JSONDecodeError as error:
            raise CommandError(f"--options is not JSON: {error}") from None
        if not isinstance(raw, dict):
            raise CommandError("--options must be a JSON object")
        engine = "python"
        if not options["python"]:
            # By default the compiled build is used when it matches the sources (the same
            # results, tested), else Python. Before the engine is first imported (below):
            # enable() cannot swap it later.
            reason = accelerated.enable()
            if reason is not None and options["accelerated"]:
                raise CommandError(f"--accelerated: {reason}")
        from game.rules.simulator import simulate, simulation_options

        if accelerated.is_active():
            engine = "compiled (mypyc)"
        try:
            table = simulation_options(raw)
        except ValueError as error:
            raise CommandError(f"--options: {error}") from None
        result = simulate(rounds, table, seed=options["seed"], workers=workers)
        if options["json"]:
            self.stdout.write(json.dumps(result.to_json()))
            return
        self.stdout.write(f"Options: {json.dumps(table.to_dict(), sort_keys=True)}")
        self.stdout.write(
            f"Rounds: {result.rounds:,} (seed {options['seed']}, {workers} worker(s))"
        )
        self.stdout.write(
            f"House edge: {result.house_edge_pct:.3f}% ± {result.stderr_pct:.3f}% (1 s.e.)"
        )
        self.stdout.write(f"Player naturals: {result.player_natural_pct:.2f}% of rounds")
        self.stdout.write(f"Dealer busts: {result.dealer_bust_pct:.2f}% of rounds")
        self.stdout.write(f"Pushes: {result.push_pct:.2f}% of rounds")
        self.stdout.write(f"Speed: {result.rounds_per_sec:,.0f} rounds/s, {engine} engine")
