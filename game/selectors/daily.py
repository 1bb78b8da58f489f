"""Reads of the Daily Shoe (FAIRNESS.md D-4…D-8): a day and a player's attempt at it,
a day's finished attempts, the leaderboard with the viewer's rank in one query, the
streak, and how a round compares with the others who finished that deal."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, TypeAlias

from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import Count, Q, QuerySet, Subquery

from game.models import (
    DailyAttempt,
    DailyRoundResult,
    DailyShoe,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    # Who a page is read for: ``request.user``, signed in or not.
    Viewer: TypeAlias = User | AnonymousUser


def daily_attempt_of(user: Viewer, day: DailyShoe) -> DailyAttempt | None:
    """The player's attempt at ``day``'s Daily Shoe, if they made one (D-5)."""
    if not user.is_authenticated:
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


LEADERBOARD_PAGE_SIZE = 50
# The leaderboard's order (D-6): final bank, then right answers, then the earlier finish;
# the key last only keeps rows that tie on all three in a stable order between pages.
LEADERBOARD_ORDER = ("-final_bank_cents", "-right_answers", "finished_at", "pk")


@dataclass(frozen=True)
class LeaderboardRows:
    """One page of a day's leaderboard and where the viewer's own row stands. The page's
    rows are read only when iterated (:func:`ranked_attempts`): a page already rendered
    under the same ``version`` needs none of them."""

    page: Page[DailyAttempt]
    version: tuple[str, int]  # the day's commitment and board_version: the rows change
    # only when the version does (the commitment tells a day made anew apart)
    own_rank: int | None  # the viewer's rank, None without a finished attempt that day
    own_page: int | None  # the page number holding the viewer's row
    own_attempt_id: int | None
    finished: QuerySet[DailyAttempt]  # the day's finished attempts, for a page's first rank


class _CountedAttempts:
    """A day's finished attempts in the leaderboard's order with their number already
    known (the day counts them as they finish): the paginator slices it lazily and never
    counts them again (Django's Paginator takes any sliceable object with ``count()``)."""

    def __init__(self, rows: QuerySet[DailyAttempt], count: int) -> None:
        self._rows = rows
        self._count = count

    def count(self) -> int:
        return self._count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: slice) -> QuerySet[DailyAttempt]:
        return self._rows[index]


def daily_day_on_or_before(day: date) -> DailyShoe | None:
    """The Daily Shoe of ``day``, or of the nearest day before it (None: no Daily Shoe was
    ever made on or before ``day``), in one query."""
    return DailyShoe.objects.filter(date__lte=day).only("pk", "date").order_by("-date").first()


def _better_than(bank: int | None, right: int, at: datetime | None) -> Q:
    """Finished attempts ahead of one with this final bank, right answers and finish."""
    return (
        Q(final_bank_cents__gt=bank)
        | Q(final_bank_cents=bank, right_answers__gt=right)
        | Q(final_bank_cents=bank, right_answers=right, finished_at__lt=at)
    )


def _key(attempt: DailyAttempt) -> tuple[int | None, int, datetime | None]:
    return attempt.final_bank_cents, attempt.right_answers, attempt.finished_at


def daily_leaderboard(
    day: date, user: Viewer, page_number: int | str | None
) -> LeaderboardRows | None:
    """A page of ``day``'s finished attempts in the leaderboard's order (D-6: final bank,
    then right answers, then the earlier finish), read when iterated, and the viewer's
    rank and page; None when no Daily Shoe was made that day. One query: the viewer's
    finished attempt with its day and the counts of the rows ahead of it, along
    daily_leaderboard_idx (or, for a viewer without one, the day alone)."""
    own = _own_standing(day, user)
    shoe = own.day if own is not None else _leaderboard_day(day)
    if shoe is None:
        return None
    finished = DailyAttempt.objects.filter(day=shoe, finished_at__isnull=False)
    rows = (
        finished.select_related("player")
        .only("final_bank_cents", "right_answers", "rounds", "finished_at", "player__username")
        .order_by(*LEADERBOARD_ORDER)
    )
    paginator: Paginator[DailyAttempt] = Paginator(
        _CountedAttempts(rows, shoe.finished_attempts),  # type: ignore[arg-type]
        LEADERBOARD_PAGE_SIZE,
        allow_empty_first_page=True,
    )
    page = paginator.get_page(page_number)
    version = (shoe.commitment, shoe.board_version)
    if own is None:
        return LeaderboardRows(page, version, None, None, None, finished)
    own_page = own.before // LEADERBOARD_PAGE_SIZE + 1
    return LeaderboardRows(page, version, own.better + 1, own_page, own.attempt_id, finished)


