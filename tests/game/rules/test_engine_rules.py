"""One test (at least) per rule id of RULES.md §1–8, through the engine's API."""

from __future__ import annotations

import json
import random

import pytest

from game.rules.engine import Engine
from game.rules.options import Options
from game.rules.public import public_view
from game.rules.records import ALLOWED, GameOver, IllegalAction, TriviaOutcome
from game.rules.replay import apply_action, export_round_replay, round_record
from game.rules.shoe import Shoe, ShoeExhausted
from game.rules.storage import game_to_json
from tests.game.rules.helpers import CORRECT, WRONG, event_types, make_game, play


def test_r_1_1_a_game_is_rounds_with_one_bank() -> None:
    game = make_game(["0S", "7H", "9D", "0C", "0S", "7H", "9D", "0C"], trivia_mode=False)
    game.start_round(1000)
    game.stand()
    game.start_round(1000)
    game.stand()
    assert game.round_number == 2 and game.bank == 102_000


def test_r_1_3_new_game_defaults() -> None:
    game = Engine(rng=random.Random(1))
    assert game.bank == 100_000 and game.credits == 10 and not game.game_over


@pytest.mark.parametrize(
    ("bet", "side_bets", "message"),
    [
        (99, {}, "minimum bet is \\$1.00"),
        (1_000_001, {}, "maximum bet"),
        (10.5, {}, "whole number of cents"),
        (True, {}, "whole number of cents"),
        (1000, {"21+3": 50}, "at least \\$1.00"),
        (1000, {"21+3": -1}, "whole number of cents"),
        (1000, {"side": 100}, "Unknown side bet"),
        (100_000, {"21+3": 100}, "does not cover"),
    ],
)
def test_r_1_4_bet_validation(bet: object, side_bets: dict, message: str) -> None:
    game = make_game(["0S", "7H", "9D", "0C"])
    with pytest.raises(IllegalAction, match=message):
        game.start_round(bet, side_bets)  # type: ignore[arg-type]
    assert game.round is None and game.bank == 100_000


def test_r_1_4_side_bets_off_refuses_them_and_zero_stake_not_played() -> None:
    game = make_game(["0S", "7H", "9D", "0C"], side_bets=False)
    with pytest.raises(IllegalAction, match="switched off"):
        game.start_round(1000, {"21+3": 100})
    with pytest.raises(IllegalAction, match="switched off"):
        game.start_round(1000, extra_bet=True)
    game.start_round(1000, {"21+3": 0})
    assert game.round.side_stakes == {}


def test_r_1_5_game_over_refuses_play() -> None:
    game = play(["0S", "0H", "7D", "9C"], actions=("stand",), bank=1000)
    assert game.game_over and game.game_over_reason == "bank"
    with pytest.raises(GameOver):
        game.start_round(100)
    assert game.legal_actions()["hit"].startswith("The game is over")
    with pytest.raises(GameOver):
        game.end_game()


def test_r_1_5_low_starting_bank_is_over_at_once() -> None:
    assert Engine(Options.from_dict({"starting_bank": "0.50"}), rng=random.Random(1)).game_over


def test_r_1_6_end_game_forfeits_bets_in_play() -> None:
    game = make_game(["9S", "8H", "8D", "AC"], trivia_mode=False)
    game.start_round(1000, {"perfect_pair": 500, "lucky_ladies": 500})
    game.answer_offer("insurance", True)
    events = game.end_game()
    assert game.game_over and game.game_over_reason == "ended"
    assert game.round.hands[0].how == "forfeit"
    assert game.round.insurance["result"] == "lose"
    assert {r["name"] for r in game.round.side_bets} == {"perfect_pair", "lucky_ladies"}
    assert game.bank == 100_000 - 2500
    assert "game_over" in event_types(events)


def test_r_1_6_end_game_between_rounds() -> None:
    game = make_game([])
    game.end_game()
    assert game.game_over_reason == "ended"


def test_r_1_7_bets_taken_at_deal_and_paid_at_settlement() -> None:
    game = make_game(["0S", "7H", "9D", "0C"], trivia_mode=False)
    game.start_round(1000)
    assert game.bank == 99_000 and game.round.money_in_play() == 1000
    game.stand()
    assert game.bank == 101_000 and game.round.money_in_play() == 0


