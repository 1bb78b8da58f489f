"""Exact side-bet house edges: enumeration against brute force and closed forms."""

from __future__ import annotations

import itertools
from fractions import Fraction
from io import StringIO
from math import comb

import pytest
from django.core.management import CommandError, call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.cards import standard_deck
from game.rules.sidebet_edges import (
    EDGE_BETS,
    edge_from_distribution,
    edge_percent,
    house_edge,
    house_edges,
    house_money_distribution,
    house_money_edge,
    outcome_probabilities,
    perfect_11s_distribution,
    perfect_11s_edge,
    perfect_pair_distribution,
    perfect_pair_edge,
    shoe_counts,
    twenty_one_plus_three_distribution,
    twenty_one_plus_three_edge,
)
from game.rules.sidebets import (
    house_money,
    perfect_11s,
    perfect_11s_with_dice,
    perfect_pair,
    twenty_one_plus_three,
)

# The values printed by `manage.py side_bet_edges` for the default 6-deck shoe.
SIX_DECK_EDGES = {
    "perfect_pair": Fraction(-3000, 9641),
    "21+3": Fraction(-1039, 626665),
    "perfect_11s": Fraction(56569, 1746576),
    "house_money": Fraction(1071, 4043),
}


def tally(outcomes):
    """Sum (condition, weight) pairs into a distribution normalised to 1."""
    totals: dict[str | None, Fraction] = {}
    for line, weight in outcomes:
        totals[line] = totals.get(line, Fraction(0)) + weight
    whole = sum(totals.values())
    return {line: p / whole for line, p in totals.items() if p}


def line(win):
    return None if win is None else win.condition


def physical_cards(counts):
    return [code for code, count in sorted(counts.items()) for _ in range(count)]


# --- brute force: every ordered deal of the physical cards ------------------------------


def brute_21_plus_3(cards):
    return tally(
        (line(twenty_one_plus_three((a, b), up)), Fraction(1))
        for a, b, up in itertools.permutations(cards, 3)
    )


def brute_perfect_pair(cards):
    # Deal order: player, dealer (hole), player, dealer (upcard).
    return tally(
        (line(perfect_pair((p1, p2), (hole, up))), Fraction(1))
        for p1, hole, p2, up in itertools.permutations(cards, 4)
    )


def brute_house_money(cards):
    return tally((line(house_money(two)), Fraction(1)) for two in itertools.permutations(cards, 2))


def brute_perfect_11s(cards):
    def markings(card):
        # Each physical ace of spades is the Jackpot Ace one time in six.
        if card == "AS":
            return [("AS*", Fraction(1, 6)), ("AS", Fraction(5, 6))]
        return [(card, Fraction(1))]

    outcomes = []
    for first, second in itertools.permutations(cards, 2):
        for (a, pa), (b, pb) in itertools.product(markings(first), markings(second)):
            win = perfect_11s((a, b))
            if win is None or not win.needs_dice:
                outcomes.append((line(win), pa * pb))
                continue
            for dice in itertools.product(range(1, 7), repeat=3):
                rolled = perfect_11s_with_dice((a, b), dice)
                outcomes.append((rolled.condition, pa * pb / 216))
    return tally(outcomes)


def test_21_plus_3_one_deck_matches_every_three_card_combination():
    deck = standard_deck()
    brute = tally(
        (line(twenty_one_plus_three((a, b), up)), Fraction(1))
        for a, b, up in itertools.combinations(deck, 3)
    )
    assert dict(outcome_probabilities("21+3", 1)) == brute
    # Known one-deck counts out of C(52,3) = 22100.
    assert brute["straight_flush"] * 22100 == 48
    assert brute["three_of_a_kind"] * 22100 == 52
    assert brute["straight"] * 22100 == 720
    assert brute["flush"] * 22100 == 1096


def test_house_money_one_deck_matches_every_two_card_combination():
    brute = tally(
        (line(house_money(two)), Fraction(1)) for two in itertools.combinations(standard_deck(), 2)
    )
    assert dict(outcome_probabilities("house_money", 1)) == brute


# Cards that make every line of the four bets reachable in a small shoe.
POOL = [
    "AS", "KS", "QS", "JS", "0S", "2S", "3S", "9S",
    "AH", "KH", "QH", "2H", "5H", "6H", "KC", "8C", "3D",
]  # fmt: skip


def small_shoes(min_cards, max_cards):
    return st.dictionaries(
        st.sampled_from(POOL), st.integers(min_value=1, max_value=3), min_size=1, max_size=6
    ).filter(lambda counts: min_cards <= sum(counts.values()) <= max_cards)


