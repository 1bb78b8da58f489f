"""Replay runner errors, the command's exit status 2 and one-line message, and export."""

from __future__ import annotations

import io
import json
import pathlib
import subprocess
import sys

import pytest
from django.core.management import call_command

from game.rules.engine import Engine
from game.rules.replay import (
    ReplayError,
    apply_action,
    export_round,
    export_rounds,
    round_record,
    run_replay,
)
from game.rules.storage import round_to_json
from tests.game.rules.helpers import make_game

ROOT = pathlib.Path(__file__).resolve().parents[3]
OFF = {"trivia_mode": False}


def _replay(rounds: list[dict], options: dict | None = None, **top: object) -> dict:
    return {"options": OFF if options is None else options, "rounds": rounds, **top}


@pytest.mark.parametrize(
    ("data", "where", "message"),
    [
        ([], (None, None), "JSON object"),
        ({"rounds": [], "x": 1}, (None, None), "unknown key"),
        (_replay([]), (None, None), "non-empty"),
        (_replay([{}], {"charlie": 6}), (None, None), "options"),
        (_replay([{"bet": "10.00", "shoe": []}], {"seats": 2}), (1, None), "2 seat"),
        (_replay([{"seats": [{"bet": "10.00"}], "shoe": []}], {"seats": 2}), (1, None), "on 1"),
        (_replay([{"seats": [{"bet": "1.00"}], "bet": "1.00"}]), (1, None), "either"),
        (_replay([{"seats": ["x"]}]), (1, None), "seat 1 must be"),
        (_replay([{"seats": [{"bet": "1.00", "x": 1}]}]), (1, None), "seat 1: unknown"),
        (_replay([{"seats": [{"bet": "1.001"}]}]), (1, None), "seat 1: bet"),
        (
            _replay([{"seats": [{"bet": "10.00"}, {"bet": "0.50"}], "shoe": []}], {"seats": 2}),
            (1, None),
            "Box 2: The minimum bet",
        ),
        ({"bank": "1.234", "rounds": [{}]}, (None, None), "bank"),
        ({"credits": -1, "rounds": [{}]}, (None, None), "credits"),
        (_replay(["x"]), (1, None), "JSON object"),
        (_replay([{"seats": []}]), (1, None), "seats"),
        (_replay([{"bet": "1.00", "shoe": [], "oops": 1}]), (1, None), "unknown key"),
        (_replay([{"bet": 10, "shoe": []}]), (1, None), "bet"),
        (_replay([{"bet": "10.00", "shoe": "0S"}]), (1, None), "shoe must be"),
        (_replay([{"bet": "10.00", "shoe": ["1S"]}]), (1, None), "shoe"),
        (_replay([{"bet": "10.00", "shoe": [], "dice": [7]}]), (1, None), "dice"),
        (_replay([{"bet": "10.00", "shoe": [], "actions": "hit"}]), (1, None), "actions"),
        (_replay([{"bet": "10.00", "shoe": [], "side_bets": []}]), (1, None), "side_bets"),
        (
            _replay([{"bet": "10.00", "shoe": [], "side_bets": {"x": "1.00"}}]),
            (1, None),
            "unknown side",
        ),
        (_replay([{"bet": "10.00", "shoe": [], "side_bets": {"21+3": 1}}]), (1, None), "21+3"),
        (
            _replay([{"bet": "10.00", "shoe": [], "side_bets": {"extra_bet_blackjack": "yes"}}]),
            (1, None),
            "true or false",
        ),
        (_replay([{"bet": "0.50", "shoe": ["0S", "7H", "9D", "0C"]}]), (1, None), "minimum"),
        (_replay([{"bet": "10.00", "shoe": ["0S", "7H", "9D"]}]), (1, None), "ran out"),
        (
            _replay([{"bet": "10.00", "shoe": ["0S", "7H", "9D", "0C"], "actions": ["hit"]}]),
            (1, 1),
            "ran out",
        ),
        (
            _replay([{"bet": "10.00", "shoe": ["0S", "7H", "9D", "0C"], "actions": [1]}]),
            (1, 1),
            "string",
        ),
        (
            _replay([{"bet": "10.00", "shoe": ["0S", "7H", "9D", "0C"], "actions": []}]),
            (1, 1),
            "not over",
        ),
        (
            _replay([{"bet": "10.00", "shoe": ["9S", "8H", "7D", "AC"], "actions": []}]),
            (1, 1),
            "insurance offer was not answered",
        ),
        (
            _replay(
                [{"bet": "10.00", "shoe": ["0S", "7H", "9D", "0C"], "actions": ["stand", "stand"]}]
            ),
            (1, 2),
            "already over",
        ),
        (
            _replay(
                [
                    {
                        "bet": "10.00",
                        "shoe": ["2S", "7H", "3D", "0C", "2H"],
                        "actions": ["hit", "double"],
                    }
                ]
            ),
            (1, 2),
            "Double Down only as the first action on a hand",
        ),
        (
            _replay(
                [
                    {"bet": "10.00", "shoe": ["0S", "0H", "7D", "9C"], "actions": ["stand"]},
                    {"bet": "10.00", "shoe": [], "actions": []},
                ],
                bank="10.00",
            ),
            (2, None),
            "game is over",
        ),
        (
            _replay(
                [
                    {
                        "bet": "10.00",
                        "shoe": ["5H", "0C", "6H", "8D"],
                        "actions": ["roll"],
                        "side_bets": {"perfect_11s": "5.00"},
                    }
                ]
            ),
            (1, 1),
            "no dice",
        ),
        (
            _replay(
                [
                    {
                        "bet": "10.00",
                        "shoe": ["9S", "8H", "7D", "AC"],
                        "actions": ["even_money:accept"],
                    }
                ]
            ),
            (1, 1),
            "Even Money is not on offer",
        ),
    ],
)
def test_replay_errors_name_round_and_action(data: object, where: tuple, message: str) -> None:
    with pytest.raises(ReplayError) as caught:
        run_replay(data)
    assert (caught.value.round_index, caught.value.action_index) == where
    assert message in str(caught.value)


