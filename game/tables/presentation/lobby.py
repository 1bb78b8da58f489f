"""The lobby's words: a table's main rules in one line (also printed on the felt)."""

from __future__ import annotations

from typing import Any

from game.presentation.table import DEALER_RULE_LINES
from game.tables import services


def rules_text(options: Any) -> str:
    """The main rules in one line (the lobby and the felt): decks, dealer rule, payout,
    trivia, and side bets when the table plays them."""
    decks = "Infinite decks" if options.infinite_decks else f"{options.deck_count} decks"
    if options.deck_count == 1:
        decks = "1 deck"
    # The single-player felt's words for the dealer's rule ("dealer hits soft 17"), not
    # the rule's code; S17 keeps the lobby's shorter "stands on soft 17".
    rule = options.dealer_stands_on
    dealer = (
        "dealer stands on soft 17"
        if rule == "S17"
        else DEALER_RULE_LINES[rule][:1].lower() + DEALER_RULE_LINES[rule][1:]
    )
    trivia = "trivia on" if options.trivia_mode else "trivia off"
    line = f"{decks} · {dealer} · blackjack pays {options.blackjack_payout} · {trivia}"
    # Side bets are the host's choice (T-6, T-7): the lobby says when a table plays them.
    return f"{line} · side bets" if services.side_bets_offered(options) else line
