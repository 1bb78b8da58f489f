"""The house edge of the rules being chosen, in the Options menu."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.test import Client

from game import services
from game.models import Game
from game.rules import house_edge
from game.rules.house_edge import estimated_house_edge
from game.rules.options import Options
from tests.game import scenarios

pytestmark = pytest.mark.django_db

FIGURE = re.compile(r"House edge of these rules: about (-?\d+\.\d\d) %")
CHANGE = re.compile(r'data-testid="house-edge-change">(.*?)</p>', re.S)
MEANING = re.compile(r'data-testid="house-edge-meaning">(.*?)</p>', re.S)
EXCLUDED = "Side bets and trivia are not part of this figure"


def form_data(**changes: str) -> dict[str, str]:
    """The Options form as the browser sends it (defaults of RULES.md §10)."""
    data = {
        "blackjack_payout": "3:2", "deck_count": "6", "min_bet": "1.00",
        "max_bet": "10000.00", "starting_bank": "1000.00", "dealer_stands_on": "S17",
        "charlie": "5", "double_on": "any", "surrender": "late", "trivia_mode": "on",
        "side_bets": "on", "insurance": "on", "even_money": "on", "dealer_peek": "on",
        "reshuffle": "cut_card", "max_splits": "1", "max_ace_splits": "0",
    }  # fmt: skip
    data.update(changes)
    return {name: value for name, value in data.items() if value != ""}


def figure(text: str) -> float:
    found = FIGURE.search(text)
    assert found, "no house-edge figure"
    return float(found.group(1))


def change(text: str) -> str:
    found = CHANGE.search(text)
    assert found, "no comparison with the current rules"
    return html.unescape(found.group(1)).strip()


def fragment(client: Client, game: Game, **changes: str) -> Any:
    return client.get(f"/games/{game.pk}/options/house-edge/", form_data(**changes))


def expected_figure(**options: Any) -> float:
    estimate = estimated_house_edge(Options.from_dict(options))
    assert estimate is not None
    return round(estimate.house_edge_pct, 2)


def test_menu_shows_the_house_edge_of_the_default_rules(alice, player) -> None:
    game = scenarios.betting(player)
    menu = alice.get(f"/games/{game.pk}/options/").text
    assert figure(menu) == expected_figure()
    assert 0.0 < figure(menu) < 1.5  # 6 decks S17 3:2: about half a percent
    assert change(menu) == "No change vs your current rules."
    assert EXCLUDED in menu
    assert f'hx-get="/games/{game.pk}/options/house-edge/"' in menu
    assert 'name="estimate"' in menu and "Update estimate" in menu


@pytest.mark.parametrize(
    "changes", [{"dealer_stands_on": "H17"}, {"blackjack_payout": "6:5"}], ids=["H17", "6:5"]
)
def test_fragment_for_worse_rules_shows_a_higher_edge(
    alice, player, changes: dict[str, str]
) -> None:
    game = scenarios.betting(player)
    default = figure(fragment(alice, game).text)
    response = fragment(alice, game, **changes)
    assert response.status_code == 200
    assert "<html" not in response.text  # a fragment, not a page
    worse = figure(response.text)
    assert worse > default
    assert worse == expected_figure(**changes)
    assert change(response.text) == f"+{worse - default:.2f} % vs your current rules"
    assert EXCLUDED in response.text


def test_six_to_five_costs_more_than_a_percent(alice, player) -> None:
    # Published: 6:5 instead of 3:2 adds about 1.4 % — far beyond the table's noise.
    game = scenarios.betting(player)
    cost = figure(fragment(alice, game, blackjack_payout="6:5").text) - figure(
        fragment(alice, game).text
    )
    assert 1.0 < cost < 1.8


def test_comparison_is_against_the_games_current_rules(alice, player) -> None:
    game = services.new_game(user=player, options={"blackjack_payout": "6:5"})
    response = fragment(alice, game)  # back to 3:2
    assert change(response.text).startswith("-")
    reset = alice.post(f"/games/{game.pk}/options/", {"version": str(game.version), "reset": "1"})
    assert figure(reset.text) == expected_figure()
    assert change(reset.text).startswith("-")


def test_rules_outside_the_table_say_no_estimate(alice, player) -> None:
    game = scenarios.betting(player)
    response = fragment(alice, game, blackjack_payout="2:1", surrender="early")
    assert response.status_code == 200
    text = html.unescape(response.text)
    assert "House edge of these rules: not available" in text
    assert "Blackjack pays: 2:1" in text and "Surrender: Early" in text
    nearest = html.unescape(fragment(alice, game, deck_count="4", max_ace_splits="1").text)
    assert "nearest table entry: Decks in the shoe 4 → 6" in nearest
    assert "not taken into account: Splits of aces" in nearest


def test_new_options_have_an_estimate_or_say_why_not(alice, player) -> None:
    """RULES.md §10 Extensions: none of the new options breaks the estimate."""
    game = scenarios.betting(player)
    infinite = html.unescape(fragment(alice, game, deck_count="infinite").text)
    assert "nearest table entry: Decks in the shoe infinite → 8" in infinite
    assert figure(infinite) == expected_figure(deck_count=8)
    # Inverted: the inverted game's own simulated figure, far from the normal one negated.
    inverted = html.unescape(fragment(alice, game, inverted="on").text)
    assert figure(inverted) == expected_figure(inverted=True) < -50
    assert "in the player's favour" in inverted
    # The simple game has a table of its own (Hit and Stand only: a far larger edge), and
    # the options it leaves inactive are not "not taken into account".
    simple = html.unescape(fragment(alice, game, simple="on", surrender="off").text)
    assert figure(simple) == expected_figure(simple=True) > expected_figure() + 1
    assert "not taken into account" not in simple
    for changes in ({"reshuffle": "every_round"}, {"max_splits": "3", "max_ace_splits": "3"}):
        text = html.unescape(fragment(alice, game, **changes).text)
        assert figure(text) == expected_figure() and "not taken into account" in text


def table_entry(path: Any, options: dict[str, Any]) -> dict[str, Any]:
    """The entry of a shipped table (read from its JSON) for these key options."""
    entries = json.loads(path.read_text(encoding="utf-8"))["entries"]
    return next(entry for entry in entries if entry["options"] == options)


def test_inverted_game_shows_its_own_simulated_edge_not_the_normal_one_negated(
    alice, player
) -> None:
    """RULES.md §10 inverted: the figure is the simulator's, played to lose, and the menu
    says plainly that it is a large advantage to the player."""
    game = scenarios.betting(player)
    key = {
        "deck_count": 2, "dealer_stands_on": "H17", "blackjack_payout": "6:5",
        "double_after_split": True, "surrender": "off", "charlie": "off",
    }  # fmt: skip
    chosen = form_data(
        deck_count="2", dealer_stands_on="H17", blackjack_payout="6:5",
        double_after_split="on", surrender="off", charlie="off", inverted="on",
    )  # fmt: skip
    response = alice.get(f"/games/{game.pk}/options/house-edge/", chosen)
    assert response.status_code == 200
    text = html.unescape(response.text)
    entry = table_entry(house_edge.INVERTED_TABLE_PATH, key)
    normal = table_entry(house_edge.TABLE_PATH, key)
    assert figure(text) == round(entry["house_edge_pct"], 2) < -50
    assert abs(figure(text) + normal["house_edge_pct"]) > 40  # not the normal figure negated
    assert f"±{entry['stderr_pct']:.2f} % (1 s.e.)" in text
    found = MEANING.search(text)
    assert found, "no words on what the inverted figure means"
    meaning = found.group(1)
    assert "play to lose" in meaning and "a large advantage to you" in meaning
    assert f"you win about {-entry['house_edge_pct']:.2f} % of each bet" in meaning
    assert "played by the inverted game's best strategy (play to lose)" in text
    # The simple game inverted has its own table too (Hit and Stand only, no doubling).
    simple_key = {name: key[name] for name in house_edge.SIMPLE_KEY_OPTIONS}
    simple = html.unescape(
        alice.get(f"/games/{game.pk}/options/house-edge/", {**chosen, "simple": "on"}).text
    )
    simple_entry = table_entry(house_edge.SIMPLE_INVERTED_TABLE_PATH, simple_key)
    assert figure(simple) == round(simple_entry["house_edge_pct"], 2) < -50
    assert figure(simple) != figure(text)
    # The normal game's menu says none of it.
    plain = html.unescape(fragment(alice, game).text)
    assert MEANING.search(plain) is None and "played by basic strategy" in plain


def test_menu_marks_the_options_simple_and_infinite_decks_leave_inactive(alice, player) -> None:
    game = services.new_game(user=player, options={"simple": True, "deck_count": "infinite"})
    menu = html.unescape(alice.get(f"/games/{game.pk}/options/").text)
    note = "data-inactive-note>Inactive: "
    assert menu.count(note + "the simple game plays Hit and Stand only.") == 11
    assert menu.count(note + "an infinite shoe is never reshuffled.") == 1
    assert '<option value="infinite" selected>' in menu


def test_menu_of_a_game_stored_with_the_old_split_keys(alice, player) -> None:
    game = scenarios.betting(player)
    options = {k: v for k, v in game.options.items() if k not in ("max_splits", "max_ace_splits")}
    game.options = {**options, "resplit": True, "split_aces": True, "resplit_aces": False}
    game.save(update_fields=["options"])
    menu = alice.get(f"/games/{game.pk}/options/").text
    assert '<option value="3" selected>3 (four hands)</option>' in menu  # max_splits
    assert '<option value="1" selected>1 (two hands)</option>' in menu  # max_ace_splits


@pytest.mark.parametrize(
    "changes",
    [
        {"deck_count": "9"},
        {"deck_count": "six"},
        {"charlie": "6"},
        {"blackjack_payout": "<script>"},
        {"min_bet": "-1"},
        {"max_bet": "0.50"},  # a valid form, but below the minimum bet: the rules refuse it
        {"dealer_stands_on": ""},
    ],
)
def test_bad_input_is_400_and_changes_nothing(alice, player, changes: dict[str, str]) -> None:
    game = scenarios.betting(player)
    before = (game.version, dict(game.options))
    response = fragment(alice, game, **changes)
    assert response.status_code == 422
    assert "These options are not valid" in response.text
    assert "<script>" not in response.text
    game.refresh_from_db()
    assert (game.version, game.options) == before


def test_fragment_with_no_query_at_all_is_400(alice, player) -> None:
    game = scenarios.betting(player)
    assert alice.get(f"/games/{game.pk}/options/house-edge/").status_code == 422


def test_fragment_needs_login_and_ownership(player, other_player, client_for) -> None:
    game = scenarios.betting(player)
    url = f"/games/{game.pk}/options/house-edge/"
    anonymous = Client().get(url, form_data())
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    assert client_for(other_player).get(url, form_data()).status_code == 404
    assert client_for(player).post(url, form_data()).status_code == 405


def test_update_estimate_without_javascript_saves_nothing(alice, player) -> None:
    game = scenarios.betting(player)
    before = (game.version, dict(game.options))
    data = {"version": str(game.version), "estimate": "1", **form_data(dealer_stands_on="H17")}
    response = alice.post(f"/games/{game.pk}/options/", data)
    assert response.status_code == 200
    assert figure(response.text) == expected_figure(dealer_stands_on="H17")
    assert change(response.text).startswith("+")
    assert '<option value="H17" selected>' in response.text  # the choice stays on the form
    game.refresh_from_db()
    assert (game.version, game.options) == before


def test_update_estimate_with_bad_options_is_400(alice, player) -> None:
    game = scenarios.betting(player)
    data = {"version": str(game.version), "estimate": "1", **form_data(deck_count="0")}
    response = alice.post(f"/games/{game.pk}/options/", data)
    assert response.status_code == 422
    assert "These options are not valid" in response.text


def test_the_menu_groups_are_the_rules_pages_and_cover_every_field() -> None:
    from game.forms import OptionsForm, option_groups
    from game.rules_pages.content import OPTION_GROUPS

    grouped = [name for _, names in option_groups() for name in names]
    assert sorted(grouped) == sorted(OptionsForm.base_fields)
    assert [title for title, _ in option_groups()][:-1] == [title for title, _ in OPTION_GROUPS]
