"""Seats (RULES.md §10 Extensions): up to three boxes against one dealer hand.

The hand-computed rounds are replay files (tests/replays/r_10_seats_*); here: the
start_round API and its refusals, the public view of several boxes, the stored state,
split limits per box, the dealer's turn, timers across boxes, End Game, and export.
"""

from __future__ import annotations

import json
import pathlib
import random

import pytest

from game.rules.clock import FakeClock
from game.rules.engine import Engine
from game.rules.options import Options
from game.rules.public import PublicRound, public_view
from game.rules.records import BoxBet, IllegalAction, InsuranceOffer
from game.rules.replay import apply_action, export_round_replay, round_record, run_replay
from game.rules.shoe import Shoe
from game.rules.storage import game_from_json, game_to_json, round_from_json, round_to_json
from tests.game.rules.helpers import event_types

REPLAYS = pathlib.Path(__file__).resolve().parents[2] / "replays"
SEATS_FILES = sorted(
    path for path in REPLAYS.glob("r_10_seats_*.json") if not path.stem.endswith(".expected")
)


def _round(game: Engine) -> PublicRound:
    """The round in ``game``'s public view."""
    round_ = public_view(game).round
    assert round_ is not None
    return round_


def table(cards: list[str], seats: int = 3, bank: int = 100_000, **options: object) -> Engine:
    return Engine(
        Options.from_dict({"trivia_mode": False, "seats": seats, **options}),
        rng=random.Random(1),
        bank=bank,
        shoe=Shoe.from_cards(cards),
    )


# Box 1 0S 7H (17), box 2 8S 8D, box 3 9C 2H (11); hole 6C, upcard 0D (16).
THREE_BOXES = ["0S", "8S", "9C", "6C", "7H", "8D", "2H", "0D", "3H", "0H", "9S", "5S", "0C"]


def test_boxes_are_dealt_one_card_each_then_the_hole_then_again_then_the_upcard() -> None:
    game = table(THREE_BOXES)
    events = game.start_round(boxes=[BoxBet(1000), (2000, {}), (500, None, False)])
    round_ = game.round
    assert [hand.cards for hand in round_.hands] == [["0S", "7H"], ["8S", "8D"], ["9C", "2H"]]
    assert [hand.box for hand in round_.hands] == [0, 1, 2]
    assert [hand.bet for hand in round_.hands] == [1000, 2000, 500]
    assert round_.dealer == ["6C", "0D"]
    assert game.bank == 100_000 - 3500 and round_.staked == 3500
    placed = [event for event in events if event["type"] == "bets_placed"]
    assert [(event["box"], event["bet"]) for event in placed] == [(1, 1000), (2, 2000), (3, 500)]


def test_bets_are_refused_unless_every_box_has_one_and_the_bank_covers_them_all() -> None:
    game = table(THREE_BOXES, bank=5000)
    before = game_to_json(game)
    refusals = [
        ({"bet": 1000}, "3 boxes"),
        ({"boxes": [BoxBet(1000)] * 2}, "3 boxes"),
        ({"boxes": [BoxBet(1000)] * 3, "bet": 1000}, "either"),
        ({"boxes": [BoxBet(1000), BoxBet(50), BoxBet(1000)]}, "Box 2: The minimum bet"),
        ({"boxes": [BoxBet(1000), BoxBet(1000), BoxBet(1000, {"nope": 100})]}, "Box 3"),
        ({"boxes": [BoxBet(1000), "x", BoxBet(1000)]}, "Box 2"),
        # Each box fits the bank alone; together they do not.
        ({"boxes": [BoxBet(2000), BoxBet(2000, {"21+3": 500}), BoxBet(1000)]}, "does not cover"),
    ]
    for arguments, message in refusals:
        with pytest.raises(IllegalAction, match=message):
            game.start_round(**arguments)
        assert game_to_json(game) == before  # a refused bet changes nothing
    game.start_round(boxes=[BoxBet(2000), BoxBet(2000, {"21+3": 500}), BoxBet(500)])
    assert game.bank == 0


def test_one_box_through_the_boxes_form_is_the_one_box_game() -> None:
    cards = ["9S", "8H", "7D", "0C"]
    plain = table(list(cards), seats=1)
    boxed = table(list(cards), seats=1)
    plain.start_round(1000, {"21+3": 100})
    boxed.start_round(boxes=[(1000, {"21+3": 100})])
    assert game_to_json(plain) == game_to_json(boxed)


