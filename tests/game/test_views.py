"""Every player action through the views: success, htmx partial, redirect, and every refusal."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from game.models import Game
from tests.game import scenarios
from tests.game.helpers import post

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Case:
    action: str
    setup: Callable[[Any], Game]
    data: dict[str, str] = field(default_factory=dict)
    # What the happy path must have changed.
    check: Callable[[Game], bool] = lambda game: True

    def __str__(self) -> str:
        return self.action


def _phase(game: Game) -> str:
    return game.rounds.get(number=game.rounds_played).phase


CASES = [
    Case("chip", scenarios.betting, {"chip": "25"}, lambda g: g.pending_bet_cents == 2500),
    Case("clear-bet", scenarios.betting, {}, lambda g: g.pending_bet_cents == 0),
    Case("deal", scenarios.betting, {"amount": "10.00"}, lambda g: g.bank_cents == 99000),
    Case("hit", scenarios.dealt, {}, lambda g: g.trivia_choice_for == "hit"),
    Case("stand", scenarios.dealt, {}, lambda g: _phase(g) == "round_over"),
    Case("double", scenarios.dealt, {}, lambda g: g.trivia_choice_for == "double"),
    Case("split", scenarios.pair, {}, lambda g: len(g.state["round"]["hands"]) == 2),
    Case("surrender", scenarios.dealt, {}, lambda g: g.bank_cents == 99500),
    Case("insurance", scenarios.insurance, {"choice": "decline"}, lambda g: True),
    Case(
        "early-surrender",
        scenarios.early_surrender,
        {"choice": "accept"},
        lambda g: g.bank_cents == 99500,
    ),
    Case(
        "difficulty",
        scenarios.choosing_difficulty,
        {"difficulty": "hard"},
        lambda g: g.trivia_attempts.filter(answered_at__isnull=True).count() == 1,
    ),
    Case(
        "answer",
        scenarios.question_shown,
        {"answer": "__right__"},
        lambda g: g.trivia_attempts.get().correct is True,
    ),
    Case(
        "continue",
        scenarios.reveal_waiting_for_continue,
        {},
        # After the wrong answer's reveal the hand stands: the round moves past the player.
        lambda g: (
            g.state["round"]["phase"] != "player_turn"
            and not g.trivia_attempts.filter(applied=False)
        ),
    ),
    Case("next-round", scenarios.round_over, {}, lambda g: not g.showing_outcome),
    Case("rebet", scenarios.round_over, {}, lambda g: g.state["round"]["number"] == 2),
]
BETTING_ACTIONS = {"chip", "clear-bet", "deal"}


def _data(case: Case, game: Game) -> dict[str, str]:
    data = dict(case.data)
    if data.get("answer") == "__right__":
        data["answer"] = game.trivia_attempts.get().question.correct_answer
    return data


def _snapshot(game: Game) -> tuple[Any, ...]:
    game.refresh_from_db()
    attempts = list(game.trivia_attempts.values_list("answered_at", "applied"))
    return (
        game.version,
        game.state,
        game.bank_cents,
        game.credits,
        game.pending_bet_cents,
        game.trivia_choice_for,
        attempts,
    )


@pytest.fixture(autouse=True)
def _questions(questions) -> None:
    """Every test here has trivia questions available."""


@pytest.mark.parametrize("case", CASES, ids=str)
def test_plain_post_applies_and_redirects(case: Case, alice, player) -> None:
    game = case.setup(player)
    version = game.version
    response = post(alice, game, case.action, **_data(case, game))
    assert response.status_code == 302, response.content[:500]
    # A chip's post keeps the rack's selected chip in the query (page state, no JavaScript).
    assert response["Location"].partition("?")[0] == f"/games/{game.pk}/"
    game.refresh_from_db()
    assert game.version == version + 1
    assert case.check(game)


def test_without_javascript_the_selected_chip_and_the_spot_survive_the_redirect(
    alice, player
) -> None:
    game = scenarios.betting(player)
    response = post(alice, game, "side-chip", side_chip="21+3:25")
    assert response["Location"] == f"/games/{game.pk}/?selected_chip=25&spot=21%2B3"
    page = alice.get(response["Location"]).text
    assert 'id="chip-25" class="chip chip--25" aria-pressed="true"' in page
    assert 'name="side_chip" value="21+3:25"' in page
    # The defaults need no query: the $5 chip on the main circle.
    game.refresh_from_db()
    response = post(alice, game, "chip", chip="5")
    assert response["Location"] == f"/games/{game.pk}/"


@pytest.mark.parametrize("case", CASES, ids=str)
def test_htmx_post_gets_the_table_partial_only(case: Case, alice, player) -> None:
    game = case.setup(player)
    response = post(alice, game, case.action, htmx=True, **_data(case, game))
    assert response.status_code == 200
    html = response.text
    assert html.lstrip().startswith('<div id="table"')
    assert "<html" not in html and "<body" not in html
    assert 'id="status-live"' in html and 'hx-swap-oob="true"' in html
    game.refresh_from_db()
    assert f'data-version="{game.version}"' in html


@pytest.mark.parametrize("case", CASES, ids=str)
def test_get_is_not_allowed(case: Case, alice, player) -> None:
    game = case.setup(player)
    before = _snapshot(game)
    assert alice.get(f"/games/{game.pk}/{case.action}/").status_code == 405
    assert _snapshot(game) == before


@pytest.mark.parametrize("case", CASES, ids=str)
def test_another_players_game_is_404(case: Case, player, other_player, client_for) -> None:
    game = case.setup(player)
    before = _snapshot(game)
    intruder = client_for(other_player)
    assert post(intruder, game, case.action, **_data(case, game)).status_code == 404
    assert post(intruder, game, case.action, htmx=True).status_code == 404
    assert _snapshot(game) == before


@pytest.mark.parametrize("case", CASES, ids=str)
def test_stale_version_is_409_and_changes_nothing(case: Case, alice, player) -> None:
    game = case.setup(player)
    before = _snapshot(game)
    # An older version (or, for a game never played, one that does not exist yet).
    stale = game.version - 1 if game.version else game.version + 1
    data = {"version": str(stale), **_data(case, game)}
    response = alice.post(f"/games/{game.pk}/{case.action}/", data)
    assert response.status_code == 409
    assert "<html" in response.text and 'id="table"' in response.text
    assert "changed since the page was shown" in response.text
    htmx = alice.post(f"/games/{game.pk}/{case.action}/", data, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 409 and "<html" not in htmx.text
    assert _snapshot(game) == before


@pytest.mark.parametrize("case", CASES, ids=str)
def test_out_of_phase_action_is_refused_and_changes_nothing(case: Case, alice, player) -> None:
    wrong_time = scenarios.dealt if case.action in BETTING_ACTIONS else scenarios.betting
    game = wrong_time(player)
    before = _snapshot(game)
    data = dict(case.data)
    if data.get("answer") == "__right__":
        data["answer"] = "Anything"
    response = post(alice, game, case.action, **data)
    assert 400 <= response.status_code < 500
    assert 'class="table-notice" role="alert"' in response.text
    assert _snapshot(game) == before


@pytest.mark.parametrize(
    ("action", "data"),
    [
        ("deal", {"amount": "-5"}),
        ("deal", {"amount": "abc"}),
        ("deal", {"amount": "1.234"}),
        ("deal", {"amount": "0"}),
        ("deal", {"amount": "0.50"}),
        ("deal", {"amount": "1000.01"}),
        ("deal", {"amount": "1e3"}),
        ("deal", {}),
        ("chip", {"chip": "3"}),
        ("chip", {"chip": "-5"}),
        ("chip", {"chip": "five"}),
    ],
)
def test_malformed_or_negative_amounts_are_400(action, data, alice, player) -> None:
    game = scenarios.betting(player)
    before = _snapshot(game)
    response = post(alice, game, action, **data)
    assert response.status_code == 422
    assert 'class="table-notice" role="alert"' in response.text
    assert _snapshot(game) == before


@pytest.mark.parametrize("version", ["", "abc", "-1", "1.5"])
def test_missing_or_malformed_version_is_400(version: str, alice, player) -> None:
    game = scenarios.betting(player)
    before = _snapshot(game)
    response = alice.post(f"/games/{game.pk}/deal/", {"version": version, "amount": "10"})
    assert response.status_code == 422
    assert _snapshot(game) == before


def test_chips_cannot_exceed_the_bank(alice, player) -> None:
    game = scenarios.betting(player)
    for _ in range(2):
        assert post(alice, game, "chip", chip="500").status_code == 302
    before = _snapshot(game)
    assert post(alice, game, "chip", chip="1").status_code == 422
    assert _snapshot(game) == before


def test_a_chip_adds_to_the_amount_typed(alice, player) -> None:
    game = scenarios.betting(player)
    assert post(alice, game, "chip", chip="5", amount="12.50").status_code == 302
    game.refresh_from_db()
    assert game.pending_bet_cents == 1750
    assert post(alice, game, "chip", chip="5", amount="-3").status_code == 422


def test_offer_with_a_bad_choice_is_400(alice, player) -> None:
    game = scenarios.insurance(player)
    before = _snapshot(game)
    assert post(alice, game, "insurance", choice="maybe").status_code == 422
    assert _snapshot(game) == before


def test_unknown_action_is_404(alice, player) -> None:
    game = scenarios.betting(player)
    assert post(alice, game, "cheat").status_code == 404


def test_anonymous_visitor_is_sent_to_log_in(client, player) -> None:
    game = scenarios.betting(player)
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/hit/", "/games/new/"):
        response = client.post(url) if url.endswith(("hit/", "new/")) else client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
