"""The side-bet menu of the bet panel: services, views, refusals and the deal with side bets."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from game import services
from game.core.errors import ActionRefused
from game.models import Game, SideBet
from game.presentation.notices import refusal_text, status_line
from game.presentation.side_bet_menu import pays_up_to, side_bet_menu
from game.rules.sidebets import fit_side_stakes
from tests.game import scenarios
from tests.game.helpers import post, stack_shoe

pytestmark = pytest.mark.django_db

# Player 7H 9H, dealer hole 0S, upcard 8H: 21+3 is a straight flush (35:1); Perfect Pair
# and House Money lose; the player stands on 16 and the dealer's 18 wins.
TWENTY_ONE_PLUS_THREE_WINS = ["7H", "0S", "9H", "8H"]
# Player 9S 7D, dealer 0H 6C then 2H: no side bet wins; standing loses to the dealer's 18.
NOTHING_WINS = scenarios.PLAIN


def betting_game(user: Any, cards: list[str] = NOTHING_WINS, **options: Any) -> Game:
    return stack_shoe(services.new_game(user=user, options=options), cards)


def with_stakes(
    game: Game, stakes: dict[str, int], *, extra_bet: bool = False, menu_open: bool = True
) -> Game:
    Game.objects.filter(pk=game.pk).update(
        pending_side_bets=stakes, pending_extra_bet=extra_bet, side_bets_menu_open=menu_open
    )
    game.refresh_from_db()
    return game


def snapshot(game: Game) -> tuple[Any, ...]:
    game.refresh_from_db()
    return (
        game.version,
        game.state,
        game.bank_cents,
        game.pending_bet_cents,
        game.pending_side_bets,
        game.pending_extra_bet,
        game.side_bets_menu_open,
        game.status_note,
    )


@dataclass(frozen=True)
class Case:
    action: str
    data: dict[str, str]
    check: Callable[[Game], bool]
    # Set-up beyond a fresh betting game (stakes already placed, say).
    prepare: Callable[[Game], Game] = lambda game: game
    extra: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.action


CASES = [
    Case("side-bets-menu", {"menu": "open"}, lambda g: g.side_bets_menu_open),
    Case(
        "side-chip",
        {"side_chip": "21+3:5"},
        lambda g: g.pending_side_bets == {"21+3": 500} and g.side_bets_menu_open,
    ),
    Case(
        "side-clear",
        {"bet": "perfect_pair"},
        lambda g: g.pending_side_bets == {"house_money": 500},
        prepare=lambda g: with_stakes(g, {"perfect_pair": 1000, "house_money": 500}),
    ),
    Case(
        "side-clear-all",
        {},
        lambda g: g.pending_side_bets == {} and not g.pending_extra_bet,
        prepare=lambda g: with_stakes(g, {"perfect_pair": 1000}, extra_bet=True),
    ),
    Case("extra-bet-activate", {"active": "on"}, lambda g: g.pending_extra_bet),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_plain_post_applies_and_redirects(case: Case, alice, player) -> None:
    game = case.prepare(betting_game(player))
    version = game.version
    response = post(alice, game, case.action, **case.data)
    assert response.status_code == 302, response.content[:500]
    # The rack's selected chip and the current spot ride along in the query (page state).
    assert response["Location"].partition("?")[0] == f"/games/{game.pk}/"
    game.refresh_from_db()
    assert game.version == version + 1
    assert case.check(game)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_htmx_post_gets_the_table_partial_with_the_side_bet_circles(
    case: Case, alice, player
) -> None:
    game = case.prepare(betting_game(player))
    response = post(alice, game, case.action, htmx=True, **case.data)
    assert response.status_code == 200
    html = response.text
    assert html.lstrip().startswith('<div id="table"')
    assert "<html" not in html
    assert 'id="status-live"' in html and 'hx-swap-oob="true"' in html
    game.refresh_from_db()
    assert case.check(game)
    assert f'data-version="{game.version}"' in html
    # The side-bet circles stay on the felt, so the next chip is one click away.
    assert 'id="side-spot-twenty-one-plus-three"' in html


@pytest.mark.parametrize("case", CASES, ids=str)
def test_stale_version_is_409_and_changes_nothing(case: Case, alice, player) -> None:
    game = case.prepare(betting_game(player))
    before = snapshot(game)
    data = {"version": str(game.version + 1), **case.data}
    response = alice.post(f"/games/{game.pk}/{case.action}/", data)
    assert response.status_code == 409
    assert "changed since the page was shown" in response.text
    htmx = alice.post(f"/games/{game.pk}/{case.action}/", data, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 409 and "<html" not in htmx.text
    assert snapshot(game) == before


@pytest.mark.parametrize("case", CASES, ids=str)
def test_another_players_game_is_404(case: Case, player, other_player, client_for) -> None:
    game = case.prepare(betting_game(player))
    before = snapshot(game)
    intruder = client_for(other_player)
    assert post(intruder, game, case.action, **case.data).status_code == 404
    assert post(intruder, game, case.action, htmx=True, **case.data).status_code == 404
    assert snapshot(game) == before


@pytest.mark.parametrize("case", CASES, ids=str)
def test_get_is_not_allowed(case: Case, alice, player) -> None:
    game = betting_game(player)
    before = snapshot(game)
    assert alice.get(f"/games/{game.pk}/{case.action}/").status_code == 405
    assert snapshot(game) == before


@pytest.mark.parametrize("case", CASES, ids=str)
def test_refused_during_a_round(case: Case, alice, player) -> None:
    game = scenarios.dealt(player)
    before = snapshot(game)
    response = post(alice, game, case.action, **case.data)
    assert response.status_code == 422
    assert "Finish the current round first." in response.text
    assert snapshot(game) == before


@pytest.mark.parametrize("case", CASES, ids=str)
def test_refused_when_side_bets_are_off(case: Case, alice, player) -> None:
    game = case.prepare(betting_game(player, side_bets=False))
    before = snapshot(game)
    response = post(alice, game, case.action, **case.data)
    assert response.status_code == 422
    assert "Side bets are switched off at this table." in response.text
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("action", "data", "message"),
    [
        ("side-chip", {"side_chip": "lucky_ladies:3"}, "There is no such chip."),
        ("side-chip", {"side_chip": "lucky_ladies:-5"}, "There is no such chip."),
        ("side-chip", {"side_chip": "lucky_ladies:five"}, "There is no such chip."),
        ("side-chip", {"side_chip": "lucky_ladies"}, "There is no such chip."),
        ("side-chip", {}, "There is no such chip."),
        ("side-chip", {"side_chip": "insurance:5"}, "There is no such side bet."),
        ("side-chip", {"side_chip": "extra_bet_blackjack:5"}, "There is no such side bet."),
        ("side-chip", {"side_chip": ":5"}, "There is no such side bet."),
        ("side-chip", {"side_chip": "21+3:5", "amount": "abc"}, "Enter an amount in dollars"),
        ("side-chip", {"side_chip": "21+3:5", "amount": "-5"}, "Enter an amount in dollars"),
        ("side-chip", {"side_chip": "21+3:5", "amount": "1.234"}, "Enter an amount in dollars"),
        ("side-chip", {"side_chip": "21+3:5", "amount": "10000.01"}, "The maximum bet"),
        ("side-chip", {"side_chip": "21+3:500", "amount": "600"}, "does not cover bets of"),
        ("side-clear", {"bet": "nothing"}, "There is no such side bet."),
        ("side-clear", {}, "There is no such side bet."),
        ("side-clear-all", {"amount": "0"}, "Place a bet first."),
        ("extra-bet-activate", {"active": "yes"}, "Choose Activate or Deactivate."),
        ("extra-bet-activate", {}, "Choose Activate or Deactivate."),
        ("side-bets-menu", {"menu": "toggle"}, "Open or close the side-bet menu."),
        ("side-bets-menu", {}, "Open or close the side-bet menu."),
    ],
)
def test_bad_input_is_400_with_a_message_and_changes_nothing(
    action: str, data: dict[str, str], message: str, alice, player
) -> None:
    game = betting_game(player)
    before = snapshot(game)
    response = post(alice, game, action, **data)
    assert response.status_code == 422
    assert 'class="table-notice" role="alert"' in response.text
    assert message in response.text
    htmx = post(alice, game, action, htmx=True, **data)
    assert htmx.status_code == 422 and 'role="alert"' in htmx.text
    assert snapshot(game) == before


def test_chips_add_up_per_bet_and_the_typed_base_bet_is_kept(alice, player) -> None:
    game = betting_game(player)
    post(alice, game, "side-chip", side_chip="21+3:5")
    post(alice, game, "side-chip", side_chip="21+3:25")
    post(alice, game, "side-chip", side_chip="lucky_ladies:1", amount="12.50")
    game.refresh_from_db()
    assert game.pending_side_bets == {"21+3": 3000, "lucky_ladies": 100}
    assert game.pending_bet_cents == 1250
    assert status_line(game) == "Lucky Ladies $1.00. Side bets $31.00."
    page = alice.get(f"/games/{game.pk}/").text
    assert 'data-testid="stake-twenty-one-plus-three">$30.00<' in page
    assert 'data-testid="side-bet-total">Side bets $31.00<' in page
    assert 'id="bet-amount" name="amount"' in page and 'value="12.50"' in page


def test_a_stake_must_reach_the_table_minimum(alice, player) -> None:
    game = betting_game(player, min_bet="5.00")
    before = snapshot(game)
    response = post(alice, game, "side-chip", side_chip="house_money:1")
    assert response.status_code == 422
    assert "A side bet must be at least $5.00." in response.text
    assert snapshot(game) == before
    assert post(alice, game, "side-chip", side_chip="house_money:5").status_code == 302
    assert post(alice, game, "side-chip", side_chip="house_money:1").status_code == 302
    game.refresh_from_db()
    assert game.pending_side_bets == {"house_money": 600}


def test_all_bets_together_must_fit_in_the_bank(alice, player) -> None:
    game = with_stakes(betting_game(player), {"perfect_pair": 50_000})
    Game.objects.filter(pk=game.pk).update(pending_bet_cents=40_000)
    before = snapshot(game)
    # $400 base + $500 + $100 = $1,000: exactly the bank.
    assert post(alice, game, "side-chip", side_chip="21+3:100").status_code == 302
    game.refresh_from_db()
    assert game.pending_side_bets == {"perfect_pair": 50_000, "21+3": 10_000}
    before = snapshot(game)
    response = post(alice, game, "side-chip", side_chip="21+3:1")
    assert response.status_code == 422
    assert "Your bank of $1,000.00 does not cover bets of $1,001.00." in response.text
    assert snapshot(game) == before


def test_a_base_chip_counts_the_side_bets_against_the_bank(alice, player) -> None:
    game = with_stakes(betting_game(player), {"perfect_pair": 99_500})
    before = snapshot(game)
    response = post(alice, game, "chip", chip="10")
    assert response.status_code == 422
    assert "does not cover that" in response.text
    assert snapshot(game) == before
    assert post(alice, game, "chip", chip="5").status_code == 302
    game.refresh_from_db()
    assert game.pending_bet_cents == 500


def test_side_stakes_have_no_table_maximum(alice, player) -> None:
    # Decision (RULES.md §9): a side stake runs from the table minimum up to the bank.
    game = betting_game(player, max_bet="5.00")
    for _ in range(3):
        assert post(alice, game, "side-chip", side_chip="perfect_11s:5").status_code == 302
    game.refresh_from_db()
    assert game.pending_side_bets == {"perfect_11s": 1500}


def test_extra_bet_activates_and_deactivates(alice, player) -> None:
    game = with_stakes(betting_game(player), {"perfect_pair": 500})
    post(alice, game, "extra-bet-activate", active="on")
    game.refresh_from_db()
    assert game.pending_extra_bet and game.pending_side_bets == {"perfect_pair": 500}
    page = alice.get(f"/games/{game.pk}/").text
    assert ">Deactivate</button>" in page and ">Activate</button>" not in page
    assert "Extra Bet Blackjack active" in page
    post(alice, game, "extra-bet-activate", active="off")
    game.refresh_from_db()
    assert not game.pending_extra_bet
    assert ">Activate</button>" in alice.get(f"/games/{game.pk}/").text


def test_the_side_bet_circles_are_on_the_felt_with_no_drawer(alice, player) -> None:
    game = betting_game(player)
    page = alice.get(f"/games/{game.pk}/").text
    assert 'id="side-bets-toggle"' not in page and "<fieldset" not in page
    for label in ("Perfect Pair", "21+3", "Perfect 11s", "House Money", "Lucky Ladies"):
        assert f'<span class="side-circle__label">{label}</span>' in page
        assert f'aria-label="{label} rules">i</a>' in page
    assert 'aria-label="Extra Bet Blackjack rules">i</a>' in page and ">Activate</button>" in page
    # One button per circle, each adding the selected chip ($5 until another is pressed).
    assert page.count('name="side_chip"') == 5
    assert 'value="21+3:5"' in page
    assert f'href="/rules/side-bets/?game={game.pk}#twenty-one-plus-three"' in page
    assert "1000:1" in page
    # An old page's Side Bets button still gets an answer (the circles are there either way).
    assert post(alice, game, "side-bets-menu", menu="open").status_code == 302
    assert 'id="side-spot-perfect-pair"' in alice.get(f"/games/{game.pk}/").text


def test_side_bets_off_hides_the_menu_and_the_button(alice, player) -> None:
    game = with_stakes(betting_game(player, side_bets=False), {"21+3": 500}, extra_bet=True)
    page = alice.get(f"/games/{game.pk}/").text
    assert "Side Bets" not in page and "side-spots" not in page and "side_chip" not in page
    assert ">Deal</button>" in page
    # Stakes left from before the option went off are not dealt (and are forgotten).
    post(alice, game, "deal", amount="10")
    game.refresh_from_db()
    assert game.bank_cents == 99_000
    assert game.state["round"]["side_stakes"] == {}
    assert game.pending_side_bets == {} and not game.pending_extra_bet


def test_deal_with_side_bets_switched_off_is_refused_by_the_service(player) -> None:
    game = betting_game(player, side_bets=False)
    before = snapshot(game)
    with pytest.raises(ActionRefused) as refused:
        services.place_bet_and_deal(
            game_id=game.pk,
            user=player,
            version=game.version,
            bet_cents=1000,
            side_bets={"21+3": 500},
        )
    assert "switched off" in refusal_text(refused.value)
    assert snapshot(game) == before


def test_deal_takes_the_menus_stakes_and_pays_the_winner(alice, player) -> None:
    game = with_stakes(
        betting_game(player, TWENTY_ONE_PLUS_THREE_WINS),
        {"perfect_pair": 500, "21+3": 500, "house_money": 500},
        extra_bet=True,
    )
    assert post(alice, game, "deal", amount="10").status_code == 302
    game.refresh_from_db()
    round_state = game.state["round"]
    assert round_state["side_stakes"] == {"perfect_pair": 500, "21+3": 500, "house_money": 500}
    assert round_state["extra_bet_active"] is True
    assert post(alice, game, "stand").status_code == 302
    game.refresh_from_db()
    # $1,000 - $10 - 3 × $5 + $5 × 36 (21+3 straight flush, 35:1) = $1,155.
    assert game.bank_cents == 115_500
    results = {bet.name: (bet.result, bet.winnings_cents) for bet in SideBet.objects.all()}
    assert results == {
        "perfect_pair": ("lose", 0),
        "21+3": ("win", 18_000),
        "house_money": ("lose", 0),
    }
    page = alice.get(f"/games/{game.pk}/").text
    assert "$180.00" in page
    # The stakes stay as next round's defaults.
    post(alice, game, "next-round")
    game.refresh_from_db()
    assert game.pending_side_bets == {"perfect_pair": 500, "21+3": 500, "house_money": 500}
    assert game.pending_extra_bet and game.pending_bet_cents == 1000


def test_next_round_caps_the_default_stakes_to_the_bank(alice, player) -> None:
    game = with_stakes(
        betting_game(player, NOTHING_WINS, starting_bank="100.00"),
        {"perfect_pair": 4000, "21+3": 3000},
    )
    post(alice, game, "deal", amount="10")
    post(alice, game, "stand")
    game.refresh_from_db()
    assert game.bank_cents == 2000  # $100 - $80, every bet lost
    post(alice, game, "next-round")
    game.refresh_from_db()
    # $20 left: the $10 base bet, then Perfect Pair cut to $10; 21+3 no longer fits.
    assert game.pending_bet_cents == 1000
    assert game.pending_side_bets == {"perfect_pair": 1000}


@pytest.mark.parametrize(
    ("stakes", "base", "bank", "minimum", "expected"),
    [
        ({"21+3": 500}, 1000, 100_000, 100, {"21+3": 500}),
        ({"21+3": 500, "perfect_pair": 500}, 1000, 1500, 100, {"perfect_pair": 500}),
        ({"lucky_ladies": 900}, 1000, 1500, 100, {"lucky_ladies": 500}),
        ({"lucky_ladies": 900}, 1000, 1050, 100, {}),
        ({"lucky_ladies": 900, "house_money": 900}, 0, 1000, 500, {"house_money": 900}),
        ({}, 1000, 100, 100, {}),
    ],
)
def test_fit_side_stakes(
    stakes: dict[str, int], base: int, bank: int, minimum: int, expected: dict[str, int]
) -> None:
    fitted = fit_side_stakes(stakes, base_cents=base, bank_cents=bank, min_cents=minimum)
    assert fitted == expected
    assert base + sum(fitted.values()) <= max(bank, base)


def test_clear_bet_clears_the_side_bets_too(alice, player) -> None:
    # RULES.md: "Clear Bet" resets the base bet and the side bets.
    game = with_stakes(betting_game(player), {"21+3": 500}, extra_bet=True)
    post(alice, game, "clear-bet")
    game.refresh_from_db()
    assert game.pending_bet_cents == 0
    assert game.pending_side_bets == {} and not game.pending_extra_bet


def test_the_menu_view_model() -> None:
    game = Game(
        options={"side_bets": True},
        pending_side_bets={"21+3": 500, "lucky_ladies": 100, "bogus": 7, "house_money": True},
        pending_extra_bet=True,
        side_bets_menu_open=True,
    )
    menu = side_bet_menu(game)
    assert menu.available and menu.open and menu.extra_bet_active
    assert [line.label for line in menu.lines] == [
        "Perfect Pair",
        "21+3",
        "Perfect 11s",
        "House Money",
        "Lucky Ladies",
    ]
    assert {line.name: line.stake for line in menu.lines}["21+3"] == 500
    assert menu.total == 600
    assert pays_up_to("perfect_11s") == "Pays up to 720 to 1"
    assert pays_up_to("house_money") == "Pays up to 9 to 1"
    off = side_bet_menu(Game(options={"side_bets": False}, pending_side_bets={"21+3": 500}))
    assert not off.available and not off.open and off.total == 0


def test_side_actions_take_few_queries(alice, player, django_assert_max_num_queries) -> None:
    game = betting_game(player)
    for action, data in (
        ("side-bets-menu", {"menu": "open"}),
        ("side-chip", {"side_chip": "21+3:5"}),
        ("side-clear", {"bet": "21+3"}),
        ("extra-bet-activate", {"active": "on"}),
        ("side-clear-all", {}),
    ):
        game.refresh_from_db()
        with django_assert_max_num_queries(12):
            post(alice, game, action, htmx=True, **data)
    with django_assert_max_num_queries(6):
        assert alice.get(f"/games/{game.pk}/").status_code == 200


@pytest.mark.parametrize(("stakes", "stays_open"), [({}, False), ({"21+3": 500}, True)])
def test_the_drawer_is_closed_between_rounds_unless_stakes_ride_in_it(
    player, stakes: dict[str, int], stays_open: bool
) -> None:
    game = with_stakes(betting_game(player), stakes, menu_open=True)
    game = services.place_bet_and_deal(
        game_id=game.pk, user=player, version=game.version, bet_cents=1000
    ).game
    for action in (services.stand, services.next_round):
        game = action(game_id=game.pk, user=player, version=game.version).game
    assert game.side_bets_menu_open is stays_open


def test_chips_put_in_the_drawer_land_in_their_circles_and_show_how_they_ended(
    alice, player
) -> None:
    game = with_stakes(
        betting_game(player, TWENTY_ONE_PLUS_THREE_WINS), {"21+3": 500}, menu_open=False
    )
    page = alice.get(f"/games/{game.pk}/").text
    circle = re.search(
        r'<li class="side-circle side-spot" data-side-circle="twenty-one-plus-three".*?</li>',
        page,
        re.S,
    )
    assert circle and "$5.00" in circle.group(0)
    post(alice, game, "deal", amount="10")
    page = alice.get(f"/games/{game.pk}/").text
    # 7H 9H with the dealer's 8H: a straight flush, 35 to 1: $175.00 won beyond the stake.
    won = re.search(r'<li class="side-circle side-circle--won"[^>]*>.*?</li>', page)
    assert won and "twenty-one-plus-three" in won.group(0) and ">+$175.00<" in won.group(0)
