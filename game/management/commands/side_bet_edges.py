"""Print the exact house edges of the side bets decided by the first cards."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from game.rules.sidebet_edges import (
    DEFAULT_DECK_COUNT,
    EDGE_BETS,
    edge_percent,
    house_edge,
    outcome_probabilities,
)

MIN_DECKS, MAX_DECKS = 1, 8  # RULES.md


class Command(BaseCommand):
    help = (
        "Print the exact house edge (percent and fraction) of Perfect Pair, 21+3, "
        "Perfect 11s and House Money (before parlay) for a fresh shoe."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--decks",
            type=int,
            default=DEFAULT_DECK_COUNT,
            help=f"decks in the shoe, {MIN_DECKS}-{MAX_DECKS} (default {DEFAULT_DECK_COUNT})",
        )
        parser.add_argument(
            "--lines",
            action="store_true",
            help="also print the exact probability of every pay line",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        decks: int = options["decks"]
        if not MIN_DECKS <= decks <= MAX_DECKS:
            raise CommandError(f"--decks must be {MIN_DECKS}-{MAX_DECKS}, got {decks}")
        self.stdout.write(f"Side-bet house edges, {decks}-deck shoe (exact enumeration)")
        for bet in EDGE_BETS:
            edge = house_edge(bet, decks)
            self.stdout.write(f"{bet:<12} {edge_percent(edge):>10}  = {edge}")
            if options["lines"]:
                self._write_lines(bet, decks)

    def _write_lines(self, bet: str, decks: int) -> None:
        probabilities = outcome_probabilities(bet, decks)
        for condition, probability in sorted(
            probabilities.items(), key=lambda item: item[1], reverse=True
        ):
            name = condition or "lose"
            self.stdout.write(f"    {name:<28} {float(probability):.8f}  = {probability}")
