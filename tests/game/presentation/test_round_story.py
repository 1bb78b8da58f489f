"""One story per round (UI.md "The look of the table"): every result a round produced is
on the felt where its stake was — a badge on each hand, insurance and even money by the
betting circle, each side bet (and the Perfect 11s dice) on its own circle — and the
headline's total is the sum of the amounts the felt shows. The headline belongs to the
round's outcome: after a later action it is not said again."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pytest
from django.test import Client

from game import services
from game.models import Game
from game.presentation.table import TableView, table_view
from game.selectors import table_reads
from tests.game.helpers import script_dice, stack_shoe
from tests.game.html_tree import Node, parse

pytestmark = pytest.mark.django_db

# Deal order: player, dealer hole, player, dealer upcard, then draws.
# Player 9S 7D (16) against an ace; the hole KH makes the dealer's blackjack.
ACE_UP_NATURAL = ["9S", "KH", "7D", "AC"]
# Player 9H 8H (17) against 0C 7H (17): a push; 9H 8H 7H is a 21+3 straight flush.
PUSHED_17 = ["9H", "0C", "8H", "7H"]
# Player AS KD (blackjack) against an ace; hole 6H: no dealer blackjack.
NATURAL_AGAINST_ACE = ["AS", "6H", "KD", "AC"]
# Player 0S 6D (16) against 0H 0C: a late surrender; no pair anywhere.
SIXTEEN_AGAINST_TEN = ["0S", "0H", "6D", "0C"]
# Box 1 0S 7D (17), box 2 9S 8D (17), box 3 KS 6D (16); dealer 0H 6C draws KD and busts.
THREE_BOXES = ["0S", "9S", "KS", "0H", "7D", "8D", "6D", "6C", "KD"]
# Suited 11 (5H 6H) against 2D: Perfect 11s rolls the dice; the player stands on 11 and
# the dealer (9C 2D) draws 0C to 21.
SUITED_11 = ["5H", "9C", "6H", "2D", "0C", "0D"]

AMOUNT = re.compile(r"([+−]?)\$([\d,]+)\.(\d\d)")
HEADLINE = re.compile(
    r"Round over: you (won|lost) \$([\d,]+)\.(\d\d)\.|Round over: you broke even\."
)


def cents_of(sign: str, dollars: str, cents: str) -> int:
    amount = int(dollars.replace(",", "")) * 100 + int(cents)
    return -amount if sign in ("−", "lost") else amount


def amount_in(node: Node) -> int:
    """The signed amount a badge or a circle's result shows (none: nothing shown)."""
    found = AMOUNT.search(node.text())
    return cents_of(*found.groups()) if found else 0


def headline_total(text: str) -> int:
    """The round's total as the headline says it."""
    found = HEADLINE.search(text)
    assert found is not None, f"no round headline in {text!r}"
    if found.group(1) is None:
        return 0
    return cents_of(*found.groups())


def felt_amounts(page: str) -> list[int]:
    """Every result amount shown on the felt: the badges (hands, insurance, even money)
    and the side-bet circles' results."""
    felt = parse(page).one("#table")
    badges = [amount_in(badge) for badge in felt.select(".badge")]
    circles = [amount_in(result) for result in felt.select(".side-circle__result")]
    return badges + circles


def message_line(page: str) -> str:
    return parse(page).one("#message-line").text()


def status_line(page: str) -> str:
    return parse(page).one("#status-live").text()


def assert_one_story(client: Client, game: Game) -> TableView:
    """The headline's total, in the message line, the status line and the view model,
    is the sum of what the felt shows."""
    page = client.get(f"/games/{game.pk}/").text
    game.refresh_from_db()
    view = table_view(game, reads=table_reads(game))
    total = headline_total(message_line(page))
    assert headline_total(status_line(page)) == total
    assert total == view.net
    assert sum(felt_amounts(page)) == total
    assert sorted(felt_amounts(page)) == sorted(view.felt_amounts)
    return view


def deal(
    player: Any,
    cards: Sequence[str],
    *,
    bet_cents: int = 1000,
    side_bets: dict[str, int] | None = None,
    **options: Any,
) -> Game:
    game = services.new_game(user=player, options={"trivia_mode": False, **options})
    game = stack_shoe(game, cards)
    return services.place_bet_and_deal(
        game_id=game.pk,
        user=player,
        version=game.version,
        bet_cents=bet_cents,
        side_bets=side_bets or {},
    ).game


