"""Side-bet pay tables of RULES.md §9: pure evaluators, no round or phase logic.

Every function here looks only at the cards (and, for Perfect 11s, the dice) it is
given and says which pay line, if any, wins. *When* each bet is settled, and what
the player sees in between, is the round state machine's business (RULES.md §4).

Conventions:

- A win is a :class:`SideBetWin` carrying the RULES.md condition id, the payout ratio
  ``a:b`` and the cards that won it (for the "winning hand" panel). A loss is ``None``.
- Among lines that hold, only the best-paying one is reported; where two pay the same,
  the one listed first in RULES.md wins (R-SB §9 preamble). Each pay table below is
  kept in RULES.md order so that "listed first" is literally the first in the tuple.
- Money is integer cents; :func:`side_bet_winnings` applies R-PAY-1 (profit rounded
  down to the cent, winnings = stake + profit).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.rules.cards import (
    RANK_ORDER,
    is_ace,
    is_jackpot_ace,
    is_red,
    is_ten_card,
    rank,
    same_card,
    suit,
    value,
)
from game.rules.hands import hand_total

# Bet names, exactly the ``side_bets`` keys of REPLAY.md.
PERFECT_PAIR = "perfect_pair"
TWENTY_ONE_PLUS_THREE = "21+3"
PERFECT_11S = "perfect_11s"
HOUSE_MONEY = "house_money"
LUCKY_LADIES = "lucky_ladies"
EXTRA_BET_BLACKJACK = "extra_bet_blackjack"

# The staked bets of the side-bet menu, in RULES.md order (Extra Bet Blackjack is
# activated, not staked, R-SB-20).
STAKED_SIDE_BETS = (PERFECT_PAIR, TWENTY_ONE_PLUS_THREE, PERFECT_11S, HOUSE_MONEY, LUCKY_LADIES)
SIDE_BET_NAMES = (*STAKED_SIDE_BETS, EXTRA_BET_BLACKJACK)

Ratio = tuple[int, int]

# Pay tables in RULES.md order: (condition id, payout a:b).
PAY_TABLES: dict[str, tuple[tuple[str, Ratio], ...]] = {
    PERFECT_PAIR: (  # R-SB-1
        ("two_perfect_pairs", (200, 1)),
        ("perfect_pair", (25, 1)),
        ("colored_pair", (10, 1)),
        ("mixed_pair", (5, 1)),
    ),
    TWENTY_ONE_PLUS_THREE: (  # R-SB-2
        ("suited_trips_high", (1000, 1)),
        ("suited_trips", (100, 1)),
        ("straight_flush", (35, 1)),
        ("three_of_a_kind", (33, 1)),
        ("straight", (10, 1)),
        ("flush", (5, 1)),
    ),
    PERFECT_11S: (  # R-SB-13, per unit staked (see the Decision there)
        ("jackpot_ace_king_spades", (720, 1)),
        ("jackpot_ace_king", (131, 1)),
        ("suited_11_three_infinities", (25, 1)),
        ("suited_11_two_infinities", (16, 1)),
        ("suited_11", (15, 1)),
        ("colored_11", (10, 1)),
        ("mixed_11", (3, 1)),
    ),
    HOUSE_MONEY: (  # R-SB-30
        ("suited_ace_king", (9, 1)),
        ("straight_flush", (4, 1)),
        ("pair", (3, 1)),
        ("straight", (1, 1)),
    ),
    LUCKY_LADIES: (  # R-SB-40
        ("queen_hearts_pair_dealer_hearts_natural", (1000, 1)),
        ("queen_hearts_pair_dealer_suited_natural", (750, 1)),
        ("queen_hearts_pair_dealer_natural", (500, 1)),
        ("queen_hearts_pair", (200, 1)),
        ("queen_pair", (25, 1)),
        ("matched_20", (25, 1)),
        ("suited_20", (10, 1)),
        ("ranked_20", (9, 1)),
        ("any_20", (4, 1)),
        ("queen_of_hearts", (2, 1)),
        ("queen", (1, 1)),
    ),
    EXTRA_BET_BLACKJACK: (  # R-SB-20
        ("hand_wins", (2, 1)),
        # A push returns the bet: a 0:1 "payout" makes the winnings exactly the stake.
        ("hand_pushes", (0, 1)),
    ),
}


@dataclass(frozen=True)
class SideBetWin:
    """A pay line that holds.

    ``needs_dice`` is only ever true for a Perfect 11s ``suited_11`` that is not a
    Jackpot-Ace combination: the line is certain to win, but how much depends on the
    Infinity dice (R-SB-12), so the caller must roll and call
    :func:`perfect_11s_with_dice` before settling.
    """

    condition: str
    ratio: Ratio
    cards: tuple[str, ...]
    needs_dice: bool = False

    @property
    def is_push(self) -> bool:
        """True when the bet is only returned (Extra Bet Blackjack ``hand_pushes``)."""
        return self.ratio[0] == 0


def ratio_of(bet: str, condition: str) -> Ratio:
    for name, ratio in PAY_TABLES[bet]:
        if name == condition:
            return ratio
    raise KeyError(f"{bet} has no pay line {condition!r}")


def _win(bet: str, condition: str, cards: Sequence[str], *, needs_dice: bool = False) -> SideBetWin:
    return SideBetWin(condition, ratio_of(bet, condition), tuple(cards), needs_dice)


def _first_holding(bet: str, holding: dict[str, Sequence[str]]) -> SideBetWin | None:
    """The best line among those that hold: pay tables are listed best-paying first
    (ties in RULES.md order), so the first line of the table that holds is the one."""
    for condition, _ratio in PAY_TABLES[bet]:
        if condition in holding:
            return _win(bet, condition, holding[condition])
    return None


# --- settlement arithmetic (R-PAY-1) -------------------------------------------------


def side_bet_profit(stake_cents: int, win: SideBetWin | None) -> int:
    """Profit rounded down to the cent; 0 on a loss or a push."""
    if win is None:
        return 0
    numerator, denominator = win.ratio
    return stake_cents * numerator // denominator


def side_bet_winnings(stake_cents: int, win: SideBetWin | None) -> int:
    """What is paid back: stake + profit on a win (a push returns the stake), 0 on a loss."""
    if win is None:
        return 0
    return stake_cents + side_bet_profit(stake_cents, win)


# --- helpers on ranks ----------------------------------------------------------------


def _straight_positions(code: str) -> tuple[int, ...]:
    """The straight positions a card can take: an ace plays low (1) or high (14)."""
    position = RANK_ORDER[rank(code)]
    return (position, 14) if is_ace(code) else (position,)


def _is_run(cards: Sequence[str]) -> bool:
    """Consecutive distinct ranks, the ace high or low but never both at once.

    Trying ace-low for every ace, then ace-high for every ace, is enough: a run can
    only use the ace at one end, and with at most one ace in a run (distinct ranks)
    "round the corner" (K-A-2) would need the ace to be 14 and 1 at the same time.
    """
    for ace_high in (False, True):
        positions = sorted(_straight_positions(card)[-1 if ace_high else 0] for card in cards)
        if all(b - a == 1 for a, b in zip(positions, positions[1:], strict=False)):
            return True
    return False


def _all_same_suit(cards: Sequence[str]) -> bool:
    return len({suit(card) for card in cards}) == 1


def _all_same_rank(cards: Sequence[str]) -> bool:
    return len({rank(card) for card in cards}) == 1


def _is_perfect_match(two: Sequence[str]) -> bool:
    # same_card ignores the Jackpot mark: AS* and AS are a perfect match (R-SB-1).
    return same_card(two[0], two[1])


def _check_count(cards: Sequence[str], count: int, what: str) -> None:
    if len(cards) != count:
        raise ValueError(f"{what} needs exactly {count} cards, got {len(cards)}")


# --- Perfect Pair (R-SB-1) -----------------------------------------------------------


def perfect_pair(player_two: Sequence[str], dealer_two: Sequence[str]) -> SideBetWin | None:
    """Perfect Pair on the player's first two cards and the dealer's [hole, upcard].

    ``perfect_pair`` wins on either pair being a perfect match; its cards are the
    player's when the player's pair is perfect (the player's own hand is the one the
    panel should show first), else the dealer's.
    """
    _check_count(player_two, 2, "Perfect Pair (player)")
    _check_count(dealer_two, 2, "Perfect Pair (dealer)")
    player_perfect = _is_perfect_match(player_two)
    dealer_perfect = _is_perfect_match(dealer_two)
    holding: dict[str, Sequence[str]] = {}
    if player_perfect and dealer_perfect:
        holding["two_perfect_pairs"] = (*player_two, *dealer_two)
    if player_perfect or dealer_perfect:
        holding["perfect_pair"] = player_two if player_perfect else dealer_two
    if _all_same_rank(player_two):
        if is_red(player_two[0]) == is_red(player_two[1]):
            # Same colour: a different suit is colored_pair; the same suit is the
            # perfect match already recorded above, which pays more.
            if not player_perfect:
                holding["colored_pair"] = player_two
        else:
            holding["mixed_pair"] = player_two
    return _first_holding(PERFECT_PAIR, holding)


# --- 21+3 (R-SB-2) -------------------------------------------------------------------

HIGH_TRIPS_RANKS = frozenset({"Q", "K", "A"})


def twenty_one_plus_three(player_two: Sequence[str], upcard: str) -> SideBetWin | None:
    """21+3 on the player's first two cards and the dealer's upcard (poker hands of 3)."""
    _check_count(player_two, 2, "21+3 (player)")
    cards = (*player_two, upcard)
    flush = _all_same_suit(cards)
    trips = _all_same_rank(cards)
    # Three cards of one rank can never be a run, so trips and straights never overlap;
    # suited trips are also trips and a flush, and pay more than both.
    run = not trips and _is_run(cards)
    holding: dict[str, Sequence[str]] = {}
    if trips and flush:
        high = rank(upcard) in HIGH_TRIPS_RANKS
        holding["suited_trips_high" if high else "suited_trips"] = cards
    if run and flush:
        holding["straight_flush"] = cards
    if trips:
        holding["three_of_a_kind"] = cards
    if run:
        holding["straight"] = cards
    if flush:
        holding["flush"] = cards
    return _first_holding(TWENTY_ONE_PLUS_THREE, holding)


# --- Perfect 11s (R-SB-10 … R-SB-13) -------------------------------------------------

DICE_COUNT = 3
DIE_FACES = 6
INFINITY_FACE = 6  # REPLAY.md: dice faces 1-6, 6 = infinity


def _jackpot_line(player_two: Sequence[str]) -> str | None:
    """The Jackpot-Ace line, if the two cards are the Jackpot Ace and a king."""
    jackpot = [card for card in player_two if is_jackpot_ace(card)]
    kings = [card for card in player_two if rank(card) == "K"]
    if not jackpot or not kings:
        return None
    return "jackpot_ace_king_spades" if suit(kings[0]) == "S" else "jackpot_ace_king"


def _eleven_line(player_two: Sequence[str]) -> str | None:
    """The plain 11 line by colour; an ace counts 1, so a natural is an 11 (R-SB-10)."""
    if sum(value(card) for card in player_two) != 11:
        return None
    first, second = player_two
    if suit(first) == suit(second):
        return "suited_11"
    return "colored_11" if is_red(first) == is_red(second) else "mixed_11"


def perfect_11s(player_two: Sequence[str]) -> SideBetWin | None:
    """Perfect 11s before any dice are rolled.

    Jackpot Ace + king pays more than any 11 line, so it is decided first and never
    rolls the dice (AS* + KS is suited but is a Jackpot-Ace combination, R-SB-12). The
    Jackpot Ace with a queen, jack or ten is an ordinary 11. A ``suited_11`` comes back
    with ``needs_dice=True``: it is certain to pay at least 15:1, but the final line
    waits for :func:`perfect_11s_with_dice`.
    """
    _check_count(player_two, 2, "Perfect 11s")
    jackpot = _jackpot_line(player_two)
    if jackpot is not None:
        return _win(PERFECT_11S, jackpot, player_two)
    line = _eleven_line(player_two)
    if line is None:
        return None
    return _win(PERFECT_11S, line, player_two, needs_dice=line == "suited_11")


def perfect_11s_needs_dice(player_two: Sequence[str]) -> bool:
    """Whether the Infinity dice are rolled for these cards (R-SB-12)."""
    win = perfect_11s(player_two)
    return win is not None and win.needs_dice


def infinity_count(dice: Sequence[int]) -> int:
    """How many of the three dice show the infinity face (6)."""
    if len(dice) != DICE_COUNT:
        raise ValueError(f"Perfect 11s rolls {DICE_COUNT} dice, got {len(dice)}")
    for face in dice:
        if not 1 <= face <= DIE_FACES:
            raise ValueError(f"not a die face: {face!r}")
    return sum(1 for face in dice if face == INFINITY_FACE)


def perfect_11s_with_dice(player_two: Sequence[str], dice: Sequence[int]) -> SideBetWin:
    """The final Perfect 11s line for a suited 11 once the three dice are rolled.

    Raises ValueError when the cards do not call for dice: the dice are rolled when,
    and only when, a suited 11 wins without the Jackpot-Ace lines (R-SB-12), so a call
    here for any other hand is a bug in the caller, not something to paper over.
    """
    win = perfect_11s(player_two)
    if win is None or not win.needs_dice:
        raise ValueError(f"no dice are rolled for {list(player_two)}")
    infinities = infinity_count(dice)
    if infinities == 3:
        condition = "suited_11_three_infinities"
    elif infinities == 2:
        condition = "suited_11_two_infinities"
    else:
        condition = "suited_11"
    return _win(PERFECT_11S, condition, player_two)


# --- House Money (R-SB-30, R-SB-31) --------------------------------------------------


def house_money(player_two: Sequence[str]) -> SideBetWin | None:
    """House Money on the player's first two cards (before any parlay).

    "Consecutive" is by rank, not by value: 0-J, J-Q and Q-K are straights even though
    all count 10, while 0-Q is not; two ten-cards of different ranks are not a pair.
    """
    _check_count(player_two, 2, "House Money")
    suited = _all_same_suit(player_two)
    pair = _all_same_rank(player_two)
    run = not pair and _is_run(player_two)
    holding: dict[str, Sequence[str]] = {}
    if suited and {rank(card) for card in player_two} == {"A", "K"}:
        holding["suited_ace_king"] = player_two
    if run and suited:
        holding["straight_flush"] = player_two
    if pair:
        holding["pair"] = player_two
    if run and not suited:
        holding["straight"] = player_two
    return _first_holding(HOUSE_MONEY, holding)


PARLAY_CHOICES = ("collect", "bet", "winnings", "all")


def house_money_parlay(stake_cents: int, win: SideBetWin, choice: str) -> tuple[int, int]:
    """Split a House Money win into (paid into the bank, parlayed onto hand 1), R-SB-31.

    ``bet`` parlays the stake and pays the profit, ``winnings`` parlays the profit and
    returns the stake, ``all`` parlays both; the two parts always add up to the winnings.
    """
    profit = side_bet_profit(stake_cents, win)
    splits = {
        "collect": (stake_cents + profit, 0),
        "bet": (profit, stake_cents),
        "winnings": (stake_cents, profit),
        "all": (0, stake_cents + profit),
    }
    if choice not in splits:
        raise ValueError(f"parlay choice must be one of {PARLAY_CHOICES}, got {choice!r}")
    return splits[choice]


# --- Extra Bet Blackjack (R-SB-20) ---------------------------------------------------

EXTRA_BET_MAX_MULTIPLE = 5
EXTRA_BET_FEE_RATIO: Ratio = (20, 100)


def extra_bet_offered(player_first_card: str) -> bool:
    """The extra bet is offered when hand 1's first card is a ten-card."""
    return is_ten_card(player_first_card)


