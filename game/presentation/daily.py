"""The Daily Shoe's words and view models (FAIRNESS.md D-4…D-7): the day's status for a
player, the commitments published ahead, and the spoiler-free share line."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cached_property

from django.urls import reverse

from game.models import DailyAttempt, DailyShoe
from game.rules.money import display_cents
from game.selectors import DailyRank, LeaderboardRows, RoundStanding

DAILY_ROUNDS = 20
SQUARES = {"win": "🟩", "loss": "🟥", "push": "⬜"}
NOT_PLAYED = "⬛"
DIFFICULTY_LABELS = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}


@dataclass(frozen=True)
class Commitments:
    """A day's published commitments (D-4): its seed's and its question lists'."""

    date: date
    seed: str
    questions: list[tuple[str, str]]  # (difficulty label, commitment)

    @property
    def label(self) -> str:
        return long_date(self.date)


@dataclass(frozen=True)
class DailyStatus:
    """Where the player stands with today's Daily Shoe."""

    kind: str  # "play", "resume", "finished" or "visitor"
    attempt: DailyAttempt | None
    share_text: str
    rank_text: str = ""  # once finished: "ranked 3 of 41 so far"


def long_date(day: date) -> str:
    return f"{day.day} {day.strftime('%B %Y')}"


def commitments_of(day: DailyShoe) -> Commitments:
    questions = [
        (DIFFICULTY_LABELS[name], day.question_commitments[name])
        for name in DIFFICULTY_LABELS
        if name in day.question_commitments
    ]
    return Commitments(day.date, day.commitment, questions)


