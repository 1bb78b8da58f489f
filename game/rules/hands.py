"""Hand values (RULES.md §3) and the dealer's drawing rule (§6)."""

from __future__ import annotations

from collections.abc import Sequence

from game.rules.cards import RANK_VALUE, TEN_CARD_RANKS


def hard_total(cards: Sequence[str]) -> tuple[int, bool]:
    """The all-aces-as-1 sum and whether the hand holds an ace."""
    total = 0
    has_ace = False
    for card in cards:
        rank = card[0]
        if rank == "A":
            has_ace = True
        total += RANK_VALUE[rank]
    return total, has_ace


def hand_total(cards: Sequence[str]) -> tuple[int, bool]:
    """Best total and softness (R-3.2, R-3.3).

    The total is the highest ≤ 21 counting aces as 1 or 11; if none is, the hand
    is bust and the total counts every ace as 1. Soft means an ace counts 11.
    """
    return soften(*hard_total(cards))


def soften(hard: int, has_ace: bool) -> tuple[int, bool]:
    """R-3.2/R-3.3 from the all-aces-as-1 sum: the one place the game decides whether an
    ace counts 11 (only one ever can without busting). Returns (total, soft)."""
    if has_ace and hard <= 11:
        return hard + 10, True
    return hard, False


def is_bust(cards: Sequence[str]) -> bool:
    return hand_total(cards)[0] > 21


def is_two_card_natural(cards: Sequence[str]) -> bool:
    """An ace and a ten-card as the first two cards (R-3.4); the caller checks it is
    the original hand or the dealer's, never a split hand."""
    if len(cards) != 2:
        return False
    first, second = cards[0][0], cards[1][0]
    return (first == "A" and second in TEN_CARD_RANKS) or (
        second == "A" and first in TEN_CARD_RANKS
    )


def is_charlie(cards: Sequence[str], charlie_limit: int | None) -> bool:
    """R-3.5: the Charlie number of cards without busting."""
    return charlie_limit is not None and len(cards) >= charlie_limit and hand_total(cards)[0] <= 21


def dealer_must_hit(cards: Sequence[str], rule: str, charlie_limit: int | None) -> bool:
    """R-6.2/R-6.3: whether the dealer draws another card under ``rule``."""
    if charlie_limit is not None and len(cards) >= charlie_limit:
        return False
    return dealer_hits(*hard_total(cards), rule)


def dealer_hits(hard: int, has_ace: bool, rule: str) -> bool:
    """R-6.2 on a hand's all-aces-as-1 sum: the engine keeps that sum as cards arrive."""
    # Only one ace can ever count 11 without busting.
    if has_ace and hard <= 11:
        total, soft = hard + 10, True
    else:
        total, soft = hard, False
    if rule == "S17":
        return total < 17
    if rule == "H17":
        return total < 17 or (total == 17 and soft)
    if rule == "S16":
        return total < 16
    # H16: hit soft 16, stand on hard 16 and on any 17+.
    return total < 16 or (total == 16 and soft)


def describe_total(cards: Sequence[str]) -> str:
    """ "Soft 17" / "Hard 17" / "Bust 24" as the page shows a total (R-3.3)."""
    total, soft = hand_total(cards)
    if total > 21:
        return f"Bust {total}"
    return f"{'Soft' if soft else 'Hard'} {total}"