def extra_bet_max(base_bet_cents: int) -> int:
    return EXTRA_BET_MAX_MULTIPLE * base_bet_cents


def extra_bet_fee(extra_bet_cents: int) -> int:
    """20% of the extra bet, rounded down to the cent; taken with the bet, never returned."""
    numerator, denominator = EXTRA_BET_FEE_RATIO
    return extra_bet_cents * numerator // denominator


def extra_bet_cost(extra_bet_cents: int) -> int:
    """What leaves the bank when the extra bet is placed: the bet plus its fee."""
    return extra_bet_cents + extra_bet_fee(extra_bet_cents)


# Hand results of that the extra bet follows; anything else (LOSE, SURRENDER) loses.
_EXTRA_BET_LINES = {"WIN": "hand_wins", "NATURAL": "hand_wins", "PUSH": "hand_pushes"}


def extra_bet_blackjack(hand_result: str, hand_cards: Sequence[str] = ()) -> SideBetWin | None:
    """The extra bet follows hand 1's result (case-insensitive R-7.1 names).

    A push comes back as ``hand_pushes`` with ratio 0:1 (``is_push``), so that
    :func:`side_bet_winnings` returns exactly the stake; the fee is never returned.
    """
    condition = _EXTRA_BET_LINES.get(hand_result.upper())
    if condition is None:
        return None
    return _win(EXTRA_BET_BLACKJACK, condition, hand_cards)


