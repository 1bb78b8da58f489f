"""The Daily Shoe in the rules engine (FAIRNESS.md D-1…D-3): its fixed options, duplicate
deals from the top and the bottom of each round's shoe, their storage, the F-7 records of
the day's shoes and the commitment to the day's questions."""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest

from game.rules.daily import (
    DAILY_CLIENT_SEED,
    DAILY_OPTIONS,
    DAILY_ROUNDS,
    DAILY_STAKE_CENTS,
    DailyShoes,
    QuestionListExhausted,
    daily_game,
    daily_nonce,
    daily_options,
    daily_round_shoes,
    nth_question,
    question_list_commitment,
)
from game.rules.engine import Engine, IllegalAction
from game.rules.fair import DICE, StreamIntegers, commitment, shoe_order
from game.rules.hands import hand_total
from game.rules.options import Options
from game.rules.shoe import SeededShoes, Shoe
from game.rules.storage import game_from_json, game_to_json
from tests.game.rules.helpers import CORRECT
from tests.tools.helpers import load_verify_shoe

DAY = datetime.date(2026, 11, 28)
# A day whose round 1 suits the tests below: the player's 4S 6S (10) against the dealer's
# JD in the hole and 2D up (12, so the dealer draws, and no insurance is offered).
DAY_SEED = bytes([1]) * 32


def order(round_number: int, seed: bytes = DAY_SEED) -> list[str]:
    return shoe_order(seed, DAILY_CLIENT_SEED, f"{DAY.isoformat()}:{round_number}", 6)


def dealer_from_bottom(cards: list[str], count: int) -> list[str]:
    """The dealer's first ``count`` cards of a duplicate deal of ``cards``, in the order
    the dealer holds them: the hole card, the upcard, then each draw."""
    return [cards[-2], cards[-1], *[cards[-3 - k] for k in range(count - 2)]]


def round_record(game: Engine) -> dict[str, Any]:
    round_ = game.round
    assert round_ is not None
    return {
        "dealt": list(round_.dealt),
        "dealer": list(round_.dealer),
        "hands": [list(hand.cards) for hand in round_.hands],
    }


# ---------------------------------------------------------------------- D-1


def test_the_daily_options_are_those_of_d1() -> None:
    options = daily_options()
    assert options is DAILY_OPTIONS
    assert (options.deck_count, options.dealer_stands_on, options.blackjack_payout) == (
        6,
        "S17",
        "3:2",
    )
    assert options.double_after_split and options.surrender == "late"
    assert options.insurance and options.even_money
    assert options.charlie == "off" and options.charlie_limit is None
    assert options.seats == 1 and not options.side_bets and options.trivia_mode
    assert options.starting_bank == 200_000 and options.reshuffle == "every_round"
    # The fixed stake of $100 is the only bet the table takes.
    assert options.min_bet == options.max_bet == DAILY_STAKE_CENTS == 10_000
    assert DAILY_ROUNDS == 20
    # Valid options as the menu reads them: the same values come back, nothing implied.
    assert Options.from_dict(options.to_dict()) == options and options.implied == ()
    game = daily_game(DAY_SEED, DAY)
    assert (game.bank, game.credits, game.options) == (200_000, 10, options)
    with pytest.raises(IllegalAction, match="maximum bet"):
        game.start_round(DAILY_STAKE_CENTS * 2)


# ---------------------------------------------------------------------- D-2 nonces, shoes


def test_the_nonce_is_the_date_and_the_round() -> None:
    assert daily_nonce(DAY, 7) == "2026-11-28:7"
    assert daily_nonce(datetime.date(2027, 1, 2), 20) == "2027-01-02:20"
    for wrong in (0, 21):
        with pytest.raises(ValueError, match="rounds 1 to 20"):
            daily_nonce(DAY, wrong)


def test_each_new_shoe_is_the_next_rounds_shuffle_in_duplicate_mode() -> None:
    source = DailyShoes(DAY_SEED, DAY, rounds_opened=6)
    shoe = source.new_shoe(6, None)
    assert source.rounds_opened == 7
    assert shoe.duplicate and not shoe.fixed and shoe.deck_count == 6
    assert shoe.cards == shoe_order(DAY_SEED, "daily", "2026-11-28:7", 6) == order(7)
    assert source.commitment() == commitment(DAY_SEED)


