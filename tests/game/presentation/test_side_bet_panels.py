"""The in-round side-bet panels (RULES.md §9, UI.md): results, dice, extra bet, parlay, outcome."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

import pytest

from game import services
from game.models import Game
from game.presentation.side_bet_panels import SIDE_BET_TITLES, condition_text
from game.rules import sidebets as sb
from game.rules_pages.content import ratio_text
from game.services import randomness
from tests.game.helpers import post, script_dice, stack_shoe
from tests.game.html_tree import Node, parse

pytestmark = pytest.mark.django_db

# Deal order: player, dealer hole, player, dealer upcard, then draws.
# 4H 6H with a 9H upcard: 21+3 flush; hole KC; no pair anywhere.
FLUSH = ["4H", "KC", "6H", "9H"]
# Suited 11 (5H 6H) against a 2D upcard: Perfect 11s waits for the dice.
SUITED_11 = ["5H", "9C", "6H", "2D", "0C", "0D"]
# KH first: the extra bet is offered. Player 19 against 7D 8C; the dealer draws 0S and busts.
TEN_FIRST = ["KH", "7D", "9S", "8C", "0S"]
# A pair of eights: House Money pays 3 to 1. Dealer 9C 7H draws KD and busts.
EIGHTS = ["8S", "9C", "8D", "7H", "KD"]


def deal(
    player: Any,
    cards: Sequence[str],
    *,
    bet_cents: int = 1000,
    side_bets: dict[str, int] | None = None,
    extra_bet: bool = False,
    **options: Any,
) -> Game:
    game = stack_shoe(
        services.new_game(user=player, options={"trivia_mode": False, **options}), cards
    )
    services.place_bet_and_deal(
        game_id=game.pk,
        user=player,
        version=game.version,
        bet_cents=bet_cents,
        side_bets=side_bets or {},
        extra_bet=extra_bet,
    )
    game.refresh_from_db()
    return game


def table_html(client: Any, game: Game) -> str:
    return client.get(f"/games/{game.pk}/").content.decode()


def side_bet_row(html: str, name: str) -> Node:
    return parse(html).one(f'.side-bet-results [data-side-bet="{name}"]')


def text_of(node: Node) -> str:
    return node.text()


def unchanged(game: Game) -> dict[str, Any]:
    game.refresh_from_db()
    return {"version": game.version, "bank": game.bank_cents, "state": game.state}


# --------------------------------------------------------------------- wording


def test_every_condition_of_rules_section_9_has_a_player_phrase() -> None:
    for bet, lines in sb.PAY_TABLES.items():
        assert SIDE_BET_TITLES[bet]
        for condition, ratio in lines:
            phrase = condition_text(bet, condition)
            assert phrase and "_" not in phrase, (bet, condition)
            assert re.fullmatch(r"\d+ to \d+|bet returned", ratio_text(ratio))
    assert condition_text("21+3", "suited_trips_high") == "Suited trips, queens, kings or aces"
    assert ratio_text([0, 1]) == "bet returned"


# --------------------------------------------------------------------- results panel


def test_results_after_the_deal_and_at_the_end(alice, player) -> None:
    stakes = {"21+3": 1000, "perfect_pair": 500, "house_money": 500, "lucky_ladies": 500}
    game = deal(player, FLUSH, side_bets=stakes)
    html = table_html(alice, game)

    flush = side_bet_row(html, "21+3")
    assert flush["data-status"] == "won"
    assert "Flush, pays 5 to 1" in text_of(flush) and "Winnings $60.00" in text_of(flush)
    won_cards = [li.one(".visually-hidden").text() for li in flush.select("li")]
    assert won_cards == ["Four of Hearts", "Six of Hearts", "Nine of Hearts"]
    assert side_bet_row(html, "house_money")["data-status"] == "lost"
    pair = side_bet_row(html, "perfect_pair")
    assert pair["data-status"] == "pending"
    assert "Settled when the dealer's hole card is shown." in text_of(pair)
    assert "Winnings" not in text_of(pair)
    assert side_bet_row(html, "lucky_ladies")["data-status"] == "pending"
    assert "King of Clubs" not in html  # the hole card

    end = post(alice, game, "stand", htmx=True).content.decode()
    for name in ("perfect_pair", "lucky_ladies", "house_money"):
        assert side_bet_row(end, name)["data-status"] == "lost"
    outcome = parse(end).one("table.outcome")
    rows = {row["data-side-bet"]: text_of(row) for row in outcome.select("tr[data-side-bet]")}
    assert list(rows) == ["perfect_pair", "21+3", "house_money", "lucky_ladies"]
    assert rows["21+3"] == "21+3 ($10.00) Won Flush (5 to 1) $60.00"
    assert rows["perfect_pair"] == "Perfect Pair ($5.00) Lost $0.00"
    # Total this round: paid $60.00 (the 21+3); the lost hand and three side bets.
    assert "You won $25.00" in text_of(outcome.one("tfoot"))


def test_perfect_pair_shows_nothing_before_the_hole_card_is_turned(
    alice, player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Differential: two tables that differ only in the hole card render the same page.

    With hole 9H the dealer holds a perfect pair (9H 9H) and Perfect Pair wins 25:1;
    with hole 9C it loses. Until the hole card is shown the two pages are identical (both
    games' shoes committed alike: the same seeds for each).
    """
    monkeypatch.setattr(randomness, "server_seeds", lambda: random.Random(6).randbytes)
    stakes = {"perfect_pair": 500, "lucky_ladies": 500, "21+3": 500}
    games = {
        hole: deal(player, ["4H", hole, "6H", "9H", "2C", "3C"], side_bets=stakes)
        for hole in ("9H", "9C")
    }
    csrf = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')

    def page(game: Game) -> str:
        html = alice.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true").content.decode()
        html = re.sub(r"\?game=\d+", "?game=N", html)
        return re.sub(r"/games/\d+/", "/games/N/", csrf.sub("", html))

    matched, other = (page(game) for game in games.values())
    assert matched == other
    assert "pending" in matched and "Perfect pair" not in matched

    # Once the hole card is shown (the player stands on 10), the bet is settled.
    end = post(alice, games["9H"], "stand", htmx=True).content.decode()
    row = side_bet_row(end, "perfect_pair")
    assert row["data-status"] == "won"
    assert "Perfect pair, pays 25 to 1" in text_of(row) and "Winnings $130.00" in text_of(row)