def act(game: Game, player: Any, service: Any, **kwargs: Any) -> Game:
    game.refresh_from_db()
    return service(game_id=game.pk, user=player, version=game.version, **kwargs).game


def test_an_insurance_win_beside_a_lost_hand(alice: Client, player: Any) -> None:
    game = deal(player, ACE_UP_NATURAL, bet_cents=2500)
    game = act(game, player, services.answer_offer, offer="insurance", accept=True)
    assert game.status == Game.Status.IN_PROGRESS and game.showing_outcome

    view = assert_one_story(alice, game)
    # The hand's stake is lost, the insurance wins 2 to 1 on $12.50: the round breaks even.
    assert view.net == 0
    assert [hand.badge for hand in view.hands] == ["LOSE"]
    assert view.offer_badge is not None
    assert (view.offer_badge.label, view.offer_badge.net) == ("INSURANCE", 2500)
    page = alice.get(f"/games/{game.pk}/").text
    badge = parse(page).one(".circles .badge--insurance")
    assert badge.text() == "INSURANCE +$25.00"
    # The felt tells the whole round: the details below do not open to tell it again.
    assert not parse(page).one("details.round-details").has("open")


def test_side_bets_beside_a_pushed_hand(alice: Client, player: Any) -> None:
    stakes = {"21+3": 500, "perfect_pair": 500}
    game = deal(player, PUSHED_17, side_bets=stakes)
    game = act(game, player, services.stand)

    view = assert_one_story(alice, game)
    assert [hand.badge for hand in view.hands] == ["PUSH"]
    circles = {circle.slug: circle for circle in view.side_circles}
    assert circles["perfect-pair"].net == -500
    # 21+3 shows what it won beyond its stake (the stake came back with the winnings).
    flush = circles["twenty-one-plus-three"]
    assert flush.net == flush.winnings - 500 > 0
    page = alice.get(f"/games/{game.pk}/").text
    lost = parse(page).one('[data-side-circle="perfect-pair"] .side-circle__result')
    assert lost.text() == "LOST −$5.00"


def test_even_money_on_a_natural(alice: Client, player: Any) -> None:
    game = deal(player, NATURAL_AGAINST_ACE, bet_cents=1000)
    game = act(game, player, services.answer_offer, offer="even_money", accept=True)
    assert game.showing_outcome

    view = assert_one_story(alice, game)
    # Even money is exactly that: the natural's $15 less the $5 even-money stake.
    assert view.net == 1000
    assert [hand.badge for hand in view.hands] == ["BLACKJACK"]
    assert view.offer_badge is not None
    assert (view.offer_badge.label, view.offer_badge.net) == ("EVEN MONEY", -500)


def test_a_surrender_with_a_side_bet_riding(alice: Client, player: Any) -> None:
    game = deal(player, SIXTEEN_AGAINST_TEN, side_bets={"perfect_pair": 500})
    game = act(game, player, services.surrender)
    assert game.showing_outcome

    view = assert_one_story(alice, game)
    assert view.net == -1000  # half the $10 bet and the $5 side bet
    assert [(hand.badge, hand.net) for hand in view.hands] == [("SURRENDER", -500)]


def test_three_boxes_each_with_its_own_results(alice: Client, player: Any) -> None:
    game = stack_shoe(
        services.new_game(user=player, options={"trivia_mode": False, "seats": 3}),
        THREE_BOXES,
    )
    game = act(game, player, services.add_side_chip, bet="perfect_pair", chip_cents=500)
    game = act(game, player, services.place_bet_and_deal, bet_cents=1000)
    for _box in range(3):
        game = act(game, player, services.stand)
    assert game.showing_outcome

    view = assert_one_story(alice, game)
    assert view.net == 2500  # three hands win $10 each; box 1's Perfect Pair loses $5
    first, second, third = view.boxes
    assert [circle.net for circle in first.side_circles] == [-500]
    assert second.side_circles == [] and third.side_circles == []
    page = alice.get(f"/games/{game.pk}/").text
    box_1 = parse(page).one('.box[data-box="1"]')
    assert box_1.one('[data-side-circle="perfect-pair"] .side-circle__result').text() == (
        "LOST −$5.00"
    )