def test_r_2_2_reshuffle_before_round_when_shoe_low() -> None:
    game = Engine(Options.from_dict({"deck_count": 1, "trivia_mode": False}), rng=random.Random(5))
    game.shoe.position = 45
    events = game.start_round(100)
    assert events[0] == {
        "reason": "reshuffle",
        "message": "Shuffling a new shoe",
        "type": "shoe_shuffled",
    }


def test_r_2_2_refill_mid_round() -> None:
    game = Engine(Options.from_dict({"deck_count": 1, "trivia_mode": False}), rng=random.Random(5))
    game.shoe = Shoe(["2S", "3H", "2D", "3C"], 1, size=4)
    events = game.start_round(100)
    if game.round_in_progress and game.legal_actions()["hit"] == ALLOWED:
        events = game.hit()
    assert "shoe_shuffled" in event_types(events)
    assert game.round.dealt[:4] == ["2S", "3H", "2D", "3C"]


def test_r_2_2_fixed_shoe_running_out_raises() -> None:
    game = make_game(["0S", "7H", "9D"])
    with pytest.raises(ShoeExhausted):
        game.start_round(1000)


def test_r_3_4_natural_only_on_original_hand() -> None:
    game = play(["AS", "9H", "AD", "8C", "KS", "5D"], actions=("split", "stand"), split_aces=True)
    assert game.round.hands[0].result == "win" and game.round.hands[0].how == "higher_total"


def test_r_3_5_no_hand_exceeds_charlie() -> None:
    game = play(["2S", "0H", "3D", "9C", "2H", "4C", "3S"], actions=("hit", "hit", "hit"))
    assert game.round.hands[0].status == "charlie" and game.round.over


def test_r_4_1_r_4_2_deal_order_and_face_down_hole_card() -> None:
    game = make_game(["9S", "0H", "7D", "6C", "5H", "KD"], trivia_mode=False)
    events = game.start_round(1000)
    dealt = [e for e in events if e["type"] == "card_dealt"]
    assert [e["to"] for e in dealt] == ["player", "dealer", "player", "dealer"]
    assert "card" not in dealt[1] and dealt[1]["face_down"] and dealt[3]["card"] == "6C"
    assert game.round.dealer == ["0H", "6C"]


def test_r_4_3_side_bets_after_deal_then_play() -> None:
    game = make_game(["2H", "0C", "9H", "5H", "0D"], trivia_mode=False)
    events = game.start_round(1000, {"21+3": 500})
    settled = [e for e in events if e["type"] == "side_bet_settled"]
    assert settled[0]["condition"] == "flush" and game.round.phase == "player_turn"


def test_r_4_4_extra_bet_offer_limits_and_fee() -> None:
    game = make_game(["KS", "7H", "8D", "9C", "0D"], trivia_mode=False)
    game.start_round(1000, extra_bet=True)
    assert game.round.phase == "extra_bet"
    assert game.legal_actions()["hit"] == "Answer the extra bet offer first"
    with pytest.raises(IllegalAction, match="at most 5×"):
        game.place_extra_bet(5001)
    with pytest.raises(IllegalAction, match="at least"):
        game.place_extra_bet(50)
    with pytest.raises(IllegalAction, match="Extra bet"):
        apply_action(game, "extra_bet:lots")
    game.place_extra_bet(5000)
    assert game.round.extra_bet == {"stake": 5000, "fee": 1000}
    assert game.bank == 100_000 - 1000 - 6000


def test_r_4_4_extra_bet_not_offered_without_ten_card() -> None:
    game = make_game(["9S", "7H", "8D", "9C", "0D"], trivia_mode=False)
    game.start_round(1000, extra_bet=True)
    assert game.round.phase == "player_turn"
    assert game.legal_actions()["extra_bet"] == "The extra bet is not on offer now"


