"""Cards drawn in HTML: the accessible name, the two corner indices and the classic pips."""

from __future__ import annotations

import pytest

from game.templatetags.table_tags import playing_card
from tests.game.html_tree import Node, parse

NUMBER_CARDS = [("2H", 2), ("3C", 3), ("4D", 4), ("5S", 5), ("6H", 6), ("7C", 7), ("8D", 8)]
NUMBER_CARDS += [("9S", 9), ("0H", 10)]


def _card(code: str, size: str = "") -> Node:
    return parse(playing_card(code, size)).one(".playing-card")


@pytest.mark.parametrize(("code", "pips"), NUMBER_CARDS)
def test_a_number_card_shows_as_many_pips_as_its_rank(code: str, pips: int) -> None:
    assert len(_card(code).select(".pip")) == pips


@pytest.mark.parametrize("code", ["AS", "JC", "QD", "KH"])
def test_aces_and_court_cards_have_no_pip_grid(code: str) -> None:
    assert _card(code).select(".pip") == []


def test_pips_stand_in_distinct_places_and_the_lower_half_is_upside_down() -> None:
    places = [tuple(sorted(pip.classes)) for pip in _card("0S").select(".pip")]
    assert len(set(places)) == 10
    # Rows 9-13 are the lower half, turned like a real card's (table.css rotates them).
    lower = [p for p in places if {"pr9", "pr10", "pr11", "pr13"} & set(p)]
    assert len(lower) == 5


def test_both_corners_carry_the_index_and_the_name_is_spoken() -> None:
    card = _card("7C")
    assert card["role"] == "img" and card["aria-label"] == "Seven of Clubs"
    assert [corner.text() for corner in card.select(".pc-corner")] == ["7 ♣", "7 ♣"]


def test_the_small_split_strip_card_keeps_one_centre_suit() -> None:
    card = _card("9S", "small")
    assert card.select(".pip") == []
    assert card.one(".pc-centre").text() == "♠"