def test_the_perfect_11s_dice_lie_by_their_circle(
    alice: Client, player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = script_dice(deal(player, SUITED_11, side_bets={"perfect_11s": 500}), [1, 2, 3])
    game = act(game, player, services.roll)
    game = act(game, player, services.stand)
    assert game.showing_outcome

    view = assert_one_story(alice, game)
    circle = next(circle for circle in view.side_circles if circle.slug == "perfect-11s")
    assert [die.face for die in circle.dice] == [1, 2, 3]
    page = alice.get(f"/games/{game.pk}/").text
    faces = parse(page).select('[data-side-circle="perfect-11s"] .die')
    assert [die["data-face"] for die in faces] == ["1", "2", "3"]


def test_a_parlayed_house_money_and_an_extra_bet_with_its_fee(alice: Client, player: Any) -> None:
    # KH first: the extra bet is offered; KH KD is a pair, so House Money wins and all of
    # it is parlayed onto the hand. The player stands on 20; the dealer (9C 7H) draws KS
    # and busts.
    cards = ["KH", "9C", "KD", "7H", "KS"]
    game = services.new_game(user=player, options={"trivia_mode": False})
    game = stack_shoe(game, cards)
    game = services.place_bet_and_deal(
        game_id=game.pk,
        user=player,
        version=game.version,
        bet_cents=1000,
        side_bets={"house_money": 500},
        extra_bet=True,
    ).game
    game = act(game, player, services.place_extra_bet, amount_cents=1000)
    game = act(game, player, services.parlay, choice="all")
    game = act(game, player, services.stand)
    assert game.showing_outcome

    view = assert_one_story(alice, game)
    circles = {circle.slug: circle for circle in view.side_circles}
    # The parlayed money left the circle for the hand: it counts as won on the circle, and
    # as staked on the hand, whose badge tells what became of it.
    house_money = circles["house-money"]
    assert house_money.winnings == 0 and house_money.net > 0
    assert circles["extra-bet-blackjack"].net == 2000 - 200  # 2 to 1, less its 20 % fee


def test_the_round_headline_is_not_said_again_after_options_apply(
    alice: Client, player: Any
) -> None:
    game = deal(player, ACE_UP_NATURAL, bet_cents=2000)
    game = act(game, player, services.answer_offer, offer="insurance", accept=False)
    page = alice.get(f"/games/{game.pk}/").text
    assert "Round over: you lost $20.00." in message_line(page)

    game.refresh_from_db()
    answer = alice.post(f"/games/{game.pk}/options/", options_form(game, charlie="off"))
    assert answer.status_code == 302
    page = alice.get(answer["Location"]).text
    for line in (message_line(page), status_line(page)):
        assert "Round over" not in line
        assert line.count("Options applied.") == 1

    game = act(game, player, services.next_round)
    page = alice.get(f"/games/{game.pk}/").text
    for line in (message_line(page), status_line(page)):
        assert "Round over" not in line and "Options applied." not in line

    # Options applied again, in the next round's betting: still not the last round's result.
    game.refresh_from_db()
    answer = alice.post(f"/games/{game.pk}/options/", options_form(game, charlie="5"))
    page = alice.get(answer["Location"]).text
    for line in (message_line(page), status_line(page)):
        assert line == "Options applied. Place your bet."


def options_form(game: Game, **changes: str) -> dict[str, str]:
    """The options menu's Apply with the table's rules as they are (trivia off), changed."""
    form = {
        "version": str(game.version), "blackjack_payout": "3:2", "deck_count": "6",
        "min_bet": "1.00", "max_bet": "10000.00", "starting_bank": "1000.00",
        "dealer_stands_on": "S17", "charlie": "5", "double_on": "any", "surrender": "late",
        "side_bets": "on", "insurance": "on", "even_money": "on", "dealer_peek": "on",
        "reshuffle": "cut_card", "max_splits": "1", "max_ace_splits": "0", "apply": "1",
    }  # fmt: skip
    return {**form, **changes}
