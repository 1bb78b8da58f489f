"""The words of the rules pages: RULES.md rewritten for players.

Pay-table ratios, option defaults and the "needs" between options are read from the
rules engine, never retyped here, so the pages cannot drift from what the game pays;
only the wording (labels, examples) lives in this module. The views are in
``views.py``, the URLs in ``urls.py``.

Other templates link to a topic with :func:`rules_url` (or ``{% rules_link %}`` from
``game/templatetags/rules_links.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from game.core.url_cache import cached_reverse
from game.rules.money import display_cents
from game.rules.options import NEEDS, Options
from game.rules.sidebet_edges import DEFAULT_DECK_COUNT, edge_percent, house_edge
from game.rules.sidebets import (
    EXTRA_BET_BLACKJACK,
    HOUSE_MONEY,
    LUCKY_LADIES,
    PAY_TABLES,
    PERFECT_11S,
    PERFECT_PAIR,
    TWENTY_ONE_PLUS_THREE,
)

# --- where each topic lives -------------------------------------------------------------

# The query parameter naming the game a rules page was opened from.
GAME_PARAMETER = "game"
# URL names of the pages (the index keeps the plain name "rules").
INDEX, PLAY, TRIVIA, SIDE_BETS, OPTIONS, TERMS = (
    "rules",
    "rules_play",
    "rules_trivia",
    "rules_side_bets",
    "rules_options",
    "rules_terms",
)

# Side-bet name as the engine spells it -> anchor on the side-bets page. The anchors are
# part of the public contract (the table's side-bet circles link to them).
SIDE_BET_ANCHORS: dict[str, str] = {
    PERFECT_PAIR: "perfect-pair",
    TWENTY_ONE_PLUS_THREE: "twenty-one-plus-three",
    PERFECT_11S: "perfect-11s",
    EXTRA_BET_BLACKJACK: "extra-bet-blackjack",
    HOUSE_MONEY: "house-money",
    LUCKY_LADIES: "lucky-ladies",
}

# Topic -> (URL name, anchor or ""). Keys are normalised by _topic_key.
TOPICS: dict[str, tuple[str, str]] = {
    "index": (INDEX, ""),
    "rules": (INDEX, ""),
    "basics": (INDEX, "table-and-money"),
    "money": (INDEX, "table-and-money"),
    "shoe": (INDEX, "the-shoe"),
    "hand_values": (INDEX, "hand-values"),
    "natural": (INDEX, "naturals"),
    "charlie": (INDEX, "charlies"),
    "dealer_charlie": (INDEX, "dealer-charlie"),
    "game_over": (INDEX, "game-over"),
    "play": (PLAY, ""),
    "round": (PLAY, "order-of-a-round"),
    "order": (PLAY, "order-of-a-round"),
    "actions": (PLAY, "your-actions"),
    "hit": (PLAY, "hit-and-stand"),
    "stand": (PLAY, "hit-and-stand"),
    "doubling": (PLAY, "doubling"),
    "double": (PLAY, "doubling"),
    "splitting": (PLAY, "splitting"),
    "split": (PLAY, "splitting"),
    "split_aces": (PLAY, "split-aces"),
    "double_after_split": (PLAY, "double-after-split"),
    "resplitting": (PLAY, "resplitting"),
    "surrender": (PLAY, "surrender"),
    "insurance": (PLAY, "insurance"),
    "even_money": (PLAY, "even-money"),
    "peek": (PLAY, "dealer-peek"),
    "no_peek": (PLAY, "no-peek"),
    "dealer": (PLAY, "dealer-rules"),
    "dealer_rules": (PLAY, "dealer-rules"),
    "outcomes": (PLAY, "outcomes"),
    "payouts": (PLAY, "payouts"),
    "trivia": (TRIVIA, "trivia-mode"),
    "trivia_mode": (TRIVIA, "trivia-mode"),
    "credits": (TRIVIA, "credits"),
    "side_bets": (SIDE_BETS, ""),
    "options": (OPTIONS, ""),
    "simple_game": (OPTIONS, "option-simple"),
    "terms": (TERMS, ""),
    "terminology": (TERMS, ""),
    "jackpot_ace": (SIDE_BETS, "perfect-11s-jackpot-ace"),
    **{bet: (SIDE_BETS, anchor) for bet, anchor in SIDE_BET_ANCHORS.items()},
}


def _topic_key(topic: str) -> str:
    """Accept "Even Money", "even-money" and "even_money" alike; "21+3" stays as is."""
    return topic.strip().lower().replace("-", "_").replace(" ", "_")


def rules_url(topic: str, game_id: int | None = None) -> str:
    """The URL of a rules topic, e.g. ``rules_url("house_money")`` ->
    ``/rules/side-bets/#house-money``. Unknown topics raise ValueError so that a typo
    in a template fails its test instead of linking nowhere. With ``game_id`` the page
    links back to that game (``?game=<id>``)."""
    try:
        url_name, anchor = TOPICS[_topic_key(topic)]
    except KeyError:
        raise ValueError(f"no rules page for topic {topic!r}") from None
    url = with_game(cached_reverse(url_name), game_id)
    return f"{url}#{anchor}" if anchor else url


def with_game(url: str, game_id: int | None) -> str:
    return f"{url}?{urlencode({GAME_PARAMETER: game_id})}" if game_id is not None else url


# --- terminology ----------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    """One entry of the Terminology page; every rules page links its keywords here."""

    slug: str  # the anchor is "term-<slug>"
    name: str
    definition: str
    # Where the rule behind the word is told in full (a topic of TOPICS), if elsewhere.
    topic: str = ""

    @property
    def anchor(self) -> str:
        return f"term-{self.slug}"


TERM_LIST: tuple[Term, ...] = (
    Term(
        "base-bet",
        "Base bet",
        "Your main bet on a hand, placed in the betting circle before "
        "the deal and paid by the blackjack rules. Side bets are separate.",
        "money",
    ),
    Term(
        "side-bet",
        "Side bet",
        "An optional bet beside the base bet on a particular "
        "combination of cards, settled on its own and paid by its own pay table.",
        "side_bets",
    ),
    Term(
        "core-side-bet",
        "Core side bets",
        "Insurance and even money: offered during the "
        "round when the dealer shows an ace, switched on and off by their own options, not "
        "placed on the side-bet circles.",
        "insurance",
    ),
    Term(
        "initial-hand",
        "Initial hand",
        "Your first two cards, before any hit, double or split. Most side bets look only at them.",
        "order",
    ),
    Term(
        "winnings",
        "Winnings",
        "Your bet back plus the profit: a $10 bet that wins 1 to 1 returns $20.",
        "money",
    ),
    Term("shoe", "Shoe", "The box of shuffled decks the dealer deals from.", "shoe"),
    Term("ten-card", "Ten-card", "A 10, jack, queen or king: each counts 10.", "hand_values"),
    Term("upcard", "Upcard", "The dealer's face-up card, the second one dealt.", "order"),
    Term(
        "hole-card",
        "Hole card",
        "The dealer's face-down card. It is turned over in the "
        "dealer's turn, or at the peek when it makes a blackjack.",
        "order",
    ),
    Term(
        "soft-hand",
        "Soft hand",
        "A hand in which an ace counts 11: A♠ 6♦ is a soft 17.",
        "hand_values",
    ),
    Term(
        "hard-hand",
        "Hard hand",
        "A hand with no ace counted as 11: A♠ 6♦ 9♣ is a hard 16.",
        "hand_values",
    ),
    Term(
        "natural",
        "Natural (blackjack)",
        "An ace and a ten-card as the first two cards of "
        "your original hand or of the dealer's hand. 21 on a split hand is never a natural.",
        "natural",
    ),
    Term(
        "bust",
        "Bust",
        "A total over 21. A bust hand loses at once, whatever the dealer does later.",
        "hand_values",
    ),
    Term("push", "Push", "A tie: your bet comes back, with no profit.", "outcomes"),
    Term(
        "charlie",
        "Charlie",
        "A hand that reaches the Charlie option's number of cards "
        "(5 by default) without busting: it stops there and wins 1 to 1.",
        "charlie",
    ),
    Term(
        "peek",
        "Peek",
        "With an ace or a ten-card up, the dealer checks the hole card for "
        "blackjack before you play.",
        "peek",
    ),
    Term(
        "double-down",
        "Double down",
        "Double your bet on a hand and take exactly one more card.",
        "doubling",
    ),
    Term(
        "split",
        "Split",
        "Make two hands of a pair, each with a bet equal to the first.",
        "splitting",
    ),
    Term("surrender", "Surrender", "Give up a hand and take back half its bet.", "surrender"),
    Term(
        "insurance",
        "Insurance",
        "A bet of up to half your base bet that the dealer, "
        "showing an ace, has blackjack; it pays 2 to 1.",
        "insurance",
    ),
    Term(
        "even-money",
        "Even money",
        "With a blackjack against an ace, take a 1 to 1 win at once instead of risking a push.",
        "even_money",
    ),
    Term(
        "perfect-match",
        "Perfect match",
        "Two cards of the same rank and suit, such as K♠ K♠ from two decks of the shoe.",
        "perfect_pair",
    ),
    Term(
        "colored-pair",
        "Colored pair",
        "Two cards of the same rank and colour in different suits, such as K♥ K♦.",
        "perfect_pair",
    ),
    Term(
        "mixed-pair",
        "Mixed pair",
        "Two cards of the same rank, one red and one black, such as K♥ K♠.",
        "perfect_pair",
    ),
    Term(
        "suited",
        "Suited, colored, mixed",
        "Suited: all one suit. Colored: one colour in "
        "different suits. Mixed: red and black cards together.",
        "perfect_11s",
    ),
    Term(
        "straight",
        "Straight",
        "Cards of consecutive ranks. The ace plays high (Q-K-A) or "
        "low (A-2-3), never round the corner (K-A-2).",
        "21+3",
    ),
    Term("flush", "Flush", "Cards all of one suit.", "21+3"),
    Term(
        "three-of-a-kind",
        "Three of a kind",
        "Three cards of one rank; suited trips are three of a kind in one suit.",
        "21+3",
    ),
    Term(
        "jackpot-ace",
        "Jackpot Ace",
        "An ace of spades marked when the shoe is shuffled "
        "(one in six of them), shown on the card; with a king it pays Perfect 11s' top "
        "lines.",
        "perfect_11s",
    ),
    Term(
        "infinity-dice",
        "Infinity dice",
        "Three dice, each with one infinity face, rolled "
        "when Perfect 11s wins with a suited 11: two or three infinities pay more.",
        "perfect_11s",
    ),
    Term(
        "parlay",
        "Parlay",
        "Letting a House Money win ride on hand 1's base bet instead of taking it now.",
        "house_money",
    ),
    Term(
        "credits",
        "Trivia credits",
        "The balance trivia questions are paid from: a wrong "
        "answer costs 1, a right one earns 0, 1 or 5 by difficulty. At 0 the game is over.",
        "credits",
    ),
)
TERMS_BY_SLUG: dict[str, Term] = {term.slug: term for term in TERM_LIST}


def term_url(slug: str, game_id: int | None = None) -> str:
    """The Terminology entry of ``slug``; an unknown slug raises, so a typo fails its test."""
    if slug not in TERMS_BY_SLUG:
        raise ValueError(f"no terminology entry {slug!r}")
    return f"{with_game(reverse(TERMS), game_id)}#{TERMS_BY_SLUG[slug].anchor}"


# --- pay tables -------------------------------------------------------------------------

EXAMPLE_STAKE_CENTS = 1000  # every "a $10 bet returns" column

# (label, explanation with an example) per condition id, in the engine's order.
CONDITION_TEXT: dict[str, dict[str, tuple[str, str]]] = {
    PERFECT_PAIR: {
        "two_perfect_pairs": (
            "Two perfect pairs",
            "Your two cards are a perfect pair and so are the dealer's: "
            "your 8♣ 8♣ and the dealer's J♥ J♥.",
        ),
        "perfect_pair": (
            "Perfect pair",
            "Either pair is a perfect pair — yours or the dealer's: your 8♣ 8♣, "
            "or the dealer's J♥ J♥ whatever you hold.",
        ),
        "colored_pair": (
            "Colored pair",
            "Your two cards: same rank, same colour, different suits: 8♥ 8♦.",
        ),
        "mixed_pair": (
            "Mixed pair",
            "Your two cards: same rank, one red and one black: 8♥ 8♣.",
        ),
    },
    TWENTY_ONE_PLUS_THREE: {
        "suited_trips_high": (
            "Suited trips, queens, kings or aces",
            "Three identical queens, kings or aces: Q♠ Q♠ with a Q♠ upcard.",
        ),
        "suited_trips": (
            "Suited trips, 2 through jacks",
            "Three identical cards from 2 to jack: 7♦ 7♦ with a 7♦ upcard.",
        ),
        "straight_flush": (
            "Straight flush",
            "Three consecutive ranks in one suit: 5♣ 6♣ with a 7♣ upcard.",
        ),
        "three_of_a_kind": (
            "Three of a kind",
            "Three cards of one rank, not all one suit: 9♠ 9♥ with a 9♦ upcard.",
        ),
        "straight": (
            "Straight",
            "Three consecutive ranks: Q♦ K♠ with an A♣ upcard, or A♥ 2♣ with a 3♦. "
            "K-A-2 is not a straight.",
        ),
        "flush": ("Flush", "All three cards of one suit: 2♥ 9♥ with a J♥ upcard."),
    },
    PERFECT_11S: {
        "jackpot_ace_king_spades": (
            "Jackpot Ace with the king of spades",
            "The Jackpot Ace A♠ with K♠.",
        ),
        "jackpot_ace_king": (
            "Jackpot Ace with another king",
            "The Jackpot Ace A♠ with K♥, K♦ or K♣.",
        ),
        "suited_11_three_infinities": (
            "Suited 11, three infinities",
            "A suited 11 and all three dice show the infinity: 5♠ 6♠, ∞ ∞ ∞.",
        ),
        "suited_11_two_infinities": (
            "Suited 11, two infinities",
            "A suited 11 and two of the dice show the infinity: 4♦ 7♦, ∞ ∞ 3.",
        ),
        "suited_11": (
            "Suited 11",
            "Two cards of one suit totalling 11, with fewer than two infinities: 3♥ 8♥.",
        ),
        "colored_11": (
            "Colored 11",
            "11 in two suits of the same colour: 5♥ 6♦, or A♣ K♠.",
        ),
        "mixed_11": ("Mixed 11", "11 in one red and one black card: 2♠ 9♥."),
    },
    HOUSE_MONEY: {
        "suited_ace_king": ("Suited ace-king", "An ace and a king of one suit: A♦ K♦."),
        "straight_flush": (
            "Straight flush",
            "Two consecutive ranks in one suit: 9♣ 10♣, J♠ Q♠ or A♥ 2♥.",
        ),
        "pair": ("Pair", "Two cards of the same rank: 6♠ 6♥. (10♠ K♠ is not a pair.)"),
        "straight": (
            "Straight",
            "Two consecutive ranks in different suits: 7♦ 8♣, K♥ A♠ or A♣ 2♦.",
        ),
    },
    LUCKY_LADIES: {
        "queen_hearts_pair_dealer_hearts_natural": (
            "Queen of hearts pair, dealer blackjack in hearts",
            "Q♥ Q♥ with the dealer's A♥ K♥.",
        ),
        "queen_hearts_pair_dealer_suited_natural": (
            "Queen of hearts pair, dealer suited blackjack",
            "Q♥ Q♥ with the dealer's A♣ J♣.",
        ),
        "queen_hearts_pair_dealer_natural": (
            "Queen of hearts pair, dealer blackjack",
            "Q♥ Q♥ with the dealer's A♠ 10♦.",
        ),
        "queen_hearts_pair": (
            "Queen of hearts pair",
            "Your hand is exactly two queens of hearts: Q♥ Q♥.",
        ),
        "queen_pair": ("Pair of queens", "Your hand is exactly two queens: Q♠ Q♦."),
        "matched_20": ("Matched 20", "A two-card 20 of one rank and one suit: K♣ K♣."),
        "suited_20": ("Suited 20", "A 20, all its cards of one suit: 10♠ 4♠ 6♠."),
        "ranked_20": ("Ranked 20", "A two-card 20 of one rank: J♥ J♠."),
        "any_20": ("Any 20", "Any 20: 9♦ A♣, or 5♠ 7♥ 8♣."),
        "queen_of_hearts": (
            "Queen of hearts",
            "Your hand holds the Q♥, whatever its total: Q♥ 8♣ 3♦.",
        ),
        "queen": ("Queen", "Your hand holds a queen, whatever its total: Q♣ 5♦."),
    },
    EXTRA_BET_BLACKJACK: {
        "hand_wins": (
            "Hand 1 wins",
            "Hand 1 wins, blackjack included. The 20% fee is not returned.",
        ),
        "hand_pushes": (
            "Hand 1 pushes",
            "Hand 1 ties the dealer: the extra bet is returned, the fee is not.",
        ),
    },
}


@dataclass(frozen=True)
class PayLine:
    condition: str
    label: str
    example: str
    pays: str
    example_return: str


@dataclass(frozen=True)
class SideBetEdge:
    """A side bet's house edge as the page words it."""

    percent: str  # "3.2389%", or "−31.1171%" when the bet favours the player
    favours_player: bool
    return_per_100: str  # what $100 staked comes back as, on average


