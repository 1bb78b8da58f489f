"""The offers a seat answers at a shared table (T-7): their buttons, questions, names in the
log and explanations, worded once; the single-player game's words where they say enough.
"""

from __future__ import annotations

from game.presentation.notices import PHASE_LINES
from game.presentation.side_bet_panels import PARLAY_LABELS
from game.rules import sidebets as sb
from game.rules.records import DEALING, HOUSE_MONEY_PARLAY

OFFER_BUTTONS = {
    "insurance": (("insurance:accept", "Take Insurance"), ("insurance:decline", "No Insurance")),
    "even_money": (
        ("even_money:accept", "Take Even Money"),
        ("even_money:decline", "No Even Money"),
    ),
    "early_surrender": (
        ("early_surrender:accept", "Surrender"),
        ("early_surrender:decline", "Play On"),
    ),
    # T-7's side-bet decisions, with the single-player names (UI.md): Place Extra Bet
    # (with the amount typed beside it) / Decline, the four parlay choices, Roll.
    "extra_bet": (("extra_bet", "Place Extra Bet"), ("extra_bet:decline", "Decline")),
    "parlay": tuple((f"parlay:{choice}", PARLAY_LABELS[choice]) for choice in sb.PARLAY_CHOICES),
    "roll": (("roll", "Roll"),),
}
# The round's phase while an offer stage is open, by the offer it makes (the dice are
# rolled while the round is still "dealing", R-4.3).
PHASE_OFFERS = {
    "insurance": "insurance",
    "even_money": "even_money",
    "early_surrender": "early_surrender",
    "extra_bet": "extra_bet",
    HOUSE_MONEY_PARLAY: "parlay",
    DEALING: "roll",
}
# Each offer's question: the single-player game's line for that phase ("Insurance?"),
# except where a shared table's words say more. The whole table reads the question in the
# headline while the offer is open, so it names what won ("House Money: parlay?" would
# not say that the offer exists only because House Money won).
OFFER_QUESTIONS = {
    **{offer: PHASE_LINES[phase] for phase, offer in PHASE_OFFERS.items()},
    "parlay": "House Money won: collect or parlay?",
    "roll": "Perfect 11s won: roll the Infinity dice.",
}
# The offers by name in the log ("ana is offered the extra bet").
OFFER_NAMES = {
    "insurance": "insurance",
    "even_money": "even money",
    "early_surrender": "early surrender",
    "extra_bet": "the extra bet",
    "parlay": "the House Money parlay",
    "roll": "the Perfect 11s dice",
}
OFFER_TEXTS = {
    "extra_bet": (
        "Your first card is a ten-card: you may bet from {smallest} up to {largest} on your "
        "hand (at most 5× your bet of {base_bet}). It pays 2 to 1 if the hand wins and is "
        "returned on a push. A fee of 20% is taken with it and never returned."
    ),
    "parlay": (
        "{condition} pays {ratio}: your {stake} stake returns {winnings}. Money you parlay "
        "is added to your bet (now {base_bet}) and rides on it."
    ),
    "roll": (
        "Your suited 11 wins Perfect 11s (stake {stake}). Each of the three dice has one "
        "infinity face; infinities raise the payout."
    ),
}
EXTRA_BET_UNAFFORDABLE = "Your bank does not cover the smallest extra bet and its fee."
