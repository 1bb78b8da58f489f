"""Shared rounds (TABLES.md): one dealer, 1–7 boxes, each with its own player's wallet.

Money is hand-computed per wallet; the game's own bank and credits never move. Offers
are open to every box concerned at once (T-7): answers given out of box order give the
very state answers in order give. Stage deadlines and turn deadlines (T-7, T-8).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules import sidebets as sb
from game.rules.bets import check_bets_being_built
from game.rules.clock import FakeClock
from game.rules.engine import Engine
from game.rules.money import MAX_AMOUNT_CENTS
from game.rules.options import Options
from game.rules.public import PublicBox, public_view
from game.rules.records import BoxBet, GameOver, IllegalAction, SharedBox, TriviaOutcome
from game.rules.shoe import SeededShoes, Shoe
from game.rules.storage import game_from_json, game_to_json
from tests.game.rules.helpers import event_types


def shared_game(
    cards: list[str] | None = None,
    *,
    clock: FakeClock | None = None,
    bank: int = 0,
    seed: int = 3,
    **options: object,
) -> Engine:
    """A shared table's game: its own bank is 0 (so it is "over" by R-1.5 until a shared
    round starts, which must not matter), the shoe deals ``cards`` in order."""
    shoe = Shoe.from_cards(cards) if cards is not None else None
    return Engine(
        Options.from_dict({"trivia_mode": False, **options}),
        rng=random.Random(seed),
        bank=bank,
        shoe=shoe,
        clock=clock if clock is not None else FakeClock(0),
    )


def _boxes(game: Engine) -> tuple[PublicBox, ...]:
    """The boxes of the round in ``game``'s public view."""
    round_ = public_view(game).round
    assert round_ is not None and round_.boxes is not None
    return round_.boxes


def wallets(game: Engine) -> list[tuple[int, int]]:
    assert game.round is not None
    return [game.box_wallet(index) for index in range(len(game.round.boxes))]


def play_turns(game: Engine, *actions: str) -> None:
    """Play the turn actions in order, whichever box is in turn."""
    for action in actions:
        assert game.box_in_turn() is not None
        getattr(game, action)()


# --------------------------------------------------------------------------- money


def test_win_push_and_lose_are_paid_into_each_box_wallet() -> None:
    # Box 1 0S 9S (19), box 2 9H 8H (17), box 3 0C 6C (16); dealer 0D 7D (17).
    game = shared_game(["0S", "9H", "0C", "0D", "9S", "8H", "6C", "7D"])
    events = game.start_shared_round(
        [
            SharedBox(1000, bank=5000, credits=10),
            SharedBox(2000, bank=3000, credits=7),
            SharedBox(500, bank=500, credits=10),
        ]
    )
    round_ = game.round
    assert [hand.cards for hand in round_.hands] == [["0S", "9S"], ["9H", "8H"], ["0C", "6C"]]
    assert round_.dealer == ["0D", "7D"]
    assert wallets(game) == [(4000, 10), (1000, 7), (0, 10)]  # the bets taken at the deal
    placed = [event for event in events if event["type"] == "bets_placed"]
    assert [event["box"] for event in placed] == [1, 2, 3]
    assert game.box_in_turn() == 0
    play_turns(game, "stand", "stand", "stand")
    assert round_.over and game.box_in_turn() is None
    assert [hand.result for hand in round_.hands] == ["win", "push", "lose"]
    assert wallets(game) == [(6000, 10), (3000, 7), (0, 10)]
    assert game.bank == 0 and game.credits == 10 and not game.game_over
    # The house: staked 3500, paid 4000 — the wallets gained 1000 + 0 - 500 = 500.
    assert (round_.staked, round_.paid) == (3500, 4000)


def test_natural_double_and_split_use_the_wallet_of_their_box() -> None:
    # Box 1 AS KS (natural), box 2 5H 6H (11, doubles onto 9C: 20), box 3 8C 8D (split:
    # 8C 0H 18, 8D 9D 17); dealer 0D 7S (17, no peek against a 7).
    cards = ["AS", "5H", "8C", "0D", "KS", "6H", "8D", "7S", "9C", "0H", "9D"]
    game = shared_game(cards)
    game.start_shared_round(
        [
            SharedBox(1000, bank=10_000, credits=10),
            SharedBox(1000, bank=2000, credits=10),
            SharedBox(1000, bank=2000, credits=10),
        ]
    )
    assert game.box_in_turn() == 1  # box 1's natural needs no decision
    play_turns(game, "double")
    assert wallets(game)[1] == (0, 10)
    assert game.legal_actions()["split"] == "allowed"
    play_turns(game, "split")
    assert wallets(game)[2] == (0, 10)
    play_turns(game, "stand", "stand")
    round_ = game.round
    assert round_.over
    assert [hand.result for hand in round_.hands] == ["natural", "win", "win", "push"]
    # Box 1: 10000 - 1000 + 2500; box 2: 0 + 4000; box 3: 0 + 2000 + 1000.
    assert wallets(game) == [(11_500, 10), (4000, 10), (3000, 10)]