def ratio_text(ratio: Sequence[int] | None) -> str:
    """How a pay ratio is said everywhere, as casinos print it: ``[25, 1]`` -> "25 to 1";
    the extra bet's push line (0:1) returns the bet; no ratio, no words."""
    if not ratio:
        return ""
    numerator, denominator = ratio
    return "bet returned" if numerator == 0 else f"{numerator} to {denominator}"


def _example_return(numerator: int, denominator: int) -> str:
    # R-PAY-1: profit rounded down to the cent; winnings = stake + profit.
    profit = EXAMPLE_STAKE_CENTS * numerator // denominator
    return display_cents(EXAMPLE_STAKE_CENTS + profit)


def pay_lines(bet: str) -> tuple[PayLine, ...]:
    """The bet's pay table in the engine's order, with the player-facing wording."""
    texts = CONDITION_TEXT[bet]
    return tuple(
        PayLine(condition, *texts[condition], ratio_text((a, b)), _example_return(a, b))
        for condition, (a, b) in PAY_TABLES[bet]
    )


def _minus(text: str) -> str:
    """A true minus sign reads better (and screen readers say "minus")."""
    return text.replace("-", "\u2212")


def side_bet_edge(bet: str, deck_count: int = DEFAULT_DECK_COUNT) -> SideBetEdge:
    # house_edge is lru_cached: only the first request per deck count pays the ~0.5 s.
    edge = house_edge(bet, deck_count)
    # $100 = 10,000 cents; Fraction.__round__ is exact (half to even).
    per_100_cents = round((1 - edge) * 10_000)
    return SideBetEdge(
        percent=_minus(edge_percent(edge)),
        favours_player=edge < Fraction(0),
        return_per_100=display_cents(per_100_cents),
    )