def test_r_4_5_insurance_needs_bank_and_even_money_offer() -> None:
    game = make_game(["9S", "8H", "8D", "AC"], bank=1000, trivia_mode=False)
    game.start_round(1000)
    assert game.round.phase == "insurance"
    assert "does not cover" in game.legal_actions()["insurance:accept"]
    assert game.legal_actions()["insurance:decline"] == ALLOWED
    natural = make_game(["AS", "8H", "KD", "AC"], trivia_mode=False)
    natural.start_round(1000)
    assert natural.round.phase == "even_money"
    assert natural.legal_actions()["insurance:accept"] == "Insurance is not on offer now"


def test_r_4_5_offers_switched_off() -> None:
    game = play(["9S", "8H", "8D", "AC"], insurance=False)
    assert game.round.phase == "player_turn"
    game = play(["AS", "8H", "KD", "AC"], even_money=False)
    assert game.round.over and game.round.hands[0].result == "natural"


def test_r_4_5_insurance_cost_zero_refused() -> None:
    game = make_game(["9S", "8H", "8D", "AC"], trivia_mode=False, min_bet="0.01")
    game.start_round(1)
    assert "cost nothing" in game.legal_actions()["insurance:accept"]


def test_r_4_6_early_surrender_not_offered_to_a_natural() -> None:
    game = play(["AS", "9H", "KD", "0C"], surrender="early")
    assert game.round.over and game.round.hands[0].result == "natural"


def test_r_4_6_early_non_ace_offered_against_ten() -> None:
    game = play(["9S", "8H", "7D", "0C"], surrender="early_non_ace")
    assert game.round.phase == "early_surrender"


def test_r_4_7_peek_events_reveal_nothing_when_no_natural() -> None:
    game = make_game(["9S", "8H", "7D", "0C"], trivia_mode=False)
    events = game.start_round(1000)
    peek = [e for e in events if e["type"] == "dealer_peeked"]
    assert peek == [{"natural": False, "type": "dealer_peeked"}]
    assert "8H" not in json.dumps(events) and "8H" not in json.dumps(public_view(game).to_dict())


def test_r_4_7_peek_off_no_peek_event() -> None:
    game = make_game(["9S", "AH", "7D", "0C"], trivia_mode=False, dealer_peek=False)
    events = game.start_round(1000)
    assert "dealer_peeked" not in event_types(events) and game.round.phase == "player_turn"


def test_r_4_7a_parlay_before_natural_is_paid() -> None:
    game = make_game(["AS", "7C", "KS", "9D"], trivia_mode=False)
    game.start_round(1000, {"house_money": 1000})
    assert game.round.phase == "house_money_parlay"
    game.parlay("all")
    assert game.round.hands[0].bet == 11_000 and game.round.hands[0].winnings == 27_500


def test_r_4_7a_no_parlay_when_dealer_natural() -> None:
    game = make_game(["8S", "AC", "8H", "KD"], trivia_mode=False)
    game.start_round(1000, {"house_money": 500})
    record = game.round.side_bets[0]
    assert game.round.over and record["winnings"] == 2000 and record["parlayed"] == 0


def test_r_4_7a_no_peek_ace_up_house_money_paid() -> None:
    game = make_game(["8S", "7C", "8H", "KD"], trivia_mode=False, dealer_peek=False)
    game.start_round(1000, {"house_money": 500})
    assert game.round.phase == "player_turn" and game.round.side_bets[0]["winnings"] == 2000


def test_r_4_8_natural_ends_round() -> None:
    game = play(["AS", "7H", "KD", "0C"])
    assert game.round.over and game.round.hands[0].winnings == 2500


def test_r_4_8_natural_no_peek_settles_at_end() -> None:
    game = play(["AS", "7H", "KD", "0C"], dealer_peek=False)
    assert game.round.over and game.round.hands[0].result == "natural"
    game = play(["AS", "AH", "KD", "0C"], dealer_peek=False)
    assert game.round.hands[0].result == "push"


def test_r_4_9_r_4_10_play_starts_on_hand_one_left_to_right() -> None:
    game = play(["8S", "0H", "8D", "7C", "3H", "2S", "0S"], actions=("split",))
    assert game.round.current == 0
    game.hit()
    assert game.round.current == 1


