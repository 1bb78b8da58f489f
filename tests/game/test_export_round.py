"""``manage.py export_round`` then ``manage.py replay`` reproduces rounds played in the site."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from game import services
from game.models import Game, Round
from game.rules.money import format_cents
from tests.game.helpers import stack_shoe
from tests.pages import without_csrf_tokens

pytestmark = pytest.mark.django_db


def act(game: Game, user: Any, action: str, **kwargs: Any) -> Game:
    game.refresh_from_db()
    played = getattr(services, action)(game_id=game.pk, user=user, version=game.version, **kwargs)
    return played.game


def answer_right(game: Game, user: Any) -> None:
    attempt = game.trivia_attempts.get(answered_at__isnull=True)
    act(game, user, "answer_question", answer=attempt.question.correct_answer)


# Each scenario: options, the stacked cards, the deal's keyword arguments, then the
# player's steps as (service, keyword arguments) or a callable(game, user).
Step = tuple[str, dict[str, Any]] | Callable[[Game, Any], None]
SCENARIOS: dict[str, tuple[dict[str, Any], list[str], dict[str, Any], list[Step]]] = {
    "split_with_three_side_bets": (
        {"trivia_mode": False},
        ["8S", "0H", "8D", "7C", "0D", "0C"],
        {"side_bets": {"perfect_pair": 500, "21+3": 500, "lucky_ladies": 500}},
        [("split", {}), ("stand", {}), ("stand", {})],
    ),
    "resplit_and_double_after_split": (
        {"trivia_mode": False, "resplit": True, "double_after_split": True},
        ["8S", "0H", "8D", "7C", "8C", "3H", "2D", "9S", "0D"],
        {"side_bets": {"perfect_pair": 1000}},
        [("split", {}), ("split", {}), ("double", {}), ("stand", {}), ("stand", {})],
    ),
    "house_money_parlay": (
        {"trivia_mode": False},
        ["8S", "7C", "8H", "9D", "0S"],
        {"side_bets": {"house_money": 500}},
        [("parlay", {"choice": "bet"}), ("stand", {})],
    ),
    "perfect_11s_dice": (
        {"trivia_mode": False},
        ["5S", "0H", "6S", "7C"],
        {"side_bets": {"perfect_11s": 500}},
        [("roll", {}), ("stand", {})],
    ),
    "extra_bet_blackjack": (
        {"trivia_mode": False},
        ["0S", "9H", "7D", "8C"],
        {"extra_bet": True},
        [("place_extra_bet", {"amount_cents": 2000}), ("stand", {})],
    ),
    "insurance_accepted": (
        {"trivia_mode": False},
        ["9S", "6H", "7D", "AC", "2H"],
        {},
        [("answer_insurance", {"accept": True}), ("stand", {})],
    ),
    "trivia_hit": (
        {},
        ["9S", "0H", "7D", "6C", "2H", "KD"],
        {"side_bets": {"21+3": 200}},
        [
            ("hit", {}),
            ("choose_difficulty", {"difficulty": "easy"}),
            answer_right,  # a right answer deals the card at once
            ("stand", {}),
        ],
    ),
}


def play(
    user: Any,
    options: dict[str, Any],
    cards: Sequence[str],
    deal: dict[str, Any],
    steps: Sequence[Step],
    *,
    rounds_before: int = 0,
) -> Round:
    game = services.new_game(user=user, options=options)
    for _ in range(rounds_before):  # plain rounds first, so bank and credits have moved
        stack_shoe(game, ["0S", "0H", "9D", "8C"])
        act(game, user, "place_bet_and_deal", bet_cents=700)
        act(game, user, "stand")
        act(game, user, "next_round")
    stack_shoe(game, cards)
    act(game, user, "place_bet_and_deal", bet_cents=1000, **deal)
    for step in steps:
        if callable(step):
            game.refresh_from_db()
            step(game, user)
        else:
            act(game, user, step[0], **step[1])
    game.refresh_from_db()
    return Round.objects.get(game=game, number=game.rounds_played)


def export(round_id: int, tmp_path: Path) -> Path:
    path = tmp_path / f"round-{round_id}.json"
    call_command("export_round", str(round_id), "-o", str(path))
    return path


def replay(path: Path) -> dict[str, Any]:
    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.parametrize("rounds_before", [0, 2])
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_export_then_replay_gives_the_same_round(
    name: str, rounds_before: int, player, questions, tmp_path: Path
) -> None:
    options, cards, deal, steps = SCENARIOS[name]
    row = play(player, options, cards, deal, steps, rounds_before=rounds_before)
    assert row.phase == "round_over"
    game = row.game
    game.refresh_from_db()

    path = export(row.pk, tmp_path)
    exported = json.loads(path.read_text(encoding="utf-8"))
    assert exported["bank"] == format_cents(
        row.bank_after_cents - row.winnings_cents + row.staked_cents
    )
    result = replay(path)

    assert result["rounds"] == [row.record]
    assert result["bank"] == format_cents(game.bank_cents) == row.record["bank_after"]
    assert result["credits"] == game.credits
    assert result["game_over"] == game.is_over
    # The stored rows say the same as the replay.
    hands = list(row.hands.order_by("index").values_list("result", "winnings_cents"))
    assert [(h["result"], h["winnings"]) for h in result["rounds"][0]["hands"]] == [
        (outcome, format_cents(cents)) for outcome, cents in hands
    ]


def test_the_scenarios_really_split_and_take_side_bets(player, questions) -> None:
    split = play(player, *SCENARIOS["resplit_and_double_after_split"])
    assert split.hands.count() == 3
    assert "double" in split.replay["rounds"][0]["actions"]
    parlay = play(player, *SCENARIOS["house_money_parlay"])
    assert parlay.side_bets.get(name="house_money").parlayed_cents > 0
    dice = play(player, *SCENARIOS["perfect_11s_dice"])
    assert len(dice.replay["rounds"][0]["dice"]) == 3
    assert dice.side_bets.get(name="perfect_11s").result == "win"
    sides = play(player, *SCENARIOS["split_with_three_side_bets"])
    assert sorted(sides.side_bets.values_list("name", flat=True)) == [
        "21+3",
        "lucky_ladies",
        "perfect_pair",
    ]
    trivia = play(player, *SCENARIOS["trivia_hit"])
    assert trivia.replay["rounds"][0]["actions"][0] == "hit:easy:correct"


def test_export_writes_to_stdout_by_default(player) -> None:
    row = play(player, *SCENARIOS["insurance_accepted"])
    out = io.StringIO()
    call_command("export_round", str(row.pk), stdout=out)
    assert json.loads(out.getvalue()) == row.replay


def fails_with(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        call_command("export_round", *args)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    return err


def test_an_unfinished_round_exits_2(player, capsys) -> None:
    game = services.new_game(user=player, options={"trivia_mode": False})
    stack_shoe(game, ["0S", "0H", "9D", "8C"])
    act(game, player, "place_bet_and_deal", bet_cents=1000)
    row = Round.objects.get(game=game)
    assert fails_with(capsys, str(row.pk)) == (
        f"error: round {row.pk} (game {game.pk}, round 1): the round is not finished yet"
    )


def test_a_missing_round_exits_2(db, capsys) -> None:
    assert fails_with(capsys, "987654") == "error: round 987654: no such round"


def test_a_round_ended_by_end_game_exits_2(player, capsys) -> None:
    game = services.new_game(user=player, options={"trivia_mode": False})
    stack_shoe(game, ["0S", "0H", "9D", "8C"])
    act(game, player, "place_bet_and_deal", bet_cents=1000)
    act(game, player, "end_game")
    row = Round.objects.get(game=game)
    assert row.phase == "round_over"
    assert "no replay was stored (the round was ended by End Game" in fails_with(
        capsys, str(row.pk)
    )


def test_an_unwritable_output_exits_2(player, capsys, tmp_path: Path) -> None:
    row = play(player, *SCENARIOS["insurance_accepted"])
    missing = tmp_path / "no-such-dir" / "round.json"
    assert f"cannot write {missing}" in fails_with(capsys, str(row.pk), "-o", str(missing))


def test_staff_see_the_replay_of_a_finished_round_only(player, client) -> None:
    from django.urls import reverse

    from tests.trivia.factories import StaffFactory

    finished = play(player, *SCENARIOS["insurance_accepted"])
    game = services.new_game(user=player, options={"trivia_mode": False})
    stack_shoe(game, ["0S", "0H", "9D", "8C"])
    act(game, player, "place_bet_and_deal", bet_cents=1000)
    unfinished = Round.objects.get(game=game)
    client.force_login(StaffFactory())
    page = client.get(reverse("admin:game_round_change", args=[finished.pk])).text
    assert "insurance:accept" in page
    page = without_csrf_tokens(
        client.get(reverse("admin:game_round_change", args=[unfinished.pk])).text
    )
    assert "Replay" not in page and "0H" not in page