# --- options ----------------------------------------------------------------------------


@dataclass(frozen=True)
class OptionDoc:
    key: str
    label: str
    values: str
    default: str
    explanation: str
    needs: tuple[str, ...]  # menu labels of the options this one switches on


# Key -> (menu label, values in words, what it does). Grouped as the Options menu is.
OPTION_GROUPS: tuple[tuple[str, tuple[tuple[str, str, str, str], ...]], ...] = (
    (
        "Trivia",
        (
            (
                "trivia_mode",
                "Trivia mode",
                "On / Off",
                "Every Hit and Double Down first asks a trivia question, and you play with "
                "trivia credits. Off: Hit and Double act at once and credits are not used.",
            ),
            (
                "answer_seconds",
                "Time to answer",
                "Off, 10, 15 or 30 seconds",
                "How long you have to answer a trivia question once it is shown. When the "
                "time runs out the answer counts as wrong (the hand stands, a credit is "
                "lost). The clock keeps running if you reload or leave the page.",
            ),
            (
                "lifelines",
                "Lifelines: 50:50 and Swap",
                "On / Off",
                "Once per question, before you answer, 50:50 takes away two wrong answers "
                "of a four-answer question and Swap gives you another question of the same "
                "difficulty and category. Each costs one credit at once, and neither is "
                "offered while you have only one credit left. With a time to answer, the "
                "clock keeps running. The Daily Shoe has no lifelines.",
            ),
        ),
    ),
    (
        "Table",
        (
            (
                "blackjack_payout",
                "Blackjack pays",
                "3 to 2, 2 to 1, 6 to 5",
                "What a blackjack (natural) pays. On $10: 3 to 2 wins $15, 2 to 1 wins $20, "
                "6 to 5 wins $12.",
            ),
            (
                "deck_count",
                "Decks in the shoe",
                "1 to 8, infinite",
                "How many 52-card decks are shuffled together. Infinite: every card is drawn "
                "from a fresh, full deck, so the same card can come twice in a row; the shoe "
                "is never reshuffled and cards left shows ∞.",
            ),
            (
                "reshuffle",
                "New shoe",
                "under 25 % left, before every round, only when empty",
                "When the shoe is rebuilt and shuffled: before a round when fewer than a "
                "quarter of its cards are left; before every round; or only when the last "
                "card has been dealt (play goes on with the cards not on the table). Not used "
                "with an infinite shoe.",
            ),
            (
                "min_bet",
                "Minimum bet",
                "an amount",
                "The smallest base bet (and side bet). A bank below it ends the game.",
            ),
            ("max_bet", "Maximum bet", "an amount", "The largest base bet."),
            (
                "starting_bank",
                "Starting bank",
                "an amount",
                "The bank a new game starts with.",
            ),
            (
                "side_bets",
                "Side bets",
                "On / Off",
                "Shows or hides the side-bet circles. Insurance and even money have their own "
                "options.",
            ),
            (
                "turn_seconds",
                "Time for each decision",
                "Off, 10, 20, 30 or 60 seconds",
                "How long you have for each decision of your turn (Hit, Stand, Double Down, "
                "Split, Surrender). When the time runs out the hand stands and play moves "
                "on. The clock is kept by the server: leaving the page does not stop it, and "
                "a game resumed later finds its hands stood. Offers (insurance, surrender "
                "before the peek, side-bet offers) are not timed.",
            ),
            (
                "simple",
                "Simple game: Hit and Stand only",
                "On / Off",
                "The plain game of 21: you may only hit and stand — no double down, split, "
                "surrender, insurance, even money or side bets. Their options keep their "
                "settings but play no part (the Options menu marks them inactive).",
            ),
            (
                "inverted",
                "Inverted: every bet's result negated",
                "On / Off",
                "Each bet's result is turned round when it is settled: a bet that would win "
                "$10 loses $10, a bet that would lose its $10 stake wins $10, a push stays a "
                "push — blackjacks, side bets, insurance and surrender included. A loss "
                "beyond the stake comes out of your bank, which stops at zero. The best "
                "play is then to play to lose (the Hint says how), and the house edge the "
                "Options menu shows is this game's own, simulated that way with trivia off: "
                "a large advantage to you, not the normal game's edge turned round.",
            ),
            (
                "seats",
                "Boxes you play",
                "1, 2 or 3",
                "Play up to three boxes at once against one dealer hand, each with its own "
                "base bet and side bets. The boxes are dealt and played left to right (each "
                "box's splits are its own); insurance and even money are asked once for every "
                "box (Accept or Decline answers each box's own offer; Choose box by box asks "
                "them one at a time), surrender box by box, and every box is settled. "
                "Between rounds pick a box to bet on it, or put the same bet on every box in "
                "one click.",
            ),
        ),
    ),
    (
        "Dealer",
        (
            (
                "dealer_stands_on",
                "Dealer",
                "S17, H17, S16, H16",
                "When the dealer stops drawing (see the dealer rules).",
            ),
            (
                "dealer_peek",
                "Dealer peeks for blackjack",
                "On / Off",
                "On: with an ace or ten-card up, the dealer checks for blackjack at once. "
                "Off: a dealer blackjack is found only at the end, and then takes every bet "
                "on the table, doubles and splits included.",
            ),
            (
                "charlie",
                "Charlie",
                "5 cards, 7 cards, off",
                "A hand that reaches this many cards without busting is a Charlie: it stops "
                "and wins 1 to 1 (a push if the dealer makes one too). "
                "The old “Disable Five Card Charlie” box is 7. Off: no Charlie and no "
                "limit on cards.",
            ),
        ),
    ),
    (
        "Splitting",
        (
            (
                "split_any_ten",
                "Split any two ten-cards",
                "On / Off",
                "Lets you split any two ten-cards (10♠ K♦), not only two of the same rank.",
            ),
            (
                "max_splits",
                "Splits of a pair",
                "1, 2, 3",
                "How many times you may split a pair other than aces in one round: one split "
                "makes two hands, three make four (resplitting). The old “Resplitting "
                "allowed” box is 3.",
            ),
            (
                "max_ace_splits",
                "Splits of aces",
                "0, 1, 2, 3",
                "The same for a pair of aces: 0 — aces cannot be split, 1 — split once, "
                "3 — resplit up to four hands. The old “Splitting aces allowed” box is 1, "
                "“Resplitting aces allowed” 3.",
            ),
            (
                "double_after_split",
                "Double after split",
                "On / Off",
                "Lets you double down on a hand that came from a split.",
            ),
            (
                "double_after_split_aces",
                "Double after splitting aces",
                "On / Off",
                "Lets you double down on a hand that came from splitting aces.",
            ),
            (
                "one_card_after_split_aces",
                "One card only to each split ace",
                "On / Off",
                "Each hand made by splitting aces gets one card and stands (unless it can "
                "resplit aces and you do).",
            ),
            (
                "double_on",
                "Double down on",
                "any two cards, 9 to 11, 10 or 11",
                "Which totals (hard or soft) you may double on.",
            ),
        ),
    ),
    (
        "Surrender & core side bets",
        (
            (
                "surrender",
                "Surrender",
                "late, early, early against a ten-card only, off",
                "When you may give up a hand for half your bet back (see surrender).",
            ),
            (
                "insurance",
                "Insurance offered",
                "On / Off",
                "Whether insurance is offered when the dealer shows an ace.",
            ),
            (
                "even_money",
                "Even money offered",
                "On / Off",
                "Whether even money is offered when you have blackjack against an ace.",
            ),
        ),
    ),
)

