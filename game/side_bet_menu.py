"""The side-bet menu of the bet panel (UI.md "Side bets menu"): its view model and form parsing.

The menu lists the staked side bets of RULES.md §9 in rule-book order, each with its
pending stake, chips, Clear and rules link, then Extra Bet Blackjack (activated, not
staked, R-SB-20), Clear All and the side-bet total. The stakes live on the Game row
(``pending_side_bets``) until the deal, exactly like ``pending_bet_cents``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import QueryDict

from game.forms import parse_bet, parse_chip_dollars
from game.models import Game
from game.rules.money import CHIP_DOLLARS
from game.rules.sidebets import (
    EXTRA_BET_BLACKJACK,
    EXTRA_BET_MAX_MULTIPLE,
    HOUSE_MONEY,
    LUCKY_LADIES,
    PAY_TABLES,
    PERFECT_11S,
    PERFECT_PAIR,
    STAKED_SIDE_BETS,
    TWENTY_ONE_PLUS_THREE,
)
from game.rules_pages.content import SIDE_BET_ANCHORS

# What the player reads for each engine bet name.
SIDE_BET_LABELS: dict[str, str] = {
    PERFECT_PAIR: "Perfect Pair",
    TWENTY_ONE_PLUS_THREE: "21+3",
    PERFECT_11S: "Perfect 11s",
    HOUSE_MONEY: "House Money",
    LUCKY_LADIES: "Lucky Ladies",
    EXTRA_BET_BLACKJACK: "Extra Bet Blackjack",
}

# Safe for HTML ids (the engine names hold "+"): the rules page's anchors, the same words.
SIDE_BET_SLUGS: dict[str, str] = SIDE_BET_ANCHORS

# One line under each bet's name; the full pay tables are on the rules page.
SIDE_BET_SUMMARIES: dict[str, str] = {
    PERFECT_PAIR: "Your first two cards (or the dealer's) make a pair.",
    TWENTY_ONE_PLUS_THREE: "Your two cards and the upcard make a poker hand.",
    PERFECT_11S: "Your first two cards total 11 (ace counts 1).",
    HOUSE_MONEY: "Your first two cards: pair, straight or suited; parlay a win.",
    LUCKY_LADIES: "Hand 1 ends on 20 or holds a queen.",
    EXTRA_BET_BLACKJACK: (
        f"If your first card is a ten-card, bet up to {EXTRA_BET_MAX_MULTIPLE}× your base bet "
        "(fee 20%); it pays 2 to 1 when hand 1 wins."
    ),
}


def pays_up_to(bet: str) -> str:
    """The pay table's headline: the best payout, e.g. "Pays up to 200 to 1"."""
    best_numerator, best_denominator = max(
        (ratio for _condition, ratio in PAY_TABLES[bet]),
        key=lambda ratio: ratio[0] / ratio[1],
    )
    return f"Pays up to {best_numerator} to {best_denominator}"


def pending_side_stakes(game: Game) -> dict[str, int]:
    """The stored side stakes, menu order, staked bets only (anything odd stored is ignored)."""
    stored = game.pending_side_bets if isinstance(game.pending_side_bets, dict) else {}
    stakes: dict[str, int] = {}
    for name in STAKED_SIDE_BETS:
        stake = stored.get(name)
        if isinstance(stake, int) and not isinstance(stake, bool) and stake > 0:
            stakes[name] = stake
    return stakes


@dataclass(frozen=True)
class SideBetLine:
    name: str
    label: str
    slug: str
    stake: int
    summary: str
    headline: str

    @property
    def group_id(self) -> str:
        return f"side-bet-{self.slug}"


@dataclass(frozen=True)
class SideBetMenu:
    # False when the table's ``side_bets`` option is off: no menu and no Side Bets button.
    available: bool
    open: bool
    lines: tuple[SideBetLine, ...]
    extra_bet_active: bool
    extra_bet_summary: str
    total: int
    chips: tuple[int, ...] = CHIP_DOLLARS

    @property
    def has_anything(self) -> bool:
        return self.total > 0 or self.extra_bet_active


def side_bet_menu(game: Game) -> SideBetMenu:
    """The menu as the bet panel shows it, from the Game row alone (no queries)."""
    available = bool((game.options or {}).get("side_bets", True))
    stakes = pending_side_stakes(game) if available else {}
    lines = tuple(
        SideBetLine(
            name=name,
            label=SIDE_BET_LABELS[name],
            slug=SIDE_BET_SLUGS[name],
            stake=stakes.get(name, 0),
            summary=SIDE_BET_SUMMARIES[name],
            headline=pays_up_to(name),
        )
        for name in STAKED_SIDE_BETS
    )
    return SideBetMenu(
        available=available,
        open=available and game.side_bets_menu_open,
        lines=lines,
        extra_bet_active=available and game.pending_extra_bet,
        extra_bet_summary=SIDE_BET_SUMMARIES[EXTRA_BET_BLACKJACK],
        total=sum(stakes.values()),
    )


# --------------------------------------------------------------------- posted forms


def _typed_base(post: QueryDict) -> dict[str, Any]:
    """The base-bet amount typed in the same form travels along, so a side-bet click keeps it."""
    typed = post.get("amount", "").strip()
    return {"base_cents": parse_bet(typed) if typed else None}


def _bet_name(raw: str | None) -> str:
    if raw not in STAKED_SIDE_BETS:
        raise ValueError("There is no such side bet.")
    return raw


def parse_side_chip(post: QueryDict) -> dict[str, Any]:
    """``side_chip=<bet>:<dollars>``, e.g. ``21+3:5`` (one button carries both)."""
    bet, _, dollars = post.get("side_chip", "").rpartition(":")
    chip_cents = parse_chip_dollars(dollars) * 100
    return {"bet": _bet_name(bet), "chip_cents": chip_cents, **_typed_base(post)}


def parse_side_clear(post: QueryDict) -> dict[str, Any]:
    return {"bet": _bet_name(post.get("bet")), **_typed_base(post)}


def parse_side_clear_all(post: QueryDict) -> dict[str, Any]:
    return _typed_base(post)


def parse_extra_bet_activation(post: QueryDict) -> dict[str, Any]:
    choice = post.get("active")
    if choice not in ("on", "off"):
        raise ValueError("Choose Activate or Deactivate.")
    return {"active": choice == "on", **_typed_base(post)}


def parse_menu_toggle(post: QueryDict) -> dict[str, Any]:
    choice = post.get("menu")
    if choice not in ("open", "close"):
        raise ValueError("Open or close the side-bet menu.")
    return {"menu_open": choice == "open", **_typed_base(post)}