@settings(max_examples=60, deadline=None)
@given(small_shoes(3, 10))
def test_21_plus_3_enumeration_equals_brute_force(counts):
    assert dict(twenty_one_plus_three_distribution(counts)) == brute_21_plus_3(
        physical_cards(counts)
    )


@settings(max_examples=60, deadline=None)
@given(small_shoes(4, 8))
def test_perfect_pair_enumeration_equals_brute_force(counts):
    assert dict(perfect_pair_distribution(counts)) == brute_perfect_pair(physical_cards(counts))


@settings(max_examples=60, deadline=None)
@given(small_shoes(2, 12))
def test_house_money_enumeration_equals_brute_force(counts):
    assert dict(house_money_distribution(counts)) == brute_house_money(physical_cards(counts))


@settings(max_examples=40, deadline=None)
@given(small_shoes(2, 8))
def test_perfect_11s_enumeration_equals_brute_force(counts):
    assert dict(perfect_11s_distribution(counts)) == brute_perfect_11s(physical_cards(counts))


def test_a_shoe_too_small_is_refused():
    with pytest.raises(ValueError):
        perfect_pair_distribution({"QH": 3})
    with pytest.raises(ValueError):
        shoe_counts(0)


# --- closed forms for whole shoes ----------------------------------------------------


@pytest.mark.parametrize("decks", range(1, 9))
def test_perfect_pair_closed_form(decks):
    n = 52 * decks
    pairs = comb(n, 2)
    p_perfect = Fraction(52 * comb(decks, 2), pairs)
    p_colored = Fraction(13 * 2 * decks * decks, pairs)  # same colour, the other suit
    p_mixed = Fraction(13 * 4 * decks * decks, pairs)  # 2 x 2 cross-colour suit pairs
    dealer_pairs = comb(n - 2, 2)
    # The dealer's chance of a perfect match after the player's two cards are gone.
    q_after_perfect = Fraction(51 * comb(decks, 2) + comb(max(decks - 2, 0), 2), dealer_pairs)
    q_after_other = Fraction(50 * comb(decks, 2) + 2 * comb(decks - 1, 2), dealer_pairs)
    expected = {
        "two_perfect_pairs": p_perfect * q_after_perfect,
        "perfect_pair": p_perfect * (1 - q_after_perfect) + (1 - p_perfect) * q_after_other,
        "colored_pair": p_colored * (1 - q_after_other),
        "mixed_pair": p_mixed * (1 - q_after_other),
    }
    expected[None] = 1 - sum(expected.values())
    assert dict(outcome_probabilities("perfect_pair", decks)) == {
        k: v for k, v in expected.items() if v
    }


def test_player_only_perfect_pairs_closed_form_matches_the_published_figure():
    # Sanity of the closed form above: the classic player-only 25-12-6 table on six
    # decks has the widely quoted house edge of about 6.11%.
    pairs = comb(312, 2)
    perfect, colored, mixed = (Fraction(k, pairs) for k in (52 * 15, 13 * 2 * 36, 13 * 4 * 36))
    expected = 25 * perfect + 12 * colored + 6 * mixed - (1 - perfect - colored - mixed)
    assert edge_percent(-expected) == "6.1093%"


def test_classic_21_plus_3_on_our_distribution_gives_the_published_3_24_percent():
    # The classic 21+3 pays 9:1 on any flush, straight or three of a kind; its
    # six-deck edge is the widely quoted 3.24%. Same card distribution, other table.
    distribution = outcome_probabilities("21+3", 6)
    any_win = sum(p for key, p in distribution.items() if key is not None)
    assert edge_percent(-(9 * any_win - (1 - any_win))) == "3.2386%"


