"""Every pay line of every side bet (RULES.md §9) with a constructed hand, its exact
winnings, and the precedence between lines that overlap."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.rules.cards import ALL_CODES
from game.rules.sidebets import (
    EXTRA_BET_BLACKJACK,
    HOUSE_MONEY,
    LUCKY_LADIES,
    PAY_TABLES,
    PERFECT_11S,
    PERFECT_PAIR,
    SIDE_BET_NAMES,
    STAKED_SIDE_BETS,
    TWENTY_ONE_PLUS_THREE,
    SideBetWin,
    evaluate_first_cards,
    extra_bet_blackjack,
    extra_bet_cost,
    extra_bet_fee,
    extra_bet_max,
    extra_bet_offered,
    house_money,
    house_money_parlay,
    infinity_count,
    lucky_ladies,
    perfect_11s,
    perfect_11s_needs_dice,
    perfect_11s_with_dice,
    perfect_pair,
    ratio_of,
    side_bet_profit,
    side_bet_winnings,
    twenty_one_plus_three,
)

ODD_STAKE = 333  # $3.33: odd cents everywhere


def condition(win: SideBetWin | None) -> str | None:
    return None if win is None else win.condition


# One constructed example per pay line: (bet, expected condition, thunk evaluating it).
EXAMPLES = [
    (PERFECT_PAIR, "two_perfect_pairs", lambda: perfect_pair(["QH", "QH"], ["7C", "7C"])),
    (PERFECT_PAIR, "perfect_pair", lambda: perfect_pair(["QH", "QH"], ["7C", "8C"])),
    (PERFECT_PAIR, "colored_pair", lambda: perfect_pair(["QH", "QD"], ["7C", "8C"])),
    (PERFECT_PAIR, "mixed_pair", lambda: perfect_pair(["QH", "QS"], ["7C", "8C"])),
    (TWENTY_ONE_PLUS_THREE, "suited_trips_high", lambda: twenty_one_plus_three(["KD", "KD"], "KD")),
    (TWENTY_ONE_PLUS_THREE, "suited_trips", lambda: twenty_one_plus_three(["JC", "JC"], "JC")),
    (TWENTY_ONE_PLUS_THREE, "straight_flush", lambda: twenty_one_plus_three(["9H", "JH"], "0H")),
    (TWENTY_ONE_PLUS_THREE, "three_of_a_kind", lambda: twenty_one_plus_three(["7S", "7H"], "7D")),
    (TWENTY_ONE_PLUS_THREE, "straight", lambda: twenty_one_plus_three(["0S", "QD"], "JH")),
    (TWENTY_ONE_PLUS_THREE, "flush", lambda: twenty_one_plus_three(["2H", "7H"], "KH")),
    (PERFECT_11S, "jackpot_ace_king_spades", lambda: perfect_11s(["AS*", "KS"])),
    (PERFECT_11S, "jackpot_ace_king", lambda: perfect_11s(["KH", "AS*"])),
    (
        PERFECT_11S,
        "suited_11_three_infinities",
        lambda: perfect_11s_with_dice(["5H", "6H"], [6, 6, 6]),
    ),
    (
        PERFECT_11S,
        "suited_11_two_infinities",
        lambda: perfect_11s_with_dice(["5H", "6H"], [6, 3, 6]),
    ),
    (PERFECT_11S, "suited_11", lambda: perfect_11s_with_dice(["5H", "6H"], [6, 1, 2])),
    (PERFECT_11S, "colored_11", lambda: perfect_11s(["2S", "9C"])),
    (PERFECT_11S, "mixed_11", lambda: perfect_11s(["3H", "8S"])),
    (EXTRA_BET_BLACKJACK, "hand_wins", lambda: extra_bet_blackjack("WIN", ["KS", "9D"])),
    (EXTRA_BET_BLACKJACK, "hand_pushes", lambda: extra_bet_blackjack("PUSH", ["KS", "9D"])),
    (HOUSE_MONEY, "suited_ace_king", lambda: house_money(["AC", "KC"])),
    (HOUSE_MONEY, "straight_flush", lambda: house_money(["8D", "9D"])),
    (HOUSE_MONEY, "pair", lambda: house_money(["8D", "8S"])),
    (HOUSE_MONEY, "straight", lambda: house_money(["8D", "9S"])),
    (
        LUCKY_LADIES,
        "queen_hearts_pair_dealer_hearts_natural",
        lambda: lucky_ladies(["QH", "QH"], ["AH", "KH"]),
    ),
    (
        LUCKY_LADIES,
        "queen_hearts_pair_dealer_suited_natural",
        lambda: lucky_ladies(["QH", "QH"], ["0S", "AS"]),
    ),
    (
        LUCKY_LADIES,
        "queen_hearts_pair_dealer_natural",
        lambda: lucky_ladies(["QH", "QH"], ["AD", "JC"]),
    ),
    (LUCKY_LADIES, "queen_hearts_pair", lambda: lucky_ladies(["QH", "QH"], ["9S", "0H"])),
    (LUCKY_LADIES, "queen_pair", lambda: lucky_ladies(["QS", "QD"], ["9S", "0H"])),
    (LUCKY_LADIES, "matched_20", lambda: lucky_ladies(["0S", "0S"], ["9S", "0H"])),
    (LUCKY_LADIES, "suited_20", lambda: lucky_ladies(["0H", "KH"], ["9S", "0H"])),
    (LUCKY_LADIES, "ranked_20", lambda: lucky_ladies(["JS", "JC"], ["9S", "0H"])),
    (LUCKY_LADIES, "any_20", lambda: lucky_ladies(["0S", "KH"], ["9S", "0H"])),
    (LUCKY_LADIES, "queen_of_hearts", lambda: lucky_ladies(["QH", "7S"], ["9S", "0H"])),
    (LUCKY_LADIES, "queen", lambda: lucky_ladies(["QS", "7S"], ["9S", "0H"])),
]


def test_examples_cover_every_pay_line_of_every_bet():
    covered = {(bet, line) for bet, line, _ in EXAMPLES}
    every = {(bet, line) for bet, table in PAY_TABLES.items() for line, _ in table}
    assert covered == every
    assert set(PAY_TABLES) == set(SIDE_BET_NAMES)


@pytest.mark.parametrize(
    ("bet", "line", "evaluate"), EXAMPLES, ids=[f"{b}-{line}" for b, line, _ in EXAMPLES]
)
def test_every_pay_line_wins_with_its_exact_winnings(bet, line, evaluate):
    win = evaluate()
    assert win is not None and win.condition == line
    assert win.ratio == ratio_of(bet, line)
    numerator, denominator = win.ratio
    assert denominator == 1  # every table in RULES.md §9 pays whole multiples
    assert side_bet_winnings(ODD_STAKE, win) == ODD_STAKE * (numerator + 1)
    assert side_bet_winnings(ODD_STAKE, None) == 0


def test_pay_tables_are_exactly_rules_md():
    assert [(c, f"{a}:{b}") for c, (a, b) in PAY_TABLES[TWENTY_ONE_PLUS_THREE]] == [
        ("suited_trips_high", "1000:1"),
        ("suited_trips", "100:1"),
        ("straight_flush", "35:1"),
        ("three_of_a_kind", "33:1"),
        ("straight", "10:1"),
        ("flush", "5:1"),
    ]
    assert [r for _, r in PAY_TABLES[PERFECT_PAIR]] == [(200, 1), (25, 1), (10, 1), (5, 1)]
    assert [r[0] for _, r in PAY_TABLES[PERFECT_11S]] == [720, 131, 25, 16, 15, 10, 3]
    assert [r[0] for _, r in PAY_TABLES[HOUSE_MONEY]] == [9, 4, 3, 1]
    assert [r[0] for _, r in PAY_TABLES[LUCKY_LADIES]] == [
        1000, 750, 500, 200, 25, 25, 10, 9, 4, 2, 1,
    ]  # fmt: skip
    assert STAKED_SIDE_BETS == (
        "perfect_pair",
        "21+3",
        "perfect_11s",
        "house_money",
        "lucky_ladies",
    )


def test_tables_are_listed_best_paying_first_so_first_match_is_best():
    for table in PAY_TABLES.values():
        pays = [a / b for _, (a, b) in table]
        assert pays == sorted(pays, reverse=True)


def test_ratio_of_unknown_line():
    with pytest.raises(KeyError):
        ratio_of(PERFECT_PAIR, "royal_pair")


# --- settlement arithmetic -------------------------------------------------------------


def test_non_integral_ratio_rounds_profit_down_to_the_cent():
    three_to_two = SideBetWin("x", (3, 2), ())
    assert side_bet_profit(ODD_STAKE, three_to_two) == 499  # 499.5 → 499
    assert side_bet_winnings(ODD_STAKE, three_to_two) == 832
    six_to_five = SideBetWin("x", (6, 5), ())
    assert side_bet_winnings(ODD_STAKE, six_to_five) == 333 + 399  # 399.6 → 399


@given(st.integers(min_value=1, max_value=10**9), st.integers(0, 1000), st.integers(1, 100))
def test_winnings_are_stake_plus_floored_profit(stake, a, b):
    win = SideBetWin("x", (a, b), ())
    assert side_bet_winnings(stake, win) == stake + (stake * a) // b
    assert side_bet_winnings(stake, win) * b <= stake * (a + b)


# --- Perfect Pair ----------------------------------------------------------------------


def test_perfect_pair_on_the_dealers_pair_alone_reports_the_dealers_cards():
    win = perfect_pair(["5S", "9D"], ["7C", "7C"])
    assert win == SideBetWin("perfect_pair", (25, 1), ("7C", "7C"))


def test_perfect_pair_on_the_players_pair_reports_the_players_cards():
    assert perfect_pair(["QH", "QH"], ["7C", "8C"]).cards == ("QH", "QH")


def test_dealer_perfect_pair_beats_a_players_colored_or_mixed_pair():
    assert condition(perfect_pair(["QH", "QS"], ["7C", "7C"])) == "perfect_pair"
    assert condition(perfect_pair(["QH", "QD"], ["7C", "7C"])) == "perfect_pair"


def test_two_perfect_pairs_needs_both_pairs_perfect():
    assert perfect_pair(["9D", "9D"], ["KS", "KS"]).cards == ("9D", "9D", "KS", "KS")
    assert condition(perfect_pair(["9D", "9D"], ["KS", "KC"])) == "perfect_pair"
    assert condition(perfect_pair(["9D", "9H"], ["KS", "KS"])) == "perfect_pair"


def test_jackpot_ace_and_ace_of_spades_are_a_perfect_match():
    assert condition(perfect_pair(["AS*", "AS"], ["2C", "3C"])) == "perfect_pair"
    assert condition(perfect_pair(["AS", "AS*"], ["AS", "AS*"])) == "two_perfect_pairs"


def test_colored_and_mixed_pairs_use_only_the_players_cards():
    assert condition(perfect_pair(["KS", "KC"], ["2C", "3C"])) == "colored_pair"
    assert condition(perfect_pair(["2D", "2S"], ["2C", "2H"])) == "mixed_pair"
    # Dealer same rank, different suit: nothing for the dealer.
    assert perfect_pair(["5S", "9D"], ["7C", "7S"]) is None


def test_ten_cards_of_different_ranks_are_no_pair():
    assert perfect_pair(["QH", "KH"], ["0C", "JC"]) is None


def test_perfect_pair_needs_two_cards_each():
    with pytest.raises(ValueError):
        perfect_pair(["QH"], ["7C", "7C"])


# --- 21+3 ----------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["QH", "KS", "AD"])
def test_suited_trips_high_is_queens_kings_aces(code):
    assert condition(twenty_one_plus_three([code, code], code)) == "suited_trips_high"


@pytest.mark.parametrize("code", ["2C", "9H", "0S", "JD"])
def test_suited_trips_two_through_jacks(code):
    assert condition(twenty_one_plus_three([code, code], code)) == "suited_trips"


def test_suited_trips_of_aces_of_spades_with_the_jackpot_ace():
    assert condition(twenty_one_plus_three(["AS*", "AS"], "AS")) == "suited_trips_high"


def test_precedence_suited_trips_over_three_of_a_kind_and_flush():
    # Suited trips are also a three of a kind and a flush; only the best line pays.
    win = twenty_one_plus_three(["5S", "5S"], "5S")
    assert win.condition == "suited_trips" and win.ratio == (100, 1)


def test_precedence_straight_flush_over_straight_and_flush():
    assert condition(twenty_one_plus_three(["4C", "6C"], "5C")) == "straight_flush"
    assert condition(twenty_one_plus_three(["4C", "6C"], "5D")) == "straight"
    assert condition(twenty_one_plus_three(["4C", "6C"], "9C")) == "flush"


def test_three_of_a_kind_mixed_suits_and_two_suited():
    assert condition(twenty_one_plus_three(["QS", "QS"], "QH")) == "three_of_a_kind"
    assert condition(twenty_one_plus_three(["QS", "QH"], "QD")) == "three_of_a_kind"


@pytest.mark.parametrize(
    ("player", "up", "line"),
    [
        (["AS", "2D"], "3H", "straight"),  # ace low
        (["QS", "KD"], "AH", "straight"),  # ace high
        (["AH", "QH"], "KH", "straight_flush"),  # ace high, suited
        (["2S", "3S"], "AS*", "straight_flush"),  # ace low, Jackpot Ace
        (["KS", "AD"], "2H", None),  # never round the corner
        (["KS", "AS"], "2S", "flush"),  # round the corner suited: a flush only
        (["0S", "JD"], "QH", "straight"),  # ten-cards of consecutive ranks
        (["9S", "0D"], "JH", "straight"),
        (["0S", "0D"], "JH", None),  # pair + one: nothing
        (["0S", "QD"], "KH", None),  # gap
        (["2H", "7S"], "KD", None),
    ],
)
def test_straights_ace_high_or_low_never_round_the_corner(player, up, line):
    assert condition(twenty_one_plus_three(player, up)) == line


@given(st.permutations(["6D", "7D", "8D"]))
def test_21_plus_3_does_not_depend_on_card_order(cards):
    assert condition(twenty_one_plus_three(cards[:2], cards[2])) == "straight_flush"


def test_first_cards_dispatch_never_takes_the_hole_card():
    assert condition(evaluate_first_cards("21+3", ["4C", "6C"], "5C")) == "straight_flush"
    assert condition(evaluate_first_cards("perfect_11s", ["4C", "7C"], "5C")) == "suited_11"
    assert condition(evaluate_first_cards("house_money", ["4C", "5C"], "5C")) == "straight_flush"
    with pytest.raises(ValueError):
        evaluate_first_cards("perfect_pair", ["4C", "6C"], "5C")


# --- Perfect 11s ---------------------------------------------------------------------


def test_jackpot_lines_never_roll_the_dice():
    for cards in (["AS*", "KS"], ["KS", "AS*"], ["AS*", "KH"], ["AS*", "KC"], ["KD", "AS*"]):
        win = perfect_11s(cards)
        assert win.condition.startswith("jackpot_ace_king")
        assert not win.needs_dice
        assert not perfect_11s_needs_dice(cards)
        with pytest.raises(ValueError):
            perfect_11s_with_dice(cards, [6, 6, 6])
    assert perfect_11s(["AS*", "KS"]).ratio == (720, 1)
    assert perfect_11s(["AS*", "KC"]).ratio == (131, 1)


def test_unmarked_ace_of_spades_with_king_is_an_ordinary_11():
    assert condition(perfect_11s(["AS", "KS"])) == "suited_11"
    assert perfect_11s_needs_dice(["AS", "KS"])
    assert condition(perfect_11s(["AS", "KH"])) == "mixed_11"
    assert condition(perfect_11s(["AS", "KC"])) == "colored_11"


def test_jackpot_ace_with_a_non_king_ten_card_is_an_ordinary_11():
    assert condition(perfect_11s(["AS*", "QS"])) == "suited_11"
    assert perfect_11s_needs_dice(["AS*", "QS"])
    assert condition(perfect_11s_with_dice(["AS*", "QS"], [6, 6, 2])) == "suited_11_two_infinities"
    assert condition(perfect_11s(["AS*", "0C"])) == "colored_11"
    assert condition(perfect_11s(["JD", "AS*"])) == "mixed_11"


@pytest.mark.parametrize(
    ("cards", "line"),
    [
        (["AD", "KD"], "suited_11"),  # a natural counts as 11 (ace = 1)
        (["AH", "0D"], "colored_11"),
        (["AC", "JH"], "mixed_11"),
        (["2C", "9C"], "suited_11"),
        (["4S", "7C"], "colored_11"),
        (["5D", "6S"], "mixed_11"),
        (["5H", "5H"], None),
        (["AH", "AD"], None),  # 2, not 12
        (["9S", "KS"], None),
        (["6C", "6C"], None),
    ],
)
def test_elevens_by_colour(cards, line):
    assert condition(perfect_11s(cards)) == line


def test_suited_11_is_flagged_for_the_dice_with_its_minimum_line():
    win = perfect_11s(["4S", "7S"])
    assert win == SideBetWin("suited_11", (15, 1), ("4S", "7S"), needs_dice=True)
    assert not perfect_11s(["4S", "7C"]).needs_dice


@pytest.mark.parametrize(
    ("dice", "line"),
    [
        ([6, 6, 6], "suited_11_three_infinities"),
        ([6, 6, 1], "suited_11_two_infinities"),
        ([1, 6, 6], "suited_11_two_infinities"),
        ([6, 5, 6], "suited_11_two_infinities"),
        ([6, 1, 1], "suited_11"),
        ([1, 2, 3], "suited_11"),
        ([5, 5, 5], "suited_11"),
    ],
)
def test_dice_counts(dice, line):
    win = perfect_11s_with_dice(["3D", "8D"], dice)
    assert win.condition == line and not win.needs_dice


def test_all_216_rolls_split_1_15_200():
    counts: dict[str, int] = {}
    for dice in itertools.product(range(1, 7), repeat=3):
        line = perfect_11s_with_dice(["3D", "8D"], dice).condition
        counts[line] = counts.get(line, 0) + 1
    assert counts == {
        "suited_11_three_infinities": 1,
        "suited_11_two_infinities": 15,
        "suited_11": 200,
    }


def test_dice_are_only_for_a_suited_11_and_must_be_three_valid_faces():
    with pytest.raises(ValueError):
        perfect_11s_with_dice(["3D", "8C"], [6, 6, 6])
    with pytest.raises(ValueError):
        perfect_11s_with_dice(["3D", "9D"], [6, 6, 6])
    with pytest.raises(ValueError):
        infinity_count([6, 6])
    with pytest.raises(ValueError):
        infinity_count([6, 6, 7])
    with pytest.raises(ValueError):
        infinity_count([0, 6, 6])
    assert infinity_count((6, 2, 6)) == 2


# --- House Money ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "line"),
    [
        (["AS", "KS"], "suited_ace_king"),
        (["KD", "AD"], "suited_ace_king"),
        (["AS*", "KS"], "suited_ace_king"),  # the Jackpot Ace is still an ace of spades
        (["AS", "KD"], "straight"),  # unsuited K-A: ace high straight
        (["AH", "2H"], "straight_flush"),  # ace low
        (["2C", "AD"], "straight"),
        (["0C", "JC"], "straight_flush"),  # 10-J are consecutive ranks
        (["JC", "QC"], "straight_flush"),
        (["QH", "KS"], "straight"),  # Q-K: consecutive ranks, both worth 10
        (["9S", "0D"], "straight"),
        (["8S", "8D"], "pair"),
        (["QH", "QH"], "pair"),  # a suited pair is a pair, not a straight flush
        (["0S", "0C"], "pair"),
        (["0S", "QH"], None),  # both ten-cards, ranks not consecutive, not a pair
        (["0S", "KS"], None),
        (["KS", "2S"], None),  # no wrap for two cards either
        (["AS", "3S"], None),
        (["2S", "4S"], None),
    ],
)
def test_house_money_lines(cards, line):
    assert condition(house_money(cards)) == line


def test_house_money_precedence_suited_ace_king_over_straight_flush():
    win = house_money(["KH", "AH"])
    assert win.condition == "suited_ace_king" and win.ratio == (9, 1)
    assert side_bet_winnings(ODD_STAKE, win) == 3330


def test_house_money_parlay_splits_winnings_between_bank_and_hand_1():
    win = house_money(["8D", "9D"])  # 4:1 → profit 1332 on 333
    assert house_money_parlay(ODD_STAKE, win, "collect") == (1665, 0)
    assert house_money_parlay(ODD_STAKE, win, "bet") == (1332, 333)
    assert house_money_parlay(ODD_STAKE, win, "winnings") == (333, 1332)
    assert house_money_parlay(ODD_STAKE, win, "all") == (0, 1665)
    with pytest.raises(ValueError):
        house_money_parlay(ODD_STAKE, win, "double")


# --- Extra Bet Blackjack -------------------------------------------------------------


def test_extra_bet_fee_is_20_percent_rounded_down():
    assert extra_bet_fee(1000) == 200
    assert extra_bet_fee(ODD_STAKE) == 66  # 66.6 → 66
    assert extra_bet_fee(4) == 0  # 0.8 cent → 0
    assert extra_bet_fee(5) == 1
    assert extra_bet_cost(ODD_STAKE) == 399


def test_extra_bet_cap_and_offer():
    assert extra_bet_max(1000) == 5000
    assert extra_bet_max(ODD_STAKE) == 1665
    for code in ("0S", "JD", "QH", "KC"):
        assert extra_bet_offered(code)
    for code in ("AS", "AS*", "9H", "2C"):
        assert not extra_bet_offered(code)


@pytest.mark.parametrize(
    ("result", "line", "winnings"),
    [
        ("WIN", "hand_wins", 999),
        ("natural", "hand_wins", 999),  # a natural pays the extra bet 2:1 too
        ("PUSH", "hand_pushes", 333),
        ("LOSE", None, 0),
        ("SURRENDER", None, 0),
    ],
)
def test_extra_bet_follows_hand_1(result, line, winnings):
    win = extra_bet_blackjack(result)
    assert condition(win) == line
    assert side_bet_winnings(ODD_STAKE, win) == winnings
    assert (win is not None and win.is_push) == (line == "hand_pushes")


# --- Lucky Ladies --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dealer", "line"),
    [
        (["AH", "KH"], "queen_hearts_pair_dealer_hearts_natural"),
        (["0H", "AH", "5C"], "queen_hearts_pair_dealer_hearts_natural"),  # extra cards ignored
        (["AS*", "0S"], "queen_hearts_pair_dealer_suited_natural"),
        (["JD", "AD"], "queen_hearts_pair_dealer_suited_natural"),
        (["AH", "KD"], "queen_hearts_pair_dealer_natural"),  # both red, not one suit
        (["AC", "QH"], "queen_hearts_pair_dealer_natural"),
        (["5H", "6H", "KH"], "queen_hearts_pair"),  # 21 in three cards is no natural
        (["AH", "9H", "AH"], "queen_hearts_pair"),
        (["KH", "QH"], "queen_hearts_pair"),
        (["AH"], "queen_hearts_pair"),
    ],
)
def test_queen_hearts_pair_lines_by_the_dealers_natural(dealer, line):
    assert condition(lucky_ladies(["QH", "QH"], dealer)) == line


def test_dealer_natural_lines_show_the_dealers_natural_too():
    win = lucky_ladies(["QH", "QH"], ["AH", "KH", "9C"])
    assert win.cards == ("QH", "QH", "AH", "KH")
    assert lucky_ladies(["QH", "QH"], ["9S", "0H"]).cards == ("QH", "QH")


def test_queen_pair_beats_matched_20_on_the_tie():
    # Two queens of spades are both queen_pair and matched_20 at 25:1: listed first wins.
    assert condition(lucky_ladies(["QS", "QS"], ["9S", "0H"])) == "queen_pair"


@pytest.mark.parametrize(
    ("hand", "line"),
    [
        (["QH", "QD"], "queen_pair"),  # beats queen_of_hearts, suited/ranked/any 20
        (["QC", "QS"], "queen_pair"),
        (["KD", "KD"], "matched_20"),  # beats suited_20 and ranked_20
        (["AH", "9H"], "suited_20"),  # soft 20
        (["5H", "5H", "QH"], "suited_20"),  # three-card suited 20 with the queen of hearts
        (["0D", "0H"], "ranked_20"),
        (["KS", "KC"], "ranked_20"),
        (["AS", "9D"], "any_20"),
        (["5S", "5D", "QC"], "any_20"),  # a 20 beats the queen line
        (["2S", "3D", "4C", "5H", "6S"], "any_20"),
        (["QH", "0S"], "any_20"),  # 4:1 beats queen_of_hearts 2:1
        (["QH", "QH", "AS"], "queen_of_hearts"),  # Decision: no longer a pair of queens
        (["QH", "5C", "9D"], "queen_of_hearts"),  # bust, any total
        (["QS", "QD", "AC"], "queen"),  # three cards: not a queen pair
        (["QC", "5D", "9H"], "queen"),
        (["0S", "9D"], None),
        (["KS", "KH", "AD"], None),
        (["AS", "AS"], None),
    ],
)
def test_lucky_ladies_lines(hand, line):
    assert condition(lucky_ladies(hand, ["9S", "0H"])) == line


def test_lucky_ladies_single_queen_cards():
    assert lucky_ladies(["7S", "QH", "QC"], ["9S", "0H"]).cards == ("QH",)
    assert lucky_ladies(["7S", "QD", "QC"], ["9S", "0H"]).cards == ("QD",)


# --- general properties --------------------------------------------------------------

CARD = st.sampled_from(sorted(ALL_CODES | {"AS*"}))


@given(st.lists(CARD, min_size=2, max_size=2), st.lists(CARD, min_size=2, max_size=2))
def test_perfect_pair_ignores_the_order_within_each_pair(player, dealer):
    assert condition(perfect_pair(player, dealer)) == condition(
        perfect_pair(player[::-1], dealer[::-1])
    )


@given(st.lists(CARD, min_size=2, max_size=2))
def test_two_card_bets_ignore_card_order(cards):
    for evaluate in (house_money, perfect_11s):
        assert condition(evaluate(cards)) == condition(evaluate(cards[::-1]))


@given(st.lists(CARD, min_size=1, max_size=7), st.lists(CARD, min_size=2, max_size=6))
def test_lucky_ladies_any_hand_reports_a_line_of_its_table_with_its_cards(hand, dealer):
    win = lucky_ladies(hand, dealer)
    if win is not None:
        assert (win.condition, win.ratio) in PAY_TABLES[LUCKY_LADIES]
        assert set(win.cards) <= set(hand) | set(dealer[:2])
    has_queen = any(card[0] == "Q" for card in hand)
    assert (win is None) <= (not has_queen)  # any queen always pays at least 1:1