def test_r_4_11_dealer_skipped_when_all_surrendered() -> None:
    game = play(["0S", "9H", "6D", "5C"], actions=("surrender",))
    assert game.round.dealer == ["9H", "5C"] and game.round.over


def test_r_4_12_round_record_has_every_outcome() -> None:
    game = play(["0S", "7H", "9D", "0C"], actions=("stand",))
    record = round_record(game.round)
    assert record["hands"][0]["result"] == "win" and record["bank_after"] == "1010.00"


def test_r_5_1_hit_needs_trivia_in_trivia_mode() -> None:
    game = make_game(["5S", "0H", "6D", "7C", "0S"])
    game.start_round(1000)
    with pytest.raises(IllegalAction, match="trivia answer"):
        game.hit()
    game.hit(CORRECT)
    assert game.round.hands[0].cards == ["5S", "6D", "0S"]


def test_r_5_1_trivia_answer_refused_when_trivia_off() -> None:
    game = play(["5S", "0H", "6D", "7C", "0S"])
    with pytest.raises(IllegalAction, match="Trivia mode is off"):
        game.hit(CORRECT)


def test_r_5_2_stand_ends_hand() -> None:
    game = play(["0S", "8H", "9D", "9C"], actions=("stand",))
    assert game.round.hands[0].status == "stood"


def test_r_5_3_double_only_first_action_and_bank() -> None:
    game = play(["2S", "9H", "3D", "8C", "2H", "5S"], actions=("hit",))
    assert game.legal_actions()["double"] == "Double Down only as the first action on a hand"
    with pytest.raises(IllegalAction, match="first action"):
        game.double()
    poor = make_game(["6S", "9H", "5D", "8C"], bank=1500, trivia_mode=False)
    poor.start_round(1000)
    assert "does not cover" in poor.legal_actions()["double"]


@pytest.mark.parametrize(
    ("double_on", "cards", "allowed"),
    [
        ("9-11", ["5S", "4D"], True),
        ("9-11", ["5S", "3D"], False),
        ("10-11", ["5S", "4D"], False),
        ("10-11", ["AS", "9D"], False),
        ("any", ["AS", "9D"], True),
    ],
)
def test_r_5_3_double_on(double_on: str, cards: list[str], allowed: bool) -> None:
    game = play([cards[0], "9H", cards[1], "8C"], double_on=double_on)
    assert (game.legal_actions()["double"] == ALLOWED) is allowed


def test_r_5_3_double_after_split_needs_option() -> None:
    game = play(["8S", "0H", "8D", "7C", "3H", "2S"], actions=("split",))
    assert "after a split" in game.legal_actions()["double"]
    game = play(
        ["8S", "0H", "8D", "7C", "3H", "2S", "5C"],
        actions=("split", "double"),
        double_after_split=True,
    )
    assert game.round.hands[0].bet == 2000 and game.round.current == 1


def test_r_5_3_double_after_split_aces_needs_option() -> None:
    game = play(
        ["AS", "0H", "AD", "7C", "3H", "2S"],
        actions=("split",),
        split_aces=True,
        double_after_split=True,
    )
    assert "splitting aces" in game.legal_actions()["double"]
    game = play(
        ["AS", "0H", "AD", "7C", "3H", "2S"], actions=("split",), double_after_split_aces=True
    )
    assert game.legal_actions()["double"] == ALLOWED


def test_r_5_3_double_trivia_correct_doubles_first() -> None:
    game = make_game(["6S", "9H", "5D", "8C", "KS"])
    game.start_round(1000)
    events = game.double(TriviaOutcome("medium", True))
    types = event_types(events)
    assert types.index("hand_doubled") < types.index("card_dealt")
    assert game.credits == 11


def test_r_5_4_split_deals_hand_a_first() -> None:
    game = make_game(["8S", "0H", "8D", "7C", "3H", "2S"], trivia_mode=False)
    game.start_round(1000)
    events = game.split()
    dealt = [e["hand"] for e in events if e["type"] == "card_dealt"]
    assert dealt == [0, 1]
    assert [h.cards for h in game.round.hands] == [["8S", "3H"], ["8D", "2S"]]


