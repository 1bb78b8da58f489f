"""R-1.4a: amounts are ASCII dollars with two decimals at most, up to $1,000,000,000.00."""

from __future__ import annotations

import pytest

from game.rules.engine import Engine
from game.rules.money import (
    AMOUNT_FORMAT_REFUSAL,
    MAX_AMOUNT_CENTS,
    parse_amount,
    parse_typed_amount,
    parse_whole_number,
)
from game.rules.options import Options
from tests.game.rules.helpers import make_game

CEILING_REFUSAL = "The most the table accepts is $1,000,000,000.00."


@pytest.mark.parametrize(
    "text",
    ["²", "𝟙𝟘", "١٠", "１０", "1e3", "1E3", "-5", "+5", "5.", ".5", "1.005", "NaN", "inf", "0x10",
     "1_000", "", "   ", "5 5", "25\x00", "1,2", "12,34.00"],
)  # fmt: skip
def test_anything_but_ascii_dollars_is_refused_with_a_sentence(text: str) -> None:
    for parser in (parse_amount, parse_typed_amount):
        with pytest.raises(ValueError) as refused:
            parser(text)
        assert str(refused.value) == AMOUNT_FORMAT_REFUSAL


@pytest.mark.parametrize(
    ("text", "cents"),
    [("$1,250.50", 125_050), ("1,000,000,000", MAX_AMOUNT_CENTS), (" 25 ", 2500), ("$7.5", 750)],
)
def test_what_a_player_types_may_carry_a_dollar_sign_and_separators(text: str, cents: int) -> None:
    assert parse_typed_amount(text) == cents


@pytest.mark.parametrize("text", ["1000000000.01", "1000000001", "9" * 20, "9" * 5000])
def test_above_the_ceiling_is_refused_by_name(text: str) -> None:
    assert parse_amount("1000000000.00") == MAX_AMOUNT_CENTS
    with pytest.raises(ValueError, match=CEILING_REFUSAL.replace("$", r"\$").replace(".", r"\.")):
        parse_amount(text)


@pytest.mark.parametrize("text", ["²", "9" * 19, "-1", "", "1.0", "𝟙"])
def test_whole_numbers_are_ascii_and_fit_a_bigint(text: str) -> None:
    with pytest.raises(ValueError):
        parse_whole_number(text)
    assert parse_whole_number("9" * 18) == 10**18 - 1


def test_the_engine_refuses_a_bank_above_the_ceiling() -> None:
    with pytest.raises(ValueError, match="The most the table accepts"):
        Engine(Options(), bank=MAX_AMOUNT_CENTS + 1)
    with pytest.raises(ValueError, match="The most the table accepts"):
        Engine(Options(starting_bank=MAX_AMOUNT_CENTS + 1))


def test_a_bank_that_would_pass_the_ceiling_stops_there() -> None:
    # A natural pays 3:2: $10 returned with $15 profit, $5 more than room is left for.
    game = make_game(["AS", "7H", "KD", "9C"], bank=MAX_AMOUNT_CENTS - 1000, trivia_mode=False)
    game.start_round(1000)
    assert game.round is not None and game.round.over
    assert game.bank == MAX_AMOUNT_CENTS
    # The round's money says what was really paid in, so the books still balance.
    assert game.round.paid - game.round.staked == 1000


def test_a_bank_at_the_ceiling_still_plays_and_settles() -> None:
    game = make_game(["0S", "7H", "9D", "0C"], bank=MAX_AMOUNT_CENTS, trivia_mode=False)
    game.start_round(1000)
    game.stand()
    assert game.round is not None and game.round.over
    assert game.bank == MAX_AMOUNT_CENTS
