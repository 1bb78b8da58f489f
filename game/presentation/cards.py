"""A card as the templates draw it: its face, suit symbol, colour, name and pip places.

The markup is templates/game/_cards.html; this module only says what a card shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from game.presentation.lookup import TemplateLookup
from game.rules.cards import RANK_NAMES, SUIT_SYMBOLS, card_name, is_jackpot_ace, is_red

# The face shows "10", not the code's "0".
RANK_FACES = {**{rank: rank for rank in RANK_NAMES}, "0": "10"}

# Where a number card's pips stand, as (column 1-3, row 1-13) on the card's pip grid: the
# classic layouts, so a 7 reads as a 7 at a glance. Rows below the middle are drawn upside
# down, as on a real card. CSS classes, not inline styles (the CSP forbids them).
_SIDES = ((1, 1), (3, 1), (1, 13), (3, 13))
PIP_LAYOUTS: dict[str, tuple[tuple[int, int], ...]] = {
    "2": ((2, 1), (2, 13)),
    "3": ((2, 1), (2, 7), (2, 13)),
    "4": _SIDES,
    "5": (*_SIDES, (2, 7)),
    "6": (*_SIDES, (1, 7), (3, 7)),
    "7": (*_SIDES, (1, 7), (3, 7), (2, 4)),
    "8": (*_SIDES, (1, 7), (3, 7), (2, 4), (2, 10)),
    "9": (*_SIDES, (1, 5), (3, 5), (1, 9), (3, 9), (2, 7)),
    "0": (*_SIDES, (1, 5), (3, 5), (1, 9), (3, 9), (2, 3), (2, 11)),
}


@dataclass(frozen=True)
class CardFace(TemplateLookup):
    code: str
    name: str  # the accessible name, e.g. "Queen of Hearts"
    colour: str  # "red" or "black"
    face: str  # the index: "10", "Q", "A"
    suit: str  # the suit's symbol
    court: bool  # J, Q, K: a framed letter in the middle
    # A number card's pips, each as its place's CSS classes ("pc1 pr13"); none for a court
    # card or an ace (one large suit in the middle).
    pips: tuple[str, ...]
    jackpot: bool  # the Jackpot Ace (R-SB-11)


@lru_cache(maxsize=64)
def card_face(code: str) -> CardFace:
    """What ``code`` shows (a few dozen codes exist: each made once)."""
    rank = code[0]
    return CardFace(
        code=code,
        name=card_name(code),
        colour="red" if is_red(code) else "black",
        face=RANK_FACES[rank],
        suit=SUIT_SYMBOLS[code[1]],
        court=rank in "JQK",
        pips=tuple(f"pc{column} pr{row}" for column, row in PIP_LAYOUTS.get(rank, ())),
        jackpot=is_jackpot_ace(code),
    )


def card_short(code: str) -> str:
    """Compact text for a strip of won cards: ``10♥`` (``A♠*`` for the Jackpot Ace)."""
    return f"{RANK_FACES[code[0]]}{SUIT_SYMBOLS[code[1]]}{'*' if is_jackpot_ace(code) else ''}"
