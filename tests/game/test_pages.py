"""My games, New Game with last-used options, the options menu, End Game, 404 everywhere."""

from __future__ import annotations

import re

import pytest

from game import services
from game.models import Game
from tests.game import scenarios
from tests.game.helpers import post
from tests.pages import once_key, without_csrf_tokens

pytestmark = pytest.mark.django_db


def test_my_games_lists_only_mine_newest_first(alice, player, other_player) -> None:
    older = services.new_game(user=player)
    newer = services.new_game(user=player)
    theirs = services.new_game(user=other_player)
    page = alice.get("/games/").text
    assert page.index(f'data-game="{newer.pk}"') < page.index(f'data-game="{older.pk}"')
    assert f'data-game="{theirs.pk}"' not in page
    assert "Resume" in page and "$1,000.00" in page and "In progress" in page


def test_new_game_uses_the_last_used_options(alice, player) -> None:
    services.new_game(user=player, options={"trivia_mode": False, "blackjack_payout": "6:5"})
    response = alice.post("/games/new/", once_key("new_game"))
    game = Game.objects.filter(owner=player).order_by("-id").first()
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.options["trivia_mode"] is False and game.options["blackjack_payout"] == "6:5"


def test_new_game_needs_post(alice) -> None:
    assert alice.get("/games/new/").status_code == 405


def test_every_url_of_another_players_game_is_404(player, other_player, client_for) -> None:
    game = scenarios.dealt(player)
    intruder = client_for(other_player)
    version = str(game.version)
    assert intruder.get(f"/games/{game.pk}/").status_code == 404
    assert intruder.get(f"/games/{game.pk}/options/").status_code == 404
    assert intruder.post(f"/games/{game.pk}/options/", {"version": version}).status_code == 404
    assert intruder.get(f"/games/{game.pk}/end/").status_code == 404
    assert intruder.post(f"/games/{game.pk}/end/", {"version": version}).status_code == 404
    assert intruder.post(f"/games/{game.pk}/cheat/", {"version": version}).status_code == 404
    assert intruder.post(f"/games/{game.pk}/deal/", {"version": "x"}).status_code == 404
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS


def test_options_menu_shows_every_option_grouped(alice, player) -> None:
    game = scenarios.betting(player)
    page = alice.get(f"/games/{game.pk}/options/").text
    for legend in ("Trivia", "Table", "Dealer", "Splitting", "Surrender &amp; core side bets"):
        assert f"<legend>{legend}</legend>" in page
    for name in (
        "trivia_mode", "side_bets", "blackjack_payout", "dealer_stands_on", "deck_count",
        "charlie", "split_any_ten", "double_after_split", "max_splits", "max_ace_splits",
        "double_after_split_aces", "one_card_after_split_aces", "reshuffle", "simple",
        "inverted", "surrender", "insurance", "even_money", "dealer_peek", "double_on",
        "min_bet", "max_bet", "starting_bank",
    ):  # fmt: skip
        assert f'name="{name}"' in page, name
    for button in ("Apply", "Reset to Default", "Close"):
        assert button in page


def _options_post(game: Game, **changes: str) -> dict[str, str]:
    data = {
        "version": str(game.version), "blackjack_payout": "3:2", "deck_count": "6",
        "min_bet": "1.00", "max_bet": "10000.00", "starting_bank": "1000.00",
        "dealer_stands_on": "S17", "charlie": "5", "double_on": "any", "surrender": "late",
        "trivia_mode": "on", "side_bets": "on", "insurance": "on", "even_money": "on",
        "dealer_peek": "on", "reshuffle": "cut_card", "max_splits": "1", "max_ace_splits": "0",
        "apply": "1",
    }  # fmt: skip
    data.update(changes)
    return data


