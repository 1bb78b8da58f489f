"""Compute game/rules/house_edge_table.json (and the other games' tables) with the simulator.

    .venv/bin/python bench/house_edge_table.py [--rounds 10000000] [--workers 2] [--accelerated]
    .venv/bin/python bench/house_edge_table.py --markdown   # print the table for RESULTS.md
    .venv/bin/python bench/house_edge_table.py --simple --rounds 2000000   # the simple game
    .venv/bin/python bench/house_edge_table.py --inverted [--simple] --rounds 1000000

Every combination of the key options below is played for ``--rounds`` rounds with the
same seed (common random numbers: neighbouring entries share their early shoes, so the
differences between them — what a rule change costs — are less noisy than the entries).
All other options keep their RULES.md defaults. The file is rewritten after each entry,
so an interrupted run leaves a valid, smaller table.

``--inverted`` plays the inverted game (§10 Extensions: every result negated) with its own
best play, strategy.inverted_action (play to lose), into house_edge_inverted.json (with
``--simple``, house_edge_simple_inverted.json), keyed as the table of the game it inverts.
Its edge is about -60 to -85 % and its spread per round like the normal game's, so 1M
rounds an entry give a standard error of 0.08-0.14 %: ample for a figure that large (the
normal game needs 10M rounds to rank rule changes of 0.1 %).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

KEY_VALUES: dict[str, list[Any]] = {
    "deck_count": [1, 2, 6, 8],
    "dealer_stands_on": ["S17", "H17"],
    "blackjack_payout": ["3:2", "6:5"],
    "double_after_split": [True, False],
    "surrender": ["late", "off"],
    "charlie": [5, "off"],
}
# The simple game (§10 Extensions: Hit and Stand only) has its own, smaller table: doubling,
# splitting and surrender play no part in it, so only these options move its edge.
SIMPLE_KEY_VALUES: dict[str, list[Any]] = {
    "deck_count": [1, 2, 6, 8],
    "dealer_stands_on": ["S17", "H17"],
    "blackjack_payout": ["3:2", "6:5"],
    "charlie": [5, "off"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=10_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--accelerated", action="store_true")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--simple", action="store_true", help="the simple game's table (house_edge_simple.json)"
    )
    parser.add_argument(
        "--inverted",
        action="store_true",
        help="the inverted game's table (house_edge_inverted.json)",
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print the --out table as Markdown and stop"
    )
    args = parser.parse_args()
    if args.out is None:
        args.out = ROOT / "game/rules" / table_name(simple=args.simple, inverted=args.inverted)
    if args.markdown:
        print(markdown(json.loads(args.out.read_text())))
        return
    from game.rules import accelerated

    if args.accelerated and (reason := accelerated.enable()) is not None:
        sys.exit(reason)
    from game.rules.house_edge import KEY_OPTIONS, SIMPLE_KEY_OPTIONS
    from game.rules.simulator import simulate, simulation_options

    key_values = SIMPLE_KEY_VALUES if args.simple else KEY_VALUES
    assert tuple(key_values) == (SIMPLE_KEY_OPTIONS if args.simple else KEY_OPTIONS)
    base = {
        name: value
        for name, value in simulation_options().to_dict().items()
        if name not in key_values
    }
    if args.simple:
        base["simple"] = True
    if args.inverted:
        base["inverted"] = True
    table: dict[str, Any] = {
        "about": (
            "House edge (% of the initial bet) of "
            + (
                "the inverted game (every result negated) played by its own best strategy, "
                "strategy.inverted_action (play to lose)"
                if args.inverted
                else "basic strategy"
            )
            + ", flat bet, measured by the simulator through the rules engine; other "
            "options at base_options."
        ),
        "made_by": "bench/house_edge_table.py",
        "rounds_per_entry": args.rounds,
        "seed": args.seed,
        "engine": "compiled (mypyc)" if args.accelerated else "python",
        "key_values": key_values,
        "base_options": base,
        "entries": [],
    }
    started = time.perf_counter()
    for values in itertools.product(*key_values.values()):
        chosen = dict(zip(key_values, values, strict=True))
        report = simulate(args.rounds, {**base, **chosen}, seed=args.seed, workers=args.workers)
        table["entries"].append(
            {
                "options": chosen,
                "house_edge_pct": report.house_edge_pct,
                "stderr_pct": report.stderr_pct,
                "rounds": report.rounds,
            }
        )
        args.out.write_text(json.dumps(table, indent=1) + "\n")
        print(
            f"{len(table['entries']):3} {chosen} {report.house_edge_pct:+.3f}% "
            f"± {report.stderr_pct:.3f} ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )


def table_name(*, simple: bool, inverted: bool) -> str:
    """The file under game/rules/ that house_edge.py reads for this game."""
    if inverted:
        return "house_edge_simple_inverted.json" if simple else "house_edge_inverted.json"
    return "house_edge_simple.json" if simple else "house_edge_table.json"


def markdown(table: dict[str, Any]) -> str:
    """One row per deck count, dealer rule and payout; one column per DAS/surrender/Charlie."""
    edge = {tuple(e["options"].values()): e["house_edge_pct"] for e in table["entries"]}
    values = table["key_values"]
    # The simple game's table has no doubling or surrender columns, only Charlie.
    simple = "double_after_split" not in values
    columns = list(
        itertools.product(values["charlie"])
        if simple
        else itertools.product(values["double_after_split"], values["surrender"], values["charlie"])
    )

    def heading(*column: Any) -> str:
        if simple:
            (charlie,) = column
            return f"{charlie}-Ch" if charlie != "off" else "no Ch"
        das, surrender, charlie = column
        return ", ".join(
            [
                "DAS" if das else "no DAS",
                "LS" if surrender == "late" else "no sur.",
                f"{charlie}-Ch" if charlie != "off" else "no Ch",
            ]
        )

    lines = [
        "| decks | dealer | payout | " + " | ".join(heading(*c) for c in columns) + " |",
        "|---" * (3 + len(columns)) + "|",
    ]
    for decks, dealer, payout in itertools.product(
        values["deck_count"], values["dealer_stands_on"], values["blackjack_payout"]
    ):
        cells = [f"{edge[(decks, dealer, payout, *column)]:.2f}" for column in columns]
        lines.append(f"| {decks} | {dealer} | {payout} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
