"""An action that only reads the engine (Next Round, the bet panel's) does not write its state
again: the game's UPDATE leaves out the state and what the row keeps of it, and the
game plays on from the state the lock read."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game import services
from game.models import Game
from tests.game import scenarios

pytestmark = pytest.mark.django_db

ENGINE_COLUMNS = ("state", "bank_cents", "credits", "options", "rounds_played")


def game_update_columns(action: Callable[[], Any]) -> set[str]:
    """The columns the action's UPDATE of the game row sets."""
    with CaptureQueriesContext(connection) as captured:
        action()
    # On PostgreSQL the game's UPDATE may close a statement of WITH queries (game/core/sql.py).
    game_update = 'UPDATE "game_game" SET '
    updates = [query["sql"] for query in captured if game_update in query["sql"]]
    assert len(updates) == 1, updates
    set_clause = updates[0].split(game_update, 1)[1].split(" WHERE ", 1)[0]
    return set(re.findall(r'"(\w+)" = ', set_clause))


def refreshed(game: Game) -> Game:
    game.refresh_from_db()
    return game


def test_next_round_writes_no_engine_state(player) -> None:
    game = scenarios.round_over(player)
    before = (game.state, game.bank_cents, game.credits, game.options, game.rounds_played)
    columns = game_update_columns(
        lambda: services.next_round(game_id=game.pk, user=player, version=game.version)
    )
    assert columns.isdisjoint(ENGINE_COLUMNS)
    assert {"version", "showing_outcome", "pending_bet_cents"} <= columns
    game = refreshed(game)
    assert (game.state, game.bank_cents, game.credits, game.options, game.rounds_played) == before
    assert not game.showing_outcome


def test_a_chip_writes_no_engine_state(player) -> None:
    game = scenarios.betting(player)
    state = game.state
    columns = game_update_columns(
        lambda: services.add_chip(
            game_id=game.pk, user=player, version=game.version, chip_cents=500
        )
    )
    assert columns.isdisjoint(ENGINE_COLUMNS)
    game = refreshed(game)
    assert game.state == state and game.pending_bet_cents == 500


BET_PANEL_ACTIONS: dict[str, Callable[..., Any]] = {
    "clear bet": services.clear_bet,
    "side chip": lambda **kw: services.add_side_chip(bet="perfect_pair", chip_cents=500, **kw),
    "side-bet menu": lambda **kw: services.toggle_side_bet_menu(menu_open=True, **kw),
    "select box": lambda **kw: services.select_box(box=2, **kw),
    "same bet on every box": services.same_bet_on_every_box,
}


@pytest.mark.parametrize("name", BET_PANEL_ACTIONS)
def test_every_bet_panel_action_writes_no_engine_state(player, make_game, name) -> None:
    game = make_game(seats=2)
    services.add_chip(game_id=game.pk, user=player, version=game.version, chip_cents=500)
    game = refreshed(game)
    state = game.state
    action = BET_PANEL_ACTIONS[name]
    columns = game_update_columns(
        lambda: action(game_id=game.pk, user=player, version=game.version)
    )
    assert columns.isdisjoint(ENGINE_COLUMNS)
    assert refreshed(game).state == state


def test_the_deal_writes_the_state(player) -> None:
    game = scenarios.betting(player)
    columns = game_update_columns(
        lambda: services.place_bet_and_deal(
            game_id=game.pk, user=player, version=game.version, bet_cents=1000
        )
    )
    assert set(ENGINE_COLUMNS) <= columns


def test_the_game_plays_on_after_next_round_and_chips(player) -> None:
    game = scenarios.round_over(player)
    bank = game.bank_cents
    services.next_round(game_id=game.pk, user=player, version=game.version)
    game = refreshed(game)
    services.add_chip(game_id=game.pk, user=player, version=game.version, chip_cents=500)
    game = refreshed(game)
    bet = game.pending_bet_cents
    dealt = services.place_bet_and_deal(
        game_id=game.pk, user=player, version=game.version, bet_cents=bet
    )
    game = refreshed(game)
    assert game.rounds_played == 2 and dealt.engine.round_number == 2
    assert game.bank_cents == bank - bet
    assert game.state["round_number"] == 2
