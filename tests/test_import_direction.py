"""The apps do not depend on the project package: blackjack_site imports game and trivia,
never the other way round (settings are read through django.conf.settings)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("app", ["game", "trivia"])
def test_no_app_imports_the_project_package(app: str) -> None:
    offenders = [
        f"{path.relative_to(ROOT)}: {module}"
        for path in sorted((ROOT / app).rglob("*.py"))
        for module in imported_modules(path)
        if module == "blackjack_site" or module.startswith("blackjack_site.")
    ]
    assert not offenders, offenders
