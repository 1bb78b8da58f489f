"""Read-only queries: the player's games, the pending trivia attempt, the side stakes
waiting for the deal, the coach's count, a finished game's figures. View models live in
game/presentation/."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Case, Count, F, Q, QuerySet, Subquery, Value, When

from game.models import (
    CoachDeviation,
    DailyAttempt,
    DailyRoundResult,
    DailyShoe,
    Game,
    GameShoe,
    Hand,
    Round,
    TriviaAttempt,
)
from game.rules.records import NATURAL, WIN
from game.rules.sidebets import stored_side_stakes
from trivia.models import Question


def games_for_player(user: Any) -> QuerySet[Game]:
    """The player's saved games, newest first."""
    return Game.objects.filter(owner=user).order_by("-created", "-id")


def latest_game_in_progress(user: Any) -> Game | None:
    """The player's newest game not yet over, if any."""
    return games_for_player(user).filter(status=Game.Status.IN_PROGRESS).first()


def pending_attempt(game: Game) -> TriviaAttempt | None:
    """The attempt not yet carried into the round: no query when there is none, or when
    the game was read with it (services' lock, the table view's select_related)."""
    if game.pending_trivia_id is None:
        return None
    return game.pending_trivia


# What reading a game for its table joins (the pending attempt with its question).
TABLE_RELATED = ("pending_trivia__question__category",)


def revealed_attempt(game: Game) -> TriviaAttempt | None:
    """The question just answered, whose reveal shows beside the hand once the answer is
    carried into the round (the game's status note names it; the next action moves on)."""
    note = game.status_note or {}
    attempt_id = note.get("attempt")
    if note.get("kind") != "answered" or attempt_id is None:
        return None
    if game.revealed_trivia is not None:  # handed over by the action that answered it
        return game.revealed_trivia
    return (
        TriviaAttempt.objects.filter(game=game, pk=attempt_id, applied=True)
        .select_related("question")
        .first()
    )


def pending_side_stakes(game: Game) -> dict[str, int]:
    """The stored side stakes, menu order, staked bets only (anything odd stored is ignored)."""
    return stored_side_stakes(game.pending_side_bets)


def pending_box_entries(
    game: Game, seats: int, new_box_bet: int | None = None
) -> list[dict[str, Any]]:
    """§10 seats: every box's pending bets, box 1 first, as {"bet", "side_bets",
    "extra_bet"}; the selected box's come from the game's pending_* fields. A box never bet
    on starts with ``new_box_bet`` (default: the selected box's base bet), no side bets."""
    if new_box_bet is None:
        new_box_bet = game.pending_bet_cents
    entries = [dict(entry) for entry in (game.pending_boxes or [])[:seats]]
    while len(entries) < seats:
        entries.append({"bet": new_box_bet, "side_bets": {}, "extra_bet": False})
    entries[selected_box_index(game, seats)] = {
        "bet": game.pending_bet_cents,
        "side_bets": pending_side_stakes(game),
        "extra_bet": game.pending_extra_bet,
    }
    return entries


def selected_box_index(game: Game, seats: int) -> int:
    return min(max(game.selected_box, 1), seats) - 1


def coach_deviation_count(user: Any) -> int:
    """How many of the player's moves the coach marked as not basic strategy.

    Deviations are recorded only while a game's Coach setting is on (see game.coach).
    """
    return CoachDeviation.objects.filter(game__owner=user).count()


def rebet_total(game: Game, seats: int) -> int:
    """What Rebet stakes: the last round's bets, its side bets and every box's included."""
    if seats > 1:
        entries = pending_box_entries(game, seats)
        return sum(entry["bet"] + sum(entry["side_bets"].values()) for entry in entries)
    return game.pending_bet_cents + sum(pending_side_stakes(game).values())


def best_hand(game: Game) -> Hand | None:
    """The game's best hand: of the hands it won, the one that won the most (its winnings
    less its stake, a double's whole stake counted); on a tie a blackjack, then the
    earliest. None when no hand won. One query, over the stored hands of finished rounds."""
    return (
        Hand.objects.filter(round__game=game, result__in=(WIN, NATURAL))
        .annotate(
            net=F("winnings_cents") - F("bet_cents"),
            natural_first=Case(When(result=NATURAL, then=Value(0)), default=Value(1)),
        )
        .order_by("-net", "natural_first", "round__number", "index")
        .first()
    )


def trivia_answers(game: Game) -> tuple[int, int]:
    """The game's trivia questions answered, and answered right: one query."""
    counts = TriviaAttempt.objects.filter(game=game, answered_at__isnull=False).aggregate(
        answered=Count("pk"), right=Count("pk", filter=Q(correct=True))
    )
    return counts["answered"], counts["right"]


