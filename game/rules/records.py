"""Small value types shared by the engine: phases, results, trivia outcomes, events, errors."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

# RULES.md §4 phase names, in order (the persisted round phase).
BETTING: Final = "betting"
DEALING: Final = "dealing"
EXTRA_BET: Final = "extra_bet"
INSURANCE: Final = "insurance"
EVEN_MONEY: Final = "even_money"
EARLY_SURRENDER: Final = "early_surrender"
PEEK: Final = "peek"
HOUSE_MONEY_PARLAY: Final = "house_money_parlay"
PLAYER_TURN: Final = "player_turn"
DEALER_TURN: Final = "dealer_turn"
SETTLEMENT: Final = "settlement"
ROUND_OVER: Final = "round_over"
PHASES = (
    BETTING,
    DEALING,
    EXTRA_BET,
    INSURANCE,
    EVEN_MONEY,
    EARLY_SURRENDER,
    PEEK,
    HOUSE_MONEY_PARLAY,
    PLAYER_TURN,
    DEALER_TURN,
    SETTLEMENT,
    ROUND_OVER,
)

# Hand results (REPLAY.md) and the "how" of each, named after the step that decided it.
# Final (here and above): the compiled engine (mypyc) inlines them instead of looking them up.
WIN: Final = "win"
NATURAL: Final = "natural"
PUSH: Final = "push"
LOSE: Final = "lose"
SURRENDER: Final = "surrender"

# Every player action the legal-action query reports on (replay spelling).
PLAY_ACTIONS = ("hit", "stand", "double", "split", "surrender")
OFFER_ACTIONS = (
    "insurance:accept",
    "insurance:decline",
    "even_money:accept",
    "even_money:decline",
    "early_surrender:accept",
    "early_surrender:decline",
    "extra_bet",
    "extra_bet:decline",
    "parlay:collect",
    "parlay:bet",
    "parlay:winnings",
    "parlay:all",
    "roll",
)
ALL_ACTIONS = PLAY_ACTIONS + OFFER_ACTIONS
ALLOWED: Final = "allowed"

DIFFICULTIES = ("easy", "medium", "hard")
# credits for a correct answer by difficulty; a wrong answer costs one.
CREDITS_FOR_CORRECT = {"easy": 0, "medium": 1, "hard": 5}
CREDITS_FOR_WRONG = -1
# the lifelines, in replay spelling, and what each costs (taken when used).
FIFTY_FIFTY: Final = "fifty_fifty"
SWAP: Final = "swap"
LIFELINES = (FIFTY_FIFTY, SWAP)
LIFELINE_COST: Final = 1
# a missed question due for review is asked at most one question in five: once
# this many others have been asked since the last review.
ASKED_BETWEEN_REVIEWS = 4


def review_may_be_asked(asked_since_review: int) -> bool:
    """Whether the next question may be a spaced review (R-8.10)."""
    return asked_since_review >= ASKED_BETWEEN_REVIEWS


Event = dict[str, Any]


@dataclass(frozen=True, slots=True)
class TriviaOutcome:
    """The answer the web layer got before a Hit or Double in trivia mode (R-8.1, R-8.2)."""

    difficulty: str
    correct: bool
    # not answered before the answer deadline (so ``correct`` is False).
    timed_out: bool = False
    # the lifelines used on the question, in order. Their credits were taken when
    # they were used (Engine.use_lifeline); they are named here for the action's record.
    lifelines: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for kind in self.lifelines:
            if kind not in LIFELINES:
                raise ValueError(f"a lifeline is fifty_fifty or swap, not {kind!r}")
        if len(set(self.lifelines)) != len(self.lifelines):
            raise ValueError("each lifeline is used at most once on a question")
        if self.timed_out and self.correct:
            raise ValueError("a question that timed out was not answered correctly")
        if self.difficulty not in DIFFICULTIES:
            raise ValueError(
                f"trivia difficulty must be easy, medium or hard, not {self.difficulty!r}"
            )

    @property
    def credit_change(self) -> int:
        return CREDITS_FOR_CORRECT[self.difficulty] if self.correct else CREDITS_FOR_WRONG

    def code(self) -> str:
        """The answer in replay spelling: ``medium:correct``, ``hard:fifty_fifty:wrong``."""
        answer = "timeout" if self.timed_out else "correct" if self.correct else "wrong"
        return ":".join((self.difficulty, *self.lifelines, answer))


@dataclass(frozen=True, slots=True)
class BoxBet:
    """The bets of one box at the deal (R-4.1; §10 Extensions, ``seats``): its base bet in
    cents, its side-bet stakes by name (R-SB) and whether Extra Bet Blackjack is activated.

    ``Game.start_round(boxes=[BoxBet(1000), BoxBet(500, {"21+3": 100}), ...])`` — one per
    seat, left to right. A plain ``(bet, side_bets)`` or ``(bet, side_bets, extra_bet)``
    tuple is read the same way.
    """

    bet: int
    side_bets: Mapping[str, int] = field(default_factory=dict)
    extra_bet: bool = False


@dataclass(frozen=True, slots=True)
class SharedBox(BoxBet):
    """One box of a shared round (TABLES.md): a :class:`BoxBet` (its bets, the same
    fields) with the wallet of the player who plays it, before the round — ``bank`` in
    cents and trivia ``credits``. Every cent and credit of the box moves in that wallet,
    never in the game's own bank (``Game.start_shared_round``, ``Game.box_wallet``).

    ``SharedBox(1000, {"21+3": 100}, bank=50_000, credits=10)``.
    """

    bank: int = field(kw_only=True)
    credits: int = field(kw_only=True)


@dataclass(frozen=True, slots=True)
class InsuranceOffer:
    """One box's offer in the insurance stage (R-4.5): ``box`` (0-based), ``offer``
    (INSURANCE, or EVEN_MONEY to a natural), what accepting costs in cents (half the box's
    base bet, rounded down) and whether the box has answered it."""

    box: int
    offer: str
    cost: int
    answered: bool


class IllegalAction(Exception):
    """An action or bet the rules do not allow right now; the state is unchanged."""


class GameOver(IllegalAction):
    """The game is over (R-1.5, R-1.6): it can be viewed but not played."""
