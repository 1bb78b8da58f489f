"""What the tests of tools/ share: the standalone scripts loaded as modules, and the vectors."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"
VERIFY_SHOE = TOOLS / "verify_shoe.py"


def load_verify_shoe() -> ModuleType:
    """tools/verify_shoe.py as a module. It is a standalone download, not a package
    module, so it is loaded from its file (once; later calls get the same module)."""
    if "verify_shoe" in sys.modules:
        return sys.modules["verify_shoe"]
    spec = importlib.util.spec_from_file_location("verify_shoe", VERIFY_SHOE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["verify_shoe"] = module
    spec.loader.exec_module(module)
    return module


def fairness_vectors() -> list[dict[str, Any]]:
    document = json.loads((TOOLS / "fairness_vectors.json").read_text(encoding="utf-8"))
    return list(document["vectors"])


def revealed_shoe(vector: dict[str, Any], count: int) -> dict[str, Any]:
    """A revealed shoe of ``vector`` as the Fairness page's JSON lists it, with its first
    ``count`` cards dealt."""
    order = load_verify_shoe().shoe_order(
        vector["server_seed"], vector["client_seed"], vector["nonce"], vector["deck_count"]
    )
    return {
        "nonce": vector["nonce"],
        "commitment": vector["commitment"],
        "client_seed": vector["client_seed"],
        "server_seed": vector["server_seed"],
        "deck_count": vector["deck_count"],
        "cards_dealt": order[:count],
    }
