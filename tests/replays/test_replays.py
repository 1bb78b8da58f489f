"""Every replay file in this folder against its hand-computed expected output."""

from __future__ import annotations

import io
import json
import pathlib

import pytest
from django.core.management import call_command

from game.rules.replay import run_replay

FOLDER = pathlib.Path(__file__).parent
CASES = sorted(path for path in FOLDER.glob("*.json") if not path.name.endswith(".expected.json"))


def _expected(path: pathlib.Path) -> dict:
    return json.loads(path.with_name(path.stem + ".expected.json").read_text())


def test_every_rule_section_has_replays() -> None:
    assert len(CASES) >= 50
    for path in CASES:
        assert path.with_name(path.stem + ".expected.json").exists(), path.name


@pytest.mark.parametrize("path", CASES, ids=[path.stem for path in CASES])
def test_replay_matches_expected(path: pathlib.Path) -> None:
    assert run_replay(json.loads(path.read_text())) == _expected(path)


@pytest.mark.parametrize(
    "name",
    ["r_5_5_resplit_inserts_after_origin", "r_sb_31_house_money_parlay_all_rides_on_natural"],
)
def test_replay_command_prints_expected(name: str) -> None:
    out = io.StringIO()
    call_command("replay", str(FOLDER / f"{name}.json"), stdout=out)
    assert json.loads(out.getvalue()) == _expected(FOLDER / f"{name}.json")