def test_command_exit_2_with_one_line(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(
            _replay(
                [
                    {
                        "bet": "10.00",
                        "shoe": ["2S", "7H", "3D", "0C", "2H"],
                        "actions": ["hit", "double"],
                    }
                ]
            )
        )
    )
    with pytest.raises(SystemExit) as caught:
        call_command("replay", str(path), stdout=io.StringIO())
    assert caught.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["error: round 1, action 2: Double Down only as the first action on a hand"]


@pytest.mark.parametrize("text", ["{not json", "[1, 2]"])
def test_command_malformed_file_subprocess(text: str) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "replay", "-"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("error: ")


def test_command_missing_file(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as caught:
        call_command("replay", "/nonexistent/replay.json")
    assert caught.value.code == 2
    assert "cannot read" in capsys.readouterr().err


def test_command_stdin_subprocess_prints_result() -> None:
    data = (ROOT / "tests/replays/r_5_3_double_down.json").read_text()
    result = subprocess.run(
        [sys.executable, "manage.py", "replay", "-"],
        input=data,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["bank"] == "1020.00"


def test_export_round_replays_to_the_same_result() -> None:
    import random

    from game.rules.options import Options
    from game.rules.records import TriviaOutcome

    rng = random.Random(99)
    game = Engine(Options.from_dict({"resplit_aces": True, "double_after_split": True}), rng=rng)
    rounds = []
    for _ in range(40):
        game.start_round(
            1000,
            {
                "21+3": 100,
                "perfect_11s": 100,
                "house_money": 100,
                "perfect_pair": 100,
                "lucky_ladies": 100,
            },
            extra_bet=True,
        )
        while game.round_in_progress:
            action = rng.choice(game.allowed_actions())
            if action in ("hit", "double"):
                getattr(game, action)(TriviaOutcome("medium", rng.random() < 0.8))
            elif action == "extra_bet":
                game.place_extra_bet(1000)
            else:
                apply_action(game, action)
        rounds.append(round_to_json(game.round))
        replay = export_round(game.round)
        assert run_replay(json.loads(json.dumps(replay)))["rounds"][0] == round_record(game.round)
        if game.game_over:
            break
    first = round_to_json(game.round) if len(rounds) == 1 else rounds[0]
    assert export_rounds([first])["rounds"]


def test_export_rounds_checks_options() -> None:
    one = make_game(["0S", "7H", "9D", "0C"], trivia_mode=False)
    one.start_round(1000)
    one.stand()
    two = make_game(["0S", "7H", "9D", "0C"], trivia_mode=False, charlie=7)
    two.start_round(1000)
    two.stand()
    with pytest.raises(ValueError, match="other options"):
        export_rounds([one.round, two.round])
    with pytest.raises(ValueError):
        export_rounds([])
    both = export_rounds([one.round, round_to_json(one.round)])
    assert len(both["rounds"]) == 2
