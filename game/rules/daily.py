"""The Daily Shoe (FAIRNESS.md D-1…D-3): its fixed options, duplicate deals, committed questions.

Every UTC day has one server seed. Round ``r`` (1–20) of the day is dealt from a shoe of its
own, the F-5 shuffle of six decks with client seed ``daily`` and nonce ``"{date}:{r}"``, in
duplicate mode: the player's cards from the top, the dealer's from the bottom, so everyone's
round ``r`` is the same deal and no decision changes the dealer's hand or another round.

:class:`DailyShoes` is the engine's source of those shoes (the same seam as
:class:`game.rules.fair.CommittedShoes`); the day's seed stays secret until the day ends,
when :func:`daily_round_shoes` gives its 20 shoes to check like any other (F-7).
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from game.rules.engine import Engine
from game.rules.fair import DICE, SEED_BYTES, StreamIntegers, commitment, shoe_order
from game.rules.options import Options
from game.rules.records import IllegalAction
from game.rules.shoe import Shoe

DAILY_ROUNDS: Final = 20
DAILY_STAKE_CENTS: Final = 10_000  # $100, the fixed stake of every round (D-1)
DAILY_BANK_CENTS: Final = 200_000  # $2,000
DAILY_CREDITS: Final = 10
DAILY_DECKS: Final = 6
DAILY_CLIENT_SEED: Final = "daily"

# D-1. The stake is fixed, so it is both the minimum and the maximum bet; a bank that can
# no longer pay it ends the attempt as any game ends below the minimum.
DAILY_OPTIONS: Final = Options(
    trivia_mode=True,
    side_bets=False,
    blackjack_payout="3:2",
    dealer_stands_on="S17",
    deck_count=DAILY_DECKS,
    charlie="off",
    double_after_split=True,
    surrender="late",
    insurance=True,
    even_money=True,
    min_bet=DAILY_STAKE_CENTS,
    max_bet=DAILY_STAKE_CENTS,
    starting_bank=DAILY_BANK_CENTS,
    seats=1,
    reshuffle="every_round",
    # everyone plays the day's questions as they come, with no help to buy.
    lifelines=False,
)


def daily_options() -> Options:
    """The Daily Shoe's fixed options (D-1): the same every day, never the player's."""
    return DAILY_OPTIONS


def daily_nonce(date: datetime.date, round_number: int) -> str:
    """The nonce of round ``round_number``'s shoe on ``date`` (D-2), e.g. ``2026-11-28:7``."""
    if not 1 <= round_number <= DAILY_ROUNDS:
        raise ValueError(f"A Daily Shoe has rounds 1 to {DAILY_ROUNDS}, not {round_number}.")
    return f"{date.isoformat()}:{round_number}"


def daily_order(server_seed: bytes, date: datetime.date, round_number: int) -> list[str]:
    """Every card of round ``round_number``'s shoe on ``date`` in shuffled order (D-2, F-5)."""
    return shoe_order(server_seed, DAILY_CLIENT_SEED, daily_nonce(date, round_number), DAILY_DECKS)


def _checked_seed(server_seed: bytes) -> bytes:
    if len(server_seed) != SEED_BYTES:
        raise ValueError(f"A day's server seed is {SEED_BYTES} bytes, not {len(server_seed)}.")
    return server_seed