def test_a_double_or_split_is_refused_when_its_own_wallet_does_not_cover_it() -> None:
    # Box 1 8C 8D, box 2 5H 6H; the game's own bank is large, the wallets small.
    game = shared_game(["8C", "5H", "0D", "8D", "6H", "7S", "2C", "3C"], bank=1_000_000)
    game.start_shared_round(
        [SharedBox(1000, bank=1500, credits=10), SharedBox(1000, bank=1000, credits=10)]
    )
    assert "does not cover" in game.legal_actions()["split"]
    assert "does not cover" in game.legal_actions()["double"]
    with pytest.raises(IllegalAction, match="does not cover"):
        game.double()
    game.stand()
    assert "does not cover" in game.legal_actions()["double"]
    game.stand()
    assert game.bank == 1_000_000


def test_late_surrender_refunds_half_into_its_own_wallet() -> None:
    # Box 1 0S 6H (16) surrenders, box 2 0C 9C (19) stands; dealer 7D 0H (17, peeked).
    game = shared_game(["0S", "0C", "7D", "6H", "9C", "0H"])
    game.start_shared_round(
        [SharedBox(1000, bank=1000, credits=10), SharedBox(2000, bank=2000, credits=10)]
    )
    play_turns(game, "surrender", "stand")
    assert game.round.over
    assert [hand.result for hand in game.round.hands] == ["surrender", "win"]
    assert wallets(game) == [(500, 10), (4000, 10)]


# Box 1 0S 9S (19), box 2 AS KH (natural), box 3 9C 8C (17); dealer KD AH: a natural.
INSURANCE_NATURAL = ["0S", "AS", "9C", "KD", "9S", "KH", "8C", "AH"]
THREE_WALLETS = [SharedBox(1000, bank=5000, credits=10)] * 3


def test_insurance_and_even_money_are_paid_into_each_box_wallet() -> None:
    game = shared_game(INSURANCE_NATURAL)
    game.start_shared_round(THREE_WALLETS)
    assert [game.offer_for_box(i) for i in range(3)] == ["insurance", "even_money", "insurance"]
    game.answer_for_box(0, "insurance:accept")
    assert wallets(game)[0] == (3500, 10)  # bet 1000 and insurance 500
    game.answer_for_box(1, "even_money:accept")
    game.answer_for_box(2, "insurance:decline")
    round_ = game.round
    assert round_.over and round_.dealer_result == "natural"
    # Box 1: 3500 + 1500 (insurance 2:1), hand lost. Box 2: 3500 + 1500 (even money) +
    # 1000 (natural against natural: a push). Box 3: 4000, hand lost.
    assert wallets(game) == [(5000, 10), (6000, 10), (4000, 10)]
    assert [box.insurance["result"] for box in round_.boxes[:2]] == ["win", "win"]


def test_insurance_answered_out_of_order_gives_the_same_round_as_in_order() -> None:
    in_order = shared_game(INSURANCE_NATURAL)
    in_order.start_shared_round(THREE_WALLETS)
    in_order.answer_offer("insurance", True)  # the one-box methods answer the box reached
    in_order.answer_offer("even_money", True)
    in_order.answer_offer("insurance", False)

    out_of_order = shared_game(INSURANCE_NATURAL)
    out_of_order.start_shared_round(THREE_WALLETS)
    events = out_of_order.answer_for_box(2, "insurance:decline")
    assert events == [{"type": "offer_answer_recorded", "offer": "insurance", "box": 3}]
    assert out_of_order.offer_for_box(2) is None  # answered already
    assert out_of_order.round.phase == "insurance" and out_of_order.round.offer_box == 0
    assert wallets(out_of_order)[2] == (4000, 10)  # nothing applied yet
    out_of_order.answer_for_box(1, "even_money:accept")
    assert out_of_order.round.answers_ahead == {1: "even_money:accept", 2: "insurance:decline"}
    events = out_of_order.answer_for_box(0, "insurance:accept")
    answered = [(e["box"], e["accept"]) for e in events if e["type"] == "offer_answered"]
    assert answered == [(1, True), (2, True), (3, False)]  # applied in box order
    assert game_to_json(out_of_order) == game_to_json(in_order)
    assert wallets(out_of_order) == [(5000, 10), (6000, 10), (4000, 10)]