def test_splits_are_counted_per_box_and_the_dealer_plays_once() -> None:
    # Boxes 1 and 2 each hold a pair; max_splits 1 (no resplit) limits each box alone.
    cards = ["8S", "8D", "9H", "8C", "8H", "0C", "8C", "8S", "2D", "3D", "2C", "3C", "9C"]
    game = table(cards, seats=2)
    game.start_round(boxes=[(1000, {}), (1000, {})])
    game.split()  # box 1: 8S+8C, 8H+8S
    assert "Resplitting" in game.legal_actions()["split"]  # box 1 is at its limit
    game.stand()
    game.stand()
    assert game.round.hands[game.round.current].box == 1
    assert game.legal_actions()["split"] == "allowed"  # box 2's own first split
    game.split()
    game.stand()
    game.stand()
    round_ = game.round
    assert [hand.box for hand in round_.hands] == [0, 0, 1, 1]
    assert round_.dealer == ["9H", "0C"] and round_.dealer_result == "stand"
    assert round_.staked == 4000 and game.bank == 100_000 - 4000 + round_.paid


def test_the_dealer_skips_its_turn_only_when_no_box_has_a_hand_standing() -> None:
    # Both boxes bust: the dealer does not draw.
    game = table(["0S", "0D", "6H", "6C", "5D", "0H", "9C", "9D"], seats=2)
    game.start_round(boxes=[(1000, {}), (1000, {})])
    game.hit()
    game.hit()
    assert game.round.over and game.round.dealer == ["6H", "0H"]
    # Box 1 busts, box 2 stands: the dealer draws for box 2.
    game = table(["0S", "0D", "6H", "6C", "7D", "0H", "9C", "5S"], seats=2)
    game.start_round(boxes=[(1000, {}), (1000, {})])
    game.hit()
    game.stand()
    assert game.round.dealer == ["6H", "0H", "5S"]
    assert [hand.result for hand in game.round.hands] == ["lose", "lose"]


def test_every_box_with_a_natural_and_no_dealer_natural_ends_the_round_at_once() -> None:
    game = table(["AS", "KD", "9H", "KS", "AC", "7C"], seats=2)
    game.start_round(boxes=[(1000, {}), (2000, {})])
    round_ = game.round
    assert round_.over and round_.dealer == ["9H", "7C"]
    assert [hand.winnings for hand in round_.hands] == [2500, 5000]


def test_public_view_lists_the_boxes_and_the_box_in_play_but_never_the_hole_card() -> None:
    game = table(THREE_BOXES)
    game.start_round(boxes=[BoxBet(1000), BoxBet(2000, {"21+3": 100}), BoxBet(500)])
    view = public_view(game).round
    assert view is not None and view.boxes is not None
    assert view.dealer.cards == (None, "0D") and "6C" not in json.dumps(view.to_dict())
    assert view.current_box == 0 and view.current_hand == 0
    assert [box.box for box in view.boxes] == [1, 2, 3]
    assert [box.bet for box in view.boxes] == [1000, 2000, 500]
    assert view.boxes[1].side_stakes == {"21+3": 100}
    assert view.boxes[1].side_bets[0]["box"] == 2  # settled after the deal
    assert [hand.box for hand in view.hands] == [1, 2, 3]
    assert view.bet == 1000  # the one-box names: the box in play's
    game.stand()
    game.split()
    view = public_view(game).round
    assert view is not None and view.boxes is not None
    assert view.current_box == 1 and view.bet == 2000 and view.current_hand == 1
    assert view.boxes[1].hand_indices == (1, 2)
    assert [hand.cards for hand in view.boxes[1].hands] == [("8S", "3H"), ("8D", "0H")]


def test_one_seat_keeps_the_one_box_shapes() -> None:
    game = table(["9S", "8H", "7D", "0C"], seats=1)
    game.start_round(1000)
    view = public_view(game).round
    assert view is not None
    assert view.boxes is None and view.current_box is None and view.hands[0].box is None
    shown = view.to_dict()
    assert "boxes" not in shown and "current_box" not in shown and "box" not in shown["hands"][0]
    stored = game_to_json(game)["round"]
    assert "boxes" not in stored and "offer_box" not in stored and "box" not in stored["hands"][0]
    assert stored["bet"] == 1000 and stored["side_stakes"] == {} and stored["insurance"] is None


def test_a_round_of_several_boxes_round_trips_through_json_mid_round() -> None:
    game = table(["9S", "AH", "0C", "8C", "7D", "KD", "0H", "AD", "5S"])
    game.start_round(boxes=[BoxBet(1000), BoxBet(1000), BoxBet(2000)])
    game.answer_offer("insurance", True)
    data = json.loads(json.dumps(game_to_json(game)))
    assert data["round"]["offer_box"] == 1 and len(data["round"]["boxes"]) == 3
    loaded = game_from_json(data)
    assert game_to_json(loaded) == game_to_json(game)
    for played in (game, loaded):
        apply_action(played, "even_money:accept")
        apply_action(played, "insurance:decline")
        played.hit()
        played.stand()
    assert game_to_json(loaded) == game_to_json(game) and loaded.bank == 103_500


