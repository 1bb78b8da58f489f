"""RULES.md §10 Extensions played by the engine: deck_count "infinite", reshuffle,
max_splits / max_ace_splits (and the old split keys, §10 Decision), simple, inverted.

The replay files in tests/replays/r_opt_* show each option on a hand-written round; these
tests show what a fixed replay shoe cannot: when a shoe is rebuilt, and what is refused.
"""

from __future__ import annotations

import json
import pathlib
import random
from typing import Any

import pytest

from game.rules.engine import Engine
from game.rules.options import Options
from game.rules.public import public_view
from game.rules.records import ALLOWED, PLAYER_TURN, IllegalAction
from game.rules.replay import ReplayError, run_replay
from game.rules.shoe import Shoe
from game.rules.storage import game_from_json, game_to_json
from tests.game.rules.helpers import make_game, play

REPLAYS = pathlib.Path(__file__).resolve().parents[2] / "replays"


def _replay_file(name: str) -> dict[str, Any]:
    return json.loads((REPLAYS / f"{name}.json").read_text())


def _stand_out(game: Engine, bet: int = 100) -> list[dict]:
    """Deal a round and stand (declining every offer); the round's start events."""
    events = game.start_round(bet)
    while game.round_in_progress:
        if game.round.phase == PLAYER_TURN:
            game.stand()
        else:
            game.answer_offer(game.round.phase, False)
    return events


def _shuffled(events: list[dict]) -> bool:
    return any(event["type"] == "shoe_shuffled" for event in events)


# --------------------------------------------------------------------- reshuffle


def test_every_round_deals_each_round_from_a_fresh_shoe() -> None:
    game = Engine(
        Options.from_dict({"trivia_mode": False, "deck_count": 1, "reshuffle": "every_round"}),
        rng=random.Random(1),
    )
    assert not _shuffled(_stand_out(game))  # the game's first shoe is fresh already
    for _ in range(30):
        before = game.shoe.remaining()
        assert before < 52
        events = _stand_out(game)
        assert _shuffled(events)
        assert len(game.round.dealt) + game.shoe.remaining() == 52


def test_when_empty_deals_to_the_last_card_then_rebuilds() -> None:
    options = Options.from_dict({"trivia_mode": False, "deck_count": 1, "reshuffle": "when_empty"})
    game = Engine(options, rng=random.Random(2))
    dealt: list[str] = []
    refilled = False
    for _ in range(40):
        events = _stand_out(game)
        assert not any(e.get("reason") == "reshuffle" for e in events)  # never between rounds
        if _shuffled(events):
            refilled = True
            # Every card of the deck was dealt before the shoe was rebuilt, none twice.
            cards = dealt + game.round.dealt
            first = cards[:52]
            assert sorted(card[:2] for card in first) == sorted(
                Shoe.build(1, random.Random(0)).cards[i][:2] for i in range(52)
            )
            break
        dealt.extend(game.round.dealt)
    assert refilled


def test_cut_card_rebuilds_below_a_quarter_before_a_round() -> None:
    game = Engine(Options.from_dict({"trivia_mode": False, "deck_count": 1}), rng=random.Random(3))
    for _ in range(40):
        due = game.shoe.remaining() * 4 < 52
        events = _stand_out(game)
        assert any(e.get("reason") == "reshuffle" for e in events) == due


# --------------------------------------------------------------------- infinite decks


def test_infinite_decks_never_shuffle_and_repeat_cards() -> None:
    options = Options.from_dict({"trivia_mode": False, "deck_count": "infinite"})
    game = Engine(options, rng=random.Random(4))
    assert public_view(game).cards_in_shoe is None  # shown as ∞
    drawn: list[str] = []
    for _ in range(400):
        assert not _shuffled(_stand_out(game))
        drawn.extend(game.round.dealt)
    assert game.shoe.infinite and game.shoe.deck_count == 0
    twice_in_a_row = [a for a, b in zip(drawn, drawn[1:], strict=False) if a[:2] == b[:2]]
    assert twice_in_a_row  # about one draw in 52 repeats the card before it
    # No deck limits a card: some card comes more often than 8 decks would hold.
    assert max(drawn.count(card) for card in set(drawn)) > 8
    # The state round-trips through JSON.
    data = json.loads(json.dumps(game_to_json(game)))
    assert game_to_json(game_from_json(data)) == game_to_json(game)


