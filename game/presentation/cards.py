"""A card as the templates draw it: its index, suit, colour, name, and where its pips stand.

The markup is templates/game/_cards.html, the suit shapes and court figures the sprite of
templates/game/_card_art.html; this module only says what a card shows and where.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from game.presentation.lookup import TemplateLookup
from game.rules.cards import RANK_NAMES, SUIT_SYMBOLS, card_name, is_jackpot_ace, is_red

# The face shows "10", not the code's "0".
RANK_FACES = {**{rank: rank for rank in RANK_NAMES}, "0": "10"}

# A card face is drawn on a 250 × 350 canvas: a casino card's 2.5 : 3.5 inches, so the
# drawing scales with the card and keeps its proportions at every size.
CARD_WIDTH, CARD_HEIGHT = 250, 350
# Each corner index (rank over suit) stays inside this box, top left; the other corner is
# the same turned half round. Pips keep clear of both.
INDEX_BOX = (8, 10, 52, 96)  # left, top, right, bottom
PIP_SIZE = 38  # the suit shapes of the sprite are drawn in a box this wide, centred on 0, 0
# The three pip columns and the thirteen rows of the classic layouts, as centres.
PIP_COLUMNS = {1: 84, 2: 125, 3: 166}
PIP_TOP, PIP_BOTTOM = 68, 282
# Where a number card's pips stand, as (column 1-3, row 1-13): the classic layouts, so a
# 7 reads as a 7 at a glance. Pips below the middle row are drawn upside down, as on a
# real card.
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
_MIDDLE_ROW = 7


@dataclass(frozen=True)
class Pip(TemplateLookup):
    """One suit symbol of a number card: its centre on the card's canvas."""

    x: int
    y: int
    upside_down: bool

    @property
    def box(self) -> tuple[float, float, float, float]:
        """Left, top, right, bottom of the pip on the canvas."""
        half = PIP_SIZE / 2
        return (self.x - half, self.y - half, self.x + half, self.y + half)


def pip_at(column: int, row: int) -> Pip:
    step = (PIP_BOTTOM - PIP_TOP) / 12
    return Pip(PIP_COLUMNS[column], round(PIP_TOP + (row - 1) * step), row > _MIDDLE_ROW)


@dataclass(frozen=True)
class CardFace(TemplateLookup):
    code: str
    name: str  # the accessible name, e.g. "Queen of Hearts"
    colour: str  # "red" or "black"
    face: str  # the index: "10", "Q", "A"
    rank: str  # the code's rank letter: "0", "Q", "A" (names the court figure drawn)
    suit: str  # the code's suit letter: "H" (names the suit shape drawn)
    suit_symbol: str  # the suit as text, e.g. "♥"
    court: bool  # J, Q, K: the rank's figure in a frame
    pips: tuple[Pip, ...]  # a number card's pips; none for a court card or an ace
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
        rank=rank,
        suit=code[1],
        suit_symbol=SUIT_SYMBOLS[code[1]],
        court=rank in "JQK",
        pips=tuple(pip_at(column, row) for column, row in PIP_LAYOUTS.get(rank, ())),
        jackpot=is_jackpot_ace(code),
    )


def card_short(code: str) -> str:
    """Compact text for a strip of won cards: ``10♥`` (``A♠*`` for the Jackpot Ace)."""
    return f"{RANK_FACES[code[0]]}{SUIT_SYMBOLS[code[1]]}{'*' if is_jackpot_ace(code) else ''}"
