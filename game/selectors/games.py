"""Reads of a player's games: their list, the pending and revealed trivia attempts, the
side stakes and box bets waiting for the deal, Rebet's total, the coach's count, a
finished game's figures, its committed shoes and its finished rounds."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from django.db.models import Case, Count, F, Q, QuerySet, Value, When

from game.models import (
    CoachDeviation,
    Game,
    GameShoe,
    Hand,
    Round,
    TriviaAttempt,
)
from game.rules.records import NATURAL, WIN
from game.rules.sidebets import stored_side_stakes
from trivia.models import Question
from trivia.services import categories_with_questions

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    # Who a page is read for: ``request.user``, signed in or not.
    Viewer: TypeAlias = User | AnonymousUser


def games_for_player(user: User) -> QuerySet[Game]:
    """The player's saved games, newest first."""
    return Game.objects.filter(owner=user).order_by("-created", "-id")


def latest_game_in_progress(user: User) -> Game | None:
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


def revealed_attempt(game: Game, answered: TriviaAttempt | None = None) -> TriviaAttempt | None:
    """The question just answered, whose reveal shows beside the hand once the answer is
    carried into the round (the game's status note names it; the next action moves on).
    ``answered``: the attempt the action that answered it handed over (None: read it)."""
    note = game.status_note or {}
    attempt_id = note.get("attempt")
    if note.get("kind") != "answered" or attempt_id is None:
        return None
    if answered is not None:  # handed over by the action that answered it
        return answered
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


def coach_deviation_count(user: User) -> int:
    """How many of the player's moves the coach marked as not basic strategy.

    Deviations are recorded only while a game's Coach setting is on (see game.services.coach).
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


def finished_rounds(game: Game) -> list[Round]:
    """The game's finished rounds in order, each with its engine record."""
    return [row for row in game.rounds.order_by("number") if row.record]


def questions_by_id(ids: Iterable[int]) -> dict[int, str]:
    """The text of each question of ``ids`` (a day's question lists, D-8)."""
    return dict(Question.objects.filter(pk__in=list(ids)).values_list("pk", "text"))


def coach_note(game: Game, known: str | None = None) -> str:
    """The coach's note on the move that brought the table to its current version (none
    while the game's Coach setting is off); ``known``: the note the action that made this
    version handed over (None: read it)."""
    if not game.coach:
        return ""
    if known is not None:  # the action that made this version knows it
        return known
    note = (
        CoachDeviation.objects.filter(game=game, game_version=game.version)
        .values_list("note", flat=True)
        .first()
    )
    return note or ""


@dataclass(frozen=True)
class TableReads:
    """What the table shows besides the game row and its engine, read by the view before
    the page is built (the presentation makes no query of its own)."""

    revealed: TriviaAttempt | None  # the question just answered, whose reveal shows
    coach_note: str  # the coach's note on the move that made this version ("" for none)
    best_hand: Hand | None  # a game that is over: the hand that won the most
    answers: tuple[int, int]  # a game that is over: questions answered, answered right
    # While a difficulty is being chosen: the categories the game may choose, (id, name).
    categories: tuple[tuple[int, str], ...] = ()


def table_reads(
    game: Game, *, revealed: TriviaAttempt | None = None, coach_note_known: str | None = None
) -> TableReads:
    """Everything the table reads besides its row: the reveal and the coach's note (unless
    the action that played handed them over), and a finished game's figures."""
    over = game.is_over
    return TableReads(
        revealed=revealed_attempt(game, revealed),
        coach_note=coach_note(game, coach_note_known),
        best_hand=best_hand(game) if over else None,
        answers=trivia_answers(game) if over else (0, 0),
        categories=tuple(categories_with_questions()) if game.trivia_choice_for else (),
    )