def test_changing_to_infinite_decks_rebuilds_the_shoe() -> None:
    game = Engine(Options.from_dict({"trivia_mode": False}), rng=random.Random(5))
    _stand_out(game)
    events = game.set_options(Options.from_dict({"trivia_mode": False, "deck_count": "infinite"}))
    assert _shuffled(events) and game.shoe.infinite


def test_replay_shoe_holds_each_card_once_per_deck_unless_infinite() -> None:
    data = _replay_file("r_opt_infinite_decks_deal_the_same_card_again")
    data["options"]["deck_count"] = 8
    with pytest.raises(ReplayError, match="2S dealt 19 times, but 8 decks hold 8"):
        run_replay(data)


@pytest.mark.parametrize("value", [0, 9, "9", 6.0, True, "Infinite"])
def test_deck_count_values(value: object) -> None:
    with pytest.raises(ValueError, match="from 1 to 8 or 'infinite'"):
        Options.from_dict({"deck_count": value})


# --------------------------------------------------------------------- splits


def test_max_ace_splits_limits_ace_splits_only() -> None:
    cards = ["AS", "9H", "AD", "7C", "AH", "5S", "AC", "6D", "0H", "9S", "0D"]
    game = play(cards, actions=("split", "split"), max_ace_splits=2)
    assert len(game.round.hands) == 3
    assert "No more than 2 splits of aces" in game.legal_actions()["split"]
    game = play(cards, actions=("split",), max_ace_splits=1)
    assert "Resplitting aces is not allowed" in game.legal_actions()["split"]
    game = play(cards, max_ace_splits=0, max_splits=3)
    assert "Splitting aces is not allowed" in game.legal_actions()["split"]


def test_max_splits_two_makes_three_hands() -> None:
    cards = ["8S", "0H", "8D", "7C", "8H", "2C", "8C", "3S", "0S", "4D"]
    game = play(cards, actions=("split", "split"), max_splits=2)
    assert len(game.round.hands) == 3
    assert "No more than 2 splits of a pair" in game.legal_actions()["split"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ({"resplit": True}, {"max_splits": 3, "max_ace_splits": 0}),
        ({"resplit": False}, {"max_splits": 1}),
        ({"split_aces": True}, {"max_ace_splits": 1}),
        ({"split_aces": False}, {"max_ace_splits": 0}),
        # Resplitting aces needed resplitting and splitting aces: it plays as it did.
        ({"resplit_aces": True}, {"max_splits": 3, "max_ace_splits": 3}),
        (
            {"resplit": True, "split_aces": True, "resplit_aces": False},
            {"max_splits": 3, "max_ace_splits": 1},
        ),
    ],
)
def test_old_split_keys_read_as_the_new_ones(old: dict, new: dict) -> None:
    assert Options.from_dict(old) == Options.from_dict(new)
    assert "resplit" not in Options.from_dict(old).to_dict()


def test_old_and_new_split_keys_together_are_refused() -> None:
    with pytest.raises(ValueError, match="give only"):
        Options.from_dict({"resplit": True, "max_splits": 2})
    with pytest.raises(ValueError, match="true or false"):
        Options.from_dict({"split_aces": 1})


def test_old_split_keys_replay_as_the_new_ones() -> None:
    old = _replay_file("r_opt_old_split_keys_read_as_max_splits")
    new = json.loads(json.dumps(old))
    new["options"] = {"trivia_mode": False, "max_splits": 3, "max_ace_splits": 1}
    assert run_replay(old) == run_replay(new)
    old["options"]["resplit"] = False  # max_splits 1: the second split is refused
    with pytest.raises(ReplayError, match="round 1, action 2: Resplitting is not allowed"):
        run_replay(old)


def test_stored_game_with_old_keys_keeps_loading() -> None:
    game = Engine(Options.from_dict({"trivia_mode": False, "max_splits": 3}), rng=random.Random(6))
    data = game_to_json(game)
    options = dict(data["options"])
    del options["max_splits"], options["max_ace_splits"]
    data["options"] = {**options, "resplit": True, "split_aces": True, "resplit_aces": False}
    data["implied"] = ["split_aces"]
    loaded = game_from_json(data)
    assert (loaded.options.max_splits, loaded.options.max_ace_splits) == (3, 1)
    assert loaded.options.implied == ("max_ace_splits",)


