"""Exact house edges of the side bets decided by the first cards.

No simulation: each bet's outcome depends on a handful of cards drawn without
replacement from the shoe, so we enumerate the *multisets of card codes* those cards
can form, weight each by how many ways the shoe can deal it (a product of binomial
coefficients over the card counts), and evaluate it with the very same pay-table
functions the game settles with (:mod:`game.rules.sidebets`). Everything is exact
``Fraction`` arithmetic.

The house edge is minus the expected net return per unit staked: a line paying a:b
returns +a/b, a loss -1.

Bets covered (the ones decided by the first cards):

- Perfect Pair: the player's two cards and the dealer's two cards. The dealer's pair
  matters only through "is it a perfect match", so for each player pair we count the
  dealer's perfect matches among the cards left instead of listing every dealer pair.
- 21+3: the player's two cards and the upcard (symmetric in the three cards).
- Perfect 11s: the player's two cards, each ace of spades being the Jackpot Ace with
  probability 1/6 (R-SB-11), and for a suited 11 the three Infinity dice, each showing
  infinity with probability 1/6 (R-SB-12).
- House Money before parlay: the player's two cards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement, product
from math import comb, prod
from types import MappingProxyType

from game.rules.cards import ALL_CODES, JACKPOT_MARK
from game.rules.sidebets import (
    DICE_COUNT,
    DIE_FACES,
    HOUSE_MONEY,
    PAY_TABLES,
    PERFECT_11S,
    PERFECT_PAIR,
    TWENTY_ONE_PLUS_THREE,
    SideBetWin,
    house_money,
    perfect_11s,
    perfect_11s_with_dice,
    perfect_pair,
    twenty_one_plus_three,
)

DEFAULT_DECK_COUNT = 6
EDGE_BETS = (PERFECT_PAIR, TWENTY_ONE_PLUS_THREE, PERFECT_11S, HOUSE_MONEY)
JACKPOT_ACE_PROBABILITY = Fraction(1, 6)
ACE_OF_SPADES = "AS"

# A distribution of outcomes: condition id (None = the bet loses) -> probability.
Distribution = Mapping[str | None, Fraction]
Counts = Mapping[str, int]


def shoe_counts(deck_count: int = DEFAULT_DECK_COUNT) -> dict[str, int]:
    """How many of each card code a fresh shoe of ``deck_count`` decks holds."""
    if deck_count < 1:
        raise ValueError(f"deck_count must be at least 1, got {deck_count}")
    return dict.fromkeys(sorted(ALL_CODES), deck_count)


def _multisets(counts: Counts, size: int) -> Iterator[tuple[tuple[str, ...], int]]:
    """Every multiset of ``size`` card codes the shoe can deal, with its number of ways.

    Ways = product of C(count, multiplicity); summed over all multisets this is
    C(total, size), the number of unordered draws.
    """
    codes = sorted(code for code, count in counts.items() if count > 0)
    for cards in combinations_with_replacement(codes, size):
        ways = prod(comb(counts[code], cards.count(code)) for code in set(cards))
        if ways:
            yield cards, ways


def _check_size(counts: Counts, needed: int) -> int:
    total = sum(counts.values())
    if total < needed:
        raise ValueError(f"the shoe holds {total} cards, {needed} are needed")
    return total


def _add(tally: dict[str | None, Fraction], win: SideBetWin | None, weight: Fraction) -> None:
    key = None if win is None else win.condition
    tally[key] = tally.get(key, Fraction(0)) + weight


def _frozen(tally: dict[str | None, Fraction]) -> Distribution:
    return MappingProxyType({key: p for key, p in tally.items() if p})


# --- per-bet distributions over an arbitrary shoe composition -------------------------


def perfect_pair_distribution(counts: Counts) -> Distribution:
    total = _check_size(counts, 4)
    player_draws = comb(total, 2)
    dealer_draws = comb(total - 2, 2)
    # Representatives: only same_card() on the dealer's pair matters to the pay table.
    dealer_perfect, dealer_other = ("2S", "2S"), ("2S", "3S")
    tally: dict[str | None, Fraction] = {}
    for player, ways in _multisets(counts, 2):
        left = dict(counts)
        for card in player:
            left[card] -= 1
        perfect_ways = sum(comb(n, 2) for n in left.values())
        share = Fraction(ways, player_draws * dealer_draws)
        _add(tally, perfect_pair(player, dealer_perfect), share * perfect_ways)
        _add(tally, perfect_pair(player, dealer_other), share * (dealer_draws - perfect_ways))
    return _frozen(tally)


def twenty_one_plus_three_distribution(counts: Counts) -> Distribution:
    draws = comb(_check_size(counts, 3), 3)
    tally: dict[str | None, Fraction] = {}
    for (first, second, third), ways in _multisets(counts, 3):
        _add(tally, twenty_one_plus_three((first, second), third), Fraction(ways, draws))
    return _frozen(tally)


def _jackpot_markings(cards: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Fraction]]:
    """Each ace of spades is the Jackpot Ace with probability 1/6, independently."""
    options = [
        ((card + JACKPOT_MARK, JACKPOT_ACE_PROBABILITY), (card, 1 - JACKPOT_ACE_PROBABILITY))
        if card == ACE_OF_SPADES
        else ((card, Fraction(1)),)
        for card in cards
    ]
    for choice in product(*options):
        yield tuple(card for card, _ in choice), prod((p for _, p in choice), start=Fraction(1))


def _dice_outcomes() -> Iterator[tuple[int, ...]]:
    """All 6^3 equally likely rolls; one face in six is the infinity."""
    return product(range(1, DIE_FACES + 1), repeat=DICE_COUNT)


def perfect_11s_distribution(counts: Counts) -> Distribution:
    draws = comb(_check_size(counts, 2), 2)
    rolls = DIE_FACES**DICE_COUNT
    tally: dict[str | None, Fraction] = {}
    for cards, ways in _multisets(counts, 2):
        for marked, p_marking in _jackpot_markings(cards):
            weight = Fraction(ways, draws) * p_marking
            win = perfect_11s(marked)
            if win is None or not win.needs_dice:
                _add(tally, win, weight)
                continue
            for dice in _dice_outcomes():
                _add(tally, perfect_11s_with_dice(marked, dice), weight / rolls)
    return _frozen(tally)


def house_money_distribution(counts: Counts) -> Distribution:
    draws = comb(_check_size(counts, 2), 2)
    tally: dict[str | None, Fraction] = {}
    for cards, ways in _multisets(counts, 2):
        _add(tally, house_money(cards), Fraction(ways, draws))
    return _frozen(tally)


DISTRIBUTIONS: dict[str, Callable[[Counts], Distribution]] = {
    PERFECT_PAIR: perfect_pair_distribution,
    TWENTY_ONE_PLUS_THREE: twenty_one_plus_three_distribution,
    PERFECT_11S: perfect_11s_distribution,
    HOUSE_MONEY: house_money_distribution,
}


def edge_from_distribution(bet: str, distribution: Distribution) -> Fraction:
    """House edge = -(expected net return per unit): +a/b per winning line, -1 on a loss."""
    ratios = dict(PAY_TABLES[bet])
    expected = Fraction(0)
    for condition, probability in distribution.items():
        if condition is None:
            expected -= probability
        else:
            numerator, denominator = ratios[condition]
            expected += probability * Fraction(numerator, denominator)
    return -expected


# --- what the pages call --------------------------------------------------------------


def _check_bet(bet: str) -> None:
    if bet not in DISTRIBUTIONS:
        raise ValueError(f"no exact edge for {bet!r}; computed for {EDGE_BETS}")


@lru_cache(maxsize=64)
def outcome_probabilities(bet: str, deck_count: int = DEFAULT_DECK_COUNT) -> Distribution:
    """Probability of each pay line (None = loss) for a fresh shoe; read-only, cached."""
    _check_bet(bet)
    return DISTRIBUTIONS[bet](shoe_counts(deck_count))


@lru_cache(maxsize=64)
def house_edge(bet: str, deck_count: int = DEFAULT_DECK_COUNT) -> Fraction:
    """Exact house edge of ``bet`` (one of EDGE_BETS) on a fresh ``deck_count``-deck shoe."""
    return edge_from_distribution(bet, outcome_probabilities(bet, deck_count))


def house_edges(deck_count: int = DEFAULT_DECK_COUNT) -> dict[str, Fraction]:
    return {bet: house_edge(bet, deck_count) for bet in EDGE_BETS}


def perfect_pair_edge(deck_count: int = DEFAULT_DECK_COUNT) -> Fraction:
    return house_edge(PERFECT_PAIR, deck_count)


def twenty_one_plus_three_edge(deck_count: int = DEFAULT_DECK_COUNT) -> Fraction:
    return house_edge(TWENTY_ONE_PLUS_THREE, deck_count)


def perfect_11s_edge(deck_count: int = DEFAULT_DECK_COUNT) -> Fraction:
    return house_edge(PERFECT_11S, deck_count)


def house_money_edge(deck_count: int = DEFAULT_DECK_COUNT) -> Fraction:
    return house_edge(HOUSE_MONEY, deck_count)


def edge_percent(edge: Fraction, places: int = 4) -> str:
    """The edge as a percentage string, e.g. ``"3.2386%"``, rounded half to even exactly."""
    scaled = round(edge * 100 * 10**places)  # Fraction.__round__ is exact
    return f"{Decimal(scaled).scaleb(-places):f}%"
