"""Where a card's pips stand (game.presentation.cards) and how full the discard tray is
drawn (game.presentation.table): the geometry a player sees, checked on the card's canvas."""

from __future__ import annotations

import pytest

from game.presentation.cards import CARD_HEIGHT, CARD_WIDTH, INDEX_BOX, card_face
from game.presentation.table import DISCARD_LEVELS, discard_level

Box = tuple[float, float, float, float]
# A clear gap between a pip and an index: 3 % of the card's width (about 1.5 px on the
# smallest card that draws pips).
MIN_GAP = 0.03 * CARD_WIDTH


def turned(box: Box) -> Box:
    """The box in the opposite corner (the card turned half round)."""
    left, top, right, bottom = box
    return (CARD_WIDTH - right, CARD_HEIGHT - bottom, CARD_WIDTH - left, CARD_HEIGHT - top)


def gap(one: Box, other: Box) -> float:
    """The distance between two boxes (0 when they touch or overlap)."""
    across = max(other[0] - one[2], one[0] - other[2], 0)
    down = max(other[1] - one[3], one[1] - other[3], 0)
    return max(across, down)


@pytest.mark.parametrize("rank", "234567890")
def test_pips_keep_clear_of_both_corner_indices(rank: str) -> None:
    for pip in card_face(rank + "H").pips:
        for index in (INDEX_BOX, turned(INDEX_BOX)):
            assert gap(pip.box, index) >= MIN_GAP, (rank, pip)


@pytest.mark.parametrize("rank", "234567890")
def test_pips_stand_apart_inside_the_card(rank: str) -> None:
    pips = card_face(rank + "S").pips
    assert len({(pip.x, pip.y) for pip in pips}) == len(pips) == (10 if rank == "0" else int(rank))
    for number, pip in enumerate(pips):
        left, top, right, bottom = pip.box
        assert min(left, top) > 0 and right < CARD_WIDTH and bottom < CARD_HEIGHT
        assert all(gap(pip.box, other.box) > 0 for other in pips[number + 1 :]), (rank, pip)


def test_the_lower_half_of_the_pips_is_upside_down() -> None:
    pips = card_face("0D").pips
    assert {pip.y > CARD_HEIGHT / 2 for pip in pips if pip.upside_down} == {True}
    assert {pip.y < CARD_HEIGHT / 2 for pip in pips if not pip.upside_down} == {True}


@pytest.mark.parametrize(
    ("cards_left", "decks", "level"),
    [
        (312, 6, 0),  # a fresh shoe: the tray is empty
        (308, 6, 1),  # the first cards dealt show
        (234, 6, 1),  # a quarter dealt
        (233, 6, 2),
        (78, 6, 3),  # the cut card's 75 %
        (0, 6, DISCARD_LEVELS),
        (26, 1, 2),
        (60, 1, 0),  # more than a deck (a refill): never below empty
        (None, "infinite", 0),  # an infinite shoe discards nothing
    ],
)
def test_the_discard_tray_fills_as_the_shoe_is_dealt(
    cards_left: int | None, decks: int | str, level: int
) -> None:
    assert discard_level(cards_left, decks) == level