def test_an_answer_is_refused_for_a_box_not_concerned_and_nothing_changes() -> None:
    # Even money off: box 2's natural is offered nothing.
    game = shared_game(INSURANCE_NATURAL, even_money=False)
    game.start_shared_round(
        [
            SharedBox(1000, bank=5000, credits=10),
            SharedBox(1000, bank=5000, credits=10),
            SharedBox(1000, bank=1000, credits=10),
        ]
    )
    before = game_to_json(game)
    assert [game.offer_for_box(i) for i in range(3)] == ["insurance", None, "insurance"]
    refusals = [
        (1, "insurance:accept", "Box 2: no offer awaits"),
        (0, "even_money:accept", "Box 1: Even Money is not on offer"),
        (0, "extra_bet:500", "Box 1: The extra bet is not on offer"),
        (0, "nonsense", "Box 1: Unknown offer"),
        (0, "insurance:maybe", "accept or decline"),
        (2, "insurance:accept", "Box 3: Insurance costs"),  # its wallet is empty
        (3, "insurance:accept", "No box 4"),
        (-1, "insurance:accept", "No box 0"),
    ]
    for index, answer, message in refusals:
        with pytest.raises(IllegalAction, match=message):
            game.answer_for_box(index, answer)
        assert game_to_json(game) == before
    game.answer_for_box(2, "insurance:decline")
    with pytest.raises(IllegalAction, match="no offer awaits"):
        game.answer_for_box(2, "insurance:decline")  # a second answer
    assert game.offer_for_box("1") is None  # type: ignore[arg-type]
    assert game.offer_for_box(7) is None


# --------------------------------------------------------------------------- trivia


def test_out_of_credits_stands_the_rest_of_that_box_only() -> None:
    # Box 1 8C 8D splits (8C 2C, 8D 3C); box 2 5H 6H hits 9H (20); dealer 0D 7S.
    cards = ["8C", "5H", "0D", "8D", "6H", "7S", "2C", "3C", "9H"]
    game = shared_game(cards, trivia_mode=True)
    game.start_shared_round(
        [SharedBox(1000, bank=5000, credits=1), SharedBox(1000, bank=5000, credits=5)]
    )
    game.split()
    events = game.hit(TriviaOutcome("easy", False))  # box 1's last credit
    assert {"type": "credits_exhausted", "box": 1} in events
    round_ = game.round
    assert [hand.stand_reason for hand in round_.hands[:2]] == ["trivia_wrong", "out_of_credits"]
    assert game.box_in_turn() == 1  # box 2 plays on
    game.hit(TriviaOutcome("medium", True))
    game.stand()
    assert round_.over
    assert [hand.result for hand in round_.hands] == ["lose", "lose", "win"]
    assert wallets(game) == [(3000, 0), (6000, 6)]
    assert round_.wallets[0].out_of_credits and not round_.wallets[1].out_of_credits
    assert game.credits == 10 and not game.game_over  # the game's own credits never move
    # The next shared round refuses the box without credits.
    with pytest.raises(IllegalAction, match="Box 1: No trivia credits left"):
        game.start_shared_round([SharedBox(1000, bank=3000, credits=0)])


# --------------------------------------------------------------------------- refusals


