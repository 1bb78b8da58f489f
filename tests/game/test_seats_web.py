"""§10 Extensions, seats 1-3 on the page: a box picker for the chips, the same bet on
every box in one click, the boxes dealt, played and settled left to right."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from game import services
from game.models import Game
from tests.game.helpers import post, stack_shoe

pytestmark = pytest.mark.django_db

# Dealt box 1, box 2, box 3, hole, box 1, box 2, box 3, upcard (R-4.2 per box):
# box 1 0S 7D (17), box 2 9S 8D (17), box 3 KS 6D (16); dealer 0H 6C draws KD and busts.
THREE_BOXES = ["0S", "9S", "KS", "0H", "7D", "8D", "6D", "6C", "KD"]
BOX_SECTION = re.compile(
    r'<section class="box( box--in-play)?( box--selected)?" aria-label="Box (\d)"'
)


def three_box_game(user: Any) -> Game:
    game = services.new_game(user=user, options={"trivia_mode": False, "seats": 3})
    return stack_shoe(game, THREE_BOXES)


def boxes_on(page: str) -> list[tuple[int, bool, bool]]:
    """(box number, in play, selected) for each box on the felt, left to right."""
    return [(int(n), bool(play), bool(sel)) for play, sel, n in BOX_SECTION.findall(page)]


def test_the_bet_panel_picks_a_box_and_the_chips_go_to_it(alice: Client, player: Any) -> None:
    game = three_box_game(player)
    page = alice.get(f"/games/{game.pk}/").text
    assert boxes_on(page) == [(1, False, True), (2, False, False), (3, False, False)]
    assert ">Same bet on every box</button>" in page
    assert post(alice, game, "chip", chip="10").status_code == 302  # box 1
    assert post(alice, game, "select-box", box="2").status_code == 302
    # A box never bet on starts with the bet of the box the player came from.
    assert post(alice, game, "chip", chip="5").status_code == 302  # box 2: $10 + $5
    game.refresh_from_db()
    assert game.selected_box == 2 and game.pending_bet_cents == 1500
    assert [entry["bet"] for entry in game.pending_boxes] == [1000, 1000, 1000]  # as left
    post(alice, game, "select-box", box="1")
    game.refresh_from_db()
    assert [entry["bet"] for entry in game.pending_boxes] == [1000, 1500, 1000]
    post(alice, game, "select-box", box="2")
    page = alice.get(f"/games/{game.pk}/").text
    assert 'aria-pressed="true"><span class="visually-hidden">Box 2 </span>$15.00</button>' in page
    assert 'aria-pressed="false"><span class="visually-hidden">Box 1 </span>$10.00</button>' in page


def test_pressing_a_box_circle_chooses_it_and_adds_the_selected_chip(
    alice: Client, player: Any
) -> None:
    game = three_box_game(player)
    post(alice, game, "chip", chip="10")  # box 1
    response = post(alice, game, "select-box", box="3", selected_chip="25")
    assert response.status_code == 302
    game.refresh_from_db()
    # Box 3, never bet on, starts from box 1's $10; the selected $25 chip goes on top.
    assert game.selected_box == 3 and game.pending_bet_cents == 3500
    assert "selected_chip=25" in response["Location"]


def test_a_box_circle_refuses_a_chip_over_the_table_maximum(alice: Client, player: Any) -> None:
    game = services.new_game(
        user=player, options={"trivia_mode": False, "seats": 3, "max_bet": "100.00"}
    )
    post(alice, game, "chip", chip="100")  # box 1: $100, the maximum
    game.refresh_from_db()
    version = game.version
    response = post(alice, game, "select-box", box="2", selected_chip="5")
    # Box 2 starts from box 1's $100: another $5 would pass the table maximum.
    assert response.status_code == 422
    game.refresh_from_db()
    assert game.version == version and game.selected_box == 1


def test_an_amount_typed_for_a_box_is_kept_when_another_is_picked(
    alice: Client, player: Any
) -> None:
    game = three_box_game(player)
    assert post(alice, game, "select-box", box="3", amount="25").status_code == 302
    game.refresh_from_db()
    assert game.pending_boxes[0]["bet"] == 2500 and game.selected_box == 3


def test_same_bet_on_every_box_in_one_click(alice: Client, player: Any) -> None:
    game = three_box_game(player)
    post(alice, game, "chip", chip="25")
    assert post(alice, game, "same-bet").status_code == 302
    game.refresh_from_db()
    assert [entry["bet"] for entry in game.pending_boxes] == [2500, 2500, 2500]
    assert "$25.00 on each of the 3 boxes." in alice.get(f"/games/{game.pk}/").text


def test_three_boxes_dealt_played_left_to_right_and_settled(alice: Client, player: Any) -> None:
    game = three_box_game(player)
    post(alice, game, "chip", chip="10")
    post(alice, game, "same-bet")
    assert post(alice, game, "deal", amount="10").status_code == 302
    page = alice.get(f"/games/{game.pk}/").text
    assert boxes_on(page) == [(1, True, False), (2, False, False), (3, False, False)]
    for box in (1, 2, 3):
        game.refresh_from_db()
        assert game.state["round"]["boxes"][box - 1]["bet"] == 1000
        page = alice.get(f"/games/{game.pk}/").text
        assert (box, True, False) in boxes_on(page), f"box {box} should be in play"
        assert f"Box {box}: Player&#x27;s turn." in page or f"Box {box}: Player's turn." in page
        assert post(alice, game, "stand").status_code == 302
    game.refresh_from_db()
    assert game.state["round"]["phase"] == "round_over"
    assert game.bank_cents == 100_000 - 3000 + 6000  # every box won against the bust
    page = alice.get(f"/games/{game.pk}/").text
    assert page.count('<p class="badge badge--win" data-net="1000">WIN') == 3
    assert "Round over: you won $30.00." in page


def test_a_box_out_of_range_or_unreadable_is_refused_and_changes_nothing(
    alice: Client, player: Any
) -> None:
    game = three_box_game(player)
    version = game.version
    for raw, words in (
        ("4", "Choose a box from 1 to 3."),
        ("x", "Choose a box."),
        ("", "Choose a box."),
    ):
        response = post(alice, game, "select-box", box=raw)
        assert response.status_code == 422 and words in response.text
    game.refresh_from_db()
    assert game.version == version and game.selected_box == 1


def test_another_players_boxes_are_not_found(
    client_for: Any, player: Any, other_player: Any
) -> None:
    game = three_box_game(player)
    mallory = client_for(other_player)
    assert post(mallory, game, "select-box", box="2").status_code == 404
    assert post(mallory, game, "same-bet").status_code == 404


def test_one_box_tables_show_no_box_picker(alice: Client, player: Any) -> None:
    game = services.new_game(user=player, options={"trivia_mode": False})
    page = alice.get(f"/games/{game.pk}/").text
    assert "Same bet on every box" not in page and boxes_on(page) == []


def test_insurance_is_asked_once_then_box_by_box_when_chosen(alice: Client, player: Any) -> None:
    # Two boxes against an ace: box 1 9S 7D, box 2 8S 8D; dealer hole 6H, upcard AC.
    game = services.new_game(user=player, options={"trivia_mode": False, "seats": 2})
    stack_shoe(game, ["9S", "8S", "6H", "7D", "8D", "AC", "2H", "3C"])
    post(alice, game, "chip", chip="10")
    post(alice, game, "same-bet")
    assert post(alice, game, "deal", amount="10").status_code == 302
    page = alice.get(f"/games/{game.pk}/").text
    assert "Insure both boxes for $10.00?" in page and "Box 1: Insurance?" not in page
    assert post(alice, game, "insurance-box-by-box").status_code == 302
    page = alice.get(f"/games/{game.pk}/").text
    assert "Box 1: Insurance?" in page
    assert post(alice, game, "insurance", choice="decline").status_code == 302
    page = alice.get(f"/games/{game.pk}/").text
    assert "Box 2: Insurance?" in page
    assert post(alice, game, "insurance", choice="accept").status_code == 302
    game.refresh_from_db()
    taken = [box["insurance"] for box in game.state["round"]["boxes"]]
    assert taken[0] is None and taken[1]["stake"] == 500


def test_a_first_deal_puts_the_amount_on_every_box(alice: Client, player: Any) -> None:
    game = three_box_game(player)
    assert post(alice, game, "deal", amount="12.50").status_code == 302
    game.refresh_from_db()
    assert [box["bet"] for box in game.state["round"]["boxes"]] == [1250, 1250, 1250]
    assert game.bank_cents == 100_000 - 3750


def test_side_bets_go_to_the_box_picked(alice: Client, player: Any) -> None:
    game = three_box_game(player)
    post(alice, game, "chip", chip="10")
    post(alice, game, "same-bet")
    post(alice, game, "select-box", box="2")
    assert post(alice, game, "side-chip", side_chip="perfect_pair:5").status_code == 302
    post(alice, game, "select-box", box="3")
    assert post(alice, game, "side-chip", side_chip="21+3:1").status_code == 302
    assert post(alice, game, "deal", amount="10").status_code == 302
    game.refresh_from_db()
    stakes = [box["side_stakes"] for box in game.state["round"]["boxes"]]
    assert stakes == [{}, {"perfect_pair": 500}, {"21+3": 100}]