def time_left_text(now: datetime, today: date) -> str:
    """How long until the next Daily Shoe (UTC midnight), in hours and minutes."""
    midnight = datetime.combine(today + timedelta(days=1), datetime.min.time(), now.tzinfo)
    minutes = max(0, int((midnight - now).total_seconds()) // 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def share_squares(results: Sequence[str]) -> str:
    """D-7: one square a round (win, loss, push), ⬛ for each round not played."""
    played = [SQUARES[result] for result in results[:DAILY_ROUNDS]]
    return "".join(played) + NOT_PLAYED * (DAILY_ROUNDS - len(played))


def share_text(attempt: DailyAttempt, day: date) -> str:
    """D-7: the spoiler-free summary a player shares (no card, no question)."""
    bank = display_cents(attempt.final_bank_cents or 0).removesuffix(".00")
    squares = share_squares([entry["result"] for entry in attempt.rounds])
    trivia = f"trivia {attempt.right_answers}/{attempt.questions_answered}"
    return f"Blackjack Trivia Daily {day.isoformat()} · {bank} · {squares} · {trivia}"


def daily_status(
    *, signed_in: bool, attempt: DailyAttempt | None, day: date, rank: DailyRank | None = None
) -> DailyStatus:
    """The player's status today, with their rank once they have finished; a guest account
    reads "play" here and is offered to sign up by the page (guests are the project's, told
    apart by its template filter)."""
    if not signed_in:
        return DailyStatus("visitor", None, "")
    if attempt is None:
        return DailyStatus("play", None, "")
    if attempt.finished:
        return DailyStatus("finished", attempt, share_text(attempt, day), rank_text(rank))
    return DailyStatus("resume", attempt, "")


def rank_text(rank: DailyRank | None) -> str:
    """Where a finished attempt stands today: "ranked 3 of 41 so far"."""
    if rank is None:
        return ""
    return f"ranked {rank.rank:,} of {rank.of:,} so far"


@dataclass(frozen=True)
class HomeDaily:
    """The front door's Daily Shoe card: the player's status today and the time left."""

    kind: str  # as DailyStatus.kind
    headline: str
    detail: str
    action: str  # the link's words
    time_left: str


def home_daily(status: DailyStatus, *, time_left: str) -> HomeDaily:
    """The front door's words for the player's Daily Shoe today (D-4…D-7): play, resume or
    the result, and how long until the next one."""
    if status.kind == "finished" and status.attempt is not None:
        attempt = status.attempt
        bank = display_cents(attempt.final_bank_cents or 0).removesuffix(".00")
        detail = (
            f"Your result today: {bank} after {len(attempt.rounds)} rounds, "
            f"trivia {attempt.right_answers}/{attempt.questions_answered}"
            + (f", {status.rank_text}." if status.rank_text else ".")
        )
        return HomeDaily(status.kind, "Daily Shoe", detail, "Share your result", time_left)
    if status.kind == "resume":
        detail = "Your attempt at today's twenty deals is under way."
        return HomeDaily(status.kind, "Daily Shoe", detail, "Resume the Daily Shoe", time_left)
    detail = "Today's twenty deals, the same for everyone: one attempt, $100 a round."
    return HomeDaily(status.kind, "Daily Shoe", detail, "Play today's Daily Shoe", time_left)


@dataclass(frozen=True)
class LeaderboardRow:
    """One finished attempt on a day's leaderboard (D-6): no card, no question; on a day
    that is over, the address of its replay (D-8)."""

    rank: int
    player: str
    final_bank: str
    right_answers: int
    rounds: int
    own: bool
    replay_url: str


class Leaderboard:
    """A page of a day's leaderboard, worded for the page. Its rows are built from the
    attempts only when the template asks for them: a page already rendered under the same
    board version (``cache_key``) is served as it was, without reading a row."""

    def __init__(
        self,
        day: date,
        board: LeaderboardRows,
        attempts: Callable[[], Sequence[DailyAttempt]],
        *,
        today: date,
    ) -> None:
        self.date = day
        self.title = f"Leaderboard · {long_date(day)}"
        self.page = board.page
        self.own_rank = board.own_rank
        self.own_page = board.own_page
        self.is_today = day == today
        self.has_rows = bool(board.page.paginator.count)
        self._board = board
        self._attempts = attempts

    @property
    def cache_key(self) -> tuple[object, ...]:
        """Everything the rendered rows depend on: the day and its board's version, the
        page, and the viewer's own attempt when its row is on this page (highlighted)."""
        own = self._board.own_attempt_id if self.own_page == self.page.number else None
        return (self.date, self._board.version, self.page.number, own)

    @cached_property
    def rows(self) -> list[LeaderboardRow]:
        """The page's rows: rank, player, final bank, right answers, rounds, and the replay."""
        return [self._row(attempt) for attempt in self._attempts()]

    def _row(self, attempt: DailyAttempt) -> LeaderboardRow:
        replay = (
            ""
            if self.is_today
            else reverse(
                "game:daily_attempt",
                kwargs={"day": self.date.isoformat(), "attempt_id": attempt.pk},
            )
        )
        return LeaderboardRow(
            rank=attempt.rank,  # type: ignore[attr-defined]
            player=attempt.player.username,
            final_bank=display_cents(attempt.final_bank_cents or 0),
            right_answers=attempt.right_answers,
            rounds=len(attempt.rounds),
            own=attempt.pk == self._board.own_attempt_id,
            replay_url=replay,
        )

    @property
    def empty_text(self) -> str:
        if self.is_today:
            return "Nobody has finished today's Daily Shoe yet."
        return "Nobody finished this day's Daily Shoe."

    @property
    def own_text(self) -> str:
        return f"You are ranked {self.own_rank}." if self.own_rank else ""


def leaderboard_of(
    day: date,
    board: LeaderboardRows,
    attempts: Callable[[], Sequence[DailyAttempt]],
    *,
    today: date,
) -> Leaderboard:
    """The leaderboard page's view model; ``attempts`` reads the page's ranked rows."""
    return Leaderboard(day, board, attempts, today=today)


def streak_text(days: int) -> str:
    """D-6: the player's run of days in a row with a finished Daily Shoe."""
    if days == 0:
        return "No Daily Shoe streak yet: finish today's to start one."
    return f"Daily Shoe streak: {days} day{'s' if days != 1 else ''} in a row."


BAD_DATE_TEXT = {
    "malformed": "That is not a date: leaderboards are at /daily/YYYY-MM-DD/leaderboard/.",
    "before": "There was no Daily Shoe on that day: the first one came later.",
    "future": "That day has not started yet, so it has no leaderboard.",
}


def round_standing_text(standing: RoundStanding | None) -> str:
    """D-6's line after a Daily Shoe round: how it compares with the others on the deal
    (ties count half), or that the player is the first to finish it; no other card shown."""
    if standing is None:
        return ""
    if standing.percent is None:
        return "You are the first to finish this deal today."
    return f"Better than {standing.percent} % of players on this deal."


def round_standing_lines(attempt: DailyAttempt, standings: Sequence[RoundStanding]) -> list[str]:
    """Each played round of a finished attempt with its square and its standing (D-6, D-7)."""
    lines = []
    for number, (entry, standing) in enumerate(zip(attempt.rounds, standings, strict=False), 1):
        if standing.percent is None:
            compared = "nobody else has finished this deal yet"
        else:
            compared = f"better than {standing.percent} % of players"
        lines.append(f"Round {number} {SQUARES[entry['result']]} {compared}")
    return lines