# --------------------------------------------------------------------- Perfect 11s dice


def test_roll_the_infinity_dice(alice, player, monkeypatch: pytest.MonkeyPatch) -> None:
    game = deal(player, SUITED_11, side_bets={"perfect_11s": 1000})
    html = table_html(alice, game)
    panel = parse(html).one("#table .panel")
    assert "panel--dealing" in panel.classes
    assert panel.button("Roll") is not None
    assert "Suited 11, two infinities: 16 to 1" in text_of(panel)
    assert side_bet_row(html, "perfect_11s")["data-status"] == "won"
    assert "roll the Infinity dice" in text_of(side_bet_row(html, "perfect_11s"))

    game = script_dice(game, [6, 2, 6])
    rolled = post(alice, game, "roll", htmx=True).content.decode()
    result = parse(rolled).one(".dice-result")
    dice = [die["aria-label"] for die in result.select('[role="img"]')]
    assert dice == ["Die 1: infinity", "Die 2: 2", "Die 3: infinity"]
    assert "Suited 11, two infinities pays 16 to 1: you win $170.00." in text_of(result)
    assert parse(rolled).one("#table")["data-phase"] == "player_turn"
    game.refresh_from_db()
    assert game.bank_cents == 100_000 - 2000 + 17_000

    # The next action leaves the dice in the Perfect 11s result only.
    end = post(alice, game, "stand", htmx=True).content.decode()
    assert parse(end).select_one(".dice-result") is None
    row = side_bet_row(end, "perfect_11s")
    assert [die["aria-label"] for die in row.select('[role="img"]')] == dice


def test_roll_is_refused_when_no_dice_are_due(alice, player) -> None:
    game = deal(player, FLUSH, side_bets={"perfect_11s": 500})
    before = unchanged(game)
    response = post(alice, game, "roll", htmx=True)
    assert response.status_code == 422
    assert "no Perfect 11s dice to roll" in response.content.decode()
    assert unchanged(game) == before


# --------------------------------------------------------------------- extra bet


