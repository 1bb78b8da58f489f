"""Simulator speed: rounds per second with 1 and 2 worker processes.

    make bench        # builds the compiled engine first when needed (make accelerated)
    .venv/bin/python bench/simulator_bench.py [--rounds 200000] [--engine python|compiled|both]

Each measurement runs in a fresh interpreter (the engine — pure Python, or the optional
mypyc build of the same sources, see bench/build_accelerated.py — is chosen before it is
imported) and plays the issue's reference rules: 6 decks, S17, DAS, resplit to 4 hands,
one card to split aces, no surrender, peek, 3:2, Charlie off. Printed figures are what
was measured on this machine, nothing else: wall-clock rounds/s (what the simulator
reports), the CPU-seconds the run used (its worker processes included) and rounds per
CPU-second — per core, and much less sensitive than the wall clock to other load on a
shared machine. The machine's core count and load average are printed alongside,
because both change the wall-clock figures.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def measure(engine: str, workers: int, rounds: int, seed: int) -> dict[str, object]:
    """Run in this process: the engine must not have been imported yet."""
    sys.path.insert(0, str(ROOT))
    from game.rules import accelerated

    if engine == "compiled":
        reason = accelerated.enable()
        if reason is not None:
            return {"engine": engine, "error": reason}
    # Imported only now: the compiled engine must be enabled before the engine loads.
    from game.rules.simulator import REFERENCE_RULES, simulate

    cpu_before = time.process_time()
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    report = simulate(rounds, REFERENCE_RULES, seed=seed, workers=workers)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time() - cpu_before
    cpu += (children.ru_utime + children.ru_stime) - (
        children_before.ru_utime + children_before.ru_stime
    )
    return {
        "engine": "compiled" if accelerated.is_active() else "python",
        "workers": workers,
        "rounds": report.rounds,
        "rounds_per_sec": report.rounds_per_sec,
        "cpu_sec": round(cpu, 3),
        "rounds_per_cpu_sec": round(report.rounds / cpu, 1) if cpu > 0 else None,
        "house_edge_pct": report.house_edge_pct,
    }


def run_child(engine: str, workers: int, rounds: int, seed: int) -> dict[str, object]:
    command = [
        sys.executable,
        __file__,
        "--child",
        "--engine",
        engine,
        "--workers",
        str(workers),
        "--rounds",
        str(rounds),
        "--seed",
        str(seed),
    ]
    output = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT)
    return json.loads(output.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine", choices=("python", "compiled", "both"), default="both")
    parser.add_argument("--workers", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.engine, args.workers, args.rounds, args.seed)))
        return
    cores = os.cpu_count()
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cores
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"cores: {cores} (usable by this process: {usable}); load average before: {load}")
    print(f"{args.rounds:,} rounds per measurement, reference rules, seed {args.seed}")
    engines = ("python", "compiled") if args.engine == "both" else (args.engine,)
    for engine in engines:
        one_worker: float | None = None
        for workers in (1, 2):
            result = run_child(engine, workers, args.rounds, args.seed)
            if "error" in result:
                print(f"{engine:8} unavailable: {result['error']}")
                break
            speed = float(result["rounds_per_sec"])  # type: ignore[arg-type]
            line = f"{result['engine']:8} {workers} worker(s): {speed:>9,.0f} rounds/s (wall)"
            if workers == 1:
                one_worker = speed
            elif one_worker:
                line += f" x{speed / one_worker:.2f}"
            per_cpu = float(result["rounds_per_cpu_sec"] or 0)  # type: ignore[arg-type]
            line += f", {result['cpu_sec']:.2f} CPU-s, {per_cpu:>9,.0f} rounds per CPU-second"
            print(line + f"; house edge {result['house_edge_pct']}%")
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average after: {load}")


if __name__ == "__main__":
    main()
