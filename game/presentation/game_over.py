"""The end of a game as the table shows it (UI.md "Game over"): why it ended, the final
bank, the rounds played, the best hand and the right answers, and the words for them.

Built only for a game that is over, from the game's row and two queries over what its
finished rounds stored (game.selectors.best_hand, trivia_answers)."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.models import Game, Hand
from game.presentation.lookup import TemplateLookup
from game.rules.records import NATURAL

# The heading of the moment: why the game ended, in a few words.
OVER_HEADINGS = {
    "bank": "Bank empty",
    "credits": "Out of credits",
    "ended": "Game ended",
    "daily": "Daily Shoe played",
}
# ... and the sentence under it.
OVER_REASONS = {
    "bank": "Your bank fell below the table minimum.",
    "credits": "Your trivia credits ran out.",
    "ended": "You ended the game.",
    "daily": "You played all twenty of today's deals.",
}
BEST_HAND_LABELS = {NATURAL: "Blackjack"}
BEST_HAND_HOW = {"charlie": "Charlie", "dealer_bust": "Dealer bust"}
NO_BEST_HAND = "No hand won this game"


@dataclass(frozen=True)
class BestHandView(TemplateLookup):
    cards: list[str]
    label: str  # "Blackjack", "Charlie", "Dealer bust" or "Win"
    net: int  # what it won, in cents (winnings less its stake)
    doubled: bool


@dataclass(frozen=True)
class GameOverView(TemplateLookup):
    reason: str  # "bank", "credits" or "ended" (Game.over_reason)
    heading: str
    reason_text: str
    final_bank: int
    rounds_played: int
    trivia_mode: bool
    answered: int
    right_answers: int
    best_hand: BestHandView | None = field(default=None)
    no_best_hand_text: str = NO_BEST_HAND


def game_over_view(
    game: Game, *, trivia_mode: bool, best_hand: Hand | None, answers: tuple[int, int]
) -> GameOverView:
    """The figures of a game that is over: its row's, its best hand and its trivia answers
    (both read by the view, game.selectors.table_reads)."""
    reason = game.over_reason or "ended"
    answered, right = answers
    hand = best_hand
    best = None
    if hand is not None:
        label = BEST_HAND_LABELS.get(hand.result) or BEST_HAND_HOW.get(hand.how, "Win")
        best = BestHandView(
            cards=list(hand.cards),
            label=label,
            net=hand.winnings_cents - hand.bet_cents,
            doubled=hand.doubled,
        )
    return GameOverView(
        reason=reason,
        heading=OVER_HEADINGS.get(reason, "Game over"),
        reason_text=OVER_REASONS.get(reason, ""),
        final_bank=game.bank_cents,
        rounds_played=game.rounds_played,
        trivia_mode=trivia_mode,
        answered=answered,
        right_answers=right,
        best_hand=best,
    )