def test_extra_bet_panel_shows_bank_base_bet_fee_and_chips(alice, player) -> None:
    game = deal(player, TEN_FIRST, extra_bet=True)
    panel = parse(table_html(alice, game)).one(".panel--extra_bet")
    words = text_of(panel)
    assert "Bank $990.00" in words and "Base bet $10.00" in words and "Limit (5×) $50.00" in words
    assert panel.one("#extra-amount")["value"] == "10.00"
    assert "Fee: $2.00" in words
    chips = {chip.text(): chip for chip in panel.select("button.chip")}
    assert list(chips) == ["$1", "$5", "$10", "$25", "$100", "$500"]
    assert not chips["$25"].has("disabled")  # 10 + 25 = 35 ≤ 50
    assert chips["$100"].has("disabled")
    assert chips["$100"]["title"] == "Over the limit of 5× your base bet ($50.00)"
    assert panel.button("Place Extra Bet") is not None
    assert panel.button("Decline") is not None


def test_extra_bet_chips_are_limited_by_the_bank_too(alice, player) -> None:
    game = deal(player, TEN_FIRST, extra_bet=True, starting_bank="30.00")
    panel = parse(table_html(alice, game)).one(".panel--extra_bet")
    chips = {chip.text(): chip for chip in panel.select("button.chip")}
    assert not chips["$5"].has("disabled")  # $15.00 + $3.00 fee ≤ $20.00
    assert chips["$10"]["title"] == "Your bank does not cover $20.00 and its fee of $4.00"


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        ("50.01", "at most 5× the base bet"),
        ("60", "at most 5× the base bet"),
        ("0.50", "at least $1.00"),
        ("abc", "Enter an amount in dollars"),
        ("10.001", "Enter an amount in dollars"),
        ("-5", "Enter an amount in dollars"),
        ("", "Enter an amount in dollars"),
    ],
)
def test_bad_extra_bet_amounts_are_refused_and_change_nothing(
    alice, player, amount: str, message: str
) -> None:
    game = deal(player, TEN_FIRST, extra_bet=True)
    before = unchanged(game)
    response = post(alice, game, "extra-bet", htmx=True, choice="place", amount=amount)
    assert response.status_code == 422
    notice = parse(response.content.decode()).one(".table-notice")
    assert message in notice.text()
    assert unchanged(game) == before


def test_extra_bet_the_bank_cannot_cover_is_refused(alice, player) -> None:
    game = deal(player, TEN_FIRST, extra_bet=True, starting_bank="30.00")
    before = unchanged(game)
    response = post(alice, game, "extra-bet", choice="place", amount="20.00")
    assert response.status_code == 422
    assert "does not cover an extra bet of $20.00 and its fee of $4.00" in response.content.decode()
    assert unchanged(game) == before


def test_place_the_extra_bet_and_see_it_in_the_outcome(alice, player) -> None:
    game = deal(player, TEN_FIRST, extra_bet=True)
    response = post(alice, game, "extra-bet", choice="place", amount="25.00")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.bank_cents == 99_000 - 2500 - 500
    html = table_html(alice, game)
    row = side_bet_row(html, "extra_bet_blackjack")
    assert row["data-status"] == "pending"
    assert "Fee $5.00 (not returned)." in text_of(row)

    end = post(alice, game, "stand", htmx=True).content.decode()
    outcome = parse(end).one('table.outcome tr[data-side-bet="extra_bet_blackjack"]')
    assert text_of(outcome) == (
        "Extra Bet Blackjack ($25.00) Won Hand 1 wins (2 to 1) Fee $5.00 (not returned). $75.00"
    )
    game.refresh_from_db()
    assert game.bank_cents == 96_000 + 2000 + 7500


def test_declined_extra_bet_is_noted(alice, player) -> None:
    game = deal(player, TEN_FIRST, extra_bet=True)
    post(alice, game, "extra-bet", choice="decline")
    row = side_bet_row(table_html(alice, game), "extra_bet_blackjack")
    assert row["data-status"] == "not_played" and "Declined." in text_of(row)