def test_apply_options_with_implied_options(alice, player) -> None:
    game = scenarios.betting(player)
    response = alice.post(
        f"/games/{game.pk}/options/",
        _options_post(game, double_after_split_aces="on", dealer_stands_on="H17", charlie="off"),
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.options["double_after_split_aces"] and game.options["double_after_split"]
    assert game.options["max_ace_splits"] == 1  # needed: aces split once
    assert game.options["dealer_stands_on"] == "H17" and game.options["charlie"] == "off"
    page = alice.get(response["Location"]).text
    assert "Double after split switched on (needed)." in page
    assert "Splits of aces switched on (needed)." in page  # the option's own name
    menu = alice.get(f"/games/{game.pk}/options/").text
    assert "On because another option needs it." in menu


def test_bad_options_are_400_and_change_nothing(alice, player) -> None:
    game = scenarios.betting(player)
    before = dict(game.options)
    for bad in ({"min_bet": "-1"}, {"deck_count": "9"}, {"max_bet": "0.50"}, {"charlie": "6"}):
        response = alice.post(f"/games/{game.pk}/options/", _options_post(game, **bad))
        assert response.status_code == 422, bad
    game.refresh_from_db()
    assert game.options == before


def test_stale_options_post_is_409(alice, player) -> None:
    game = scenarios.betting(player)
    data = _options_post(game, trivia_mode="")
    data["version"] = str(game.version + 3)
    assert alice.post(f"/games/{game.pk}/options/", data).status_code == 409


def test_reset_to_default_fills_the_defaults_without_saving(alice, player) -> None:
    game = services.new_game(user=player, options={"blackjack_payout": "6:5"})
    response = alice.post(
        f"/games/{game.pk}/options/", {"version": str(game.version), "reset": "1"}
    )
    assert response.status_code == 200
    assert '<option value="3:2" selected>' in response.text
    game.refresh_from_db()
    assert game.options["blackjack_payout"] == "6:5"


def test_options_only_between_rounds(alice, player) -> None:
    game = scenarios.dealt(player)
    assert f'href="/games/{game.pk}/options/"' not in alice.get(f"/games/{game.pk}/").text
    response = alice.get(f"/games/{game.pk}/options/")
    assert response.status_code == 302
    before = dict(game.options)
    response = alice.post(f"/games/{game.pk}/options/", _options_post(game, trivia_mode=""))
    game.refresh_from_db()
    assert game.options == before


def test_end_game_asks_then_ends_and_forfeits(alice, player) -> None:
    game = scenarios.dealt(player)
    assert "End this game?" in alice.get(f"/games/{game.pk}/end/").text
    response = alice.post(f"/games/{game.pk}/end/", {"version": str(game.version)})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.over_reason == "ended"
    assert game.bank_cents == 99000
    hand = game.rounds.get().hands.get()
    assert hand.result == "lose" and hand.how == "forfeit"
    page = alice.get(f"/games/{game.pk}/").text
    assert 'data-phase="game_over"' in page and "New Game" in page
    assert post(alice, game, "chip", chip="5").status_code == 422


def test_round_record_is_saved_with_hands(alice, player) -> None:
    game = scenarios.pair(player)
    post(alice, game, "split")
    post(alice, game, "stand")
    post(alice, game, "stand")
    round_ = game.rounds.get()
    assert round_.phase == "round_over"
    hands = list(round_.hands.order_by("index"))
    assert [h.cards for h in hands] == [["8S", "3H"], ["8D", "2C"]]
    assert round_.record["hands"][0]["bet"] == "10.00"


def test_insurance_accept_records_a_side_bet(alice, player) -> None:
    game = scenarios.insurance(player)
    post(alice, game, "insurance", choice="accept")
    post(alice, game, "stand")
    side_bet = game.rounds.get().side_bets.get()
    assert (side_bet.name, side_bet.stake_cents, side_bet.result) == ("insurance", 500, "lose")


def test_rules_page(client) -> None:
    assert client.get("/rules/").status_code == 200


def test_staff_see_games_read_only_without_the_engine_state(client, player) -> None:
    from tests.game.factories import PlayerFactory

    staff = PlayerFactory(username="support", is_staff=True, is_superuser=True)
    game = scenarios.dealt(player)
    client.force_login(staff)
    page = client.get(f"/admin/game/game/{game.pk}/change/")
    assert page.status_code == 200
    assert "&quot;shoe&quot;" not in page.text and "&quot;dealt&quot;" not in page.text
    assert "Save" not in without_csrf_tokens(page.text)
    assert client.get("/admin/game/game/add/").status_code == 403


def test_reasons_for_disabled_actions_are_reachable_without_a_mouse(alice, make_game) -> None:
    # A disabled button takes no focus, so its title alone would be mouse-only.
    game = make_game(cards=["9S", "6C", "7D", "QH", "5S", "4D"], trivia_mode=False)
    page = post(alice, game, "deal", htmx=True, amount="10.00").text
    assert 'data-phase="player_turn"' in page
    split = re.search(r'<button type="submit" data-key="p"[^>]*>', page)
    assert split and "disabled" in split.group(0)
    assert 'aria-describedby="why-not-split"' in split.group(0)
    assert "<summary>Why are some actions unavailable?</summary>" in page
    reason = re.search(r'<strong>Split:</strong> <span id="why-not-split">([^<]+)</span>', page)
    assert reason and f'title="{reason.group(1)}"' in split.group(0)  # the title's words
    hit = re.search(r'<button type="submit" data-key="h"[^>]*>', page)
    assert hit and "disabled" not in hit.group(0) and 'id="why-not-hit"' not in page


def test_no_reason_list_outside_the_players_turn(alice, player) -> None:
    game = scenarios.insurance(player)
    page = alice.get(f"/games/{game.pk}/").text
    assert 'data-phase="insurance"' in page
    assert "Why are some actions unavailable?" not in page
    assert 'aria-describedby="why-not-' not in page
