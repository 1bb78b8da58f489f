"""Money, options, shoe and hand values."""

from __future__ import annotations

import json
import random
import re

import pytest

from game.rules.hands import dealer_must_hit, describe_total, hand_total, is_bust, is_charlie
from game.rules.money import display_cents, format_cents, half_down, parse_amount, payout_profit
from game.rules.options import Options
from game.rules.public import public_view
from game.rules.records import TriviaOutcome
from game.rules.shoe import JACKPOT_ACE, Shoe, ShoeExhausted, default_rng, mark_jackpot_aces


@pytest.mark.parametrize(
    ("text", "cents"), [("10.00", 1000), ("7.5", 750), ("0.01", 1), ("12", 1200)]
)
def test_parse_amount(text: str, cents: int) -> None:
    assert parse_amount(text) == cents


@pytest.mark.parametrize("bad", ["1.005", "-1.00", "1e3", "", "abc", 10.0, 10, None, "1,000.00"])
def test_parse_amount_is_strict(bad: object) -> None:
    with pytest.raises(ValueError):
        parse_amount(bad)  # type: ignore[arg-type]


def test_r_1_2_money_formats_and_rounds_down() -> None:
    assert format_cents(101500) == "1015.00"
    assert format_cents(-5) == "-0.05"
    assert display_cents(123450) == "$1,234.50"
    assert display_cents(-1) == "-$0.01"
    assert payout_profit(1005, 3, 2) == 1507
    assert half_down(1001) == 500


def test_options_defaults_round_trip_through_json() -> None:
    options = Options.from_dict({"charlie": "off", "min_bet": "2.50"})
    assert options.min_bet == 250
    again = Options.from_dict(json.loads(json.dumps(options.to_dict())))
    assert again == options
    assert Options.from_dict(None) == Options()