def test_a_day_has_twenty_shoes_of_six_decks_and_no_refill() -> None:
    source = DailyShoes(DAY_SEED, DAY, rounds_opened=DAILY_ROUNDS)
    with pytest.raises(IllegalAction, match="20 rounds"):
        source.new_shoe(6, None)
    with pytest.raises(ValueError, match="6 decks"):
        DailyShoes(DAY_SEED, DAY).new_shoe(1, None)
    shoe = DailyShoes(DAY_SEED, DAY).new_shoe(6, None)
    with pytest.raises(RuntimeError, match="no refill"):
        source.refill(shoe, [])
    with pytest.raises(ValueError, match="32 bytes"):
        DailyShoes(b"short", DAY)


def test_the_dice_come_from_the_round_shoes_dice_stream() -> None:
    source = DailyShoes(DAY_SEED, DAY)
    source.new_shoe(6, None)
    source.new_shoe(6, None)
    stream = StreamIntegers(DAY_SEED, "daily", "2026-11-28:2", DICE)
    expected = [stream.below(6) + 1 for _ in range(5)]
    assert source.roll_dice(3) + source.roll_dice(2) == expected
    source.new_shoe(6, None)  # round 3's shoe reads its own stream from the start
    stream = StreamIntegers(DAY_SEED, "daily", "2026-11-28:3", DICE)
    assert source.roll_dice(2) == [stream.below(6) + 1 for _ in range(2)]


# ---------------------------------------------------------------------- D-2 the deals


def test_the_dealer_draws_from_the_bottom_and_the_player_from_the_top() -> None:
    # Positions: the player's cards 0, 1, 2, … in the order dealt (the split's and the
    # double's included); the dealer's upcard last, hole card second to last, draw above.
    cards = ["8S", "8H", "3C", "2D", "0C", "9H", *["2C"] * 10, "5D", "0S", "6H"]
    game = Engine(
        DAILY_OPTIONS,
        source=SeededShoes(random.Random(7)),
        shoe=Shoe(list(cards), 6, duplicate=True),
    )
    game.start_round(DAILY_STAKE_CENTS)
    round_ = game.round
    assert round_ is not None
    assert round_.hands[0].cards == ["8S", "8H"] and round_.dealer == ["0S", "6H"]
    game.split()  # 8S + 3C, 8H + 2D
    game.double(CORRECT)  # 8S 3C + 0C
    game.hit(CORRECT)  # 8H 2D + 9H
    game.stand()
    assert [hand.cards for hand in round_.hands] == [["8S", "3C", "0C"], ["8H", "2D", "9H"]]
    assert round_.dealer == ["0S", "6H", "5D"]
    assert round_.dealt == ["8S", "0S", "8H", "6H", "3C", "2D", "0C", "9H", "5D"]
    # What stays in the shoe is exactly what was not dealt, in its order.
    assert game.shoe.cards[game.shoe.position :] == ["2C"] * 10
    assert game.shoe.remaining() == len(cards) - len(round_.dealt)


def test_the_simulators_path_deals_the_dealer_from_the_bottom_too() -> None:
    game = Engine(
        DAILY_OPTIONS,
        source=DailyShoes(DAY_SEED, DAY),
        record_events=False,
    )
    game.start_round(DAILY_STAKE_CENTS)
    game.stand()
    cards = order(1)
    assert game.round is not None
    assert game.round.hands[0].cards == cards[:2]
    assert game.round.dealer == dealer_from_bottom(cards, len(game.round.dealer))


def test_different_decisions_share_the_deal_and_the_dealers_hand() -> None:
    cards = order(1)
    assert cards[:2] == ["4S", "6S"] and cards[-2:] == ["JD", "2D"]  # the day chosen above
    stands, doubles, hits = (daily_game(DAY_SEED, DAY) for _ in range(3))
    for game in (stands, doubles, hits):
        game.start_round(DAILY_STAKE_CENTS)
        assert game.round is not None
        assert game.round.hands[0].cards == cards[:2]
        assert game.round.dealer == [cards[-2], cards[-1]]
    stands.stand()
    doubles.double(CORRECT)
    hits.hit(CORRECT)
    hits.hit(CORRECT)  # 4 6 3 J: bust, so the dealer need not draw
    # The k-th card the player draws is the shoe's k-th from the top, whatever the decision.
    assert doubles.round is not None and hits.round is not None and stands.round is not None
    assert doubles.round.hands[0].cards == cards[:3]
    assert hits.round.hands[0].cards == cards[:4]
    assert hand_total(hits.round.hands[0].cards)[0] > 21
    # The dealer's hand does not depend on the player: from the bottom, drawn to S17.
    dealer = stands.round.dealer
    assert len(dealer) > 2 and dealer == dealer_from_bottom(cards, len(dealer))
    assert doubles.round.dealer == dealer
    assert hits.round.dealer == dealer[:2]
    # No decision changes another round's cards: round 2 is the same deal for all three.
    records = []
    for game in (stands, doubles, hits):
        game.start_round(DAILY_STAKE_CENTS)
        assert game.round is not None and game.round.number == 2
        game.stand()
        records.append(round_record(game))
    assert records[0] == records[1] == records[2]
    second = order(2)
    assert records[0]["hands"] == [second[:2]]
    assert records[0]["dealer"] == dealer_from_bottom(second, len(records[0]["dealer"]))