@pytest.mark.parametrize(
    ("cards", "options", "reason"),
    [
        (["8S", "7D"], {}, "same rank"),
        (["KS", "QD"], {}, "same rank"),
        (["AS", "AD"], {}, "Splitting aces"),
    ],
)
def test_r_5_4_split_refusals(cards: list[str], options: dict, reason: str) -> None:
    game = play([cards[0], "9H", cards[1], "8C"], **options)
    assert reason in game.legal_actions()["split"]


def test_r_5_4_split_any_ten_and_bank() -> None:
    game = play(["KS", "9H", "QD", "8C"], split_any_ten=True)
    assert game.legal_actions()["split"] == ALLOWED
    game = play(["KS", "9H", "9D", "8C"], split_any_ten=True)
    assert "two ten-cards" in game.legal_actions()["split"]
    poor = make_game(["8S", "9H", "8D", "8C"], bank=1500, trivia_mode=False)
    poor.start_round(1000)
    assert "does not cover" in poor.legal_actions()["split"]


def test_r_5_5_resplit_rules_and_four_hands() -> None:
    cards = ["8S", "0H", "8D", "7C", "8H", "8C", "8S", "8D", "2S", "3S", "4S"]
    game = play(cards, actions=("split",))
    assert "Resplitting is not allowed" in game.legal_actions()["split"]
    game = play(cards, actions=("split", "split", "split", "stand", "stand"), resplit=True)
    assert len(game.round.hands) == 4 and game.round.current == 2
    assert "No more than 4" in game.legal_actions()["split"]


def test_r_5_5_resplit_aces_needs_option() -> None:
    cards = ["AS", "0H", "AD", "7C", "AH", "5S"]
    game = play(cards, actions=("split",), split_aces=True, resplit=True)
    assert "Resplitting aces" in game.legal_actions()["split"]
    game = play(cards + ["9S", "9D"], actions=("split", "split"), resplit_aces=True)
    assert len(game.round.hands) == 3


def test_r_5_6_one_card_after_split_aces_may_resplit() -> None:
    cards = ["AS", "0H", "AD", "7C", "AH", "5S", "9S", "9D"]
    game = play(cards, actions=("split",), one_card_after_split_aces=True, resplit_aces=True)
    reasons = game.legal_actions()
    assert reasons["split"] == ALLOWED and reasons["stand"] == ALLOWED
    assert (
        reasons["hit"]
        == reasons["double"]
        == reasons["surrender"]
        == ("Only one card is dealt to each split ace")
    )
    game.split()
    assert game.round.over and all(len(h.cards) == 2 for h in game.round.hands)


def test_r_5_7_surrender_first_action_only_and_off() -> None:
    game = play(["2S", "9H", "3D", "8C", "2H", "5S"], actions=("hit",))
    assert game.legal_actions()["surrender"] == "Surrender only as the first action on a hand"
    game = play(["0S", "9H", "6D", "8C"], surrender="off")
    assert game.legal_actions()["surrender"] == "Surrender is not offered at this table"


def test_r_5_7_surrender_one_split_hand_does_not_end_round() -> None:
    game = play(["8S", "0H", "8D", "7C", "3H", "2S"], actions=("split", "surrender"))
    assert not game.round.over and game.round.current == 1


def test_r_5_8_twenty_one_stands_automatically() -> None:
    game = play(["5S", "0H", "6D", "7C", "0S"], actions=("hit",))
    assert game.round.hands[0].stand_reason == "twenty_one" and game.round.over


def test_r_6_1_dealer_draws_only_by_rule() -> None:
    game = play(["0S", "8H", "9D", "8C", "5S"], actions=("stand",))
    assert game.round.dealer == ["8H", "8C", "5S"]


def test_r_6_2_dealer_stands_on_17() -> None:
    game = play(["0S", "AH", "9D", "6C", "2S"], actions=("stand",))
    assert game.round.dealer == ["AH", "6C"]