def test_each_box_bet_is_checked_against_its_own_wallet() -> None:
    game = shared_game(["9S", "8H", "7D", "0C"] * 4, bank=1_000_000)
    before = game_to_json(game)
    refusals = [
        ([], "1 to 7 boxes"),
        ([SharedBox(100, bank=1000, credits=10)] * 8, "1 to 7 boxes"),
        (
            [SharedBox(1000, bank=5000, credits=10), SharedBox(1000, bank=500, credits=10)],
            "Box 2: Your bank of \\$5.00 does not cover",
        ),
        ([SharedBox(1000, {"21+3": 500}, bank=1200, credits=10)], "Box 1: Your bank of \\$12.00"),
        ([SharedBox(50, bank=5000, credits=10)], "Box 1: The minimum bet"),
        ([SharedBox(1000, bank=-1, credits=10)], "Box 1: Its bank is not an amount"),
        ([SharedBox(1000, bank=5000, credits=-1)], "Box 1: Trivia credits"),
        ([SharedBox(1000, [("21+3", 100)], bank=5000, credits=1)], "Box 1: Side bets must be"),  # type: ignore[arg-type]
        ([(1000, {})], "Box 1: give its bets and wallet as a SharedBox"),  # type: ignore[list-item]
        ("abc", "1 to 7 boxes"),  # type: ignore[arg-type]
    ]
    for boxes, message in refusals:
        with pytest.raises(IllegalAction, match=message):
            game.start_shared_round(boxes)
        assert game_to_json(game) == before
    game.start_shared_round([SharedBox(1000, bank=1000, credits=10)])
    with pytest.raises(IllegalAction, match="Finish the current round"):
        game.start_shared_round([SharedBox(1000, bank=1000, credits=10)])


def test_seven_boxes_whatever_the_seats_option_and_one_box_keeps_the_box_keys() -> None:
    game = shared_game(seats=1)
    game.start_shared_round([SharedBox(100 * (i + 1), bank=10_000, credits=10) for i in range(7)])
    round_ = game.round
    assert len(round_.boxes) == 7 and len({hand.box for hand in round_.hands}) == 7
    assert [w[0] for w in wallets(game)] == [10_000 - 100 * (i + 1) for i in range(7)]
    single = shared_game(["9S", "8H", "7D", "0C"])
    events = single.start_shared_round([SharedBox(1000, bank=1000, credits=10)])
    assert events[0]["box"] == 1 and _boxes(single)[0].bank == 0
    stored = game_to_json(single)["round"]
    assert "boxes" in stored and stored["wallets"][0]["bank"] == 0


def test_box_wallet_needs_a_shared_round() -> None:
    game = shared_game(["9S", "8H", "7D", "0C"], bank=5000)
    with pytest.raises(IllegalAction, match="No shared round"):
        game.box_wallet(0)
    game.start_round(1000)
    with pytest.raises(IllegalAction, match="No shared round"):
        game.box_wallet(0)
    assert game.offer_for_box(0) is None and game.box_in_turn() == 0
    shared = shared_game(["9S", "8H", "7D", "0C"])
    shared.start_shared_round([SharedBox(1000, bank=1000, credits=10)])
    for index in (1, -1, True):
        with pytest.raises(IllegalAction, match="No box"):
            shared.box_wallet(index)
    with pytest.raises(IllegalAction, match="No box"):
        shared.answer_for_box("0", "roll")  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="Not an answer"):
        shared.answer_for_box(0, 5)  # type: ignore[arg-type]
    shared.stand()
    with pytest.raises(IllegalAction, match="No round in progress"):
        shared.answer_for_box(0, "roll")
    shared.end_game()
    with pytest.raises(GameOver):
        shared.answer_for_box(0, "roll")
    with pytest.raises(GameOver):
        shared.start_shared_round([SharedBox(1000, bank=1000, credits=10)])


# --------------------------------------------------------------------------- side bets

# Box 1 5H 6H: a suited 11 (Perfect 11s rolls the dice) and a straight flush (House
# Money); box 2 4S 7S: a suited 11; box 3 0C JC: a straight flush (House Money) and a
# ten-card first (the extra bet). Dealer 8D 9D (17): no natural possible, no peek.
SIDE_BET_CARDS = ["5H", "4S", "0C", "8D", "6H", "7S", "JC", "9D", "2C", "3C"]
SIDE_BET_BOXES = [
    SharedBox(1000, {"perfect_11s": 100, "house_money": 100}, bank=5000, credits=10),
    SharedBox(1000, {"perfect_11s": 100}, bank=5000, credits=10),
    SharedBox(1000, {"house_money": 200}, True, bank=9000, credits=10),
]


def side_bet_game(clock: FakeClock | None = None) -> Engine:
    game = shared_game(SIDE_BET_CARDS, clock=clock, turn_seconds=20)
    game.start_shared_round(SIDE_BET_BOXES)
    return game


