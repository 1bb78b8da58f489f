"""A Daily Shoe day that is over (FAIRNESS.md D-8): its seed and question lists revealed
beside their commitments, its 20 shoes for the Fairness page, its finished attempts, and
each attempt's rounds to replay. Nothing here is built for a day that is not over: the
views refuse those first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from django.urls import reverse

from game.models import DailyAttempt, DailyShoe, Round
from game.presentation.cards import card_short
from game.presentation.daily import DIFFICULTY_LABELS, long_date
from game.presentation.fairness import FairnessView, ShoeView
from game.presentation.table import HOW_LABELS, RESULT_LABELS
from game.rules.daily import daily_round_shoes
from game.rules.money import display_cents

NOT_OVER = "A Daily Shoe's seed, questions and rounds are revealed when the day is over."
NO_SUCH_DAY = "There is no Daily Shoe on that day."
DAILY_FAIRNESS_HINT = (
    "Each round of a Daily Shoe has a shoe of its own, shuffled with the client seed "
    '"daily" and the shoe number "date:round"; the player draws from the top, the dealer '
    "from the bottom, so every card the shoe holds is listed."
)
RESULT_WORDS = {"win": "Win", "loss": "Loss", "push": "Push"}
ACTION_WORDS = {
    "hit": "Hit",
    "stand": "Stand",
    "double": "Double down",
    "split": "Split",
    "surrender": "Surrender",
    "insurance": "Insurance",
    "even_money": "Even money",
    "early_surrender": "Early surrender",
    "extra_bet": "Extra bet",
    "parlay": "Parlay",
    "roll": "Roll the dice",
}


@dataclass(frozen=True)
class QuestionList:
    """One difficulty's list of the day, in the order it was asked (D-3)."""

    label: str
    commitment: str
    questions: list[tuple[int, str]]  # (id, text)

    @property
    def ids_text(self) -> str:
        return ",".join(str(question_id) for question_id, _ in self.questions)


@dataclass(frozen=True)
class AttemptLine:
    rank: int
    player: str
    bank: str
    right_answers: int
    rounds: int
    url: str


@dataclass(frozen=True)
class RevealedDay:
    """A past day's page."""

    date: date
    label: str
    commitment: str
    server_seed: str
    lists: list[QuestionList]
    attempts: list[AttemptLine]
    fairness_url: str


def _bank(cents: int | None) -> str:
    return display_cents(cents or 0).removesuffix(".00")


def revealed_day(
    day: DailyShoe, texts: Mapping[int, str], attempts: Sequence[DailyAttempt]
) -> RevealedDay:
    """The page of a day that is over (D-8); ``texts`` holds each listed question's text."""
    lists = [
        QuestionList(
            label,
            day.question_commitments.get(name, ""),
            [(qid, texts.get(qid, "(question removed)")) for qid in day.questions.get(name, [])],
        )
        for name, label in DIFFICULTY_LABELS.items()
        if name in day.questions
    ]
    iso = day.date.isoformat()
    lines = [
        AttemptLine(
            rank,
            attempt.player.get_username(),
            _bank(attempt.final_bank_cents),
            attempt.right_answers,
            len(attempt.rounds),
            reverse("game:daily_attempt", kwargs={"day": iso, "attempt_id": attempt.pk}),
        )
        for rank, attempt in enumerate(attempts, start=1)
    ]
    return RevealedDay(
        day.date,
        long_date(day.date),
        day.commitment,
        day.server_seed,
        lists,
        lines,
        reverse("game:daily_fairness", kwargs={"day": iso}),
    )