def test_r_6_3_dealer_stops_on_charlie() -> None:
    game = play(["2S", "2H", "0D", "3C", "2D", "2C", "4H"], actions=("stand",))
    assert game.round.dealer_result == "charlie" and game.round.hands[0].how == "dealer_charlie"


def test_r_pay_1_payout_rounds_down() -> None:
    game = play(["AS", "5H", "KD", "9C"], bet=1005)
    assert game.round.hands[0].winnings == 1005 + 1507


@pytest.mark.parametrize(("payout", "winnings"), [("3:2", 2500), ("2:1", 3000), ("6:5", 2200)])
def test_r_pay_2_blackjack_payouts(payout: str, winnings: int) -> None:
    game = play(["AS", "5H", "KD", "9C"], blackjack_payout=payout)
    assert game.round.hands[0].winnings == winnings


def test_r_7_1a_dealer_natural_without_peek_beats_a_charlie() -> None:
    game = play(
        ["2S", "AH", "3D", "0C", "2H", "4C", "3S"], actions=("hit", "hit", "hit"), dealer_peek=False
    )
    assert game.round.hands[0].result == "lose" and game.round.hands[0].how == "dealer_natural"
    assert game.round.hands[0].winnings == 0


def test_r_7_1_both_charlies_push() -> None:
    game = play(
        ["2S", "2H", "3D", "2C", "2D", "AC", "2H", "2C", "2D", "3S"],
        actions=("hit", "hit", "hit"),
        charlie=5,
    )
    hand = game.round.hands[0]
    assert hand.status == "charlie"
    assert hand.result == "win"  # single-hand Charlie ends the round at once


def test_r_7_1a_late_surrender_loses_to_a_no_hole_card_natural() -> None:
    game = play(["0S", "AH", "6D", "0C"], actions=("surrender",), dealer_peek=False)
    hand = game.round.hands[0]
    assert (hand.result, hand.how, hand.winnings) == ("lose", "dealer_natural", 0)


def test_r_7_1_order_surrender_first_without_a_dealer_natural() -> None:
    game = play(["0S", "9H", "6D", "0C"], actions=("surrender",), dealer_peek=False)
    hand = game.round.hands[0]
    assert (hand.result, hand.how, hand.winnings) == ("surrender", "surrender", 500)


def test_r_7_2_single_hand_bust_ends_round() -> None:
    game = play(["0S", "6H", "6D", "0C", "9S"], actions=("hit",))
    assert game.round.dealer == ["6H", "0C"] and game.round.hands[0].how == "bust"


def test_r_7_3_early_surrender_stays_available_after_peek() -> None:
    game = play(["0S", "9H", "6D", "0C"], actions=("early_surrender:decline",), surrender="early")
    assert game.legal_actions()["surrender"] == ALLOWED


def test_r_7_4_insurance_with_peek_off_settles_at_end() -> None:
    game = play(["9S", "KH", "8D", "AC"], actions=("insurance:accept", "stand"), dealer_peek=False)
    assert game.round.insurance["result"] == "win" and game.round.insurance["winnings"] == 1500
    assert game.round.hands[0].how == "dealer_natural"


def test_r_7_5_even_money_guarantee() -> None:
    for hole in ("KH", "9H"):
        game = play(["AS", hole, "KD", "AC"], actions=("even_money:accept",))
        assert game.bank == 101_000


def test_r_7_6_charlie_pays_one_to_one() -> None:
    game = play(["2S", "0H", "3D", "9C", "2H", "4C", "3S"], actions=("hit", "hit", "hit"))
    assert game.round.hands[0].winnings == 2000


def test_r_8_1_trivia_required_for_double() -> None:
    game = make_game(["6S", "9H", "5D", "8C", "KS"])
    game.start_round(1000)
    with pytest.raises(IllegalAction, match="Double Down needs a trivia answer"):
        game.double()


def test_r_8_2_wrong_answer_stands_without_card() -> None:
    game = make_game(["0S", "7H", "6D", "QC"])
    game.start_round(1000)
    game.hit(WRONG)
    assert (
        game.round.hands[0].cards == ["0S", "6D"]
        and game.round.hands[0].stand_reason == "trivia_wrong"
    )