def test_dice_extra_bet_and_parlay_answered_out_of_order_match_in_order() -> None:
    in_order = side_bet_game()
    in_order.roll()
    in_order.roll()
    in_order.place_extra_bet(1000)
    in_order.parlay("collect")
    in_order.parlay("all")

    game = side_bet_game()
    assert [game.offer_for_box(i) for i in range(3)] == ["roll", "roll", None]
    assert game.round.deadline == 20_000
    with pytest.raises(IllegalAction, match="with 'roll'"):
        game.answer_for_box(1, "roll:now")
    game.answer_for_box(1, "roll")
    events = game.answer_for_box(0, "roll")
    assert [e["box"] for e in events if e["type"] == "dice_rolled"] == [1, 2]
    assert [game.offer_for_box(i) for i in range(3)] == [None, None, "extra_bet"]
    with pytest.raises(IllegalAction, match="at most 5× the base bet"):
        game.answer_for_box(2, "extra_bet:5001")
    with pytest.raises(IllegalAction, match="whole number of cents"):
        game.answer_for_box(2, "extra_bet:10.00")
    events = game.answer_for_box(2, "extra_bet:1000")
    assert {"type": "extra_bet_placed", "stake": 1000, "fee": 200, "box": 3} in events
    assert [game.offer_for_box(i) for i in range(3)] == ["parlay", None, "parlay"]
    with pytest.raises(IllegalAction, match="Unknown parlay choice"):
        game.answer_for_box(2, "parlay:double")
    with pytest.raises(IllegalAction, match="no Perfect 11s dice"):
        game.answer_for_box(0, "roll")
    game.answer_for_box(2, "parlay:all")
    game.answer_for_box(0, "parlay:collect")
    assert game.box_in_turn() == 0
    assert game_to_json(game) == game_to_json(in_order)
    # Box 3 parlayed its House Money onto its hand (200 + 200 × its ratio).
    assert game.round.hands[2].bet > 1000
    assert _boxes(game)[2].bank == 9000 - 1000 - 200 - 1000 - 200


def test_an_open_stage_times_out_with_the_defaults_for_the_boxes_not_answered() -> None:
    clock = FakeClock(0)
    game = side_bet_game(clock)
    assert event_types(game.run_clock()) == []
    game.answer_for_box(1, "roll")  # box 2 answered in time, box 1 did not
    clock.advance(seconds=20)
    events = game.run_clock()
    assert [e for e in events if e["type"] == "offer_timed_out"] == [
        {"type": "offer_timed_out", "offer": "roll", "box": 1}
    ]
    assert [e["box"] for e in events if e["type"] == "dice_rolled"] == [1, 2]  # automatic
    # The extra bet stage opened at once with the next deadline, from the last one.
    assert game.round.phase == "extra_bet" and game.round.deadline == 40_000
    opened = [e for e in events if e["type"] == "offers_opened"]
    assert opened == [
        {"type": "offers_opened", "offers": [{"box": 3, "offer": "extra_bet"}], "deadline": 40_000}
    ]
    clock.advance(seconds=100)  # every stage and turn since has run out
    events = game.run_clock()
    timed_out = [(e["box"], e["offer"]) for e in events if e["type"] == "offer_timed_out"]
    assert timed_out == [(3, "extra_bet"), (1, "parlay"), (3, "parlay")]
    assert event_types(events).count("timed_out") == 3  # then each box's turn
    round_ = game.round
    assert round_.over and round_.boxes[2].extra_bet is None
    assert [hand.bet for hand in round_.hands] == [1000, 1000, 1000]  # collected, not parlayed
    assert [hand.stand_reason for hand in round_.hands] == ["timeout"] * 3


def test_offers_of_one_player_games_stay_untimed() -> None:
    clock = FakeClock(0)
    game = Engine(
        Options.from_dict({"trivia_mode": False, "turn_seconds": 10}),
        shoe=Shoe.from_cards(["0S", "5C", "9S", "AH", "5D"]),
        clock=clock,
    )
    game.start_round(1000)
    assert game.round.phase == "insurance" and game.round.deadline is None
    assert game.offer_for_box(0) == "insurance" and game.offer_for_box(1) is None
    clock.advance(seconds=100)
    assert game.run_clock() == []
    with pytest.raises(IllegalAction, match="No decision is timed"):
        game.timeout()
    game.answer_for_box(0, "insurance:accept")  # the box reached: applied at once
    assert game.round.boxes[0].insurance["result"] == "lose" and game.bank == 100_000 - 1500
    assert game.round.phase == "player_turn" and game.round.deadline == 110_000


# --------------------------------------------------------------------------- clocks

