"""R-8.11 in the rules: when a lifeline may be used, what 50:50 removes, the credit the
engine takes for it, and its replay spelling."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.rules.daily import daily_options
from game.rules.engine import Engine
from game.rules.lifelines import (
    ALREADY_USED,
    LAST_CREDIT,
    LIFELINES_OFF,
    NO_QUESTION,
    NOT_FOUR_ANSWERS,
    TIME_RAN_OUT,
    fifty_fifty_removed,
    lifeline_refusal,
)
from game.rules.options import Options
from game.rules.records import IllegalAction, TriviaOutcome
from game.rules.replay import ReplayError, run_replay
from game.rules.shoe import Shoe

ANSWERS = ["Paris", "Lyon", "Nice", "Lille"]


def refusal(kind: str = "fifty_fifty", **given_: object) -> str | None:
    facts: dict[str, object] = {
        "enabled": True,
        "pending": True,
        "used": (),
        "answer_count": 4,
        "credits": 10,
        "time_left_ms": None,
    }
    facts.update(given_)
    return lifeline_refusal(kind, **facts)  # type: ignore[arg-type]


def test_a_lifeline_may_be_used_once_per_question_before_answering() -> None:
    assert refusal("fifty_fifty") is None and refusal("swap") is None
    assert refusal("fifty_fifty", used=("fifty_fifty",)) == ALREADY_USED
    assert refusal("swap", used=("fifty_fifty",)) is None  # each once
    assert refusal("swap", used=("swap",)) == ALREADY_USED
    assert refusal("swap", pending=False) == NO_QUESTION


def test_fifty_fifty_needs_four_answers_and_swap_does_not() -> None:
    assert refusal("fifty_fifty", answer_count=2) == NOT_FOUR_ANSWERS
    assert refusal("swap", answer_count=2) is None


def test_a_lifeline_is_refused_with_one_credit_left() -> None:
    assert refusal(credits=2) is None
    assert refusal(credits=1) == LAST_CREDIT
    assert refusal("swap", credits=1) == LAST_CREDIT


def test_a_lifeline_is_refused_when_off_or_after_the_answer_time() -> None:
    assert refusal(enabled=False) == LIFELINES_OFF
    assert refusal(time_left_ms=1) is None
    assert refusal(time_left_ms=0) == TIME_RAN_OUT


def test_the_option_is_on_by_default_and_off_in_the_daily_shoe() -> None:
    assert Options().lifelines is True
    assert daily_options().lifelines is False
    assert Options.from_dict({"lifelines": False}).lifelines is False
    with pytest.raises(ValueError, match="lifelines"):
        Options.from_dict({"lifelines": "yes"})


@given(seed=st.integers(min_value=0, max_value=2**32), right=st.sampled_from(ANSWERS))
def test_fifty_fifty_removes_exactly_two_wrong_answers_never_the_right_one(
    seed: int, right: str
) -> None:
    removed = fifty_fifty_removed(ANSWERS, right, random.Random(seed))
    assert len(removed) == 2 and len(set(removed)) == 2
    assert right not in removed
    assert set(removed) <= set(ANSWERS)


def test_fifty_fifty_leaves_each_wrong_answer_standing_sometimes() -> None:
    kept: set[str] = set()
    for seed in range(60):
        removed = fifty_fifty_removed(ANSWERS, "Paris", random.Random(seed))
        kept |= set(ANSWERS) - set(removed) - {"Paris"}
    assert kept == {"Lyon", "Nice", "Lille"}


def test_fifty_fifty_refuses_a_true_false_question() -> None:
    with pytest.raises(ValueError):
        fifty_fifty_removed(["True", "False"], "True", random.Random(1))


# Player 2S 3D (5) against 6C: a hit (4H) leaves the hand open.
FIVE = ["2S", "0H", "3D", "6C", "4H", "KD", "5H", "9C"]


def dealt(credits: int = 10, **options: object) -> Engine:
    engine = Engine(Options.from_dict(options), credits=credits, shoe=Shoe.from_cards(FIVE, 6))
    engine.start_round(1000)
    return engine


def test_the_engine_takes_a_lifelines_credit_at_once() -> None:
    engine = dealt()
    engine.use_lifeline("fifty_fifty")
    assert engine.credits == 9
    assert engine.round is not None and engine.round.credits_change == -1
    engine.hit(TriviaOutcome("medium", True, lifelines=("fifty_fifty",)))
    assert engine.credits == 10  # -1 for 50:50, +1 for a right Medium
    assert engine.round.actions == ["hit:medium:fifty_fifty:correct"]


def test_the_engine_refuses_a_lifeline_on_the_last_credit_or_when_off() -> None:
    with pytest.raises(IllegalAction, match="one credit left"):
        dealt(credits=1).use_lifeline("swap")
    with pytest.raises(IllegalAction, match="Lifelines are off"):
        dealt(lifelines=False).use_lifeline("swap")
    with pytest.raises(IllegalAction, match="Trivia mode is off"):
        dealt(trivia_mode=False).use_lifeline("swap")


def test_a_wrong_answer_after_a_lifeline_can_end_the_game() -> None:
    engine = dealt(credits=2)
    engine.use_lifeline("swap")
    engine.hit(TriviaOutcome("easy", False, lifelines=("swap",)))
    assert engine.credits == 0
    assert engine.game_over and engine.game_over_reason == "credits"


def replay(action: str, credits: int = 10, **options: object) -> dict[str, object]:
    # A right answer leaves the hand open (5 + 4): it stands; a wrong one stood it.
    actions = [action, "stand"] if action.endswith(":correct") else [action]
    return run_replay(
        {
            "options": options,
            "credits": credits,
            "rounds": [{"bet": "10.00", "shoe": FIVE, "actions": actions}],
        }
    )


def test_a_replay_applies_the_lifelines_credits() -> None:
    assert replay("hit:hard:correct")["credits"] == 15
    assert replay("hit:hard:fifty_fifty:correct")["credits"] == 14
    result = replay("hit:medium:fifty_fifty:swap:wrong")
    assert result["credits"] == 7
    assert result["rounds"][0]["credits_change"] == -3  # type: ignore[index]


def test_a_replay_refuses_a_lifeline_it_may_not_use() -> None:
    with pytest.raises(ReplayError, match="one credit left"):
        replay("hit:easy:swap:correct", credits=1)
    with pytest.raises(ReplayError, match="Lifelines are off"):
        replay("hit:easy:swap:correct", lifelines=False)
    with pytest.raises(ReplayError, match="at most once"):
        replay("hit:easy:swap:swap:correct")
    with pytest.raises(ReplayError, match="fifty_fifty or swap"):
        replay("hit:easy:hint:correct")