# --------------------------------------------------------------------- simple


def test_simple_game_offers_hit_and_stand_only() -> None:
    # A pair of aces against an ace: split, double, surrender and insurance would all be on.
    game = make_game(
        ["AS", "9H", "AD", "AC", "5H"],
        simple=True,
        trivia_mode=False,
        max_ace_splits=3,
        surrender="early",
        double_after_split=True,
    )
    game.start_round(1000)
    assert game.round.phase == PLAYER_TURN  # no insurance, no early surrender offer
    legal = game.legal_actions()
    assert legal["hit"] == legal["stand"] == ALLOWED
    for refused in ("double", "split", "surrender"):
        assert legal[refused] == "Only Hit and Stand in the simple game"
    with pytest.raises(IllegalAction, match="simple game"):
        game.double()
    assert game.options.max_ace_splits == 3  # kept, inactive
    assert "max_ace_splits" in game.options.inactive and "surrender" in game.options.inactive


def test_simple_game_refuses_side_bets() -> None:
    game = make_game(["0S", "9H", "8D", "7C"], simple=True, trivia_mode=False)
    with pytest.raises(IllegalAction, match="No side bets in the simple game"):
        game.start_round(1000, {"21+3": 500})


@pytest.mark.parametrize("action", ["double", "split"])
def test_simple_replay_refuses_double_and_split(action: str) -> None:
    data = _replay_file("r_opt_simple_hit_and_stand_only")
    data["rounds"][0]["actions"] = [action]
    with pytest.raises(ReplayError, match="action 1: Only Hit and Stand in the simple game"):
        run_replay(data)


# --------------------------------------------------------------------- inverted


def test_inverted_bank_stops_at_zero() -> None:
    # $5.00 bank, $5.00 bet, a natural at 3:2: a loss of $7.50, but the bank stops at zero.
    game = make_game(["AS", "0H", "KD", "7C"], bank=500, inverted=True, trivia_mode=False)
    game.start_round(500)
    round_ = game.round
    assert round_.over and game.bank == 0 and round_.hands[0].winnings == 0
    assert game.game_over and game.game_over_reason == "bank"


def test_inverted_side_bet_and_insurance_are_negated() -> None:
    # 21+3 flush (5:1) on $5: a loss of $25 beyond the stake; insurance lost: $5 + $5 back.
    game = make_game(
        ["2H", "9S", "7H", "AH", "0C"], inverted=True, trivia_mode=False, side_bets=True
    )
    game.start_round(1000, {"21+3": 500})
    game.answer_offer("insurance", True)
    game.stand()
    round_ = game.round
    record = round_.side_bets[0]
    assert (record["condition"], record["winnings"]) == ("flush", 500 - 2500)
    assert round_.insurance["result"] == "lose" and round_.insurance["winnings"] == 1000
    assert game.bank == round_.bank_before - round_.staked + round_.paid


def test_the_same_stored_options_are_read_once_and_the_type_of_a_value_counts() -> None:
    """Every web action reads its game's options; equal stored values give the
    same (immutable) Options, read once. True and 1 are equal dict keys, not equal values."""
    stored = {"trivia_mode": True, "deck_count": 6, "min_bet": "5.00"}
    first = Options.from_dict(stored)
    assert Options.from_dict(dict(stored)) is first
    assert first.trivia_mode is True and first.min_bet == 500
    for wrong in ({"trivia_mode": 1}, {"deck_count": 6.0}):
        for _ in range(2):  # refused every time, whatever was read before
            with pytest.raises(ValueError):
                Options.from_dict({**stored, **wrong})
    # A value that cannot be a key is read (and refused) all the same.
    with pytest.raises(ValueError):
        Options.from_dict({"trivia_mode": ["yes"]})


def test_to_dict_gives_a_dict_of_the_callers_own() -> None:
    options = Options.from_dict({"min_bet": "5.00"})
    first = options.to_dict()
    first["min_bet"] = "mutated"
    assert options.to_dict()["min_bet"] == "5.00"
    # Equal values of different types are written as they are.
    assert Options(trivia_mode=1).to_dict()["trivia_mode"] == 1  # type: ignore[arg-type]
    assert Options(trivia_mode=True).to_dict()["trivia_mode"] is True