def test_a_daily_shoe_is_never_shuffled_by_the_player() -> None:
    game = daily_game(DAY_SEED, DAY)
    game.start_round(DAILY_STAKE_CENTS)
    game.stand()
    with pytest.raises(IllegalAction, match="own shoe"):
        game.shuffle_now()


# ---------------------------------------------------------------------- storage


def test_the_source_and_the_duplicate_shoe_are_stored_and_read_back() -> None:
    game = daily_game(DAY_SEED, DAY)
    game.start_round(DAILY_STAKE_CENTS)  # stored between the deal and the dealer's draws
    stored = game_to_json(game)
    assert "fair" not in stored
    assert stored["daily"] == {
        "date": "2026-11-28",
        "server_seed": DAY_SEED.hex(),
        "rounds_opened": 1,
        "dice_used": 0,
    }
    assert stored["shoe"]["duplicate"] is True
    loaded = game_from_json(stored)
    source = loaded.source
    assert isinstance(source, DailyShoes)
    assert source.to_json() == stored["daily"] and loaded.shoe.duplicate
    assert game_to_json(loaded) == stored
    game.stand()
    loaded.stand()
    assert round_record(loaded) == round_record(game)
    loaded.start_round(DAILY_STAKE_CENTS)
    assert loaded.round is not None and loaded.round.hands[0].cards == order(2)[:2]


def test_a_normal_shoes_state_loads_and_is_written_as_before() -> None:
    stored = {"cards": ["2S", "3S", "4S"], "size": 52, "deck_count": 1, "fixed": False}
    shoe = Shoe.from_json(stored)
    assert not shoe.duplicate
    assert shoe.to_json() == stored
    assert [shoe.draw(), shoe.draw()] == ["2S", "3S"]


# ---------------------------------------------------------------------- F-7 records


def test_the_days_shoes_verify_with_the_standalone_script() -> None:
    verify_shoe = load_verify_shoe()
    shoes = daily_round_shoes(DAY_SEED, DAY)
    assert [shoe["nonce"] for shoe in shoes] == [f"2026-11-28:{r}" for r in range(1, 21)]
    for shoe in shoes:
        assert verify_shoe.check_shoe(shoe) == []
        assert shoe["cards_dealt"] == shoe_order(DAY_SEED, "daily", shoe["nonce"], 6)
        assert len(shoe["cards_dealt"]) == 312
        assert shoe["commitment"] == commitment(DAY_SEED)
        assert (shoe["client_seed"], shoe["deck_count"]) == ("daily", 6)
        assert shoe["server_seed"] == DAY_SEED.hex()
    # Another seed's shoe does not pass for the day's.
    forged = dict(shoes[0], cards_dealt=order(1, bytes([2]) * 32))
    assert verify_shoe.check_shoe(forged) != []


# ---------------------------------------------------------------------- D-3 questions


def test_the_question_list_commitment_worked_by_hand() -> None:
    # The ids 3, 14, 15 are joined as the ASCII text "3,14,15" (bytes 33 2c 31 34 2c 31 35),
    # and the commitment is that text's SHA-256 in lower-case hex.
    assert question_list_commitment([3, 14, 15]) == (
        "d782ed37519394b899ebf20b383bc29a4568128c3c4544dfeee8f1bcd7c31f63"
    )
    # The order is part of what is committed.
    assert question_list_commitment([14, 3, 15]) != question_list_commitment([3, 14, 15])
    for wrong in ([True], [-1], ["3"]):
        with pytest.raises(ValueError, match="question id"):
            question_list_commitment(wrong)  # type: ignore[arg-type]


def test_the_nth_question_of_a_difficulty_is_its_lists_nth() -> None:
    lists = {"easy": [3, 14, 15], "hard": [92, 65]}
    assert [nth_question(lists, "easy", n) for n in (1, 2, 3)] == [3, 14, 15]
    assert nth_question(lists, "hard", 2) == 65
    with pytest.raises(QuestionListExhausted, match="has 2 questions"):
        nth_question(lists, "hard", 3)
    with pytest.raises(ValueError, match="from 1"):
        nth_question(lists, "easy", 0)
    with pytest.raises(KeyError, match="medium"):
        nth_question(lists, "medium", 1)