# Box 1 0S 6S (16), box 2 0C 7C (17), box 3 9H 9D (18); dealer 8D AH (19; peeked).
TIMED = ["0S", "0C", "9H", "8D", "6S", "7C", "9D", "AH"]


def timed_game(clock: FakeClock) -> Engine:
    game = shared_game(TIMED, clock=clock, turn_seconds=10)
    game.start_shared_round([SharedBox(1000, bank=5000, credits=10)] * 3)
    return game


def test_the_insurance_stage_deadline_declines_only_the_boxes_not_answered() -> None:
    clock = FakeClock(0)
    game = timed_game(clock)
    round_ = game.round
    assert round_.phase == "insurance" and round_.deadline == 10_000
    game.answer_for_box(2, "insurance:accept")
    clock.advance(seconds=9)
    assert game.run_clock() == []
    with pytest.raises(IllegalAction, match="Answer the insurance offer first"):
        game.stand()
    clock.advance(seconds=1)
    events = game.run_clock()
    timed_out = [(e["box"], e["offer"]) for e in events if e["type"] == "offer_timed_out"]
    assert timed_out == [(1, "insurance"), (2, "insurance")]
    answered = [(e["box"], e["accept"]) for e in events if e["type"] == "offer_answered"]
    assert answered == [(1, False), (2, False), (3, True)]
    assert [box.insurance is not None for box in round_.boxes] == [False, False, True]
    assert round_.phase == "player_turn" and game.box_in_turn() == 0
    assert round_.deadline == 20_000  # the turn's own deadline, from the stage's
    assert wallets(game) == [(4000, 10), (4000, 10), (3500, 10)]


def test_a_turn_that_times_out_moves_on_to_the_next_box() -> None:
    clock = FakeClock(0)
    game = timed_game(clock)
    for index in range(3):
        game.answer_for_box(index, "insurance:decline")
    assert game.box_in_turn() == 0 and game.round.deadline == 10_000
    clock.advance(seconds=10)
    events = game.run_clock()
    assert [e for e in events if e["type"] == "timed_out"] == [{"type": "timed_out", "hand": 0}]
    assert game.box_in_turn() == 1 and game.round.deadline == 20_000
    game.stand()
    assert game.box_in_turn() == 2 and game.round.deadline == 20_000
    game.stand()
    assert game.round.over and game.round.deadline is None
    # Dealer 19: boxes 1 and 2 lose, box 3's 18 loses too.
    assert wallets(game) == [(4000, 10), (4000, 10), (4000, 10)]


def test_a_timeout_outside_a_timed_decision_is_refused() -> None:
    game = shared_game(INSURANCE_NATURAL)  # untimed table: the stage still gets 20 s (T-7)
    game.start_shared_round(THREE_WALLETS)
    assert game.round.deadline == 20_000
    game.round.open_stage = None  # no stage open (as a stored round before stages)
    with pytest.raises(IllegalAction, match="No decision is timed"):
        game.timeout()
    assert not game.deadline_passed()


# --------------------------------------------------------------------------- storage


def test_a_shared_round_round_trips_through_json_mid_round() -> None:
    clock = FakeClock(0)
    game = side_bet_game(clock)
    game.answer_for_box(1, "roll")
    data = json.loads(json.dumps(game_to_json(game)))
    stored = data["round"]
    assert stored["answers_ahead"] == {"1": "roll"} and stored["open_stage"] == 0
    assert [w["bank"] for w in stored["wallets"]] == [3800, 3900, 7800]
    loaded = game_from_json(data, rng=random.Random(3), clock=clock)
    assert game_to_json(loaded) == game_to_json(game)
    game.source = SeededShoes(random.Random(9))
    loaded.source = SeededShoes(random.Random(9))
    for played in (game, loaded):
        played.answer_for_box(0, "roll")
        played.answer_for_box(2, "extra_bet:500")
        again = game_from_json(json.loads(json.dumps(game_to_json(played))), clock=clock)
        assert game_to_json(again) == game_to_json(played)
        played.answer_for_box(0, "parlay:bet")
        played.answer_for_box(2, "parlay:winnings")
        played.hit()
    assert game_to_json(loaded) == game_to_json(game)
    assert [loaded.box_wallet(i) for i in range(3)] == wallets(game)