class DailyShoes:
    """The engine's shoes and dice for one player's Daily Shoe (D-2).

    Each new shoe is the next round's: ``rounds_opened`` counts the shoes made so far, so
    the shoe it makes is for round ``rounds_opened + 1``. Its dice come from that shoe's
    ``dice`` stream (F-3), read where it stopped. Nothing is revealed here: every round's
    shoe is made from the day's seed, which stays secret until the day ends (D-8).
    """

    __slots__ = ("date", "server_seed", "rounds_opened", "dice_used")

    def __init__(
        self,
        server_seed: bytes,
        date: datetime.date,
        *,
        rounds_opened: int = 0,
        dice_used: int = 0,
    ) -> None:
        self.server_seed = _checked_seed(server_seed)
        self.date = date
        self.rounds_opened = rounds_opened
        self.dice_used = dice_used

    def commitment(self) -> str:
        """The day's commitment (F-1, D-4): SHA-256 of its server seed, lower-case hex."""
        return commitment(self.server_seed)

    # ------------------------------------------------------------------ the engine's seam

    def new_shoe(self, deck_count: int, finished: Shoe | None) -> Shoe:
        """The next round's shoe, dealing in duplicate mode (D-2)."""
        if deck_count != DAILY_DECKS:
            raise ValueError(f"A Daily Shoe has {DAILY_DECKS} decks, not {deck_count}.")
        if self.rounds_opened >= DAILY_ROUNDS:
            raise IllegalAction(f"The Daily Shoe is over after {DAILY_ROUNDS} rounds")
        self.rounds_opened += 1
        self.dice_used = 0
        order = daily_order(self.server_seed, self.date, self.rounds_opened)
        return Shoe(order, DAILY_DECKS, duplicate=True)

    def refill(self, shoe: Shoe, on_table: Iterable[str]) -> tuple[Shoe, bool]:
        """Never needed: one box cannot take 312 cards in a round. A new shoe mid-round
        would break the duplicate deal, so running out is an error."""
        raise RuntimeError("A Daily Shoe round ran out of cards; it has no refill")

    def roll_dice(self, count: int) -> list[int]:
        """``count`` die faces (1–6) from the round's shoe's dice stream, where it stopped."""
        if self.rounds_opened == 0:
            raise RuntimeError("No Daily Shoe round has a shoe yet")
        integers = StreamIntegers(
            self.server_seed,
            DAILY_CLIENT_SEED,
            daily_nonce(self.date, self.rounds_opened),
            DICE,
            skip=self.dice_used,
        )
        faces = [integers.below(6) + 1 for _ in range(count)]
        self.dice_used = integers.used
        return faces

    # ------------------------------------------------------------------ storage

    def to_json(self) -> dict[str, Any]:
        """The stored state (server side only: it holds the day's secret seed)."""
        return {
            "date": self.date.isoformat(),
            "server_seed": self.server_seed.hex(),
            "rounds_opened": self.rounds_opened,
            "dice_used": self.dice_used,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DailyShoes:
        return cls(
            bytes.fromhex(data["server_seed"]),
            datetime.date.fromisoformat(data["date"]),
            rounds_opened=data["rounds_opened"],
            dice_used=data["dice_used"],
        )


def daily_game(server_seed: bytes, date: datetime.date) -> Engine:
    """A new attempt at the Daily Shoe of ``date`` (D-1, D-2): its fixed options, bank and
    credits, dealing round 1 from the day's first shoe."""
    return Engine(DAILY_OPTIONS, source=DailyShoes(server_seed, date), credits=DAILY_CREDITS)


def daily_round_shoes(server_seed: bytes, date: datetime.date) -> list[dict[str, Any]]:
    """The day's 20 shoes as the Fairness page lists revealed shoes (F-7, D-8).

    The player draws from the top and the dealer from the bottom, so a round's cards are not
    one prefix of its shoe: ``cards_dealt`` is the whole shuffled order instead (every card
    anyone could draw), which the verifiers' prefix check covers unchanged.
    """
    seed = _checked_seed(server_seed)
    committed = commitment(seed)
    return [
        {
            "nonce": daily_nonce(date, round_number),
            "commitment": committed,
            "client_seed": DAILY_CLIENT_SEED,
            "server_seed": seed.hex(),
            "deck_count": DAILY_DECKS,
            "cards_dealt": daily_order(seed, date, round_number),
        }
        for round_number in range(1, DAILY_ROUNDS + 1)
    ]


# ---------------------------------------------------------------------- questions (D-3)


class QuestionListExhausted(LookupError):
    """The day's list of a difficulty has no ``n``-th question."""


def question_list_commitment(ids: Sequence[int]) -> str:
    """The commitment to one difficulty's ordered question list (D-3): SHA-256 of the ids
    in order joined with ``,`` (ASCII), lower-case hex."""
    for question_id in ids:
        if isinstance(question_id, bool) or not isinstance(question_id, int) or question_id < 0:
            raise ValueError(f"A question id is a whole number, not {question_id!r}.")
    return hashlib.sha256(",".join(map(str, ids)).encode("ascii")).hexdigest()


def nth_question(lists: Mapping[str, Sequence[int]], difficulty: str, n: int) -> int:
    """The id of the day's ``n``-th question (from 1) of ``difficulty`` (D-3)."""
    if difficulty not in lists:
        raise KeyError(f"The day has no question list for {difficulty!r}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"Questions are counted from 1, not {n!r}.")
    ids = lists[difficulty]
    if n > len(ids):
        raise QuestionListExhausted(
            f"The day's {difficulty} list has {len(ids)} questions, not a number {n}"
        )
    return ids[n - 1]


DAILY_DONE: Final = "daily"  # Game.over_reason holds 8 characters


def end_after_the_last_round(game: Engine) -> bool:
    """D-1: the attempt is over once its twentieth round is; True when this ended it."""
    round_ = game.round
    if game.game_over or round_ is None or not round_.over or game.round_number < DAILY_ROUNDS:
        return False
    game.end_game()
    game.game_over_reason = DAILY_DONE
    return True


def is_daily(game: Engine) -> bool:
    """Whether ``game`` is a Daily Shoe attempt (its shoes come from the day's seed)."""
    return isinstance(game.source, DailyShoes)
