"""The Daily Shoe's words and view models (FAIRNESS.md D-4…D-7): the day's status for a
player, the commitments published ahead, and the spoiler-free share line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from game.models import DailyAttempt, DailyShoe
from game.rules.money import display_cents

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


def daily_status(*, signed_in: bool, attempt: DailyAttempt | None, day: date) -> DailyStatus:
    """The player's status today; a guest account reads "play" here and is offered to sign
    up by the page (guests are the project's, told apart by its template filter)."""
    if not signed_in:
        return DailyStatus("visitor", None, "")
    if attempt is None:
        return DailyStatus("play", None, "")
    if attempt.finished:
        return DailyStatus("finished", attempt, share_text(attempt, day))
    return DailyStatus("resume", attempt, "")


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
            f"trivia {attempt.right_answers}/{attempt.questions_answered}."
        )
        return HomeDaily(status.kind, "Daily Shoe", detail, "Share your result", time_left)
    if status.kind == "resume":
        detail = "Your attempt at today's twenty deals is under way."
        return HomeDaily(status.kind, "Daily Shoe", detail, "Resume the Daily Shoe", time_left)
    detail = "Today's twenty deals, the same for everyone: one attempt, $100 a round."
    return HomeDaily(status.kind, "Daily Shoe", detail, "Play today's Daily Shoe", time_left)
