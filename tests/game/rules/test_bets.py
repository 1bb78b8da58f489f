"""R-1.4's bet limits decided in one pure function (game.rules.bets.bet_refusal): the bank
covering the bets together, the table minimum and the table maximum, each inclusive."""

from __future__ import annotations

import pytest

from game.rules.bets import (
    BANK_SHORT,
    OVER_MAX_BET,
    UNDER_MIN_BET,
    bet_refusal,
    check_covered,
    checked_stakes,
)
from game.rules.options import Options
from game.rules.records import IllegalAction
from game.rules.table_rules import TableRules

LIMITS = {"min_bet": 100, "max_bet": 1_000_000}


def test_a_bet_within_every_limit_is_allowed() -> None:
    assert bet_refusal(2_500, 500, bank=10_000, **LIMITS) is None


@pytest.mark.parametrize(
    ("bet", "side_total", "bank", "refusal"),
    [
        (10_000, 0, 10_000, None),  # the whole bank
        (9_000, 1_000, 10_000, None),  # the bank exactly, with side bets
        (10_001, 0, 10_000, BANK_SHORT),  # one cent short
        (9_000, 1_001, 10_000, BANK_SHORT),  # the side bets count too
        (100, 0, 0, BANK_SHORT),  # an empty bank covers nothing
        (0, 0, 0, None),  # nothing staked, nothing to cover
    ],
)
def test_the_bank_must_cover_the_bets_together(
    bet: int, side_total: int, bank: int, refusal: str | None
) -> None:
    assert bet_refusal(bet, side_total, bank=bank) == refusal


@pytest.mark.parametrize(
    ("bet", "refusal"),
    [
        (99, UNDER_MIN_BET),
        (100, None),  # the minimum itself
        (1_000_000, None),  # the maximum itself
        (1_000_001, OVER_MAX_BET),
    ],
)
def test_the_base_bet_lies_between_the_table_limits(bet: int, refusal: str | None) -> None:
    assert bet_refusal(bet, bank=10**9, **LIMITS) == refusal


def test_side_bets_do_not_count_toward_the_base_bet_limits() -> None:
    assert bet_refusal(1_000_000, 500_000, bank=10**9, **LIMITS) is None
    assert bet_refusal(99, 500, bank=10**9, **LIMITS) == UNDER_MIN_BET


def test_a_short_bank_is_named_before_the_table_limits() -> None:
    assert bet_refusal(1_000_001, bank=50, **LIMITS) == BANK_SHORT
    assert bet_refusal(99, bank=50, **LIMITS) == BANK_SHORT


def test_only_the_limits_given_are_checked() -> None:
    assert bet_refusal(10**12) is None
    assert bet_refusal(10**12, bank=10**12) is None
    assert bet_refusal(1, max_bet=1_000_000) is None
    assert bet_refusal(10**12, min_bet=100) is None


def test_the_engines_checks_keep_their_limits_and_words() -> None:
    check_covered(10_000, 10_000)
    with pytest.raises(IllegalAction, match=r"does not cover bets of \$100\.01"):
        check_covered(10_001, 10_000)
    table = TableRules(Options())
    minimum, maximum = table.min_bet, table.max_bet
    assert checked_stakes(table, minimum, None, False, minimum) == {}
    assert checked_stakes(table, maximum, None, False, maximum) == {}
    with pytest.raises(IllegalAction, match="The minimum bet is"):
        checked_stakes(table, minimum - 1, None, False, 10**9)
    with pytest.raises(IllegalAction, match="The maximum bet is"):
        checked_stakes(table, maximum + 1, None, False, 10**9)
    with pytest.raises(IllegalAction, match="does not cover"):
        checked_stakes(table, minimum, None, False, minimum - 1)
