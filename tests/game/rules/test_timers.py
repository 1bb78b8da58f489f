"""R-4.13 and R-8.9: timed decisions and answers, with a fake clock (no real seconds)."""

from __future__ import annotations

import pytest

from game.rules.clock import FakeClock
from game.rules.engine import Engine
from game.rules.options import Options
from game.rules.records import PLAYER_TURN, ROUND_OVER, IllegalAction, TriviaOutcome
from game.rules.replay import apply_action
from game.rules.shoe import Shoe
from game.rules.storage import game_from_json, game_to_json

# Player 9S 7D (hard 16) against 6C, hole 0H; the dealer's 16 draws KD and busts.
SIXTEEN = ["9S", "0H", "7D", "6C", "KD"]
# Two eights against a 6 (hole 0H): a split makes two hands; then 3H, 2C, KD.
EIGHTS = ["8S", "0H", "8D", "6C", "3H", "2C", "KD"]


def timed_game(cards: list[str], clock: FakeClock, **options: object) -> Engine:
    chosen = Options.from_dict({"trivia_mode": False, "turn_seconds": 20, **options})
    return Engine(chosen, shoe=Shoe.from_cards(cards, chosen.shoe_decks), clock=clock)


def test_each_decision_gets_the_turn_seconds_from_when_it_became_pending() -> None:
    clock = FakeClock()
    game = timed_game(SIXTEEN, clock)
    game.start_round(1000)
    assert game.round is not None and game.round.deadline == clock() + 20_000
    clock.advance(seconds=19.999)
    assert game.run_clock() == [] and game.round.phase == PLAYER_TURN


def test_a_decision_past_the_deadline_finds_the_hand_stood() -> None:
    clock = FakeClock()
    game = timed_game(SIXTEEN, clock)
    game.start_round(1000)
    clock.advance(seconds=20)
    events = game.run_clock()
    assert [e for e in events if e["type"] == "timed_out"] == [{"type": "timed_out", "hand": 0}]
    assert game.round is not None and game.round.phase == ROUND_OVER
    assert game.round.hands[0].stand_reason == "timeout"
    assert game.round.actions == ["timeout"]
    with pytest.raises(IllegalAction):
        game.stand()  # the decision the player was late with is gone


def test_a_late_resume_times_out_every_hand_one_deadline_after_another() -> None:
    clock = FakeClock()
    game = timed_game(EIGHTS, clock, max_splits=1)
    game.start_round(1000)
    game.split()  # hand 1: 8S 3H, hand 2: 8D 2C; hand 1's clock starts now
    clock.advance(seconds=39.9)  # hand 1 ran out at 20 s; hand 2 has until 40 s
    game.run_clock()
    assert game.round is not None and game.round.current == 1
    assert game.round.deadline == clock() + 100
    clock.advance(seconds=3600)  # leaving the page does not stop the clock
    game.run_clock()
    assert game.round.phase == ROUND_OVER
    assert [hand.stand_reason for hand in game.round.hands] == ["timeout", "timeout"]


def test_acting_in_time_starts_a_new_clock_for_the_next_decision() -> None:
    clock = FakeClock()
    game = timed_game(["2S", "0H", "3D", "6C", "4H", "KD"], clock)
    game.start_round(1000)
    clock.advance(seconds=15)
    game.hit()
    assert game.round is not None and game.round.deadline == clock() + 20_000


def test_untimed_games_have_no_deadline_and_refuse_a_timeout() -> None:
    clock = FakeClock()
    chosen = Options.from_dict({"trivia_mode": False})
    game = Engine(chosen, shoe=Shoe.from_cards(SIXTEEN, 6), clock=clock)
    game.start_round(1000)
    assert game.round is not None and game.round.deadline is None
    clock.advance(seconds=10_000)
    assert game.run_clock() == []
    with pytest.raises(IllegalAction, match="No decision is timed"):
        apply_action(game, "timeout")


def test_the_question_pauses_the_turn_clock_and_a_late_answer_counts_wrong() -> None:
    clock = FakeClock()
    chosen = Options.from_dict({"turn_seconds": 10, "answer_seconds": 15})
    game = Engine(chosen, shoe=Shoe.from_cards(SIXTEEN, 6), clock=clock)
    game.start_round(1000)
    game.pause_turn_clock()  # Hit chosen, question shown
    clock.advance(seconds=60)
    assert game.run_clock() == []  # the turn's clock is not running during the question
    game.start_next_decision_at(clock() - 45_000)  # the answer's own deadline, long gone
    game.hit(TriviaOutcome("medium", False, timed_out=True))
    assert game.credits == 9
    assert game.round is not None and game.round.actions == ["hit:medium:timeout"]


def test_a_timed_out_answer_needs_an_answer_clock_and_is_never_right() -> None:
    game = timed_game(SIXTEEN, FakeClock(), trivia_mode=True)
    game.start_round(1000)
    with pytest.raises(IllegalAction, match="answer_seconds is off"):
        game.hit(TriviaOutcome("easy", False, timed_out=True))
    with pytest.raises(ValueError, match="timed out"):
        TriviaOutcome("easy", True, timed_out=True)


def test_the_deadline_survives_json_and_old_rounds_load_without_one() -> None:
    clock = FakeClock()
    game = timed_game(SIXTEEN, clock)
    game.start_round(1000)
    stored = game_to_json(game)
    again = game_from_json(stored, clock=clock)
    assert again.round is not None and again.round.deadline == clock() + 20_000
    del stored["round"]["deadline"]  # a round saved before timers existed
    old = game_from_json(stored, clock=clock)
    assert old.round is not None and old.round.deadline is None


@pytest.mark.parametrize(
    ("raw", "ms"), [("off", None), (10, 10_000), (20, 20_000), (30, 30_000), (60, 60_000)]
)
def test_turn_seconds_values(raw: object, ms: int | None) -> None:
    assert Options.from_dict({"turn_seconds": raw}).turn_ms == ms


@pytest.mark.parametrize("raw", [0, 5, 45, "10", True, None, 10.0])
def test_turn_and_answer_seconds_refuse_other_values(raw: object) -> None:
    with pytest.raises(ValueError):
        Options.from_dict({"turn_seconds": raw})
    with pytest.raises(ValueError):
        Options.from_dict({"answer_seconds": raw})