# --- Lucky Ladies (R-SB-40) ----------------------------------------------------------

QUEEN_OF_HEARTS = "QH"


def _dealer_natural_line(dealer_cards: Sequence[str]) -> str:
    """Which queen-of-hearts-pair line the dealer's first two cards make.

    The dealer's natural is the first two cards (hole, upcard) being an ace and a
    ten-card; "in hearts" means both those cards are hearts, "suited" both one suit.
    """
    first_two = dealer_cards[:2]
    natural = (
        len(first_two) == 2
        and any(is_ace(card) for card in first_two)
        and any(is_ten_card(card) for card in first_two)
    )
    if not natural:
        return "queen_hearts_pair"
    if all(suit(card) == "H" for card in first_two):
        return "queen_hearts_pair_dealer_hearts_natural"
    if _all_same_suit(first_two):
        return "queen_hearts_pair_dealer_suited_natural"
    return "queen_hearts_pair_dealer_natural"


def lucky_ladies(hand_cards: Sequence[str], dealer_cards: Sequence[str]) -> SideBetWin | None:
    """Lucky Ladies on hand 1's final cards and the dealer's final cards (hole first).

    Decision (RULES.md leaves room): the queen-of-hearts-pair lines, like ``queen_pair``
    ("the hand is exactly two queens"), need the hand to be exactly the two queens of
    hearts; a pair of queens of hearts that drew an ace (21) is not a pair any more and
    pays ``queen_of_hearts``. ``suited_20`` and ``any_20`` take a 20 of any number of
    cards; ``matched_20`` and ``ranked_20`` say two-card. Ties: ``queen_pair`` and
    ``matched_20`` both pay 25:1, so a matched pair of queens reports ``queen_pair``,
    the one listed first.
    """
    cards = tuple(hand_cards)
    two_cards = len(cards) == 2
    twenty = hand_total(cards)[0] == 20
    queens = [card for card in cards if rank(card) == "Q"]
    holding: dict[str, Sequence[str]] = {}
    if two_cards and all(card[:2] == QUEEN_OF_HEARTS for card in cards):
        line = _dealer_natural_line(dealer_cards)
        # A dealer-natural line is won by the dealer's natural too: show both.
        holding[line] = cards if line == "queen_hearts_pair" else (*cards, *dealer_cards[:2])
        holding["queen_hearts_pair"] = cards
    if two_cards and len(queens) == 2:
        holding["queen_pair"] = cards
    if twenty:
        if two_cards and _is_perfect_match(cards):
            holding["matched_20"] = cards
        if _all_same_suit(cards):
            holding["suited_20"] = cards
        if two_cards and _all_same_rank(cards):
            holding["ranked_20"] = cards
        holding["any_20"] = cards
    hearts_queens = [card for card in queens if card[:2] == QUEEN_OF_HEARTS]
    if hearts_queens:
        holding["queen_of_hearts"] = hearts_queens[:1]
    if queens:
        holding["queen"] = queens[:1]
    return _first_holding(LUCKY_LADIES, holding)


