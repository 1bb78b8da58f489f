"""The status line and refusal sentences: services hand over data, notices.py words it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from game import services
from game.core.errors import ActionRefused
from game.presentation.notices import REFUSALS, refusal_text, status_line
from game.services import question_reports
from tests.game import scenarios

SERVICE_FILES = sorted(Path(services.__file__).parent.glob("*.py"))
SERVICE_MODULES = [*SERVICE_FILES, Path(question_reports.__file__)]


def _refusal_reasons(path: Path) -> set[str]:
    """Every literal reason passed to ActionRefused(...) in a module's source."""
    reasons = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "ActionRefused"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            reasons.add(node.args[0].value)
    return reasons


def test_every_reason_a_service_raises_has_a_sentence() -> None:
    reasons = {reason for path in SERVICE_MODULES for reason in _refusal_reasons(path)}
    assert len(reasons) > 20, "the services raise ActionRefused with literal reasons"
    assert reasons <= set(REFUSALS), reasons - set(REFUSALS)


@pytest.mark.parametrize("path", SERVICE_FILES, ids=lambda path: path.name)
def test_services_store_no_sentences(path: Path) -> None:
    source = path.read_text()
    for sentence in ("Place your bet.", "Answer the trivia question", "Credits {", "Round over"):
        assert sentence not in source


def test_amounts_in_a_refusal_are_written_as_money() -> None:
    error = ActionRefused("bank_short", bank_cents=123_456)
    assert refusal_text(error) == "Your bank of $1,234.56 does not cover that."


@pytest.mark.django_db
def test_each_action_leaves_a_note_the_status_line_words(player) -> None:
    game = scenarios.betting(player)
    assert game.status_note == {"kind": "phase", "shuffled": False}
    assert status_line(game) == "Place your bet."

    game = services.add_chip(
        game_id=game.pk, user=player, version=game.version, chip_cents=500
    ).game
    assert game.status_note == {"kind": "bet", "bet_cents": 500, "fresh": False}
    assert status_line(game) == "Your bet $5.00 — Deal, or add chips."

    game = services.place_bet_and_deal(
        game_id=game.pk, user=player, version=game.version, bet_cents=1000
    ).game
    assert status_line(game) == "Player's turn."

    game = services.hit(game_id=game.pk, user=player, version=game.version).game
    assert game.status_note == {"kind": "choose_difficulty", "action": "hit"}
    assert status_line(game) == "Hit: choose a trivia difficulty."


@pytest.mark.django_db
def test_a_refused_action_keeps_the_previous_note(player) -> None:
    game = scenarios.betting(player)
    with pytest.raises(ActionRefused) as refused:
        services.stand(game_id=game.pk, user=player, version=game.version)
    game.refresh_from_db()
    assert game.status_note == {"kind": "phase", "shuffled": False}
    assert refusal_text(refused.value)
