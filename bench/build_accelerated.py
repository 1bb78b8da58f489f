"""Build the optional mypyc-compiled engine (see game/rules/accelerated.py).

    make accelerated                                   # = the line below, when needed
    .venv/bin/python bench/build_accelerated.py [--if-needed]

mypyc comes with mypy, in the project's ``dev`` extra (``make test`` installs it); a C
compiler and the Python headers are needed too. Compiles the engine's hot modules
(accelerated.COMPILED_MODULES: cards, money, hands, shoe, table_rules, bets, wallets, the
engine with the modules of its phases, simulator) unchanged into C extensions under
<venv>/blackjack-accelerated and records the SHA-256 of each source. Nothing in the
repository changes, and the game, the tests and coverage keep running the pure-Python
modules. ``--if-needed`` does nothing when the build already matches the sources.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.rules.accelerated import (  # noqa: E402
    BUILD_DIR,
    COMPILED_MODULES,
    MANIFEST,
    interpreter_tag,
    source_digests,
    source_path,
    why_unusable,
)


def build(out: Path = BUILD_DIR) -> None:
    try:
        from mypyc.build import mypycify
    except ImportError:
        sys.exit("mypyc is not installed: make test installs it (it comes with mypy)")
    from setuptools import setup

    digests = source_digests()  # taken before compiling: what is compiled is what is recorded
    paths = [str(source_path(module).relative_to(ROOT)) for module in COMPILED_MODULES]
    if out.exists():
        shutil.rmtree(out)
    with tempfile.TemporaryDirectory() as temp:
        # Imported modules (options, strategy, …) are type-checked only as far as the
        # compiled ones use them; they stay Python.
        # The project's mypy settings name the apps' modules too, which a build of the engine
        # alone never reads: not a reason to stop.
        flags = ["--follow-imports=silent", "--no-warn-unused-configs"]
        extensions = mypycify([*flags, *paths], opt_level="3", target_dir=temp)
        # Compile from the temporary folder, so setuptools reads no project configuration
        # (this is not a package build; pyproject.toml plays no part in it).
        here = Path.cwd()
        os.chdir(temp)
        try:
            setup(
                name="blackjack-accelerated",
                packages=[],
                ext_modules=extensions,
                script_args=["build_ext", "--build-lib", str(out), "--build-temp", temp, "-q"],
            )
        finally:
            os.chdir(here)
    manifest = {"interpreter": interpreter_tag(), "sources": digests}
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    if source_digests() != digests:
        sys.exit("the sources changed while compiling; run the build again")
    print(f"built {', '.join(COMPILED_MODULES)} into {out}")
    reason = why_unusable(out)
    if reason is not None:  # pragma: no cover - a broken build
        sys.exit(reason)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--if-needed", action="store_true", help="skip when the build matches the sources"
    )
    args = parser.parse_args()
    if args.if_needed and why_unusable() is None:
        print(f"the accelerated build in {BUILD_DIR} matches the sources")
        return
    build()


if __name__ == "__main__":
    main()