_VALUE_WORDS: dict[str, dict[Any, str]] = {
    "deck_count": {"infinite": "Infinite"},
    "reshuffle": {
        "cut_card": "Under 25 % left",
        "every_round": "Before every round",
        "when_empty": "Only when empty",
    },
    "max_ace_splits": {0: "0 (aces cannot be split)"},
    "blackjack_payout": {"3:2": "3 to 2", "2:1": "2 to 1", "6:5": "6 to 5"},
    "charlie": {5: "5 cards (Five Card Charlie)", 7: "7 cards", "off": "Off"},
    "surrender": {
        "late": "Late",
        "early": "Early",
        "early_non_ace": "Early against a ten-card",
        "off": "Off",
    },
    "double_on": {"any": "Any two cards", "9-11": "9 to 11", "10-11": "10 or 11"},
}
_MONEY_OPTIONS = ("min_bet", "max_bet", "starting_bank")


def default_text(key: str, defaults: Options) -> str:
    """An option's default as words, read from the engine's Options()."""
    value = getattr(defaults, key)
    if isinstance(value, bool):
        return "On" if value else "Off"
    if key in _MONEY_OPTIONS:
        return display_cents(value)
    return _VALUE_WORDS.get(key, {}).get(value, str(value))


def option_groups() -> list[tuple[str, list[OptionDoc]]]:
    defaults = Options()
    return [
        (
            title,
            [
                OptionDoc(
                    key,
                    label,
                    values,
                    default_text(key, defaults),
                    text,
                    tuple(option_label(name) for name in NEEDS.get(key, ())),
                )
                for key, label, values, text in options
            ],
        )
        for title, options in OPTION_GROUPS
    ]


def option_label(key: str) -> str:
    for _, options in OPTION_GROUPS:
        for option_key, label, _values, _text in options:
            if option_key == key:
                return label
    raise KeyError(key)
