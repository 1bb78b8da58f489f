"""A round's state: its hands, boxes and the stages it goes through (RULES.md §4).

:class:`Hand`, :class:`Box` and :class:`Round` are what :class:`game.rules.engine.Engine`
plays and what :mod:`game.rules.storage` stores (their ``*_FIELDS``). The ``STEP_*``
constants order the stages that ``Game._advance`` runs.
"""

from __future__ import annotations

from typing import Any, Final

from game.rules import sidebets as sb
from game.rules.cards import RANK_VALUE, standard_deck
from game.rules.hands import soften
from game.rules.records import (
    BETTING,
    ROUND_OVER,
)
from game.rules.wallets import Wallet

# The stages of a round in their order (RULES.md §4): Round.step is one of these, and
# Game._advance runs them from there; each returns True when it waits for the player.
STEP_AFTER_DEAL: Final = 0  # side bets on the first cards
STEP_EXTRA_BET: Final = 1
STEP_INSURANCE: Final = 2
STEP_EARLY_SURRENDER: Final = 3
STEP_PEEK: Final = 4
STEP_PARLAY: Final = 5  # R-4.7a
STEP_NATURAL: Final = 6
STEP_PLAYER_TURN: Final = 7
STEP_DEALER_TURN: Final = 8
STEP_SETTLEMENT: Final = 9
STAGE_COUNT: Final = 10


# Blackjack value of every card code (ace = 1), Jackpot Ace included: one dict lookup
# per card instead of indexing the rank first (the hot path of every total). Keyed by
# the very strings the shoe deals (standard_deck's), so a lookup matches by identity.
CARD_VALUE: Final[dict[str, int]] = {code: RANK_VALUE[code[0]] for code in standard_deck()}
CARD_VALUE["AS*"] = 1


class Hand:
    """One player hand. ``status``: open, stood, bust, charlie, surrendered, natural.

    ``hard`` (every ace counted 1) and ``has_ace`` follow ``cards``: the engine adds
    cards only through :meth:`add` and re-counts after a split, so a total costs no
    loop over the cards. They are derived, never stored (see :data:`HAND_FIELDS`).
    """

    __slots__ = (
        "cards",
        "bet",
        "split",
        "split_aces",
        "acted",
        "status",
        "doubled",
        "stand_reason",
        "result",
        "how",
        "winnings",
        "box",
        "hard",
        "has_ace",
    )

    def __init__(self, cards: list[str], bet: int, *, split: bool = False, box: int = 0) -> None:
        self.cards = cards
        self.recount()
        self.bet = bet
        self.split = split  # formed by a split: 21 is never a natural
        self.split_aces = False  # formed by splitting aces
        self.acted = False  # "only as the first action on a hand"
        self.status = "open"
        self.doubled = False
        self.stand_reason: str | None = None
        self.result: str | None = None
        self.how: str | None = None
        self.winnings = 0
        self.box = box  # the index of its box, left to right (§10 Extensions, seats)

    @property
    def open(self) -> bool:
        return self.status == "open"

    def add(self, card: str) -> None:
        self.cards.append(card)
        self.hard += CARD_VALUE[card]
        if card[0] == "A":
            self.has_ace = True

    def recount(self) -> None:
        hard = 0
        has_ace = False
        for card in self.cards:
            hard += CARD_VALUE[card]
            if card[0] == "A":
                has_ace = True
        self.hard = hard
        self.has_ace = has_ace

    def is_natural(self) -> bool:
        # two cards, an ace and a ten-card (the only two-card hard 11 with an ace).
        return not self.split and self.hard == 11 and self.has_ace and len(self.cards) == 2

    def total(self) -> tuple[int, bool]:
        """R-3.2/R-3.3 (:func:`game.rules.hands.soften`)."""
        return soften(self.hard, self.has_ace)

    def best_total(self) -> int:
        return soften(self.hard, self.has_ace)[0]


# What a hand stores (its JSON form, game.rules.storage): every slot but the running
# totals, which are derived from the cards. Spelled out (not sliced from __slots__) so
# the module also compiles with mypyc; a test checks the two agree.
HAND_FIELDS = (
    "cards",
    "bet",
    "split",
    "split_aces",
    "acted",
    "status",
    "doubled",
    "stand_reason",
    "result",
    "how",
    "winnings",
    "box",
)


