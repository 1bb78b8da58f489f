"""The betting spots of the bet panel (UI.md "The look of the table"): the chip rack's
selected chip, the current spot, and the side-bet circles around the main circle.

The selected chip and the current spot are page state, not game state: they travel in the
bet form (hidden fields) and come back with every answer, so they work without JavaScript
too (a plain post is redirected with them in the query). Each button says what it adds: a
rack chip posts itself to the current spot, a spot posts the selected chip to itself, so
after any post the selected chip and the current spot are simply what was posted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from django.http import QueryDict

from game.presentation.lookup import TemplateLookup
from game.presentation.side_bet_menu import (
    SIDE_BET_LABELS,
    SIDE_BET_SLUGS,
    SideBetLine,
    SideBetMenu,
    best_ratio,
)
from game.presentation.table import SideCircle, chip_stack
from game.rules.money import CHIP_DOLLARS
from game.rules.sidebets import EXTRA_BET_BLACKJACK, STAKED_SIDE_BETS

# The main circle (or, with seats > 1, the box taking the chips): the current spot until
# the player presses a side-bet circle.
MAIN_SPOT = "main"
# The chip selected before the player has pressed one: the smallest usual table bet.
DEFAULT_CHIP = 5


@dataclass(frozen=True)
class BetFocus(TemplateLookup):
    """The chip selected in the rack (dollars) and the spot the rack's chips go to."""

    chip: int = DEFAULT_CHIP
    spot: str = MAIN_SPOT

    @property
    def on_side_bet(self) -> bool:
        return self.spot != MAIN_SPOT


# Compared as text: whatever is posted is never turned into a number unless it is a chip.
_CHIPS_BY_TEXT = {str(chip): chip for chip in CHIP_DOLLARS}


def _chip_or_none(raw: str | None) -> int | None:
    return _CHIPS_BY_TEXT.get(raw or "")


def bet_focus(data: QueryDict) -> BetFocus:
    """The focus after a post (or in a redirect's query): what a pressed chip or spot
    posted wins over the hidden fields it travelled with; anything unknown is ignored."""
    chip = _chip_or_none(data.get("selected_chip")) or DEFAULT_CHIP
    spot = data.get("spot") or MAIN_SPOT
    if spot not in STAKED_SIDE_BETS:
        spot = MAIN_SPOT
    if "chip" in data:  # a rack chip for the main circle, or the main circle itself
        chip, spot = _chip_or_none(data.get("chip")) or chip, MAIN_SPOT
    elif "box" in data:  # a box's circle makes that box the current spot
        spot = MAIN_SPOT
    elif "side_chip" in data:  # a rack chip for a side-bet circle, or the circle itself
        bet, _, dollars = (data.get("side_chip") or "").rpartition(":")
        if bet in STAKED_SIDE_BETS:
            chip, spot = _chip_or_none(dollars) or chip, bet
    return BetFocus(chip=chip, spot=spot)


def focus_query(focus: BetFocus) -> str:
    """The focus as a redirect's query string ("" when it is the default)."""
    if focus == BetFocus():
        return ""
    query = QueryDict(mutable=True)
    query["selected_chip"] = str(focus.chip)
    query["spot"] = focus.spot
    return query.urlencode()


def top_payout(bet: str) -> str:
    """The best line of the bet's pay table as printed on its circle, e.g. "100:1"."""
    numerator, denominator = best_ratio(bet)
    return f"{numerator}:{denominator}"


@dataclass(frozen=True)
class SideSpot(TemplateLookup):
    """A side-bet circle on the felt: its bet (name, stake), its top payout."""

    line: SideBetLine
    payout: str
    current: bool
    # On a round's outcome, the circle of the round's own bet: its result shows here.
    settled: SideCircle | None = None

    @property
    def name(self) -> str:
        return self.line.name

    @property
    def stack(self) -> list[int]:
        return chip_stack(self.line.stake)


@dataclass(frozen=True)
class SideSpots(TemplateLookup):
    """The side-bet circles around the main circle, then Extra Bet Blackjack's."""

    spots: tuple[SideSpot, ...]
    extra_bet_active: bool
    extra_bet_label: str
    extra_bet_slug: str
    extra_bet_payout: str
    total: int
    # The round's extra bet, settled, on a round's outcome.
    extra_bet_settled: SideCircle | None = None

    @property
    def current_label(self) -> str:
        return next((spot.line.label for spot in self.spots if spot.current), "")

    @cached_property
    def fragment_key(self) -> str:
        """Everything the circles show, as one string: the key of their rendered fragment
        ({% cache %} in game/table/felt.html), worked out once per set of circles."""
        return repr(self)


def side_spots(
    menu: SideBetMenu, focus: BetFocus, round_circles: Sequence[SideCircle] = ()
) -> SideSpots:
    """The circles for the side bets in ``menu``; ``round_circles``: the round just
    played, whose results stay on their circles until the next bet starts."""
    settled = {circle.slug: circle for circle in round_circles if circle.result}
    if not settled:
        return _unsettled_side_spots(menu, focus)
    return _side_spots(menu, focus, settled)


# Circles with no result on them recur on every bet's render (menus are shared, see
# side_bet_menu.menu_for): built once per process, with their fragment key.
@lru_cache(maxsize=1024)
def _unsettled_side_spots(menu: SideBetMenu, focus: BetFocus) -> SideSpots:
    return _side_spots(menu, focus, {})


def _side_spots(menu: SideBetMenu, focus: BetFocus, settled: dict[str, SideCircle]) -> SideSpots:
    return SideSpots(
        spots=tuple(
            SideSpot(
                line=line,
                payout=top_payout(line.name),
                current=focus.spot == line.name,
                settled=settled.get(line.slug),
            )
            for line in menu.lines
        ),
        extra_bet_settled=settled.get(SIDE_BET_SLUGS[EXTRA_BET_BLACKJACK]),
        extra_bet_active=menu.extra_bet_active,
        extra_bet_label=SIDE_BET_LABELS[EXTRA_BET_BLACKJACK],
        extra_bet_slug=SIDE_BET_SLUGS[EXTRA_BET_BLACKJACK],
        extra_bet_payout=top_payout(EXTRA_BET_BLACKJACK),
        total=menu.total,
    )
