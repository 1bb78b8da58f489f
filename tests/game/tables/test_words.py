"""The shared table's words come from one place each: the refusals the single-player game
also makes are worded by it, and the views share the single-player view models."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import game.tables
from game.core.errors import ActionRefused
from game.presentation import notices
from game.presentation.side_bet_menu import SideBetMenu
from game.services import guards
from game.tables import presentation, services
from game.tables.models import Seat, TableEvent
from tests.game.tables.helpers import seat_version

pytestmark = pytest.mark.django_db

# The app's folder, its packages (presentation/, services) included.
TABLES = Path(game.tables.__file__).parent


def refusal_reasons_raised() -> set[str]:
    """Every ``ActionRefused("<reason>", ...)`` the shared-table code raises, the shared
    guards it calls (a chip, a side bet, a difficulty, an answer) included."""
    reasons = set()
    for path in [*TABLES.rglob("*.py"), Path(guards.__file__)]:
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", getattr(node.func, "id", None)) == "ActionRefused"
                and node.args
            ):
                # "a" or ("a" if … else "b")
                reasons |= {
                    part.value
                    for part in ast.walk(node.args[0])
                    if isinstance(part, ast.Constant) and isinstance(part.value, str)
                }
    return reasons


def test_every_refusal_is_worded_once():
    raised = refusal_reasons_raised()
    assert {"not_seated", "rule", "no_such_chip", "side_bets_off"} <= raised
    assert raised <= set(presentation.REFUSALS)
    # A reason the single-player game words is never worded again for the tables.
    assert not set(presentation.TABLE_REFUSALS) & set(notices.REFUSALS)


@pytest.mark.parametrize(
    ("reason", "details"),
    [
        ("no_such_chip", {}),
        ("side_bets_off", {}),
        ("side_bets_simple", {}),
        ("no_choice_waiting", {}),
        ("no_questions", {"difficulty": "hard"}),
        ("rule", {"text": "The minimum bet is $1.00"}),
    ],
)
def test_a_refusal_the_game_also_makes_reads_as_the_game_words_it(reason, details):
    error = ActionRefused(reason, **details)
    assert presentation.refusal_text(error) == notices.refusal_text(error)


def test_the_table_only_refusals_and_the_fallbacks():
    assert presentation.refusal_text(ActionRefused("not_seated")) == "Take a seat first."
    assert presentation.refusal_text(ActionRefused("rule")) == "That is not allowed now."
    assert presentation.refusal_text(ActionRefused("whatever")) == ("That is not allowed now.")


def test_a_side_bets_off_refusal_over_the_service_reads_as_the_games(seated_pair, ana):
    table = seated_pair(side_bets=False)
    with pytest.raises(ActionRefused) as refused:
        services.add_side_chip(
            table_id=table.pk,
            user=ana,
            version=seat_version(table, ana),
            bet="21+3",
            chip_cents=500,
        )
    assert presentation.refusal_text(refused.value) == "Side bets are switched off at this table."


def test_the_offer_questions_are_the_games_phase_lines_but_for_what_won():
    for phase, offer in presentation.PHASE_OFFERS.items():
        if offer not in ("parlay", "roll"):
            assert presentation.OFFER_QUESTIONS[offer] == notices.PHASE_LINES[phase]
    assert presentation.OFFER_QUESTIONS["parlay"].startswith("House Money won")
    assert presentation.OFFER_QUESTIONS["roll"].startswith("Perfect 11s won")


def test_a_seats_side_bets_are_the_single_player_menu(seated_pair, ana):
    table = seated_pair(side_bets=True)
    services.add_side_chip(
        table_id=table.pk, user=ana, version=seat_version(table, ana), bet="21+3", chip_cents=500
    )
    Seat.objects.filter(player=ana).update(bank_cents=2_000)
    table.refresh_from_db()
    scene = presentation.table_scene(table)
    menu = presentation.view_for(scene, ana).side_bet_menu
    assert isinstance(menu, SideBetMenu)
    assert menu.available and menu.open and menu.total == 500
    assert menu.chips == (1, 5, 10)  # those the bank covers
    assert [line.stake for line in menu.lines if line.name == "21+3"] == [500]


@pytest.mark.parametrize(
    ("result", "how", "winnings", "line"),
    [
        ("win", "", 2000, "ana (seat 1): WIN, paid $20.00."),
        ("push", "", 1000, "ana (seat 1): PUSH, paid $10.00."),
        ("lose", "", 0, "ana (seat 1): LOSE."),  # not "paid $0.00"
    ],
)
def test_a_settled_hand_says_what_it_paid_and_nothing_when_it_lost(result, how, winnings, line):
    event = TableEvent(
        kind="hand_settled",
        data={"seat": 1, "player": "ana", "result": result, "how": how, "winnings": winnings},
    )
    assert presentation.event_text(event) == line