def test_public_view_shows_each_wallet_and_never_the_hole_card_or_the_shoe() -> None:
    game = shared_game(INSURANCE_NATURAL + ["2D", "3D", "4D"])
    game.start_shared_round(THREE_WALLETS)
    game.answer_for_box(2, "insurance:accept")
    view = public_view(game).to_dict()
    text = json.dumps(view)
    assert "KD" not in text and "2D" not in text and "shoe" not in view
    round_view = public_view(game).round
    assert round_view is not None and round_view.boxes is not None
    assert round_view.dealer.cards == (None, "AH")
    assert round_view.shared is True and round_view.box_in_turn is None
    assert [box.bank for box in round_view.boxes] == [4000, 4000, 4000]
    assert [box.credits for box in round_view.boxes] == [10, 10, 10]
    assert [box.offer for box in round_view.boxes] == ["insurance", "even_money", None]
    assert [box.answered_ahead for box in round_view.boxes] == [False, False, True]
    game.answer_for_box(0, "insurance:decline")
    game.answer_for_box(1, "even_money:decline")
    round_view = public_view(game).round
    assert round_view is not None
    assert round_view.dealer.cards == ("KD", "AH")  # revealed at the peek
    # Box 2's natural pushes the dealer's; box 3's insurance pays 2:1 (3500 + 1500).
    assert [box.bank for box in _boxes(game)] == [4000, 5000, 5000]


# --------------------------------------------------------------------------- property


def _box_net(game: Engine, index: int) -> int:
    """What box ``index`` won (+) or lost (−) this round, from its settled records alone."""
    round_ = game.round
    net = 0
    for hand in round_.hands:
        if hand.box == index:
            net += hand.winnings - hand.bet
    insurance = round_.boxes[index].insurance
    if insurance is not None:
        net += insurance["winnings"] - insurance["stake"]
    for record in round_.side_bets:
        if record["box"] == index + 1:
            # A parlayed part rides on hand 1's bet without being taken from the wallet.
            net += record["winnings"] - record["stake"] - record["fee"] + record["parlayed"]
    return net


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    boxes=st.lists(
        st.tuples(
            st.integers(100, 3000),  # bet
            st.integers(0, 20_000),  # extra in the wallet beyond the bet
            st.sampled_from(
                [
                    {},
                    {"21+3": 100},
                    {"perfect_pair": 100, "house_money": 100},
                    {"perfect_11s": 200, "lucky_ladies": 100},
                ]
            ),
            st.booleans(),  # extra bet activated
        ),
        min_size=1,
        max_size=5,
    ),
    surrender=st.sampled_from(["late", "early", "off"]),
    dealer_peek=st.booleans(),
)
def test_wallet_changes_are_the_house_loss_and_never_go_negative(
    seed: int, boxes: list[tuple], surrender: str, dealer_peek: bool
) -> None:
    rng = random.Random(seed)
    clock = FakeClock(0)
    game = Engine(
        Options.from_dict(
            {
                "trivia_mode": False,
                "surrender": surrender,
                "dealer_peek": dealer_peek,
                "turn_seconds": 10,
                "deck_count": 1,
            }
        ),
        rng=random.Random(seed),
        bank=0,
        clock=clock,
    )
    shared = [
        SharedBox(bet, stakes, extra, bank=bet + sum(stakes.values()) + more, credits=10)
        for bet, more, stakes, extra in boxes
    ]
    game.start_shared_round(shared)
    round_ = game.round
    for _ in range(200):
        if round_.over:
            break
        assert all(bank >= 0 for bank, _credits in wallets(game))
        if rng.random() < 0.1:
            clock.advance(seconds=10)
            game.run_clock()
            continue
        awaited = [i for i in range(len(round_.boxes)) if game.offer_for_box(i)]
        if awaited:
            index = rng.choice(awaited)
            offer = game.offer_for_box(index)
            if offer == "roll":
                answer = "roll"
            elif offer == "parlay":
                answer = f"parlay:{rng.choice(sb.PARLAY_CHOICES)}"
            elif offer == "extra_bet":
                low, high = game.extra_bet_limits(index)
                answer = (
                    f"extra_bet:{rng.randint(low, high)}" if high >= low else "extra_bet:decline"
                )
            else:
                answer = f"{offer}:{rng.choice(['accept', 'decline'])}"
            try:
                game.answer_for_box(index, answer)
            except IllegalAction:
                game.answer_for_box(index, f"{offer}:decline")
            continue
        getattr(game, rng.choice(game.allowed_actions()))()
    assert round_.over
    changes = []
    for index, (bank, _credits) in enumerate(wallets(game)):
        assert bank >= 0
        change = bank - shared[index].bank
        assert change == _box_net(game, index)
        changes.append(change)
    assert sum(changes) == round_.paid - round_.staked  # minus the house's net
    assert game.bank == 0 and game.credits == 10 and not game.game_over


