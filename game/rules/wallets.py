"""The wallets of a shared round (TABLES.md): each box's own bank and trivia credits.

In a shared round (:meth:`game.rules.engine.Engine.start_shared_round`) every box is played
by its own player, and every cent and credit of the box moves in its :class:`Wallet`,
never in the game's own bank and credits. The caller takes each wallet from its player's
seat at the deal and writes it back after every action
(:meth:`game.rules.engine.Engine.box_wallet`).
"""

from __future__ import annotations

from typing import Any, Final

from game.rules.money import check_amount
from game.rules.records import IllegalAction, SharedBox

MAX_SHARED_BOXES: Final = 7  # TABLES.md T-1: up to 7 seats

# What a box's wallet stores (its JSON form), which are also its slots.
WALLET_FIELDS = (
    "bank",
    "credits",
    "bank_before",
    "credits_before",
    "credits_change",
    "out_of_credits",
    "staked",
    "paid",
)


class Wallet:
    """The bank and trivia credits of the player of one box of a shared round (TABLES.md
    T-3), as they stand now and as they were at the deal. ``staked``/``paid``: the box's
    share of the round's."""

    __slots__ = WALLET_FIELDS

    def __init__(self, bank: int, credits: int) -> None:
        self.bank = bank
        self.credits = credits
        self.bank_before = bank
        self.credits_before = credits
        self.credits_change = 0
        self.out_of_credits = False  # for this box alone
        self.staked = 0
        self.paid = 0


def public_wallet(wallet: Wallet, index: int) -> dict[str, Any]:
    """What every player at the table may see of box ``index``'s wallet (0-based): the
    round's public view and its ``round_over`` event show it."""
    return {
        "box": index + 1,
        "bank": wallet.bank,
        "credits": wallet.credits,
        "credits_change": wallet.credits_change,
        "out_of_credits": wallet.out_of_credits,
        "staked": wallet.staked,
        "paid": wallet.paid,
    }


def checked_wallet(entry: SharedBox) -> tuple[int, int]:
    """A shared box's wallet (bank in cents, trivia credits), checked. Raises
    IllegalAction."""
    bank, credits = entry.bank, entry.credits
    try:
        check_amount(bank)
    except ValueError as error:
        raise IllegalAction(f"Its bank is not an amount: {error}") from None
    if isinstance(credits, bool) or not isinstance(credits, int) or credits < 0:
        raise IllegalAction("Trivia credits must be a whole number, 0 or more")
    return bank, credits
