"""game/tables/services has game/services' shape: no HTTP, keyword-only actions, and the
package re-exports every action its views, the clock and the tests call."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

from game.tables import services

SERVICE_FILES = sorted(Path(services.__file__).parent.glob("*.py"))


def _imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    found |= {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    return found


@pytest.mark.parametrize("path", SERVICE_FILES, ids=lambda path: path.name)
def test_table_services_know_nothing_of_http(path: Path) -> None:
    assert not any(
        module.startswith(("django.http", "django.shortcuts")) for module in _imported(path)
    )


def test_every_table_action_takes_keyword_only_arguments() -> None:
    actions = [getattr(services, name) for name in services.__all__]
    checked = 0
    for function in filter(inspect.isfunction, actions):
        parameters = inspect.signature(function).parameters
        if "version" in parameters:
            checked += 1
            assert all(p.kind is p.KEYWORD_ONLY for p in parameters.values()), function.__name__
    assert checked >= 18


def test_the_package_exports_every_action_of_its_modules() -> None:
    """``services.<action>(...)`` reaches every action, whichever module holds it."""
    found = 0
    for path in SERVICE_FILES:
        if path.stem == "__init__":
            continue
        module = importlib.import_module(f"game.tables.services.{path.stem}")
        for name, function in inspect.getmembers(module, inspect.isfunction):
            own = function.__module__ == module.__name__ and not name.startswith("_")
            version = inspect.signature(function).parameters.get("version")
            # An action takes the posted version by keyword; a guard checking it does not.
            if own and version is not None and version.kind is version.KEYWORD_ONLY:
                found += 1
                assert name in services.__all__, f"{path.stem}.{name}"
    assert found >= 18
