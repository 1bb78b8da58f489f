"""Ratings learned from answers (RULES.md R-8.10): pure Python, no Django.

Every player and every question has a rating on one scale (the bank's middle is 1500).

Chance of a right answer, for a player rated θ and a question rated b whose answers can be
guessed with chance c (¼ for four answers, ½ for True/False)::

    P(right) = c + (1 − c) · 1 / (1 + 10^((b − θ) / 400))

So P runs from c (a hopeless question: the player can only guess) up to 1, is c + (1 − c)/2
when b = θ, and each 400 points between them multiply the odds of knowing by ten.

Update from one first attempt (outcome 1 right, 0 wrong), Elo-like, both sides at once::

    surprise = outcome − P(right)
    K(n)     = K_MIN + (K_MAX − K_MIN) / (1 + n / N0)        n: answers already seen
    Δθ       = clamp( K(n_player)   · surprise, −CAP, CAP)
    Δb       = clamp(−K(n_question) · surprise, −CAP, CAP)

A right answer raises the player and lowers the question, by more the less expected it was;
the step shrinks as each side has seen more answers (a new player or question moves fast, a
settled one slowly, never below K_MIN so that ratings can still follow change), and no single
answer moves either by more than CAP.

Target rating: the question a player rated θ answers right with chance p (p > c)::

    b = θ − 400 · log10( (p − c) / (1 − p) )

A chance at or below c cannot be aimed at (the player guesses at least that well): the
target is then θ + TARGET_SPAN, the hardest end; a chance at or above 1 gives θ − TARGET_SPAN.

Spaced review of a missed question (REVIEW_DAYS = 1, 3, 7 days): missed at the first
attempt, it is due a day later (step 1); missed again on review, it moves to the next step
and is due after that step's wait (3, then 7 days, and 7 days after that); answered right on
review, it is learned and not due again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# The chance of guessing right by question type (trivia.models.Question.Type's values).
GUESS: dict[str, float] = {"multiple": 0.25, "boolean": 0.5}
# The chance of a right answer each difficulty aims at for the player who chooses it.
TARGET_CHANCE: dict[str, float] = {"easy": 0.80, "medium": 0.60, "hard": 0.35}
# Where a new player starts: the bank's middle (trivia.models.RATING_SEEDS["medium"]).
START_RATING = 1500.0
# The step K(n): K_MAX for a side that has seen no answer, halfway down after N0 of them.
K_MAX = 64.0
K_MIN = 8.0
N0 = 20.0
# No single answer moves a rating by more than this.
CAP = 48.0
# How far from the player a target rating may go when the chance asked cannot be reached.
TARGET_SPAN = 800.0
# A label contradicted by the answers (the admin's flag): the share of right answers each
# label may have, in percent (lowest, highest), judged once LABEL_MIN_ANSWERS are seen. An
# easy question most players miss, or a hard one nearly everyone gets, is probably
# mislabelled (or its marked answer is wrong); a handful of answers says nothing.
LABEL_MIN_ANSWERS = 20
LABEL_RIGHT_PERCENT: dict[str, tuple[int, int]] = {
    "easy": (40, 100),
    "medium": (20, 95),
    "hard": (0, 85),
}
# Spaced review of a missed question: its steps' waits in days (step 1 is the first).
REVIEW_DAYS: tuple[int, ...] = (1, 3, 7)


@dataclass(frozen=True)
class Rated:
    """One side of an answer: a rating and how many rated answers it has seen so far."""

    rating: float
    answers: int


@dataclass(frozen=True)
class Update:
    """The two sides after one rated answer (each with one more answer seen), and the
    chance the answer had beforehand."""

    player: Rated
    question: Rated
    expected: float


def guess_chance(question_type: str) -> float:
    """The chance of guessing a question of ``question_type`` right (¼ if unknown)."""
    return GUESS.get(question_type, GUESS["multiple"])


def chance_right(theta: float, b: float, guess: float) -> float:
    """P(right) for a player rated ``theta`` on a question rated ``b`` with guessing chance
    ``guess``: between ``guess`` and 1, rising with theta and falling with b."""
    exponent = max(-50.0, min(50.0, (b - theta) / 400.0))
    return guess + (1.0 - guess) / (1.0 + math.pow(10.0, exponent))


def step(answers: int) -> float:
    """K(n): how far a side with ``answers`` rated answers seen moves per unit of surprise."""
    return K_MIN + (K_MAX - K_MIN) / (1.0 + max(answers, 0) / N0)


def _capped(change: float) -> float:
    return max(-CAP, min(CAP, change))


def rate_answer(*, player: Rated, question: Rated, correct: bool, guess: float) -> Update:
    """Move the player and the question after the player's first attempt at the question:
    the player up and the question down when right, the other way when wrong, each by its
    own step times the surprise, capped at CAP."""
    expected = chance_right(player.rating, question.rating, guess)
    surprise = (1.0 if correct else 0.0) - expected
    player_change = _capped(step(player.answers) * surprise)
    question_change = _capped(-step(question.answers) * surprise)
    return Update(
        player=Rated(player.rating + player_change, player.answers + 1),
        question=Rated(question.rating + question_change, question.answers + 1),
        expected=expected,
    )


def target_rating(theta: float, chance: float, guess: float) -> float:
    """The question rating a player rated ``theta`` answers right with ``chance`` (the
    formula solved for b); clamped to theta ± TARGET_SPAN when the chance is out of reach
    (at or below the guessing chance, or at or above certainty)."""
    if chance <= guess:
        return theta + TARGET_SPAN
    if chance >= 1.0:
        return theta - TARGET_SPAN
    b = theta - 400.0 * math.log10((chance - guess) / (1.0 - chance))
    return max(theta - TARGET_SPAN, min(theta + TARGET_SPAN, b))


def label_contradicted(*, difficulty: str, answers: int, right: int) -> bool:
    """Whether ``right`` right answers out of ``answers`` contradict the label
    ``difficulty`` (outside LABEL_RIGHT_PERCENT once LABEL_MIN_ANSWERS are seen)."""
    if answers < LABEL_MIN_ANSWERS or difficulty not in LABEL_RIGHT_PERCENT:
        return False
    lowest, highest = LABEL_RIGHT_PERCENT[difficulty]
    # Whole numbers: the same comparison the admin's filter makes in SQL.
    return right * 100 < lowest * answers or right * 100 > highest * answers


@dataclass(frozen=True)
class Review:
    """Where a missed question's spaced review stands after an answer: its step (0 before
    any miss), the days until it is due again (None: not due again) and whether it is
    learned."""

    step: int
    due_in_days: int | None
    learned: bool


def next_review(*, step: int, correct: bool) -> Review:
    """The review after an answer to a question at review ``step`` (0: its first attempt).

    Wrong at the first attempt: step 1, due in REVIEW_DAYS[0] days. Wrong on a review: the
    next step, due after that step's wait (the last step's wait once past the last). Right
    on a review: learned, not due again. Right at the first attempt: nothing to review.
    """
    if correct:
        return Review(step=step, due_in_days=None, learned=step > 0)
    next_step = min(step + 1, len(REVIEW_DAYS))
    return Review(step=next_step, due_in_days=REVIEW_DAYS[next_step - 1], learned=False)
