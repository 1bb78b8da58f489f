"""The table's surprising rules printed on the felt (UI.md "Steady controls, on every
screen"): which appear for which options, their words, and the rule each links to."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from game import services
from game.presentation.felt_rules import FeltRule, house_rules, usual_rules_expected
from game.rules.options import Options
from game.rules_pages.content import TOPICS, rules_url
from tests.game.html_tree import parse

DEFAULT_LINES = [
    "No splitting aces",
    "No double after split",
    "Dealer's 5-card Charlie wins",
    "JACKPOT ace + king: Perfect 11s up to 720 to 1",
]


def lines(**options: Any) -> list[str]:
    return [rule.text for rule in house_rules(Options.from_dict(options))]


def test_the_default_table_prints_its_four_surprises() -> None:
    assert lines() == DEFAULT_LINES


@pytest.mark.parametrize(
    ("options", "left_out"),
    [
        ({"max_ace_splits": 1}, "No splitting aces"),
        ({"max_ace_splits": 3}, "No splitting aces"),
        ({"double_after_split": True}, "No double after split"),
        ({"charlie": "off"}, "Dealer's 5-card Charlie wins"),
        ({"side_bets": False}, "JACKPOT ace + king: Perfect 11s up to 720 to 1"),
    ],
)
def test_a_rule_the_table_does_not_have_is_not_printed(
    options: dict[str, Any], left_out: str
) -> None:
    assert lines(**options) == [line for line in DEFAULT_LINES if line != left_out]


def test_a_table_with_none_of_the_surprises_prints_none() -> None:
    assert lines(max_ace_splits=1, double_after_split=True, charlie="off", side_bets=False) == []


def test_a_seven_card_charlie_says_seven() -> None:
    assert "Dealer's 7-card Charlie wins" in lines(charlie=7)


def test_double_after_splitting_aces_implies_both_and_prints_neither() -> None:
    # double_after_split_aces needs double_after_split and an ace split (§10 "needs").
    assert lines(double_after_split_aces=True) == DEFAULT_LINES[2:]


def test_the_simple_game_says_hit_and_stand_only_instead_of_splits_and_side_bets() -> None:
    assert lines(simple=True) == ["Hit and Stand only", "Dealer's 5-card Charlie wins"]


def test_a_dealer_who_does_not_peek_is_printed() -> None:
    assert "No hole card: dealer blackjack takes doubles and splits" in lines(dealer_peek=False)


EVERY_RULE = house_rules(Options.from_dict({"simple": True, "dealer_peek": False})) + house_rules(
    Options()
)


@pytest.mark.django_db
@pytest.mark.parametrize("rule", EVERY_RULE, ids=lambda rule: rule.topic)
def test_each_rule_links_to_an_anchor_of_the_rules_pages(client: Client, rule: FeltRule) -> None:
    assert rule.topic in TOPICS
    path, _, anchor = rules_url(rule.topic).partition("#")
    assert anchor, "a rule links to its place on the page, not to the page's top"
    page = client.get(path)
    assert page.status_code == 200
    assert parse(page.content.decode()).select_one(f"#{anchor}") is not None


def test_every_kind_of_rule_is_covered_by_the_link_test() -> None:
    assert {rule.topic for rule in EVERY_RULE} == {
        "split_aces",
        "double_after_split",
        "dealer_charlie",
        "jackpot_ace",
        "simple_game",
        "no_peek",
    }


@pytest.mark.django_db
def test_the_felt_prints_them_after_the_usual_rules_each_a_link(alice: Client, player) -> None:
    game = services.new_game(user=player, options={"charlie": 7})
    felt_rules = parse(alice.get(f"/games/{game.pk}/").content.decode()).one("p.felt-rules")
    assert felt_rules.text().startswith(
        "Blackjack pays 3 to 2 · Dealer stands on all 17s · Insurance pays 2 to 1"
    )
    links = felt_rules.select("a")
    assert [link.text() for link in links] == [
        "No splitting aces",
        "No double after split",
        "Dealer's 7-card Charlie wins",
        "JACKPOT ace + king: Perfect 11s up to 720 to 1",
    ]
    # Each link opens its rule, and the rules page links back to this game.
    assert [link["href"] for link in links] == [
        rules_url(topic, game.pk)
        for topic in ("split_aces", "double_after_split", "dealer_charlie", "jackpot_ace")
    ]


@pytest.mark.django_db
def test_a_table_without_surprises_prints_the_usual_line_alone(alice: Client, player) -> None:
    options = {"max_ace_splits": 1, "double_after_split": True, "charlie": "off"}
    game = services.new_game(user=player, options={**options, "side_bets": False})
    felt_rules = parse(alice.get(f"/games/{game.pk}/").content.decode()).one("p.felt-rules")
    assert felt_rules.select("a") == []


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, True),
        ({"blackjack_payout": "6:5"}, False),
        ({"blackjack_payout": "2:1"}, False),
        ({"dealer_stands_on": "H17"}, False),
        ({"insurance": False}, True),
    ],
)
def test_the_usual_line_is_expected_only_at_3_to_2_with_the_dealer_on_soft_17(
    options: dict[str, Any], expected: bool
) -> None:
    assert usual_rules_expected(Options.from_dict(options)) is expected


@pytest.mark.django_db
@pytest.mark.parametrize(("payout", "marked"), [("3:2", True), ("6:5", False)])
def test_a_phone_may_print_the_surprises_in_place_of_an_expected_usual_line(
    alice: Client, player, payout: str, marked: bool
) -> None:
    # The mark lets a phone's stylesheet hide the usual line (still read by screen readers)
    # when it says only what players expect; a 6 to 5 table keeps it on every screen.
    game = services.new_game(user=player, options={"blackjack_payout": payout})
    felt_rules = parse(alice.get(f"/games/{game.pk}/").content.decode()).one("p.felt-rules")
    assert ("felt-rules--expected" in felt_rules.classes) is marked
    assert felt_rules.one(".felt-rules__usual").text().startswith(f"Blackjack pays {payout[0]} to")