def test_extra_bet_chip_without_javascript_adds_to_the_amount(alice, player) -> None:
    game = deal(player, TEN_FIRST, extra_bet=True)
    before = unchanged(game)
    url = f"/games/{game.pk}/extra-bet/chip/"
    added = alice.post(url, {"version": game.version, "chip": "25", "amount": "10.00"})
    assert added.status_code == 200
    panel = parse(added.content.decode()).one(".panel--extra_bet")
    assert panel.one("#extra-amount")["value"] == "35.00"
    assert "Fee: $7.00" in text_of(panel)
    assert panel.button("$25").has("disabled")  # 35 + 25 > 50

    over = alice.post(url, {"version": game.version, "chip": "100", "amount": "10.00"})
    assert over.status_code == 422
    assert "Over the limit of 5× your base bet ($50.00)." in over.content.decode()
    for bad in ({"chip": "7", "amount": "10"}, {"chip": "5", "amount": "ten"}):
        assert alice.post(url, {"version": game.version, **bad}).status_code == 422
    assert unchanged(game) == before


def test_extra_bet_chip_when_nothing_is_on_offer(alice, player) -> None:
    game = deal(player, FLUSH)
    response = alice.post(f"/games/{game.pk}/extra-bet/chip/", {"chip": "5", "amount": "1"})
    assert response.status_code == 422
    assert "The extra bet is not on offer now." in response.content.decode()


# --------------------------------------------------------------------- House Money parlay


def test_parlay_panel_shows_the_four_choices_with_their_base_bets(alice, player) -> None:
    game = deal(player, EIGHTS, side_bets={"house_money": 1000})
    html = table_html(alice, game)
    panel = parse(html).one(".panel--house_money_parlay")
    assert "Pair pays 3 to 1: your $10.00 stake returns $40.00." in text_of(panel)
    won = [li.one(".visually-hidden").text() for li in panel.select(".won-cards li")]
    assert won == ["Eight of Spades", "Eight of Diamonds"]
    choices = {
        choice["data-choice"]: (choice.one("button").text(), choice.one("p").text())
        for choice in panel.select(".parlay-choice")
    }
    assert choices == {
        "collect": ("Collect", "New base bet $10.00 · paid now $40.00"),
        "bet": ("Parlay the bet", "New base bet $20.00 · paid now $30.00 · parlayed $10.00"),
        "winnings": (
            "Parlay the profit",
            "New base bet $40.00 · paid now $10.00 · parlayed $30.00",
        ),
        "all": ("Parlay all", "New base bet $50.00 · paid now $0.00 · parlayed $40.00"),
    }
    row = side_bet_row(html, "house_money")
    assert row["data-status"] == "won" and "choose below" in text_of(row)


def test_parlay_all_rides_on_hand_one(alice, player) -> None:
    game = deal(player, EIGHTS, side_bets={"house_money": 1000})
    before = unchanged(game)
    assert post(alice, game, "parlay", choice="double").status_code == 422
    assert unchanged(game) == before

    in_play = post(alice, game, "parlay", htmx=True, choice="all").content.decode()
    assert parse(in_play).one('[data-testid="bet"]').text() == "$50.00"
    end = post(alice, game, "stand", htmx=True).content.decode()
    outcome = parse(end).one("table.outcome")
    house = text_of(outcome.one('tr[data-side-bet="house_money"]'))
    assert (
        house == "House Money ($10.00) Won Pair (3 to 1) $40.00 parlayed onto hand 1's bet. $0.00"
    )
    assert "$100.00" in text_of(outcome.one("tbody tr"))  # hand 1: $50 bet won
    game.refresh_from_db()
    assert game.bank_cents == 98_000 + 10_000


def test_extra_bet_offer_and_not_offered_are_noted(alice, player) -> None:
    offered = deal(player, TEN_FIRST, extra_bet=True)
    row = side_bet_row(table_html(alice, offered), "extra_bet_blackjack")
    assert row["data-status"] == "pending" and "Offered: place it or decline it." in row.text()
    not_offered = deal(player, FLUSH, extra_bet=True)
    row = side_bet_row(table_html(alice, not_offered), "extra_bet_blackjack")
    assert row["data-status"] == "not_played"
    assert "Not offered: your first card is not a ten-card." in row.text()
    end = post(alice, not_offered, "stand", htmx=True).content.decode()
    assert parse(end).select_one('table.outcome tr[data-side-bet="extra_bet_blackjack"]') is None