@pytest.mark.parametrize(
    ("difficulty", "correct", "change"),
    [("easy", True, 0), ("medium", True, 1), ("hard", True, 5), ("hard", False, -1)],
)
def test_r_8_3_credit_changes(difficulty: str, correct: bool, change: int) -> None:
    game = make_game(["2S", "7H", "3D", "QC", "2H"])
    game.start_round(1000)
    game.hit(TriviaOutcome(difficulty, correct))
    assert game.credits == 10 + change and game.round.credits_change == change


def test_r_8_4_trivia_event_carries_credit_change() -> None:
    game = make_game(["2S", "7H", "3D", "QC", "2H"])
    game.start_round(1000)
    events = game.hit(TriviaOutcome("medium", True))
    answer = next(e for e in events if e["type"] == "trivia_answered")
    assert answer["credits_change"] == 1 and answer["credits"] == 11


def test_r_8_5_r_8_6_question_choice_is_the_web_layers() -> None:
    # The engine takes only the outcome; replays spell it "hit:<difficulty>:<answer>".
    game = make_game(["2S", "7H", "3D", "QC", "2H"])
    game.start_round(1000)
    with pytest.raises(IllegalAction, match="correct or wrong"):
        apply_action(game, "hit:easy:maybe")
    with pytest.raises(IllegalAction, match="difficulty"):
        apply_action(game, "hit:extreme:correct")
    apply_action(game, "hit:hard:correct")
    assert game.round.actions == ["hit:hard:correct"]


def test_r_8_7_credits_zero_every_hand_stands_then_game_over() -> None:
    game = make_game(["8S", "0H", "8D", "7C", "3H", "2S"], credits=1)
    game.start_round(1000)
    game.split()
    events = game.hit(WRONG)
    assert "credits_exhausted" in event_types(events)
    assert game.round.over and game.game_over and game.game_over_reason == "credits"


def test_r_8_8_trivia_off_credits_untouched() -> None:
    game = play(["5S", "0H", "6D", "7C", "0S"], actions=("hit",))
    assert game.credits == 10 and public_view(game).credits is None


def test_illegal_actions_change_nothing() -> None:
    game = play(["2S", "9H", "3D", "8C", "2H", "5S"], actions=("hit",))
    before = game_to_json(game)
    for action in (
        "double",
        "split",
        "surrender",
        "insurance:accept",
        "roll",
        "parlay:all",
        "extra_bet:5.00",
        "extra_bet:decline",
        "bogus",
        "stand:now",
    ):
        with pytest.raises(IllegalAction):
            apply_action(game, action)
    with pytest.raises(IllegalAction):
        game.answer_offer("lunch", True)
    with pytest.raises(IllegalAction, match="Finish the current round"):
        game.start_round(1000)
    assert game_to_json(game) == before


def test_no_round_yet() -> None:
    game = make_game([])
    assert game.legal_actions()["hit"].startswith("No round in progress")
    assert public_view(game).round is None
    assert game.insurance_cost() == 0
    with pytest.raises(ValueError):
        export_round_replay(game)


def test_set_options_between_rounds_only() -> None:
    game = make_game(["9S", "8H", "7D", "0C"], trivia_mode=False)
    events = game.set_options(Options.from_dict({"deck_count": 2}))
    assert game.shoe.remaining() == 104 and event_types(events) == ["shoe_shuffled"]
    game.set_options(Options.from_dict({"deck_count": 2, "trivia_mode": False}))
    game.shoe = Shoe.from_cards(["9S", "8H", "7D", "0C"])
    game.start_round(1000)
    with pytest.raises(IllegalAction, match="between rounds"):
        game.set_options(Options())
    assert Engine(Options.from_dict({"seats": 2})).options.seats == 2  # §10 Extensions
    game.stand()
    game.set_options(Options.from_dict({"seats": 2}))
    assert game.options.seats == 2


def test_record_events_off_returns_nothing() -> None:
    game = make_game(["0S", "7H", "9D", "0C"], trivia_mode=False)
    game.record_events = False
    assert game.start_round(1000) == [] and game.stand() == []
    assert game.round.over
