"""The side-bet menu of the bet panel (UI.md "Side bets menu"): its view model and words.

The menu lists the staked side bets of RULES.md §9 in rule-book order, each with its
pending stake, chips, Clear and rules link, then Extra Bet Blackjack (activated, not
staked, R-SB-20), Clear All and the side-bet total. The stakes live on the Game row
(``pending_side_bets``) until the deal, exactly like ``pending_bet_cents``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from game.models import Game
from game.presentation.lookup import TemplateLookup
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
from game.rules_pages.content import SIDE_BET_ANCHORS, ratio_text
from game.selectors import pending_side_stakes

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


def best_ratio(bet: str) -> tuple[int, int]:
    """The best line of the bet's pay table, as (numerator, denominator)."""
    return max((ratio for _condition, ratio in PAY_TABLES[bet]), key=lambda r: r[0] / r[1])


def pays_up_to(bet: str) -> str:
    """The pay table's headline: the best payout, e.g. "Pays up to 200 to 1"."""
    return f"Pays up to {ratio_text(best_ratio(bet))}"


@dataclass(frozen=True)
class SideBetLine(TemplateLookup):
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
class SideBetMenu(TemplateLookup):
    """The side bets of the bet for the next deal: the single-player bet panel's menu and a
    shared table's seat's (game/tables/presentation/), built by :func:`menu_for`."""

    # False when the table's ``side_bets`` option is off: no menu and no Side Bets button.
    available: bool
    # Shown open: the player's choice in the single-player game (stored on the game); at a
    # shared table, while anything rides in it (a live update re-renders the drawer).
    open: bool
    lines: tuple[SideBetLine, ...]
    extra_bet_active: bool
    extra_bet_summary: str
    total: int
    chips: tuple[int, ...] = CHIP_DOLLARS

    @property
    def has_anything(self) -> bool:
        return self.total > 0 or self.extra_bet_active


def side_bet_lines(stakes: dict[str, int]) -> tuple[SideBetLine, ...]:
    """The menu's line for every side bet that takes a stake, in menu order, with its
    stake (0: not played) and its words; the single-player menu's and a shared seat's."""
    return tuple(
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


def menu_for(
    stakes: dict[str, int],
    *,
    extra_bet_active: bool,
    open: bool,
    available: bool = True,
    chips: tuple[int, ...] = CHIP_DOLLARS,
) -> SideBetMenu:
    """The menu for these pending ``stakes`` (by name, in menu order) and Extra Bet
    activation; ``chips`` in dollars (a shared seat's: those its bank covers)."""
    return _menu(tuple(stakes.items()), extra_bet_active, open, available, tuple(chips))


# A menu is immutable and the same few recur on every table render (mostly: nothing
# staked), so each is built once per process and shared.
@lru_cache(maxsize=1024)
def _menu(
    stakes: tuple[tuple[str, int], ...],
    extra_bet_active: bool,
    open: bool,
    available: bool,
    chips: tuple[int, ...],
) -> SideBetMenu:
    by_name = dict(stakes)
    return SideBetMenu(
        available=available,
        open=open,
        lines=side_bet_lines(by_name),
        extra_bet_active=extra_bet_active,
        extra_bet_summary=SIDE_BET_SUMMARIES[EXTRA_BET_BLACKJACK],
        total=sum(by_name.values()),
        chips=chips,
    )


def side_bet_menu(game: Game) -> SideBetMenu:
    """The menu as the bet panel shows it, from the Game row alone (no queries)."""
    options = game.options or {}
    # The simple game keeps the side_bets option but plays none (§10 Extensions).
    available = bool(options.get("side_bets", True)) and not options.get("simple", False)
    return menu_for(
        pending_side_stakes(game) if available else {},
        extra_bet_active=available and game.pending_extra_bet,
        open=available and game.side_bets_menu_open,
        available=available,
    )