# --- dispatch for bets decided by the first cards ------------------------------------


def evaluate_first_cards(bet: str, player_two: Sequence[str], upcard: str) -> SideBetWin | None:
    """21+3, Perfect 11s or House Money right after the deal (R-4.3): none of them needs
    the hole card, which is why the hole card is not a parameter here."""
    if bet == TWENTY_ONE_PLUS_THREE:
        return twenty_one_plus_three(player_two, upcard)
    if bet == PERFECT_11S:
        return perfect_11s(player_two)
    if bet == HOUSE_MONEY:
        return house_money(player_two)
    raise ValueError(f"{bet!r} is not settled right after the deal")


def stored_side_stakes(stored: Any) -> dict[str, int]:
    """Side stakes as stored between rounds (a game's pending bets, a shared seat's), in
    menu order, staked bets only: anything odd stored (not a mapping, not a positive
    whole number of cents, an unknown bet) is ignored."""
    stakes: dict[str, int] = {}
    if not isinstance(stored, Mapping):
        return stakes
    for name in STAKED_SIDE_BETS:
        stake = stored.get(name)
        if isinstance(stake, int) and not isinstance(stake, bool) and stake > 0:
            stakes[name] = stake
    return stakes


def fit_side_stakes(
    stakes: dict[str, int], *, base_cents: int, bank_cents: int, min_cents: int
) -> dict[str, int]:
    """Side stakes cut down, in menu order, to what the bank covers after the base bet.

    Used when last round's side stakes become the next round's defaults: a stake that would
    overdraw the bank is lowered to what is left, and dropped when that is below the table
    minimum (R-1.4, §9).
    """
    left = bank_cents - base_cents
    fitted: dict[str, int] = {}
    for name in STAKED_SIDE_BETS:
        stake = min(stakes.get(name, 0), left)
        if stake >= min_cents and stake > 0:
            fitted[name] = stake
            left -= stake
    return fitted
