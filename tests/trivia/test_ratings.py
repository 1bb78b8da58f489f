"""The chance formula and its inverse (R-8.10)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trivia.ratings import GUESS, TARGET_CHANCE, chance, target_rating


def test_a_question_at_the_players_rating_is_halfway_between_guessing_and_certain() -> None:
    assert chance(1500, 1500, 0.25) == pytest.approx(0.625)
    assert chance(1500, 1500, 0.5) == pytest.approx(0.75)


def test_four_hundred_points_easier_is_ten_to_one_beyond_the_guess() -> None:
    # 1 / (1 + 10^-1) of the way from the guess to certainty.
    assert chance(1900, 1500, 0.25) == pytest.approx(0.25 + 0.75 * 10 / 11)


def test_worked_targets_for_a_player_at_the_middle_of_the_bank() -> None:
    assert target_rating(1500, TARGET_CHANCE["easy"], GUESS["multiple"]) == pytest.approx(
        1324.27, abs=0.01
    )
    assert target_rating(1500, TARGET_CHANCE["medium"], GUESS["multiple"]) == pytest.approx(
        1523.20, abs=0.01
    )
    assert target_rating(1500, TARGET_CHANCE["hard"], GUESS["multiple"]) == pytest.approx(
        1825.17, abs=0.01
    )


def test_a_chance_under_the_guess_is_clamped_to_the_hardest_the_formula_names() -> None:
    hardest = target_rating(1500, 0.35, GUESS["boolean"])
    assert hardest == target_rating(1500, 0.2, GUESS["boolean"])
    assert hardest > target_rating(1500, 0.6, GUESS["boolean"])


@given(
    theta=st.floats(500, 2500),
    wanted=st.floats(0.3, 0.95),
    guess=st.sampled_from(sorted(GUESS.values())),
)
def test_target_rating_inverts_the_chance(theta: float, wanted: float, guess: float) -> None:
    if wanted <= guess + 0.01:
        return
    assert chance(theta, target_rating(theta, wanted, guess), guess) == pytest.approx(wanted)