def test_inverted_payouts_stop_each_wallet_at_zero() -> None:
    # §10 inverted: box 1's natural costs 1.5× its bet, box 2's win costs its profit,
    # box 3's loss pays it. Box 1 AS KS, box 2 0C 9C, box 3 0H 6H; dealer 0D 7S (17).
    game = shared_game(["AS", "0C", "0H", "0D", "KS", "9C", "6H", "7S"], inverted=True)
    game.start_shared_round(
        [
            SharedBox(1000, bank=1000, credits=10),
            SharedBox(1000, bank=3000, credits=10),
            SharedBox(1000, bank=2000, credits=10),
        ]
    )
    play_turns(game, "stand", "stand")
    assert game.round.over
    # Box 1 owed 500 beyond its stake but its wallet was empty: it stops at 0.
    assert wallets(game) == [(0, 10), (2000, 10), (3000, 10)]


def test_bets_being_built_are_checked_against_the_bank_given() -> None:
    game = shared_game(bank=0)
    game.check_bets_being_built(1000, {"21+3": 100}, bank=1100)
    with pytest.raises(IllegalAction, match="Your bank of \\$10.00"):
        game.check_bets_being_built(1000, {"21+3": 100}, bank=1000)
    with pytest.raises(IllegalAction, match="Your bank of \\$0.00"):
        game.check_bets_being_built(1000, {})  # the game's own bank
    # The same check from the options alone (a shared table's chip loads no round).
    check_bets_being_built(game.options, 1000, {"21+3": 100}, bank=1100)
    with pytest.raises(IllegalAction, match="The maximum bet is"):
        check_bets_being_built(game.options, game.options.max_bet + 1, {}, bank=10**9)


def test_a_shared_box_is_a_box_bet_with_a_wallet() -> None:
    box = SharedBox(1000, {"21+3": 100}, True, bank=50_000, credits=10)
    assert isinstance(box, BoxBet)
    assert (box.bet, dict(box.side_bets), box.extra_bet) == (1000, {"21+3": 100}, True)
    assert (box.bank, box.credits) == (50_000, 10)
    with pytest.raises(TypeError):
        SharedBox(1000, bank=1)  # the wallet is given whole
    game = shared_game()
    with pytest.raises(IllegalAction, match="as a SharedBox"):
        game.start_shared_round([BoxBet(1000)])


@pytest.mark.parametrize(
    ("box", "words"),
    [
        (SharedBox(100, bank=1000, credits=0), "No trivia credits left"),
        (SharedBox(50, bank=1000, credits=3), "The minimum bet is"),
        (SharedBox(2000, bank=1000, credits=3), "Your bank of \\$10.00 does not cover"),
        (
            SharedBox(500, {"21+3": 600}, bank=1000, credits=3),
            "Your bank of \\$10.00 does not cover bets of \\$11.00",
        ),
    ],
)
def test_a_shared_box_is_checked_once_the_same_way_at_ready_and_at_the_deal(box, words) -> None:
    """Game.check_shared_box is start_shared_round's check of each box (R-1.5, R-4.1,
    R-1.4), so a table that asked it at Ready is never refused the deal for that box."""
    game = shared_game(trivia_mode=True)
    with pytest.raises(IllegalAction, match=words):
        game.check_shared_box(box)
    with pytest.raises(IllegalAction, match="Box 2: " + words):
        game.start_shared_round([SharedBox(100, bank=1000, credits=3), box])
    assert game.round is None  # nothing changed
    assert game.check_shared_box(SharedBox(100, {"21+3": 100}, bank=1000, credits=1)) == {
        "21+3": 100
    }


def test_a_wallet_stops_at_the_ceiling_on_its_own() -> None:
    # R-1.4a per wallet: box 1 (at the ceiling) wins but stays there; box 2 is paid in full.
    game = shared_game(["0S", "0C", "0D", "9S", "9C", "7D"])
    game.start_shared_round(
        [SharedBox(1000, bank=MAX_AMOUNT_CENTS, credits=10), SharedBox(1000, bank=1000, credits=10)]
    )
    play_turns(game, "stand", "stand")
    assert wallets(game) == [(MAX_AMOUNT_CENTS, 10), (2000, 10)]
    assert game.round.paid == 1000 + 2000 and game.round.staked == 2000
