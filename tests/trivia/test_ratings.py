"""The rating formulas (trivia/ratings.py): worked numbers, convergence on a simulated
population, the target chances, and properties that hold for any ratings."""

from __future__ import annotations

import math
import random
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trivia.ratings import (
    CAP,
    GUESS,
    REVIEW_DAYS,
    START_RATING,
    TARGET_CHANCE,
    Rated,
    Review,
    chance_right,
    next_review,
    rate_answer,
    step,
    target_rating,
)

FOUR = GUESS["multiple"]
TWO = GUESS["boolean"]


def test_even_ratings_give_the_guess_plus_half_the_rest() -> None:
    # b = θ: 10^0 = 1, so P = c + (1 − c)/2 = 0.25 + 0.375 = 0.625 (four answers), 0.75 (two).
    assert chance_right(1500, 1500, FOUR) == pytest.approx(0.625)
    assert chance_right(1500, 1500, TWO) == pytest.approx(0.75)


def test_step_shrinks_with_answers_seen() -> None:
    # K(n) = 8 + 56 / (1 + n/20): 64 at 0, 36 at 20, 8 + 56/3 = 26.667 at 40.
    assert step(0) == pytest.approx(64)
    assert step(20) == pytest.approx(36)
    assert step(40) == pytest.approx(8 + 56 / 3)
    assert step(10_000) > 8


def test_right_answer_between_new_equals_moves_both_by_the_full_step() -> None:
    # P = 0.625, surprise = 1 − 0.625 = 0.375, K(0) = 64: 64 · 0.375 = 24 each way.
    update = rate_answer(player=Rated(1500, 0), question=Rated(1500, 0), correct=True, guess=FOUR)
    assert update.expected == pytest.approx(0.625)
    assert (update.player.rating, update.player.answers) == (pytest.approx(1524.0), 1)
    assert (update.question.rating, update.question.answers) == (pytest.approx(1476.0), 1)


def test_surprising_right_answer_moves_the_newer_side_further() -> None:
    # θ = 1500 (0 answers), b = 1800 (20 answers), four answers:
    # 10^(300/400) = 5.62341, 1/(1 + 5.62341) = 0.150981, P = 0.25 + 0.75 · 0.150981 = 0.363235.
    # surprise = 0.636765; player: K(0) = 64 → +40.753; question: K(20) = 36 → −22.924.
    update = rate_answer(player=Rated(1500, 0), question=Rated(1800, 20), correct=True, guess=FOUR)
    assert update.expected == pytest.approx(0.363235, abs=1e-6)
    assert update.player.rating == pytest.approx(1540.753, abs=1e-3)
    assert update.question.rating == pytest.approx(1777.076, abs=1e-3)
    assert (update.player.answers, update.question.answers) == (1, 21)


def test_one_change_is_capped() -> None:
    # θ = 1600 (40 answers), b = 1400 (new), True/False, answered wrong:
    # 10^(−200/400) = 0.316228, 1/1.316228 = 0.759747, P = 0.5 + 0.5 · 0.759747 = 0.879873.
    # surprise = −0.879873; player: K(40) = 26.667 → −23.463;
    # question: K(0) = 64 → +56.312, capped at +48.
    update = rate_answer(player=Rated(1600, 40), question=Rated(1400, 0), correct=False, guess=TWO)
    assert update.expected == pytest.approx(0.879873, abs=1e-6)
    assert update.player.rating == pytest.approx(1576.537, abs=1e-3)
    assert update.question.rating == pytest.approx(1400 + CAP)


def _spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        result = [0.0] * len(values)
        for rank, index in enumerate(order):
            result[index] = float(rank)
        return result

    return statistics.correlation(ranks(xs), ranks(ys))