def test_21_plus_3_six_deck_line_probabilities():
    distribution = outcome_probabilities("21+3", 6)
    n = comb(312, 3)
    assert distribution["suited_trips_high"] == Fraction(3 * 4 * comb(6, 3), n)
    assert distribution["suited_trips"] == Fraction(10 * 4 * comb(6, 3), n)
    # 12 runs (A-2-3 … Q-K-A), 6^3 ways each, 4 suits suited or 64 - 4 mixed.
    assert distribution["straight_flush"] == Fraction(12 * 4 * 6**3, n)
    assert distribution["straight"] == Fraction(12 * 60 * 6**3, n)
    assert distribution["three_of_a_kind"] == Fraction(13 * (comb(24, 3) - 4 * comb(6, 3)), n)
    assert distribution["flush"] == Fraction(4 * (comb(78, 3) - 13 * comb(6, 3) - 12 * 6**3), n)


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_house_money_closed_form(decks):
    n = comb(52 * decks, 2)
    d2 = decks * decks
    expected = {
        "suited_ace_king": Fraction(4 * d2, n),
        "straight_flush": Fraction(12 * 4 * d2, n),  # 13 rank pairs incl. K-A, minus A-K
        "pair": Fraction(13 * comb(4 * decks, 2), n),
        "straight": Fraction(13 * 12 * d2, n),
    }
    expected[None] = 1 - sum(expected.values())
    assert dict(outcome_probabilities("house_money", decks)) == expected


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_perfect_11s_closed_form(decks):
    n = comb(52 * decks, 2)
    d2 = decks * decks
    # Rank pairs totalling 11 with ace = 1: A with 0/J/Q/K (4), 2-9, 3-8, 4-7, 5-6 (4).
    suited = Fraction(8 * 4 * d2, n)
    colored = Fraction(8 * 4 * d2, n)  # per rank pair: the other suit of the same colour
    mixed = Fraction(8 * 8 * d2, n)
    as_ks, as_other_king = Fraction(d2, n), Fraction(3 * d2, n)
    jackpot = Fraction(1, 6)
    dice_suited = suited - jackpot * as_ks  # AS*-KS is a jackpot line, no dice
    expected = {
        "jackpot_ace_king_spades": jackpot * as_ks,
        "jackpot_ace_king": jackpot * as_other_king,
        "suited_11_three_infinities": dice_suited * Fraction(1, 216),
        "suited_11_two_infinities": dice_suited * Fraction(15, 216),
        "suited_11": dice_suited * Fraction(200, 216),
        # AS with KC (colored) or KD/KH (mixed) loses those lines when it is the Jackpot Ace.
        "colored_11": colored - jackpot * Fraction(d2, n),
        "mixed_11": mixed - jackpot * Fraction(2 * d2, n),
    }
    expected[None] = 1 - sum(expected.values())
    assert dict(outcome_probabilities("perfect_11s", decks)) == expected


# --- the published values ------------------------------------------------------------


def test_six_deck_edges_are_the_recorded_values():
    assert house_edges() == SIX_DECK_EDGES
    assert perfect_pair_edge() == SIX_DECK_EDGES["perfect_pair"]
    assert twenty_one_plus_three_edge() == SIX_DECK_EDGES["21+3"]
    assert perfect_11s_edge() == SIX_DECK_EDGES["perfect_11s"]
    assert house_money_edge() == SIX_DECK_EDGES["house_money"]
    assert {bet: edge_percent(edge) for bet, edge in house_edges(6).items()} == {
        "perfect_pair": "-31.1171%",
        "21+3": "-0.1658%",
        "perfect_11s": "3.2389%",
        "house_money": "26.4902%",
    }


def test_probabilities_sum_to_one_and_edges_are_cached():
    for decks in (1, 6):
        for bet in EDGE_BETS:
            distribution = outcome_probabilities(bet, decks)
            assert sum(distribution.values()) == 1
            assert edge_from_distribution(bet, distribution) == house_edge(bet, decks)
    assert outcome_probabilities("21+3", 6) is outcome_probabilities("21+3", 6)
    with pytest.raises(TypeError):
        outcome_probabilities("21+3", 6)["flush"] = Fraction(1)  # read-only, shared cache


def test_no_edge_for_bets_not_decided_by_the_first_cards():
    with pytest.raises(ValueError):
        house_edge("lucky_ladies")


def test_edge_percent_formatting():
    assert edge_percent(Fraction(1, 3)) == "33.3333%"
    assert edge_percent(Fraction(-1, 8)) == "-12.5000%"
    assert edge_percent(Fraction(0)) == "0.0000%"
    assert edge_percent(Fraction(2, 3), places=2) == "66.67%"


# --- the command ---------------------------------------------------------------------


def test_command_prints_the_exact_edges():
    out = StringIO()
    call_command("side_bet_edges", stdout=out)
    text = out.getvalue()
    assert "6-deck" in text
    assert "perfect_11s" in text and "3.2389%" in text and "56569/1746576" in text
    assert "-3000/9641" in text


def test_command_other_deck_counts_and_lines():
    out = StringIO()
    call_command("side_bet_edges", "--decks", "1", "--lines", stdout=out)
    assert "1-deck" in out.getvalue() and "79/425" in out.getvalue()
    assert "straight_flush" in out.getvalue()
    with pytest.raises(CommandError):
        call_command("side_bet_edges", "--decks", "9", stdout=StringIO())