def daily_fairness_view(day: DailyShoe) -> FairnessView:
    """The Fairness page of a day that is over: its 20 shoes, each revealed (D-8, F-7)."""
    records = daily_round_shoes(bytes.fromhex(day.server_seed), day.date)
    shoes = [
        ShoeView(
            nonce=record["nonce"],
            commitment=record["commitment"],
            client_seed=record["client_seed"],
            deck_count=record["deck_count"],
            server_seed=record["server_seed"],
            cards=list(record["cards_dealt"]),
            order=number,
        )
        for number, record in enumerate(records, start=1)
    ]
    return FairnessView(
        title=f"Daily Shoe of {long_date(day.date)}",
        back_url=reverse("game:daily_day", kwargs={"day": day.date.isoformat()}),
        back_label="Back to the day",
        shoes=list(reversed(shoes)),
        client_seed=None,
        hint=DAILY_FAIRNESS_HINT,
    )


@dataclass(frozen=True)
class HandLine:
    cards: str
    bet: str
    result: str
    winnings: str


@dataclass(frozen=True)
class RoundLine:
    """One round of an attempt as the replay shows it."""

    number: int
    hands: list[HandLine]
    dealer_cards: str
    dealer_total: int
    decisions: str
    result: str
    bank_after: str


@dataclass(frozen=True)
class AttemptReplay:
    title: str
    player: str
    summary: str
    rounds: list[RoundLine]
    back_url: str


def _cards(codes: Sequence[str]) -> str:
    return " ".join(card_short(code) for code in codes)


def _decision(action: str) -> str:
    name, _, rest = action.partition(":")
    word = ACTION_WORDS.get(name, name)
    if not rest:
        return word
    # "hit:easy:correct" → "Hit (easy question, correct)"; "insurance:decline" → "… declined".
    parts = rest.split(":")
    if name in ("hit", "double") and len(parts) == 2:
        return f"{word} ({parts[0]} question, {parts[1]})"
    return f"{word}: {rest.replace(':', ' ')}"


def _dollars(text: object) -> str:
    """A record's plain dollar string ("1015.00") as the pages show money ("$1,015.00")."""
    try:
        cents = int((Decimal(str(text)) * 100).to_integral_value())
    except (InvalidOperation, ValueError):
        return ""
    return display_cents(cents)


def _hand_result(hand: Mapping[str, Any]) -> str:
    """A settled hand's result in words, with how it came about: "Win (dealer bust)"."""
    result = RESULT_LABELS.get(str(hand.get("result")), str(hand.get("result") or ""))
    how = HOW_LABELS.get(str(hand.get("how")), "")
    return f"{result} ({how})" if how else result


def _round_line(row: Round, result: str) -> RoundLine:
    record: Mapping[str, Any] = row.record
    dealer = record.get("dealer", {})
    hands = [
        HandLine(
            _cards(hand.get("cards", [])),
            _dollars(hand.get("bet")),
            _hand_result(hand),
            _dollars(hand.get("winnings")),
        )
        for hand in record.get("hands", [])
    ]
    entries = (row.replay or {}).get("rounds") or [{}]
    actions = entries[0].get("actions", [])
    return RoundLine(
        row.number,
        hands,
        _cards(dealer.get("cards", [])),
        int(dealer.get("total", 0)),
        ", ".join(_decision(action) for action in actions) or "No decision",
        RESULT_WORDS.get(result, result.capitalize()),
        display_cents(row.bank_after_cents) if row.bank_after_cents is not None else "",
    )


def attempt_replay(attempt: DailyAttempt, rows: Sequence[Round]) -> AttemptReplay:
    """A finished attempt round by round: cards, decisions, results (D-8)."""
    results = [entry.get("result", "") for entry in attempt.rounds]
    lines = [
        _round_line(row, results[index] if index < len(results) else "")
        for index, row in enumerate(rows)
    ]
    day = attempt.day.date
    player = attempt.player.get_username()
    summary = (
        f"Final bank {_bank(attempt.final_bank_cents)} after {len(attempt.rounds)} rounds; "
        f"trivia {attempt.right_answers}/{attempt.questions_answered}."
    )
    return AttemptReplay(
        f"{player}'s Daily Shoe of {long_date(day)}",
        player,
        summary,
        lines,
        reverse("game:daily_day", kwargs={"day": day.isoformat()}),
    )