@dataclass(frozen=True)
class _OwnStanding:
    attempt_id: int
    day: DailyShoe  # with only the board's fields
    better: int  # finished attempts ranked ahead
    before: int  # finished attempts listed before it (ahead, or equal with a smaller key)


# The viewer's finished attempt at a day, with its day's board fields and the counts of the
# day's finished attempts ahead of it, along daily_leaderboard_idx. Written by hand: as one
# ORM statement with three correlated counts, building it cost more than running it.
_OWN_STANDING_SQL = """
SELECT a.id, d.id, d.commitment, d.finished_attempts, d.board_version,
  (SELECT COUNT(*) FROM {attempts} o
    WHERE o.day_id = a.day_id AND o.finished_at IS NOT NULL
      AND o.final_bank_cents > a.final_bank_cents),
  (SELECT COUNT(*) FROM {attempts} o
    WHERE o.day_id = a.day_id AND o.finished_at IS NOT NULL
      AND o.final_bank_cents = a.final_bank_cents
      AND (o.right_answers > a.right_answers
        OR (o.right_answers = a.right_answers AND o.finished_at < a.finished_at))),
  (SELECT COUNT(*) FROM {attempts} o
    WHERE o.day_id = a.day_id AND o.finished_at IS NOT NULL
      AND o.final_bank_cents = a.final_bank_cents AND o.right_answers = a.right_answers
      AND o.finished_at = a.finished_at AND o.id < a.id)
FROM {attempts} a JOIN {days} d ON d.id = a.day_id
WHERE d.date = %s AND a.player_id = %s AND a.finished_at IS NOT NULL
"""


def _own_standing(day: date, user: Viewer) -> _OwnStanding | None:
    """The viewer's finished attempt at ``day``, its day, and where it stands, in one query
    (None: no finished attempt that day, or no account)."""
    if not user.is_authenticated:
        return None
    sql = _OWN_STANDING_SQL.format(
        attempts=DailyAttempt._meta.db_table, days=DailyShoe._meta.db_table
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [day.isoformat(), user.pk])
        row = cursor.fetchone()
    if row is None:
        return None
    attempt_id, day_id, commitment, finished, version, richer, tied_better, tied_key = row
    shoe = DailyShoe(
        id=day_id,
        date=day,
        commitment=commitment,
        finished_attempts=finished,
        board_version=version,
    )
    better = richer + tied_better
    return _OwnStanding(attempt_id, shoe, better, better + tied_key)


@dataclass(frozen=True)
class DailyRank:
    """A finished attempt's place on its day's leaderboard so far (D-6)."""

    rank: int
    of: int  # the day's finished attempts


def daily_rank(day: date, user: Viewer) -> DailyRank | None:
    """The viewer's rank on ``day``'s leaderboard and how many finished, in one query; None
    without a finished attempt that day."""
    own = _own_standing(day, user)
    if own is None:
        return None
    return DailyRank(own.better + 1, own.day.finished_attempts)


# What the leaderboard reads of its day: never the seed or the question lists.
_BOARD_DAY_FIELDS = ("date", "commitment", "finished_attempts", "board_version")


def _leaderboard_day(day: date) -> DailyShoe | None:
    return DailyShoe.objects.filter(date=day).only(*_BOARD_DAY_FIELDS).first()


def empty_leaderboard() -> LeaderboardRows:
    """The board of a day nobody made (after the first Daily Shoe): no rows."""
    paginator: Paginator[DailyAttempt] = Paginator(
        DailyAttempt.objects.none(), LEADERBOARD_PAGE_SIZE, allow_empty_first_page=True
    )
    return LeaderboardRows(
        paginator.get_page(1), ("", 0), None, None, None, DailyAttempt.objects.none()
    )


def ranked_attempts(board: LeaderboardRows) -> list[DailyAttempt]:
    """The page's attempts, read now, each with its standard competition rank (``rank``:
    equal bank, right answers and finish share one); a later page's first rank is one
    count of the attempts ahead of its first row."""
    page = board.page
    # django-stubs types a page's object_list as an untyped Iterable.
    attempts: list[DailyAttempt] = list(page.object_list)
    rank = 1
    for index, attempt in enumerate(attempts):
        position = page.start_index() + index
        if index == 0 and position > 1:
            rank = 1 + board.finished.filter(_better_than(*_key(attempt))).count()
        elif index == 0 or _key(attempt) != _key(attempts[index - 1]):
            rank = position
        attempt.rank = rank  # type: ignore[attr-defined]
    return attempts


def daily_streak(user: Viewer, today: date) -> int:
    """Days in a row with a finished Daily Shoe, ending today or yesterday (D-6); one query."""
    if not user.is_authenticated:
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
