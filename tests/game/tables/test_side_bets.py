"""Side bets at a shared table (TABLES.md T-5 … T-7, RULES.md §9, R-4.3): stakes placed
with the bet and checked by the engine, settled for each box after the deal with the money
exact in each seat's bank, the extra bet / parlay / dice answered by every player concerned
at once (in any order, defaults on a time-out), and what everyone sees of them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from game.core.errors import ActionRefused
from game.rules import sidebets as sb
from game.rules.cards import card_name
from game.rules.money import CHIP_DOLLARS
from game.tables import services
from game.tables.forms import CreateTableForm, TableOptionsForm
from game.tables.models import Seat, SharedTable, TableEvent
from game.tables.presentation import event_text, table_scene, view_for
from tests.game.tables.helpers import engine_of, seat_version

pytestmark = pytest.mark.django_db

# Deal order with ana in seat 1 (box 1) and ben in seat 3 (box 2): ana, ben, hole, ana,
# ben, upcard. Ana 7H 8H with the 9H up: a straight flush for 21+3 (35:1); ben 5S 6H: a
# mixed 11 for Perfect 11s (3:1, no dice). Dealer 0D 9H: 19, no peek, no insurance.
AFTER_DEAL = ["7H", "5S", "0D", "8H", "6H", "9H", "2C", "3C"]
# Ana 5H 6H: a suited 11 (Perfect 11s rolls the dice) and a straight flush (House Money
# 4:1); ben 0C JC: a ten-card first (the extra bet) and a straight flush (House Money).
# Dealer 8D 9D: 17, so no natural: the parlay is offered once the dice and the extra bet
# are answered.
OFFERS = ["5H", "0C", "8D", "6H", "JC", "9D", "2C", "3C"]
# Ana 5H 6H and ben 4S 7S: two suited 11s, both roll. Dealer 8D 9D (17).
TWO_ROLLS = ["5H", "4S", "8D", "6H", "7S", "9D", "2C", "3C"]
BANK = 100_000


def side_chip(table: SharedTable, user: Any, bet: str, dollars: int) -> Seat:
    return services.add_side_chip(
        table_id=table.pk,
        user=user,
        version=seat_version(table, user),
        bet=bet,
        chip_cents=dollars * 100,
    )


def place(table: SharedTable, user: Any, dollars: int = 10, **stakes: int) -> None:
    """The bet, side stakes by name (``twenty_one_plus_three`` for "21+3") and Ready."""
    services.add_chip(
        table_id=table.pk, user=user, version=seat_version(table, user), chip_cents=dollars * 100
    )
    for name, stake in stakes.items():
        if name == "extra_bet":
            services.activate_extra_bet(
                table_id=table.pk, user=user, version=seat_version(table, user), active=True
            )
            continue
        for chip in chips_for(stake):
            side_chip(table, user, BET_NAMES.get(name, name), chip)
    services.ready(table_id=table.pk, user=user, version=seat_version(table, user))


BET_NAMES = {"twenty_one_plus_three": sb.TWENTY_ONE_PLUS_THREE}


def chips_for(dollars: int) -> list[int]:
    """``dollars`` as chips, largest first ($2 is two $1 chips)."""
    chips = []
    for chip in sorted(CHIP_DOLLARS, reverse=True):
        while dollars >= chip:
            chips.append(chip)
            dollars -= chip
    return chips


def answer(table: SharedTable, user: Any, offer_answer: str, amount: int | None = None) -> None:
    services.answer_offer(
        table_id=table.pk,
        user=user,
        version=seat_version(table, user),
        answer=offer_answer,
        amount_cents=amount,
    )


def stand(table: SharedTable, user: Any) -> None:
    services.play(table_id=table.pk, user=user, version=seat_version(table, user), action="stand")


def with_dice(table: SharedTable, dice: list[int]) -> None:
    """The Infinity dice the table rolls next, in order (the engine's replay queue)."""
    table.refresh_from_db()
    SharedTable.objects.filter(pk=table.pk).update(state={**table.state, "dice_queue": dice})


def bank_of(table: SharedTable, user: Any) -> int:
    return Seat.objects.get(table=table, player=user).bank_cents


def offers(table: SharedTable) -> list[str | None]:
    engine = engine_of(table)
    return [engine.offer_for_box(box) for box in range(len(engine.round.boxes))]


def log(table: SharedTable) -> list[str]:
    return [event_text(e) for e in TableEvent.objects.filter(table=table).order_by("seq")]


def seat_lines(table: SharedTable, viewer: Any, number: int) -> list[str]:
    table.refresh_from_db()
    view = view_for(table_scene(table), viewer)
    return list(next(s for s in view.seats if s.number == number).side_bets)


def refusal(call: Any) -> ActionRefused:
    with pytest.raises(ActionRefused) as refused:
        call()
    return refused.value


# --------------------------------------------------------------------- options


def test_the_host_chooses_side_bets_at_create_table_and_in_table_options():
    create = CreateTableForm(initial=CreateTableForm.initial_for({}))
    assert "side_bets" in create.fields and "coach" not in create.fields
    assert create.initial["side_bets"] is True  # RULES.md §10's default
    form = TableOptionsForm(
        data={**_bound(TableOptionsForm.initial_for({})), "side_bets": ""},
    )
    assert form.is_valid(), form.errors
    assert form.to_options()["side_bets"] is False
    form = TableOptionsForm(data={**_bound(TableOptionsForm.initial_for({})), "side_bets": "on"})
    assert form.is_valid(), form.errors
    options = form.to_options()
    assert options["side_bets"] is True and "coach" not in options


def _bound(initial: dict[str, Any]) -> dict[str, str]:
    data = {}
    for name, value in initial.items():
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = str(value)
    return data


def test_the_lobby_says_which_tables_play_side_bets(make_table, ana):
    make_table(side_bets=True)
    make_table(side_bets=False)
    client = Client()
    client.force_login(ana)
    page = client.get(reverse("tables:lobby")).content.decode()
    assert page.count("trivia off · side bets<") == 1
    assert page.count("trivia off<") == 1


# --------------------------------------------------------------------- betting (T-5)


def test_side_stakes_ride_with_the_bet_and_settle_for_each_box_after_the_deal(
    seated_pair, ana, ben
):
    table = seated_pair(AFTER_DEAL)
    place(table, ana, 10, twenty_one_plus_three=5)
    place(table, ben, 10, perfect_11s=5)
    # settled right after the deal, before anyone plays: 21+3 straight flush 35:1
    # (5 + 175), Perfect 11s mixed 11 3:1 (5 + 15), each into its own seat's bank.
    assert bank_of(table, ana) == BANK - 1_000 - 500 + 18_000
    assert bank_of(table, ben) == BANK - 1_000 - 500 + 2_000
    records = engine_of(table).round.side_bets
    assert [(r["box"], r["name"], r["winnings"]) for r in records] == [
        (1, "21+3", 18_000),
        (2, "perfect_11s", 2_000),
    ]
    assert seat_lines(table, ben, 1) == ["21+3 $5.00: Won — Straight flush, paid $180.00"]
    assert seat_lines(table, ana, 3) == ["Perfect 11s $5.00: Won — Mixed 11, paid $20.00"]
    stand(table, ana)
    stand(table, ben)  # the dealer's 19 beats 15 and 11
    assert bank_of(table, ana) == BANK - 1_000 - 500 + 18_000
    assert bank_of(table, ben) == BANK - 1_000 - 500 + 2_000
    lines = log(table)
    assert "ana (seat 1) bets $10.00 and $5.00 on side bets, and is ready." in lines
    assert "ana (seat 1): 21+3 wins — Straight flush, 35 to 1: paid $180.00." in lines
    assert "ben (seat 3): Perfect 11s wins — Mixed 11, 3 to 1: paid $20.00." in lines
    # They stay as the next round's defaults, as the bet does.
    seat = Seat.objects.get(table=table, player=ana)
    assert (seat.bet_cents, seat.side_bets, seat.extra_bet) == (1_000, {"21+3": 500}, False)


def test_side_stakes_are_refused_beyond_the_limits_and_the_bank_and_nothing_changes(
    seated_pair, ana, ben
):
    table = seated_pair(min_bet="5.00")
    services.add_chip(
        table_id=table.pk, user=ana, version=seat_version(table, ana), chip_cents=1_000
    )
    # §9: a side stake is at least the table minimum.
    assert refusal(lambda: side_chip(table, ana, "21+3", 1)).details == {
        "text": "A side bet must be at least $5.00"
    }
    assert refusal(lambda: side_chip(table, ana, "no_such_bet", 5)).reason == "no_such_side_bet"
    assert refusal(lambda: side_chip(table, ana, "21+3", 3)).reason == "no_such_chip"
    # the bet and the side bets together within the seat's own bank.
    Seat.objects.filter(player=ana).update(bank_cents=2_000)
    side_chip(table, ana, "21+3", 5)
    side_chip(table, ana, "21+3", 5)
    assert refusal(lambda: side_chip(table, ana, "perfect_pair", 5)).details == {
        "text": "Your bank of $20.00 does not cover bets of $25.00"
    }
    assert refusal(
        lambda: services.add_chip(
            table_id=table.pk, user=ana, version=seat_version(table, ana), chip_cents=500
        )
    ).details == {"text": "Your bank of $20.00 does not cover bets of $25.00"}
    seat = Seat.objects.get(player=ana)
    assert (seat.bet_cents, seat.side_bets) == (1_000, {"21+3": 1_000})
    # A stake stored below the minimum (say, from before the minimum rose) is refused at
    # Ready by the engine's own check, before it could refuse the whole deal.
    Seat.objects.filter(player=ana).update(side_bets={"21+3": 100}, bank_cents=BANK)
    assert (
        "at least $5.00"
        in refusal(
            lambda: services.ready(table_id=table.pk, user=ana, version=seat_version(table, ana))
        ).details["text"]
    )
    assert not Seat.objects.get(player=ana).ready


def test_side_bets_off_refuses_stakes_and_ignores_the_ones_kept(seated_pair, ana, ben):
    table = seated_pair(AFTER_DEAL, side_bets=False)
    assert refusal(lambda: side_chip(table, ana, "21+3", 5)).reason == "side_bets_off"
    # Stakes kept from when the host had them on ride not: the deal takes the bet alone.
    Seat.objects.filter(player=ana).update(side_bets={"21+3": 500}, extra_bet=True)
    place(table, ana, 10)
    place(table, ben, 10)
    assert bank_of(table, ana) == BANK - 1_000
    assert engine_of(table).round.boxes[0].side_stakes == {}
    assert seat_lines(table, ben, 1) == []


def test_clear_takes_back_the_bet_the_side_bets_and_the_extra_bet(seated_pair, ana):
    table = seated_pair()
    side_chip(table, ana, "21+3", 5)
    services.activate_extra_bet(
        table_id=table.pk, user=ana, version=seat_version(table, ana), active=True
    )
    assert seat_lines(table, ana, 1) == ["21+3 $5.00", "Extra Bet Blackjack active"]
    services.clear_side_bet(
        table_id=table.pk, user=ana, version=seat_version(table, ana), bet="21+3"
    )
    assert Seat.objects.get(player=ana).side_bets == {}
    side_chip(table, ana, "lucky_ladies", 25)
    services.clear_bet(table_id=table.pk, user=ana, version=seat_version(table, ana))
    seat = Seat.objects.get(player=ana)
    assert (seat.bet_cents, seat.side_bets, seat.extra_bet) == (0, {}, False)


def test_the_next_rounds_side_stakes_are_cut_to_what_the_bank_still_covers(seated_pair, ana, ben):
    # Ana 0S 7D (17) against the dealer's 18 loses her bet; 21+3 and Perfect Pair lose too.
    table = seated_pair(["0S", "9S", "0H", "7D", "7C", "8C", "5H", "9H", "4C"])
    Seat.objects.filter(player=ana).update(bank_cents=3_000)
    place(table, ana, 10, twenty_one_plus_three=10, perfect_pair=5)
    place(table, ben, 10)
    assert bank_of(table, ana) == 500
    stand(table, ana)
    stand(table, ben)
    seat = Seat.objects.get(player=ana)
    # The $10 bet no longer fits the $5 left: cleared; the side stakes, in menu order,
    # keep what the bank covers (sb.fit_side_stakes, as the single-player game).
    assert (seat.bank_cents, seat.bet_cents) == (500, 0)
    assert seat.side_bets == {"perfect_pair": 500}


# --------------------------------------------------------------------- decisions (T-7)


def test_the_dice_the_extra_bet_and_the_parlay_answered_by_both_players_in_any_order(
    seated_pair, ana, ben
):
    table = seated_pair(OFFERS)
    with_dice(table, [1, 2, 3])  # no infinity: suited 11, 15:1
    place(table, ana, 10, perfect_11s=1, house_money=1)
    place(table, ben, 10, house_money=2, extra_bet=1)
    assert offers(table) == ["roll", None]
    # Ben's extra bet is not on offer yet (the dice stage is open): refused, nothing changes.
    version = SharedTable.objects.get(pk=table.pk).version
    assert refusal(lambda: answer(table, ben, "extra_bet", 1_000)).reason == "rule"
    assert SharedTable.objects.get(pk=table.pk).version == version
    answer(table, ana, "roll")
    assert bank_of(table, ana) == BANK - 1_200 + 1_600  # Perfect 11s 1 + 15
    assert offers(table) == [None, "extra_bet"]
    refused = refusal(lambda: answer(table, ben, "extra_bet", 5_001))
    assert refused.details == {"text": "The extra bet can be at most 5× the base bet, $50.00"}
    assert refusal(lambda: answer(table, ben, "extra_bet")).reason == "no_amount"
    answer(table, ben, "extra_bet", 1_000)
    assert bank_of(table, ben) == BANK - 1_200 - 1_000 - 200  # the stake and its 20% fee
    assert offers(table) == ["parlay", "parlay"]
    # Ben answers first (kept until the stage reaches his box), then ana.
    answer(table, ben, "parlay:all")
    assert offers(table) == ["parlay", None]
    answer(table, ana, "parlay:collect")
    engine = engine_of(table)
    assert engine.box_in_turn() == 0
    assert bank_of(table, ana) == BANK - 1_200 + 1_600 + 500  # House Money 1 + 4
    assert engine.round.hands[1].bet == 1_000 + 1_000  # ben's 2 + 8 ride on his hand
    stand(table, ana)
    stand(table, ben)  # 11 loses, 20 wins against the dealer's 17
    assert bank_of(table, ana) == BANK - 1_200 + 1_600 + 500
    # Ben: his hand of 20 pays 2 × 20; the extra bet follows it, 2:1 (fee kept).
    assert bank_of(table, ben) == BANK - 1_200 - 1_200 + 4_000 + 3_000
    lines = log(table)
    assert "ana (seat 1) rolls the Infinity dice: 1, 2, 3." in lines
    assert "ben (seat 3) places an extra bet of $10.00 (fee $2.00)." in lines
    assert "ben (seat 3) parlays $10.00 onto the hand: the bet is now $20.00." in lines
    assert "ben (seat 3): Extra Bet Blackjack wins — Hand 1 wins, 2 to 1: paid $30.00." in lines
    assert "ben (seat 3): House Money wins — Straight flush, 4 to 1: $10.00 parlayed." in lines
    assert "ana (seat 1): House Money wins — Straight flush, 4 to 1: paid $5.00." in lines
    assert seat_lines(table, ana, 3) == [
        "House Money $2.00: Won — Straight flush, $10.00 parlayed",
        "Extra Bet Blackjack $10.00 (fee $2.00): Won — Hand 1 wins, paid $30.00",
    ]


def test_the_offer_panels_take_their_figures_from_the_scenes_one_public_view(
    seated_pair, ana, ben, watcher, monkeypatch
):
    """Each viewer's offer panel reads the scene's public view of the round: the engine's
    public view is built once per scene, not once more per viewer."""
    from game.tables import presentation
    from game.tables.presentation import table_scene, view_for

    table = seated_pair(OFFERS)
    with_dice(table, [1, 2, 3])
    place(table, ana, 10, perfect_11s=1, house_money=1)
    place(table, ben, 10, house_money=2, extra_bet=1)
    answer(table, ana, "roll")
    answer(table, ben, "extra_bet", 1_000)  # the parlay is open to both
    table.refresh_from_db()
    calls = []
    public_view = presentation.scene.public_view

    def counted(engine):
        calls.append(engine)
        return public_view(engine)

    monkeypatch.setattr(presentation.scene, "public_view", counted)
    scene = table_scene(table)
    views = [view_for(scene, viewer) for viewer in (ana, ben, watcher, ana)]
    assert len(calls) == 1
    assert [view.offer for view in views] == ["parlay", "parlay", "", "parlay"]
    assert views[0].parlay is not None and views[1].parlay is not None
    assert views[0].parlay.base_bet == 1_000 and views[1].parlay.base_bet == 1_000
    assert views[0].offer_text != views[1].offer_text  # each box's own figures


def test_both_players_roll_their_dice_in_either_order(seated_pair, ana, ben):
    table = seated_pair(TWO_ROLLS)
    with_dice(table, [6, 6, 1, 6, 2, 3])  # box 1: two infinities 16:1; box 2: one, 15:1
    place(table, ana, 10, perfect_11s=1)
    place(table, ben, 10, perfect_11s=2)
    assert offers(table) == ["roll", "roll"]
    answer(table, ben, "roll")  # kept: box 1 rolls first, whoever answered first
    assert bank_of(table, ben) == BANK - 1_200
    answer(table, ana, "roll")
    assert bank_of(table, ana) == BANK - 1_100 + 100 + 1_600
    assert bank_of(table, ben) == BANK - 1_200 + 200 + 3_000
    assert engine_of(table).box_in_turn() == 0


def test_a_time_out_applies_the_default_to_whoever_did_not_answer(seated_pair, ana, ben, clock):
    table = seated_pair(OFFERS)
    with_dice(table, [1, 2, 3])
    place(table, ana, 10, perfect_11s=1, house_money=1)
    place(table, ben, 10, house_money=2, extra_bet=1)
    clock.advance(seconds=20)  # T-7: turn_seconds, 20 s at a shared table
    assert services.apply_due_deadlines() == 1
    assert bank_of(table, ana) == BANK - 1_200 + 1_600  # the dice rolled by themselves
    assert offers(table) == [None, "extra_bet"]
    clock.advance(seconds=20)
    services.apply_due_deadlines()
    assert engine_of(table).round.boxes[1].extra_bet is None  # declined
    answer(table, ana, "parlay:all")
    clock.advance(seconds=20)
    services.apply_due_deadlines()
    engine = engine_of(table)
    assert engine.box_in_turn() == 0
    # Ben collected his House Money (2 + 8); ana's 1 + 4 rides on her hand.
    assert bank_of(table, ben) == BANK - 1_200 + 1_000
    assert [hand.bet for hand in engine.round.hands] == [1_500, 1_000]
    lines = log(table)
    assert "ana (seat 1) ran out of time: the Infinity dice roll by themselves." in lines
    assert "ben (seat 3) ran out of time: the extra bet is declined." in lines
    assert "ben (seat 3) ran out of time: House Money is collected." in lines
    assert not any("ana (seat 1) ran out of time: House Money" in line for line in lines)


# --------------------------------------------------------------------- what everyone sees


def test_a_bet_on_the_hole_card_stays_pending_and_gives_nothing_away(
    seated_pair, ana, ben, watcher
):
    # The dealer's hole card KD and ana's K pair: Perfect Pair waits for the hole card.
    table = seated_pair(["KS", "9S", "KD", "KS", "7C", "8C", "5H", "9H", "4C"])
    place(table, ana, 10, perfect_pair=5)
    place(table, ben, 10)
    assert seat_lines(table, watcher, 1) == ["Perfect Pair $5.00: Pending"]
    client = Client()
    client.force_login(watcher)
    page = client.get(reverse("tables:table", args=[table.pk])).content.decode()
    assert "Perfect Pair $5.00: Pending" in page
    assert card_name("KD") not in page
    stand(table, ana)
    stand(table, ben)
    # The hole card shown: ana's two kings of spades are a perfect pair (25:1).
    assert seat_lines(table, watcher, 1) == ["Perfect Pair $5.00: Won — Perfect pair, paid $130.00"]


# --------------------------------------------------------------------- the pages


def client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(table: SharedTable, user: Any, action: str, htmx: bool = True, **data: Any) -> Any:
    payload = {"version": seat_version(table, user), **data}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client_of(user).post(
        reverse("tables:action", args=[table.pk, action]), payload, **headers
    )


def test_the_side_bets_menu_over_http(seated_pair, ana):
    table = seated_pair()
    page = client_of(ana).get(reverse("tables:table", args=[table.pk])).content.decode()
    assert 'role="button">Side Bets</summary>' in page and ">Activate</button>" in page
    response = post(table, ana, "side-chip", side_chip="21+3:5")
    assert response.status_code == 200
    assert 'data-testid="stake-twenty-one-plus-three">$5.00<' in response.content.decode()
    response = post(table, ana, "extra-bet-activate", active="on")
    assert response.status_code == 200 and ">Deactivate</button>" in response.content.decode()
    Seat.objects.filter(player=ana).update(bank_cents=700)
    response = post(table, ana, "side-chip", side_chip="perfect_pair:5")
    assert response.status_code == 422
    assert "Your bank of $7.00 does not cover bets of $10.00" in response.content.decode()
    assert post(table, ana, "side-chip", side_chip="21+3:5", htmx=False).status_code == 302
    assert post(table, ana, "extra-bet-activate", active="maybe").status_code == 422
    assert post(table, ana, "side-clear", bet="21+3").status_code == 200
    seat = Seat.objects.get(player=ana)
    assert (seat.side_bets, seat.extra_bet) == ({}, True)


def test_the_offers_over_http_carry_the_single_player_names(seated_pair, ana, ben):
    table = seated_pair(OFFERS)
    with_dice(table, [1, 2, 3])
    place(table, ana, 10, perfect_11s=1, house_money=1)
    place(table, ben, 10, house_money=2, extra_bet=1)
    url = reverse("tables:table", args=[table.pk])
    page = client_of(ana).get(url).content.decode()
    assert ">Roll</button>" in page and "Perfect 11s won" in page
    assert ">Roll</button>" not in client_of(ben).get(url).content.decode()
    response = post(table, ana, "offer", answer="roll")
    assert response.status_code == 200
    page = client_of(ben).get(url).content.decode()
    for name in ("Place Extra Bet", "Decline", "Extra bet amount"):
        assert name in page
    response = post(table, ben, "offer", answer="extra_bet", amount="51")
    assert response.status_code == 422
    assert "at most 5× the base bet, $50.00" in response.content.decode()
    response = post(table, ben, "offer", answer="extra_bet", amount="1e3")
    assert response.status_code == 422
    assert "Enter an amount in dollars, like 25 or 12.50." in response.content.decode()
    assert post(table, ben, "offer", answer="extra_bet:decline", htmx=False).status_code == 302
    page = client_of(ana).get(url).content.decode()
    for label in ("Collect", "Parlay the bet", "Parlay the profit", "Parlay all"):
        assert f">{label}</button>" in page
    response = post(table, ana, "offer", answer="parlay:bet")
    assert response.status_code == 200 and "Parlay all" not in response.content.decode()