def test_options_needs_are_switched_on_and_reported() -> None:
    options = Options.from_dict({"double_after_split_aces": True})
    assert options.max_ace_splits == 1 and options.double_after_split
    assert set(options.implied) == {"max_ace_splits", "double_after_split"}
    assert Options.from_dict({"one_card_after_split_aces": True}).implied == ("max_ace_splits",)
    assert Options.from_dict({"max_ace_splits": 1}).implied == ()
    # A number already past what is needed stays as chosen.
    assert Options.from_dict({"max_ace_splits": 3, "one_card_after_split_aces": True}).implied == ()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"nope": 1}, "unknown option"),
        ({"trivia_mode": "yes"}, "true or false"),
        ({"charlie": 6}, "charlie must be one of"),
        ({"charlie": True}, "charlie must be one of"),
        ({"deck_count": 9}, "from 1 to 8"),
        ({"deck_count": True}, "from 1 to 8"),
        ({"min_bet": "1.001"}, "min_bet"),
        ({"min_bet": "0.00"}, "The minimum bet must be at least $0.01."),
        ({"min_bet": "5.00", "max_bet": "4.00"}, "The maximum bet cannot be below the minimum"),
        ({"starting_bank": "0"}, "The starting bank must be at least $0.01."),
        ({"starting_bank": "1000000000.01"}, "The most the table accepts is $1,000,000,000.00"),
        ({"max_bet": "9" * 20}, "The most the table accepts is $1,000,000,000.00"),
    ],
)
def test_options_validation_messages(data: dict, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        Options.from_dict(data)


def test_options_properties() -> None:
    assert Options().blackjack_ratio == (3, 2)
    assert Options().charlie_limit == 5
    assert Options.from_dict({"charlie": "off"}).charlie_limit is None


def test_r_2_1_shoe_has_deck_count_decks_shuffled_by_injected_rng() -> None:
    first = Shoe.build(6, random.Random(1))
    second = Shoe.build(6, random.Random(1))
    assert first.cards == second.cards
    assert first.remaining() == 312
    assert sorted(card[:2] for card in first.cards) == sorted(
        card[:2] for card in Shoe.build(6, random.Random(2)).cards
    )
    assert hasattr(default_rng(), "shuffle")


def test_r_2_2_reshuffle_below_a_quarter_and_refill_keeps_table_cards_out() -> None:
    shoe = Shoe.build(1, random.Random(3))
    shoe.position = 52 - 13
    assert not shoe.needs_reshuffle()
    shoe.position += 1
    assert shoe.needs_reshuffle()
    shoe.position = 52
    on_table = ["AS", "KH", "2D"]
    shoe.refill(on_table, random.Random(4))
    assert shoe.remaining() == 49
    assert "KH" not in shoe.cards
    assert not Shoe.from_cards(["2S"]).needs_reshuffle()


def test_r_2_2_fixed_shoe_runs_out_and_json_round_trip() -> None:
    shoe = Shoe.from_cards(["2S"])
    assert shoe.draw() == "2S"
    with pytest.raises(ShoeExhausted):
        shoe.draw()
    with pytest.raises(ShoeExhausted):
        shoe.refill([], random.Random(1))
    with pytest.raises(ShoeExhausted):
        Shoe.build(1, random.Random(1)).refill(
            Shoe.build(1, random.Random(1)).cards, random.Random(1)
        )
    copy = Shoe.from_json(json.loads(json.dumps(Shoe.build(2, random.Random(5)).to_json())))
    assert copy.remaining() == 104


def test_r_2_3_shoe_order_not_in_public_view() -> None:
    from tests.game.rules.helpers import play

    game = play(["0S", "7H", "9D", "0C"])
    view = json.dumps(public_view(game).to_dict())
    assert "7H" not in view  # the hole card and undealt order never leave the server


def test_r_sb_11_jackpot_aces_one_in_six() -> None:
    marked = mark_jackpot_aces(["AS"] * 6000, random.Random(11))
    share = marked.count(JACKPOT_ACE) / 6000
    assert 0.14 < share < 0.19
    assert mark_jackpot_aces(["AH", "KS"], random.Random(1)) == ["AH", "KS"]


def test_r_3_1_r_3_2_totals() -> None:
    assert hand_total(["KS", "QH"]) == (20, False)
    assert hand_total(["AS", "AH", "9D"]) == (21, True)
    assert hand_total(["AS", "6D", "9H"]) == (16, False)
    assert hand_total(["0S", "9D", "5H"]) == (24, False)
    assert is_bust(["0S", "9D", "5H"])


def test_r_3_3_soft_and_hard_described() -> None:
    assert describe_total(["AS", "6D"]) == "Soft 17"
    assert describe_total(["0S", "7D"]) == "Hard 17"
    assert describe_total(["0S", "7D", "8C"]) == "Bust 25"


def test_r_3_5_charlie_counts() -> None:
    assert is_charlie(["2S", "2D", "2H", "2C", "3S"], 5)
    assert not is_charlie(["2S", "2D", "2H", "2C", "3S"], 7)
    assert not is_charlie(["2S", "2D", "2H", "2C", "3S"], None)
    assert not is_charlie(["0S", "9D", "2H", "2C", "3S"], 5)


@pytest.mark.parametrize(
    ("cards", "rule", "hits"),
    [
        (["AS", "6D"], "S17", False),
        (["AS", "6D"], "H17", True),
        (["0S", "7D"], "H17", False),
        (["0S", "6D"], "S16", False),
        (["0S", "5D"], "S16", True),
        (["AS", "5D"], "H16", True),
        (["0S", "6D"], "H16", False),
        (["2S", "2D", "2H", "2C", "3S"], "S17", False),
    ],
)
def test_r_6_2_dealer_rules(cards: list[str], rule: str, hits: bool) -> None:
    assert dealer_must_hit(cards, rule, 5) is hits


def test_trivia_outcome_validates_difficulty() -> None:
    with pytest.raises(ValueError):
        TriviaOutcome("extreme", True)
    assert TriviaOutcome("hard", True).credit_change == 5
    assert TriviaOutcome("hard", False).code() == "hard:wrong"