# What a box stores (its JSON form), which are also its slots. A one-box round stores
# them flat among its own fields, as rounds always have; a round of several boxes stores
# them as a "boxes" list.
BOX_FIELDS = (
    "bet",
    "side_stakes",
    "extra_bet_active",
    "extra_bet",
    "insurance",
    "pending_side_bets",
)


class Box:
    """One box of a round (§10 Extensions, ``seats``): its base bet, its side bets and the
    offers answered for it. Its hands are the round's hands whose ``box`` is its index."""

    __slots__ = BOX_FIELDS

    def __init__(
        self,
        bet: int,
        side_stakes: dict[str, int] | None = None,
        extra_bet_active: bool = False,
    ) -> None:
        self.bet = bet  # the base bet of the box's hand 1 (a House Money parlay raises it)
        self.side_stakes: dict[str, int] = {} if side_stakes is None else side_stakes
        self.extra_bet_active = extra_bet_active
        self.extra_bet: dict[str, int] | None = None  # {"stake", "fee"} once placed
        self.insurance: dict[str, Any] | None = None  # insurance or even money taken
        # Side bets decided but not yet settled: name -> {condition, ratio, cards, ...}.
        self.pending_side_bets: dict[str, dict[str, Any]] = {}


# What a round stores (its JSON form), which are also its slots. "boxes" and
# "offer_box" are stored only for a round of several boxes or a shared round, "wallets",
# "answers_ahead" and "open_stage" only for a shared round (game.rules.storage).
ROUND_FIELDS = (
    "number",
    "phase",
    "step",
    "boxes",
    "offer_box",
    "hands",
    "current",
    "dealer",
    "hole_revealed",
    "peeked",
    "credits_before",
    "credits_change",
    "out_of_credits",
    "bank_before",
    "bank_after",
    "staked",
    "paid",
    "side_bets",
    "dice",
    "dealt",
    "actions",
    "options",
    "dealer_result",
    "ended",
    "deadline",
    "wallets",
    "answers_ahead",
    "open_stage",
)


