"""The committed shoe's cost beside the ``SystemRandom`` shuffle it replaced.

    .venv/bin/python bench/shuffle_bench.py [--pairs 40] [--shoes 50]

Every shoe of a game is now made from the committed stream of FAIRNESS.md (HMAC-SHA256
blocks read four bytes an integer, Fisher–Yates in Python) and made a second time when the
shoe is revealed (to list the cards that left it). Before, a shoe was
``Shoe.build(decks, secrets.SystemRandom())``. This measures both, A B A B in one run (the
order of each pair alternates), for 1, 6 and 8 decks and the infinite deck's batch of 52,
and reports the median time a shoe, the ratio, and the cost spread over the rounds a shoe
lasts as the page plays it (R-2.2: rebuilt below 25 %, so a shoe deals three quarters of
its cards; a one-box round deals about 5.4 cards; an infinite batch lasts 52 cards).
Results in bench/RESULTS.md, "Committed shoes".
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.rules.fair import CommittedShoes  # noqa: E402
from game.rules.shoe import INFINITE, Shoe  # noqa: E402

CARDS_A_ROUND = 5.4  # a one-box round's cards, player and dealer (simulator's average)
DECKS = (1, 6, 8, INFINITE)


def system_random_shoe(decks: int) -> Callable[[], object]:
    rng = secrets.SystemRandom()
    return lambda: Shoe.build(decks, rng)


def committed_shoe(decks: int) -> Callable[[], object]:
    source = CommittedShoes("bench-client-seed")

    def make() -> object:
        shoe = source.new_shoe(decks, None)
        shoe.position = shoe.size  # every card dealt: the reveal lists them all
        source.finish(shoe)
        source.revealed.clear()
        source.opened.clear()
        return shoe

    return make


def seconds_a_shoe(make: Callable[[], object], shoes: int) -> float:
    start = time.perf_counter()
    for _ in range(shoes):
        make()
    return (time.perf_counter() - start) / shoes


def rounds_a_shoe(decks: int) -> float:
    cards = 52 if decks == INFINITE else 52 * decks * 3 / 4
    return cards / CARDS_A_ROUND


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=40)
    parser.add_argument("--shoes", type=int, default=50)
    args = parser.parse_args()
    print(
        "| shoe | SystemRandom, µs a shoe | committed (made + revealed), µs a shoe | ratio |"
        " committed, µs a round |"
    )
    print("|---|---|---|---|---|")
    for decks in DECKS:
        old, new = system_random_shoe(decks), committed_shoe(decks)
        before: list[float] = []
        after: list[float] = []
        for pair in range(args.pairs):
            order = (
                ((old, before), (new, after)) if pair % 2 == 0 else ((new, after), (old, before))
            )
            for make, times in order:
                times.append(seconds_a_shoe(make, args.shoes))
        a, b = statistics.median(before) * 1e6, statistics.median(after) * 1e6
        label = "infinite (52)" if decks == INFINITE else f"{decks} deck{'s' if decks > 1 else ''}"
        print(f"| {label} | {a:,.0f} | {b:,.0f} | {b / a:.2f} | {b / rounds_a_shoe(decks):,.1f} |")


if __name__ == "__main__":
    main()