def test_ratings_learn_the_order_of_questions_from_a_simulated_population() -> None:
    rng = random.Random(20261129)
    true_difficulty = [rng.uniform(1000, 2100) for _ in range(150)]
    kinds = [rng.choice(["multiple", "multiple", "multiple", "boolean"]) for _ in true_difficulty]
    # Every question starts at the bank's middle: the order must come from the answers.
    learned = [Rated(START_RATING, 0) for _ in true_difficulty]
    for _player in range(3000):
        skill = rng.gauss(1500, 250)
        player = Rated(START_RATING, 0)
        # Each player answers 25 different questions: first attempts only.
        for index in rng.sample(range(len(true_difficulty)), 25):
            guess = GUESS[kinds[index]]
            correct = rng.random() < chance_right(skill, true_difficulty[index], guess)
            update = rate_answer(
                player=player, question=learned[index], correct=correct, guess=guess
            )
            player, learned[index] = update.player, update.question
    correlation = _spearman([q.rating for q in learned], true_difficulty)
    assert correlation >= 0.9


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
@pytest.mark.parametrize("kind", ["multiple", "boolean"])
def test_a_question_at_the_target_rating_is_answered_at_the_target_chance(
    difficulty: str, kind: str
) -> None:
    rng = random.Random(7)
    theta = 1630.0
    guess = GUESS[kind]
    target = TARGET_CHANCE[difficulty]
    b = target_rating(theta, target, guess)
    # Out of reach (Hard on True/False: 35 % is below guessing's 50 %): the hardest in reach.
    aimed = target if target > guess else chance_right(theta, theta + 800, guess)
    assert chance_right(theta, b, guess) == pytest.approx(aimed)
    # And a simulated player of that skill gets it right about that often.
    right = sum(rng.random() < chance_right(theta, b, guess) for _ in range(20_000))
    assert right / 20_000 == pytest.approx(aimed, abs=0.015)


def test_harder_labels_aim_at_harder_questions() -> None:
    ratings = [target_rating(1500, TARGET_CHANCE[d], FOUR) for d in ("easy", "medium", "hard")]
    assert ratings == sorted(ratings)


def test_a_chance_below_guessing_aims_at_the_hardest_end() -> None:
    # Hard on True/False (35 % < 50 %): no question is that hard, so the hardest in reach.
    assert target_rating(1500, TARGET_CHANCE["hard"], TWO) == target_rating(1500, TWO, TWO)
    assert target_rating(1500, 0.3, TWO) > target_rating(1500, 0.55, TWO)
    assert target_rating(1500, 1.0, FOUR) < target_rating(1500, 0.99, FOUR)


def test_missed_questions_come_back_after_one_three_and_seven_days() -> None:
    assert REVIEW_DAYS == (1, 3, 7)
    assert next_review(step=0, correct=True) == Review(0, None, False)
    assert next_review(step=0, correct=False) == Review(1, 1, False)
    assert next_review(step=1, correct=False) == Review(2, 3, False)
    assert next_review(step=2, correct=False) == Review(3, 7, False)
    assert next_review(step=3, correct=False) == Review(3, 7, False)
    for review_step in (1, 2, 3):
        assert next_review(step=review_step, correct=True) == Review(review_step, None, True)


ratings = st.floats(min_value=0, max_value=3000, allow_nan=False)
answers = st.integers(min_value=0, max_value=100_000)
guesses = st.sampled_from(sorted(GUESS.values()))


@given(theta=ratings, b=ratings, guess=guesses)
def test_chance_lies_between_the_guess_and_certainty(theta: float, b: float, guess: float) -> None:
    assert guess <= chance_right(theta, b, guess) <= 1.0


@given(theta=ratings, b=ratings, more=st.floats(min_value=1, max_value=500), guess=guesses)
def test_chance_rises_with_the_player_and_falls_with_the_question(
    theta: float, b: float, more: float, guess: float
) -> None:
    assert chance_right(theta + more, b, guess) >= chance_right(theta, b, guess)
    assert chance_right(theta, b + more, guess) <= chance_right(theta, b, guess)


@given(
    theta=ratings,
    b=ratings,
    n_player=answers,
    n_question=answers,
    correct=st.booleans(),
    guess=guesses,
)
def test_one_answer_never_moves_a_rating_past_the_cap_nor_the_wrong_way(
    theta: float, b: float, n_player: int, n_question: int, correct: bool, guess: float
) -> None:
    update = rate_answer(
        player=Rated(theta, n_player), question=Rated(b, n_question), correct=correct, guess=guess
    )
    player_change = update.player.rating - theta
    question_change = update.question.rating - b
    assert abs(player_change) <= CAP + 1e-9
    assert abs(question_change) <= CAP + 1e-9
    if correct:
        assert player_change >= 0 >= question_change
    else:
        assert player_change <= 0 <= question_change


@given(theta=ratings, chance=st.floats(min_value=0.0, max_value=1.0), guess=guesses)
def test_target_is_finite_and_hits_any_reachable_chance(
    theta: float, chance: float, guess: float
) -> None:
    b = target_rating(theta, chance, guess)
    assert math.isfinite(b)
    if guess + 0.01 < chance < 0.99:
        assert chance_right(theta, b, guess) == pytest.approx(chance, abs=1e-6)
