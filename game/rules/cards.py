"""Cards as the two-character codes of RULES.md: rank then suit, e.g. ``"0D"``, ``"QH"``.

A card is kept as its plain code string everywhere (state, JSON, replay files): it
is hashable, compact and needs no conversion on the way to or from storage. The
Jackpot Ace carries a trailing ``*`` (``"AS*"``, R-SB-11).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Final

RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "0", "J", "Q", "K", "A")
SUITS: Final = ("S", "C", "D", "H")
RED_SUITS: Final = frozenset({"D", "H"})
TEN_CARD_RANKS: Final = frozenset({"0", "J", "Q", "K"})
JACKPOT_MARK: Final = "*"

# Blackjack value of each rank; an ace is stored as 1 and promoted to 11 by hand totals.
RANK_VALUE: Final = {
    "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
    "0": 10, "J": 10, "Q": 10, "K": 10, "A": 1,
}  # fmt: skip
# Position of a rank for straights, ace low; ace high is handled as 14 where needed.
RANK_ORDER = {rank: index for index, rank in enumerate(("A", *RANKS[:-1]), start=1)}

RANK_NAMES = {
    "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
    "8": "Eight", "9": "Nine", "0": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace",
}  # fmt: skip
SUIT_NAMES = {"S": "Spades", "C": "Clubs", "D": "Diamonds", "H": "Hearts"}
SUIT_SYMBOLS = {"S": "\u2660", "C": "\u2663", "D": "\u2666", "H": "\u2665"}

ALL_CODES = frozenset(rank + suit for rank in RANKS for suit in SUITS)


class InvalidCard(ValueError):
    """A string that is not a card code of RULES.md."""


def parse_card(code: str) -> str:
    """Return ``code`` if it is a valid card code (``AS*`` allowed), else raise InvalidCard."""
    if not isinstance(code, str):
        raise InvalidCard(f"not a card code: {code!r}")
    if code.endswith(JACKPOT_MARK):
        if code != "AS" + JACKPOT_MARK:
            raise InvalidCard(f"only the ace of spades can be the Jackpot Ace: {code!r}")
        return code
    if code not in ALL_CODES:
        raise InvalidCard(f"not a card code: {code!r}")
    return code


def rank(code: str) -> str:
    return code[0]


def suit(code: str) -> str:
    return code[1]


def value(code: str) -> int:
    """Blackjack value with an ace counted as 1."""
    return RANK_VALUE[code[0]]


def is_ace(code: str) -> bool:
    return code[0] == "A"


def is_ten_card(code: str) -> bool:
    return code[0] in TEN_CARD_RANKS


def is_red(code: str) -> bool:
    return code[1] in RED_SUITS


def is_jackpot_ace(code: str) -> bool:
    return code.endswith(JACKPOT_MARK)


def same_card(a: str, b: str) -> bool:
    """Same rank and suit (a 'perfect match'); the Jackpot mark does not matter."""
    return a[:2] == b[:2]


def card_name(code: str) -> str:
    """The accessible name of a card, e.g. ``"Queen of Hearts"``."""
    name = f"{RANK_NAMES[code[0]]} of {SUIT_NAMES[code[1]]}"
    return f"{name} (Jackpot Ace)" if is_jackpot_ace(code) else name


# One deck's codes, made once and interned: every shoe holds these same string objects,
# so comparing or looking up a card finds it by identity (and its hash is cached).
_STANDARD_DECK: Final = tuple(sys.intern(r + s) for s in SUITS for r in RANKS)


def standard_deck() -> list[str]:
    return list(_STANDARD_DECK)


def codes(cards: Iterable[str]) -> list[str]:
    return [parse_card(card) for card in cards]
