"""The table's rules that surprise players, printed on the felt the way casinos print their
house rules, each linking to its rule (UI.md "Steady controls, on every screen").

Only what a player used to other tables would not expect is printed: aces that cannot be
split, no double after a split, the dealer's Charlie (R-3.5, R-7.1: it beats every hand
but a Charlie), a dealer who does not peek (R-7.1a), the simple game's Hit and Stand
only, and the Jackpot Ace (R-SB-11, R-SB-13) while Perfect 11s can be played. The usual
line (payout, dealer rule, insurance) stays as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.presentation.lookup import TemplateLookup
from game.rules import sidebets as sb
from game.rules.options import Options
from game.rules_pages.content import ratio_text


@dataclass(frozen=True)
class FeltRule(TemplateLookup):
    """One house rule on the felt: its words and the rules-page topic it links to (a key
    of game.rules_pages.content.TOPICS)."""

    text: str
    topic: str


def house_rules(options: Options) -> list[FeltRule]:
    """The surprising rules of a table with these options, in the order printed."""
    rules: list[FeltRule] = []
    if options.simple:
        rules.append(FeltRule("Hit and Stand only", "simple_game"))
    else:
        if options.max_ace_splits == 0:
            rules.append(FeltRule("No splitting aces", "split_aces"))
        if not options.double_after_split:
            rules.append(FeltRule("No double after split", "double_after_split"))
    if not options.dealer_peek:
        rules.append(FeltRule("No hole card: dealer blackjack takes doubles and splits", "no_peek"))
    if options.charlie_limit is not None:
        text = f"Dealer's {options.charlie_limit}-card Charlie wins"
        rules.append(FeltRule(text, "dealer_charlie"))
    if options.side_bets and not options.simple:
        top = ratio_text(_jackpot_top_ratio())
        rules.append(FeltRule(f"JACKPOT ace + king: Perfect 11s up to {top}", "jackpot_ace"))
    return rules


def usual_rules_expected(options: Options) -> bool:
    """Whether the usual rules line says only what players expect anyway (3 to 2, the
    dealer standing on soft 17): a phone, short of room, may then print the surprises in
    its place (static/css/felt_rules.css)."""
    return options.blackjack_payout == "3:2" and options.dealer_stands_on == "S17"


def _jackpot_top_ratio() -> tuple[int, int]:
    """What the Jackpot Ace pays at best (R-SB-13), read from the pay table."""
    return max(
        (ratio for condition, ratio in sb.PAY_TABLES[sb.PERFECT_11S] if "jackpot" in condition),
        key=lambda ratio: ratio[0] / ratio[1],
    )