class Round:
    """Everything about one round; plain attributes so it serialises to JSON as is.

    With ``seats`` (§10 Extensions) the round has one :class:`Box` per seat, left to
    right. ``hands`` lists every box's hands, box by box, so the player's turn plays
    them left to right across the boxes (R-4.10); each hand knows its box. ``bet``,
    ``side_stakes``, ``insurance``, … are box 1's (the one-box game's names).
    """

    __slots__ = ROUND_FIELDS

    def __init__(
        self,
        number: int,
        bet: int,
        bank_before: int,
        credits_before: int,
        *,
        side_stakes: dict[str, int] | None = None,
        options: dict[str, Any] | None = None,
        boxes: list[Box] | None = None,
    ) -> None:
        self.number = number
        self.phase = BETTING
        self.step = 0  # the STEP_* stage where the round goes next (Game._advance)
        self.boxes: list[Box] = [Box(bet, side_stakes)] if boxes is None else boxes
        # The box an offer stage (R-4.3 to R-4.7a) has reached: each stage goes box by
        # box, left to right, before the next stage begins (REPLAY.md, seats).
        self.offer_box = 0
        self.hands: list[Hand] = []
        self.current = 0
        self.dealer: list[str] = []  # hole card first, then upcard, then draws
        self.hole_revealed = False
        self.peeked = False  # the dealer looked and found no natural
        self.credits_before = credits_before
        self.credits_change = 0
        self.out_of_credits = False
        self.bank_before = bank_before
        self.bank_after: int | None = None
        self.staked = 0  # every cent taken from the bank this round (bets and fees)
        self.paid = 0  # every cent paid into the bank this round
        # Settled side bets, every box's (a record names its box when there are several).
        self.side_bets: list[dict[str, Any]] = []
        self.dice: list[int] = []  # Infinity dice rolled this round
        self.dealt: list[str] = []  # every card in deal order (replay export)
        self.actions: list[str] = []  # every action in replay spelling
        self.options: dict[str, Any] = {} if options is None else options
        self.dealer_result: str | None = None
        self.ended = False  # ended by End Game
        # when the pending decision of the player's turn runs out (epoch ms), or
        # None (no timer, or nothing pending). Stored with the round, so it survives
        # reloads and resumes. A shared round's open offer stage has one for the stage.
        self.deadline: int | None = None
        # A shared round (TABLES.md): one wallet per box; None for the player's own game.
        self.wallets: list[Wallet] | None = None
        # A shared round's answers given ahead of the stage reaching their box (T-7):
        # box index -> answer ("insurance:accept", "extra_bet:500", "roll", ...).
        self.answers_ahead: dict[int, str] = {}
        # The STEP_* offer stage open to every box concerned (shared rounds), or None.
        self.open_stage: int | None = None

    # Box 1's bets and offers under the one-box game's names.
    @property
    def bet(self) -> int:
        return self.boxes[0].bet

    @property
    def side_stakes(self) -> dict[str, int]:
        return self.boxes[0].side_stakes

    @property
    def extra_bet_active(self) -> bool:
        return self.boxes[0].extra_bet_active

    @property
    def extra_bet(self) -> dict[str, int] | None:
        return self.boxes[0].extra_bet

    @property
    def insurance(self) -> dict[str, Any] | None:
        return self.boxes[0].insurance

    @property
    def pending_side_bets(self) -> dict[str, dict[str, Any]]:
        return self.boxes[0].pending_side_bets

    @property
    def upcard(self) -> str:
        return self.dealer[1]

    @property
    def over(self) -> bool:
        return self.phase == ROUND_OVER

    @property
    def shared(self) -> bool:
        """A shared round (TABLES.md): each box has its own player and wallet."""
        return self.wallets is not None

    @property
    def several(self) -> bool:
        """Events, records and views name the box (several boxes, or a shared round)."""
        return len(self.boxes) > 1 or self.wallets is not None

    def box_in_play(self) -> int:
        """The index of the box the player is deciding for: the box an offer is made to,
        the box of the hand in play, or after the turn the last hand's box."""
        if self.step >= STEP_PLAYER_TURN and self.hands:
            return self.hands[self.current].box
        return self.offer_box

    def first_hand(self, box: int) -> Hand:
        """The box's hand 1 (R-SB-31, R-SB-20, R-SB-40: "hand 1" is the box's first)."""
        for hand in self.hands:
            if hand.box == box:
                return hand
        raise ValueError(f"box {box} has no hand")  # pragma: no cover - every box has one

    def initial_cards(self, box: int) -> list[str]:
        """The box's first two cards as dealt (R-4.2 per box: box 1, box 2, …, hole, then
        box 1, box 2, …, upcard), whatever splits made of them since (R-SB-1)."""
        count = len(self.boxes)
        dealt = self.dealt
        if len(dealt) >= 2 * count + 2:
            return [dealt[box], dealt[count + 1 + box]]
        return self.first_hand(box).cards[:2]  # a round stored before dealt existed

    def table_cards(self) -> list[str]:
        cards = list(self.dealer)
        for hand in self.hands:
            cards.extend(hand.cards)
        return cards

    def money_in_play(self) -> int:
        """Stakes taken from the bank and not settled yet (fees are never in play)."""
        cents = sum(hand.bet for hand in self.hands if hand.result is None)
        settled = settled_side_bets(self)
        for index, box in enumerate(self.boxes):
            insurance = box.insurance
            if insurance is not None and insurance["result"] is None:
                cents += insurance["stake"]
            for name, stake in box.side_stakes.items():
                if (index, name) not in settled:
                    cents += stake
            if box.extra_bet is not None and (index, sb.EXTRA_BET_BLACKJACK) not in settled:
                cents += box.extra_bet["stake"]
        return cents


def settled_side_bets(round_: Round) -> set[tuple[int, str]]:
    """(box index, name) of every side bet already settled."""
    return {(record.get("box", 1) - 1, record["name"]) for record in round_.side_bets}
