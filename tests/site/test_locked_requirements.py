"""requirements/*.txt pin every dependency pyproject.toml names, with hashes, within its range."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PIN = re.compile(r"^([A-Za-z0-9_.\-\[\]]+)==(\S+)")


def pins(lock_file: str) -> dict[str, tuple[str, int]]:
    """Package → (pinned version, number of hashes) as written in a lock file."""
    found: dict[str, tuple[str, int]] = {}
    name = ""
    for line in (ROOT / "requirements" / lock_file).read_text().splitlines():
        match = PIN.match(line)
        if match:
            name = canonicalize_name(match.group(1).split("[")[0])
            found[name] = (match.group(2), 0)
        elif line.strip().startswith("--hash=sha256:") and name:
            version, hashes = found[name]
            found[name] = (version, hashes + 1)
    return found


def ranges(*extras: str) -> list[Requirement]:
    project = PYPROJECT["project"]
    wanted = list(project["dependencies"])
    for extra in extras:
        wanted += project["optional-dependencies"][extra]
    return [Requirement(text) for text in wanted]


@pytest.mark.parametrize(
    ("lock_file", "extras"),
    [("app.txt", ()), ("test.txt", ("test", "dev"))],
)
def test_every_dependency_is_pinned_with_hashes_inside_its_range(
    lock_file: str, extras: tuple[str, ...]
) -> None:
    locked = pins(lock_file)
    for requirement in ranges(*extras):
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{name} missing from requirements/{lock_file}: run make lock"
        version, hashes = locked[name]
        assert requirement.specifier.contains(version), (
            f"{name}=={version} is outside {requirement.specifier}: run make lock"
        )
        assert hashes >= 1, f"{name} has no hash in requirements/{lock_file}"
    assert all(hashes >= 1 for _, hashes in locked.values())