def game_shoes(game: Game) -> list[GameShoe]:
    """A game's committed shoes, oldest first (the open one has no seed yet)."""
    return list(GameShoe.objects.filter(game=game).order_by("nonce"))


def next_client_seed(game: Game) -> str | None:
    """The client seed the game's next shoe is shuffled with (F-2); None for a game whose
    shoes are not committed yet."""
    fair = (game.state or {}).get("fair")
    return None if fair is None else str(fair["client_seed"])


def daily_attempt_of(user: Any, day: DailyShoe) -> DailyAttempt | None:
    """The player's attempt at ``day``'s Daily Shoe, if they made one (D-5)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return DailyAttempt.objects.filter(day=day, player=user).first()


def first_daily_date() -> date | None:
    """The date of the first Daily Shoe ever made, if any (D-8: no day before it exists)."""
    return DailyShoe.objects.order_by("date").values_list("date", flat=True).first()


def daily_shoe_on(day: date) -> DailyShoe | None:
    """The Daily Shoe of ``day`` if one was made (never made here: a day is committed ahead)."""
    return DailyShoe.objects.filter(date=day).first()


def finished_daily_attempts(day: DailyShoe) -> list[DailyAttempt]:
    """A day's finished attempts, best final bank first (ties by right answers, then the
    earlier finish, as the leaderboard ranks them, D-6)."""
    return list(
        DailyAttempt.objects.filter(day=day, finished_at__isnull=False)
        .select_related("player")
        .order_by("-final_bank_cents", "-right_answers", "finished_at", "pk")
    )


def finished_daily_attempt(day: DailyShoe, attempt_id: int) -> DailyAttempt | None:
    """One finished attempt of ``day`` (an unfinished one is nobody else's to see, D-5)."""
    return (
        DailyAttempt.objects.filter(day=day, pk=attempt_id, finished_at__isnull=False)
        .select_related("player")
        .first()
    )


def finished_rounds(game: Game) -> list[Round]:
    """The game's finished rounds in order, each with its engine record."""
    return [row for row in game.rounds.order_by("number") if row.record]


def questions_by_id(ids: Iterable[int]) -> dict[int, str]:
    """The text of each question of ``ids`` (a day's question lists, D-8)."""
    return dict(Question.objects.filter(pk__in=list(ids)).values_list("pk", "text"))


LEADERBOARD_PAGE_SIZE = 50
# The leaderboard's order (D-6): final bank, then right answers, then the earlier finish;
# the key last only keeps rows that tie on all three in a stable order between pages.
LEADERBOARD_ORDER = ("-final_bank_cents", "-right_answers", "finished_at", "pk")


@dataclass(frozen=True)
class LeaderboardRows:
    """One page of a day's leaderboard and where the viewer's own row stands."""

    page: Page[Any]
    own_rank: int | None  # the viewer's rank, None without a finished attempt that day
    own_page: int | None  # the page number holding the viewer's row


def daily_day_on_or_before(day: date) -> DailyShoe | None:
    """The Daily Shoe of ``day``, or of the nearest day before it (None: no Daily Shoe was
    ever made on or before ``day``), in one query."""
    return DailyShoe.objects.filter(date__lte=day).only("pk", "date").order_by("-date").first()


def _better_than(bank: Any, right: Any, at: Any) -> Q:
    """Finished attempts ahead of one with this final bank, right answers and finish."""
    return (
        Q(final_bank_cents__gt=bank)
        | Q(final_bank_cents=bank, right_answers__gt=right)
        | Q(final_bank_cents=bank, right_answers=right, finished_at__lt=at)
    )


def _key(attempt: DailyAttempt) -> tuple[Any, ...]:
    return attempt.final_bank_cents, attempt.right_answers, attempt.finished_at


def daily_leaderboard(day: date, user: Any, page_number: Any) -> LeaderboardRows:
    """A page of ``day``'s finished attempts in the leaderboard's order, each with its
    standard competition rank (``rank``: equal bank, right answers and finish share one),
    and the viewer's rank and page (D-6). Along daily_leaderboard_idx: one aggregate (the
    count, the viewer's rank and position), the page's rows, and on a later page one count
    for its first row's rank."""
    finished = DailyAttempt.objects.filter(day__date=day, finished_at__isnull=False)
    counts: dict[str, Any] = {"total": Count("pk")}
    if getattr(user, "is_authenticated", False):
        own = finished.filter(player_id=user.pk)
        bank, right, at, own_pk = (
            Subquery(own.values(name)[:1])
            for name in ("final_bank_cents", "right_answers", "finished_at", "pk")
        )
        better = _better_than(bank, right, at)
        same = Q(final_bank_cents=bank, right_answers=right, finished_at=at, pk__lt=own_pk)
        counts["own"] = Count("pk", filter=Q(player_id=user.pk))
        counts["better"] = Count("pk", filter=better)
        counts["before"] = Count("pk", filter=better | same)
    totals = finished.aggregate(**counts)
    rows = (
        finished.select_related("player")
        .only("final_bank_cents", "right_answers", "rounds", "finished_at", "player__username")
        .order_by(*LEADERBOARD_ORDER)
    )
    paginator: Paginator[Any] = Paginator(rows, LEADERBOARD_PAGE_SIZE, allow_empty_first_page=True)
    # The total is already counted above; the paginator need not count again.
    paginator.__dict__["count"] = totals["total"]
    page = paginator.get_page(page_number)
    page.object_list = attempts = list(page.object_list)
    rank = 1
    for index, attempt in enumerate(attempts):
        position = page.start_index() + index
        if index == 0 and position > 1:
            rank = 1 + finished.filter(_better_than(*_key(attempt))).count()
        elif index == 0 or _key(attempt) != _key(attempts[index - 1]):
            rank = position
        attempt.rank = rank  # type: ignore[attr-defined]
    if not totals.get("own"):
        return LeaderboardRows(page, None, None)
    return LeaderboardRows(
        page, totals["better"] + 1, totals["before"] // LEADERBOARD_PAGE_SIZE + 1
    )


def daily_streak(user: Any, today: date) -> int:
    """Days in a row with a finished Daily Shoe, ending today or yesterday (D-6); one query."""
    if not getattr(user, "is_authenticated", False):
        return 0
    days = DailyAttempt.objects.filter(player=user, finished_at__isnull=False).order_by(
        "-day__date"
    )
    expected = today
    streak = 0
    for played in days.values_list("day__date", flat=True).iterator():
        if streak == 0 and played == today - timedelta(days=1):
            expected = played
        if played != expected:
            break
        streak += 1
        expected = played - timedelta(days=1)
    return streak


@dataclass(frozen=True)
class RoundStanding:
    """How a Daily Shoe round compares with the others who finished that deal (D-6)."""

    others: int  # the other attempts of the day with a result for the round
    percent: int | None  # better than this whole percent of them; None: nobody else yet


def daily_round_standing(game_id: int, round_number: int) -> RoundStanding | None:
    """The share of the day's other attempts whose result for ``round_number`` is lower
    than the game's own, ties counting half, rounded down to a whole percent (D-6); None
    when the game has no result for that round. One query: the attempt's own row and the
    counts along daily_round_net_idx."""
    own = DailyRoundResult.objects.filter(attempt__game_id=game_id, round_number=round_number)
    net = Subquery(own.values("net_cents")[:1])
    # The attempt's own row is counted too (it ties with itself) and taken off below, so
    # the counts read only the index, not the rows.
    counts = DailyRoundResult.objects.filter(
        day_id=Subquery(own.values("day_id")[:1]), round_number=round_number
    ).aggregate(
        all=Count("pk"),
        lower=Count("pk", filter=Q(net_cents__lt=net)),
        equal=Count("pk", filter=Q(net_cents=net)),
    )
    if not counts["all"]:
        return None
    counts["others"], counts["equal"] = counts["all"] - 1, counts["equal"] - 1
    return _standing(counts["others"], counts["lower"], counts["equal"])


def _standing(others: int, lower: int, equal: int) -> RoundStanding:
    """D-6's share of ``others`` below (ties counting half), rounded down to a whole
    percent, exactly: (lower + equal / 2) / others in whole numbers."""
    if not others:
        return RoundStanding(0, None)
    return RoundStanding(others, (200 * lower + 100 * equal) // (2 * others))


def daily_attempt_standings(attempt: DailyAttempt) -> list[RoundStanding]:
    """The attempt's standing on each round it played, as daily_round_standing words it
    (D-6), in one aggregate grouped by round: its own nets are on the attempt already."""
    nets = {n: entry["net_cents"] for n, entry in enumerate(attempt.rounds, start=1)}
    if not nets:
        return []
    lower = Q()
    equal = Q()
    for number, net in nets.items():
        lower |= Q(round_number=number, net_cents__lt=net)
        equal |= Q(round_number=number, net_cents=net)
    rows = (
        DailyRoundResult.objects.filter(day_id=attempt.day_id, round_number__in=nets)
        .exclude(attempt_id=attempt.pk)
        .values("round_number")
        .annotate(
            others=Count("pk"),
            lower=Count("pk", filter=lower),
            equal=Count("pk", filter=equal),
        )
        .order_by()
    )
    counts = {row["round_number"]: row for row in rows}
    standings = []
    for number in nets:
        row = counts.get(number) or {"others": 0, "lower": 0, "equal": 0}
        standings.append(_standing(row["others"], row["lower"], row["equal"]))
    return standings
