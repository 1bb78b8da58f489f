"""Check the deck-count effects against published rule-variation figures.

    make bench        # runs it with the defaults, after building the compiled engine
    .venv/bin/python bench/deck_count_bench.py [--rounds 12000000] [--workers 2] [--seed 15]
    .venv/bin/python bench/deck_count_bench.py --json out.json   # the figures as JSON too

Plays the same rules (:data:`RULES`, the reference rules: 6 decks, S17, double after
split, resplit to 4 hands, split aces once with one card each, no surrender, peek, 3:2,
Charlie off) with ``deck_count`` 6, 1 and ``"infinite"`` through the simulator
(``game.rules.simulator``, the compiled engine when it is built and current, else pure
Python), then reports the effect of one deck and of infinite decks against six, each with
its standard error, and compares it with the published figure (:func:`published`): a
measured effect agrees when it lies within 3 standard errors of the published one. Exits
with status 1 when one does not (the result is fixed by the seed, so this is no flake).

The three runs use different seeds (``seed``, ``seed + 1``, ``seed + 2``), so they are
independent samples and the standard error of a difference is sqrt(se1² + se2²). (Common
random numbers would not help here: a 52-card and a 312-card shoe shuffled from the same
generator share no cards.) 12 million rounds each keep that standard error below 0.05%;
the three runs took 147 s on this machine's 2 cores with the compiled engine (load average
about 3), up to twice that when the machine is busier. Results in bench/RESULTS.md,
"Deck-count effects".
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# The simulator's REFERENCE_RULES, spelled out (checked in main): the Wizard of Odds
# calculator's usual base game, which the game can play exactly. Every other option keeps
# its RULES.md default (trivia and side bets are off in the simulator; reshuffle at the cut
# card, R-2.2, 75% penetration; an infinite shoe is never reshuffled).
RULES: dict[str, Any] = {
    "dealer_stands_on": "S17",
    "double_after_split": True,
    "max_splits": 3,
    "max_ace_splits": 1,
    "one_card_after_split_aces": True,
    "surrender": "off",
    "dealer_peek": True,
    "blackjack_payout": "3:2",
    "charlie": "off",
}
BASE_DECKS = 6
COMPARED: tuple[int | str, ...] = (1, "infinite")

# House-edge change (percentage points; negative favours the player) against six decks.
# Wizard of Odds, "Blackjack Rule Variations"
# (https://wizardofodds.com/games/blackjack/rule-variations/), the number-of-decks rows,
# given there as the player's gain relative to six decks: 1 deck +0.48%, 2 decks +0.19%,
# 4 decks +0.06%, 6 decks 0, 8 decks -0.02%. Quoted from memory and from code that
# copies the table (the page itself could not be fetched here): see bench/RESULTS.md.
WIZARD_DECK_ROWS: dict[int, float] = {1: -0.48, 2: -0.19, 4: -0.06, 6: 0.0, 8: 0.02}


@dataclass(frozen=True)
class Published:
    effect_pct: float  # house-edge change against six decks, percentage points
    source: str


def fit_inverse_decks(rows: Mapping[int, float]) -> tuple[float, float]:
    """Least-squares fit of effect(D) = a + b / D; returns (a, b).

    Removal effects scale with 1 / (cards in the shoe), so a deck-count table is close to
    linear in 1 / D; ``a`` is then the effect at D = infinity.
    """
    xs = [1 / decks for decks in rows]
    ys = list(rows.values())
    n = len(xs)
    if n < 2:
        raise ValueError("need at least two deck counts")
    mean_x = sum(xs) / n
    mean_y = sum(ys) / n
    sxx = sum((x - mean_x) ** 2 for x in xs)
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    b = sxy / sxx
    return mean_y - b * mean_x, b


def published() -> dict[int | str, Published]:
    a, b = fit_inverse_decks(WIZARD_DECK_ROWS)
    infinite = a - (a + b / BASE_DECKS)  # effect(inf) - effect(6) = -b / 6
    return {
        1: Published(
            WIZARD_DECK_ROWS[1],
            "Wizard of Odds rule variations: single deck +0.48% to the player against six",
        ),
        "infinite": Published(
            round(infinite, 3),
            "Wizard of Odds deck rows (1, 2, 4, 6, 8) fitted as a + b/D and taken to "
            f"D = infinity (b = {b:.3f}): no published table row for infinite decks",
        ),
    }


@dataclass(frozen=True)
class Effect:
    decks: int | str
    effect_pct: float
    stderr_pct: float
    published_pct: float

    @property
    def z(self) -> float:
        """(measured - published) in standard errors of the measured effect."""
        return (self.effect_pct - self.published_pct) / self.stderr_pct

    @property
    def agrees(self) -> bool:
        return abs(self.z) <= 3


def effect(
    edge_pct: float, stderr_pct: float, base_pct: float, base_stderr_pct: float
) -> tuple[float, float]:
    """The difference of two independent measurements and its standard error."""
    return edge_pct - base_pct, math.hypot(stderr_pct, base_stderr_pct)


def options_for(decks: int | str) -> dict[str, Any]:
    return {**RULES, "deck_count": decks}


def run(rounds: int, workers: int, seed: int) -> dict[str, Any]:
    from game.rules import accelerated

    reason = accelerated.enable()  # before the engine is first imported
    from game.rules.simulator import REFERENCE_RULES, simulate

    assert options_for(BASE_DECKS) == REFERENCE_RULES, "RULES drifted from REFERENCE_RULES"
    engine = "compiled (mypyc)" if accelerated.is_active() else f"python ({reason})"
    measured: dict[str, Any] = {}
    for offset, decks in enumerate((BASE_DECKS, *COMPARED)):
        started = time.perf_counter()
        report = simulate(rounds, options_for(decks), seed=seed + offset, workers=workers)
        seconds = time.perf_counter() - started
        measured[str(decks)] = {
            "seed": seed + offset,
            "rounds": report.rounds,
            "house_edge_pct": report.house_edge_pct,
            "stderr_pct": report.stderr_pct,
            "player_natural_pct": report.player_natural_pct,
            "seconds": round(seconds, 1),
        }
        print(
            f"deck_count {decks!s:>8}: {report.house_edge_pct:.4f}% ± "
            f"{report.stderr_pct:.4f}% ({report.rounds:,} rounds, seed {seed + offset}, "
            f"{seconds:.0f} s)",
            flush=True,
        )
    return {"rules": RULES, "engine": engine, "workers": workers, "measured": measured}


def compare(measured: Mapping[str, Mapping[str, Any]]) -> list[Effect]:
    base = measured[str(BASE_DECKS)]
    figures = published()
    effects = []
    for decks in COMPARED:
        run_ = measured[str(decks)]
        diff, se = effect(
            run_["house_edge_pct"],
            run_["stderr_pct"],
            base["house_edge_pct"],
            base["stderr_pct"],
        )
        effects.append(Effect(decks, round(diff, 4), round(se, 4), figures[decks].effect_pct))
    return effects


def summary(effects: Sequence[Effect]) -> str:
    figures = published()
    lines = []
    for item in effects:
        lines.append(
            f"{item.decks} vs {BASE_DECKS} decks: measured {item.effect_pct:+.3f}% ± "
            f"{item.stderr_pct:.3f}%, published {item.published_pct:+.3f}% "
            f"({figures[item.decks].source}); {item.z:+.1f} s.e.: "
            + ("agrees (within 3 s.e.)" if item.agrees else "DISAGREES (beyond 3 s.e.)")
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=12_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    result = run(args.rounds, args.workers, args.seed)
    print(f"rules: {json.dumps(RULES)}; engine: {result['engine']}")
    effects = compare(result["measured"])
    print(summary(effects))
    if args.json:
        result["effects"] = [
            {
                "decks": item.decks,
                "effect_pct": item.effect_pct,
                "stderr_pct": item.stderr_pct,
                "published_pct": item.published_pct,
                "z": round(item.z, 2),
                "agrees": item.agrees,
            }
            for item in effects
        ]
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    if not all(item.agrees for item in effects):
        sys.exit(1)


if __name__ == "__main__":
    main()
