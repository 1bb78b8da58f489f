"""Optional: run the rules engine's hot modules compiled by mypyc.

``bench/build_accelerated.py`` compiles :data:`COMPILED_MODULES` — the very source
files of this package, unchanged — into C extensions under :data:`BUILD_DIR` (inside
the virtualenv, since an extension only fits the interpreter it was built for). It
records a SHA-256 of every source it compiled.

Nothing uses the compiled modules unless :func:`enable` is called before the engine is
first imported (the simulator's ``--accelerated`` flag and the benchmark do). ``enable``
refuses a build whose sources differ from the files on disk, so an edit to the engine
can never be shadowed by a stale extension; the pure-Python modules are then used, as
they always are by the game, the tests and coverage.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import game.rules as package

# The engine and every module it calls on the simulator's path (the storage of the state
# and its public view are not on it, so they stay Python).
COMPILED_MODULES = (
    "game.rules.cards",
    "game.rules.money",
    "game.rules.hands",
    "game.rules.shoe",
    "game.rules.table_rules",
    "game.rules.bets",
    "game.rules.wallets",
    "game.rules.round_state",
    "game.rules.phase_base",
    "game.rules.betting",
    "game.rules.offers",
    "game.rules.decisions",
    "game.rules.side_bet_phase",
    "game.rules.settlement",
    "game.rules.engine",
    "game.rules.simulator",
)
BUILD_DIR = Path(sys.prefix) / "blackjack-accelerated"
MANIFEST = "manifest.json"
SOURCE_DIR = Path(package.__file__).resolve().parent


def source_path(module: str) -> Path:
    return SOURCE_DIR / (module.rsplit(".", 1)[-1] + ".py")


def source_digests() -> dict[str, str]:
    """SHA-256 of each compiled module's source as it is on disk now."""
    return {
        module: hashlib.sha256(source_path(module).read_bytes()).hexdigest()
        for module in COMPILED_MODULES
    }


def interpreter_tag() -> str:
    return f"{sys.implementation.cache_tag}-{sys.platform}"


def why_unusable(build_dir: Path = BUILD_DIR) -> str | None:
    """None when the build at ``build_dir`` matches these sources and this interpreter."""
    try:
        manifest = json.loads((build_dir / MANIFEST).read_text())
    except (OSError, ValueError):
        return f"no accelerated build in {build_dir} (run bench/build_accelerated.py)"
    if manifest.get("interpreter") != interpreter_tag():
        return "the accelerated build was made for another interpreter"
    if manifest.get("sources") != source_digests():
        return "the engine's sources changed since the accelerated build (rebuild it)"
    return None


def enable(build_dir: Path = BUILD_DIR) -> str | None:
    """Load the compiled modules from now on; returns None, or why it could not."""
    reason = why_unusable(build_dir)
    if reason is not None:
        return reason
    loaded = [module for module in COMPILED_MODULES if module in sys.modules]
    if loaded and not is_active():
        return f"too late: {', '.join(loaded)} already imported as Python"
    if str(build_dir) not in sys.path:
        # mypyc's shared runtime is a top-level module next to the package folder.
        sys.path.insert(0, str(build_dir))
        package.__path__.insert(0, str(build_dir / "game" / "rules"))
    return None


def is_active() -> bool:
    """Whether the engine in use is the compiled one."""
    engine = sys.modules.get("game.rules.engine")
    return engine is not None and not str(getattr(engine, "__file__", "")).endswith(".py")
