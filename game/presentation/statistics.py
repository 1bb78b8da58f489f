"""A player's statistics (UI.md): a fixed handful of aggregate queries over their rounds.

Every figure is computed in the database from the persisted Round / Hand / SideBet /
TriviaAttempt / SeenQuestion rows, so the page costs the same six queries for ten rounds
or ten thousand. Only finished rounds count (their hands and side bets are written when
the round ends); a round ended by End Game counts as played, its forfeited hands as lost.
Money stays in integer cents.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import Count, F, Max, Q, Sum, Window
from django.db.models.functions import Coalesce

from game.models import Hand, Round, SideBet, TriviaAttempt
from game.presentation.side_bet_menu import SIDE_BET_LABELS as MENU_LABELS
from game.rules.records import (
    DIFFICULTIES,
    FIFTY_FIFTY,
    LOSE,
    NATURAL,
    PUSH,
    ROUND_OVER,
    SURRENDER,
    SWAP,
    WIN,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User
from trivia.models import DIFFICULTY_LABELS, SeenQuestion

# The questions learned listed on the page: the latest few.
LEARNED_LISTED = 5

# Names as the player reads them; insurance and even money are stored as side-bet rows.
SIDE_BET_LABELS: dict[str, str] = {
    **MENU_LABELS,
    "insurance": "Insurance",
    "even_money": "Even Money",
}


@dataclass(frozen=True)
class TriviaLine:
    difficulty: str
    label: str
    answered: int
    correct: int

    @property
    def percent_correct(self) -> int | None:
        """Whole percent, rounded half up in integers; None before any answer."""
        if not self.answered:
            return None
        return (self.correct * 200 + self.answered) // (self.answered * 2)


@dataclass(frozen=True)
class CategoryLine:
    """A trivia category's answers (R-8.10): the player's strength in it."""

    name: str
    answered: int
    correct: int

    @property
    def percent_correct(self) -> int | None:
        return TriviaLine("", self.name, self.answered, self.correct).percent_correct

    @property
    def strength(self) -> tuple[float, int, str]:
        """Strongest first: the higher right rate, then more answers, then by name."""
        return (-self.correct / self.answered if self.answered else 0.0, -self.answered, self.name)


@dataclass(frozen=True)
class SideBetLine:
    name: str
    label: str
    played: int
    won: int
    staked: int
    paid: int

    @property
    def net(self) -> int:
        return self.paid - self.staked


@dataclass
class PlayerStatistics:
    games: int = 0
    rounds: int = 0
    hands: int = 0
    hands_won: int = 0
    hands_lost: int = 0
    hands_pushed: int = 0
    hands_surrendered: int = 0
    naturals: int = 0
    staked: int = 0
    paid: int = 0
    # The largest single-round net gain; None when no round has made money yet.
    biggest_win: int | None = None
    trivia: list[TriviaLine] = field(default_factory=list)
    side_bets: list[SideBetLine] = field(default_factory=list)
    # the questions answered after a 50:50 (and how many right), and after a Swap.
    fifty_fifty_used: int = 0
    fifty_fifty_correct: int = 0
    swap_used: int = 0
    # The categories answered in, strongest first.
    categories: list[CategoryLine] = field(default_factory=list)
    # Missed questions answered right on review: how many, and the latest few.
    learned: int = 0
    latest_learned: list[str] = field(default_factory=list)

    @property
    def fifty_fifty_percent_correct(self) -> int | None:
        return TriviaLine("", "", self.fifty_fifty_used, self.fifty_fifty_correct).percent_correct

    @property
    def net(self) -> int:
        return self.paid - self.staked

    @property
    def trivia_answered(self) -> int:
        return sum(line.answered for line in self.trivia)

    @property
    def trivia_correct(self) -> int:
        return sum(line.correct for line in self.trivia)

    @property
    def trivia_percent_correct(self) -> int | None:
        return TriviaLine("", "", self.trivia_answered, self.trivia_correct).percent_correct


def _count(condition: Q) -> Count:
    return Count("pk", filter=condition)


def _used(kind: str) -> Q:
    """An attempt with lifeline ``kind`` among its records (each is used at most once on a
    question, so there are at most two: the first two places are all there are)."""
    return Q(lifelines__0__kind=kind) | Q(lifelines__1__kind=kind)


def _sum(expression: Any, condition: Q | None = None) -> Coalesce:
    return Coalesce(Sum(expression, filter=condition), 0)


def player_statistics(user: User) -> PlayerStatistics:
    """The player's figures over all their games, in six aggregate queries."""
    finished = Q(phase=ROUND_OVER)
    round_net = F("winnings_cents") - F("staked_cents")
    totals = Round.objects.filter(game__owner=user).aggregate(
        games=Count("game", distinct=True, filter=finished),
        rounds=_count(finished),
        staked=_sum("staked_cents", finished),
        paid=_sum("winnings_cents", finished),
        biggest_win=Max(round_net, filter=finished & Q(winnings_cents__gt=F("staked_cents"))),
    )
    # A natural is paid as "natural"; against a dealer natural it pushes, the only
    # push decided by "dealer_natural" (any other hand loses to it).
    hands = Hand.objects.filter(round__game__owner=user).aggregate(
        hands=Count("pk"),
        won=_count(Q(result__in=(WIN, NATURAL))),
        lost=_count(Q(result=LOSE)),
        pushed=_count(Q(result=PUSH)),
        surrendered=_count(Q(result=SURRENDER)),
        naturals=_count(Q(result=NATURAL) | Q(result=PUSH, how="dealer_natural")),
    )
    trivia_rows = (
        TriviaAttempt.objects.filter(game__owner=user, answered_at__isnull=False)
        .values("difficulty")
        # Before ``correct`` is an annotation: their Q(correct=True) is the field's.
        .annotate(
            fifty_fifty=_count(_used(FIFTY_FIFTY)),
            fifty_fifty_correct=_count(_used(FIFTY_FIFTY) & Q(correct=True)),
            swap=_count(_used(SWAP)),
        )
        .annotate(answered=Count("pk"), correct=_count(Q(correct=True)))
        .order_by()
    )
    side_bet_rows = (
        SideBet.objects.filter(round__game__owner=user)
        .values("name")
        .annotate(
            played=Count("pk"),
            won=_count(Q(result=WIN)),
            staked=_sum(F("stake_cents") + F("fee_cents")),
            paid=_sum("winnings_cents"),
        )
        .order_by()
    )
    category_rows = (
        TriviaAttempt.objects.filter(game__owner=user, answered_at__isnull=False)
        .values("question__category__name")
        .annotate(answered=Count("pk"), correct=_count(Q(correct=True)))
        .order_by()
    )
    # The latest learned, each row with the count of them all (one query).
    learned_rows = list(
        SeenQuestion.objects.filter(player=user, learned=True)
        .annotate(total=Window(Count("pk")))
        .order_by("-first_seen", "-pk")
        .values_list("question__text", "total")[:LEARNED_LISTED]
    )
    trivia_by_difficulty = {row["difficulty"]: row for row in trivia_rows}
    side_bets_by_name = {row["name"]: row for row in side_bet_rows}
    return PlayerStatistics(
        games=totals["games"],
        rounds=totals["rounds"],
        hands=hands["hands"],
        hands_won=hands["won"],
        hands_lost=hands["lost"],
        hands_pushed=hands["pushed"],
        hands_surrendered=hands["surrendered"],
        naturals=hands["naturals"],
        staked=totals["staked"],
        paid=totals["paid"],
        biggest_win=totals["biggest_win"],
        trivia=[
            TriviaLine(
                difficulty=difficulty,
                label=DIFFICULTY_LABELS.get(difficulty, difficulty.title()),
                answered=trivia_by_difficulty.get(difficulty, {}).get("answered", 0),
                correct=trivia_by_difficulty.get(difficulty, {}).get("correct", 0),
            )
            for difficulty in DIFFICULTIES
        ],
        fifty_fifty_used=sum(row["fifty_fifty"] for row in trivia_by_difficulty.values()),
        fifty_fifty_correct=sum(
            row["fifty_fifty_correct"] for row in trivia_by_difficulty.values()
        ),
        swap_used=sum(row["swap"] for row in trivia_by_difficulty.values()),
        side_bets=[
            SideBetLine(
                name=name,
                label=SIDE_BET_LABELS.get(name, name),
                played=row["played"],
                won=row["won"],
                staked=row["staked"],
                paid=row["paid"],
            )
            for name, row in sorted(side_bets_by_name.items(), key=_side_bet_order)
        ],
        categories=sorted(
            (
                CategoryLine(
                    name=row["question__category__name"],
                    answered=row["answered"],
                    correct=row["correct"],
                )
                for row in category_rows
            ),
            key=lambda line: line.strength,
        ),
        learned=learned_rows[0][1] if learned_rows else 0,
        latest_learned=[text for text, _ in learned_rows],
    )


def _side_bet_order(item: tuple[str, Any]) -> tuple[int, str]:
    order = list(SIDE_BET_LABELS)
    name = item[0]
    return (order.index(name) if name in order else len(order), name)