def test_the_insurance_stage_lists_every_box_offered_and_which_have_answered() -> None:
    # Box 1 9S 0C (19), box 2 AH KD (blackjack), box 3 0H 8C (18, a $20 bet); ace up.
    game = table(["9S", "AH", "0H", "8C", "0C", "KD", "8D", "AD", "5S"])
    game.start_round(boxes=[BoxBet(1000), BoxBet(1000), BoxBet(2001)])
    before = game_to_json(game)
    assert game.insurance_offers() == [
        InsuranceOffer(0, "insurance", 500, False),
        InsuranceOffer(1, "even_money", 500, False),
        InsuranceOffer(2, "insurance", 1000, False),  # half of $20.01, rounded down
    ]
    assert game_to_json(game) == before  # a read only
    game.answer_offer("insurance", False)
    assert [offer.answered for offer in game.insurance_offers()] == [True, False, False]
    game.answer_offer("even_money", True)
    game.answer_offer("insurance", True)
    assert game.round.actions == ["insurance:decline", "even_money:accept", "insurance:accept"]
    assert game.insurance_offers() == []  # the stage is over


def test_a_round_stored_before_seats_loads_as_one_box() -> None:
    game = table(["9S", "8H", "7D", "0C"], seats=1)
    game.start_round(1000, {"21+3": 100})
    stored = game_to_json(game)["round"]
    assert round_to_json(round_from_json(stored)) == stored
    assert round_from_json(stored).boxes[0].side_stakes == {"21+3": 100}


def test_timers_run_across_boxes() -> None:
    # each decision has turn_seconds; a late resume stands hand after hand, box
    # after box, each deadline starting where the last ran out.
    clock = FakeClock(0)
    game = Engine(
        Options.from_dict({"trivia_mode": False, "seats": 3, "turn_seconds": 10}),
        rng=random.Random(1),
        shoe=Shoe.from_cards(THREE_BOXES),
        clock=clock,
    )
    game.start_round(boxes=[(1000, {}), (1000, {}), (1000, {})])
    assert game.round.deadline == 10_000
    clock.advance(seconds=25)
    events = game.run_clock()
    assert event_types(events).count("timed_out") == 2
    round_ = game.round
    assert [hand.stand_reason for hand in round_.hands[:2]] == ["timeout", "timeout"]
    assert round_.current == 2 and round_.deadline == 30_000
    assert _round(game).current_box == 2
    game.double()
    assert round_.over and round_.deadline is None


def test_end_game_forfeits_every_box() -> None:
    game = table(["KS", "5H", "8D", "7H", "6H", "9C"], seats=2)
    game.start_round(
        boxes=[BoxBet(1000, {"lucky_ladies": 100}, True), BoxBet(2000, {"perfect_pair": 200})]
    )
    game.place_extra_bet(1000)
    game.end_game()
    round_ = game.round
    assert round_.money_in_play() == 0 and game.game_over
    assert sorted((r["box"], r["name"]) for r in round_.side_bets) == [
        (1, "extra_bet_blackjack"),
        (1, "lucky_ladies"),
        (2, "perfect_pair"),
    ]
    assert game.bank == 100_000 - round_.staked


@pytest.mark.parametrize("path", SEATS_FILES, ids=[path.stem for path in SEATS_FILES])
def test_a_round_of_several_boxes_exports_and_replays_to_the_same_result(path) -> None:
    replay = json.loads(path.read_text())
    for entry in replay["rounds"]:
        options = Options.from_dict(replay["options"])
        game = Engine(options, shoe=Shoe.from_cards(entry["shoe"]), record_events=False)
        game.dice_queue = list(entry.get("dice", []))
        boxes = []
        for seat in entry["seats"]:
            stakes = {
                name: round(float(amount) * 100)
                for name, amount in seat.get("side_bets", {}).items()
                if name != "extra_bet_blackjack"
            }
            extra = seat.get("side_bets", {}).get("extra_bet_blackjack", False)
            boxes.append(BoxBet(round(float(seat["bet"]) * 100), stakes, extra))
        game.start_round(boxes=boxes)
        for action in entry["actions"]:
            apply_action(game, action)
        exported = export_round_replay(game)
        assert exported["rounds"][0]["seats"] == entry["seats"]
        assert exported["rounds"][0]["actions"] == entry["actions"]
        assert run_replay(exported)["rounds"] == [round_record(game.round)]
