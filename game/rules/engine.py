"""The round state machine of RULES.md §4–8 (side bets of §9 wired in at their moments).

One :class:`Game` holds the bank, credits, options, shoe and the current (or last)
:class:`Round`. Every player action is a method that

1. checks legality with the same ``_why_not_*`` function the legal-action query
   uses, raising :class:`IllegalAction` *before* anything changes;
2. mutates the game in place (no copies on the hot path);
3. advances the round through the phases that need no input;
4. returns the list of events it produced (``[]`` when ``record_events`` is off).

Hidden information: the hole card and the shoe order live in the state (the server
keeps them, :mod:`game.rules.storage`) but never appear in the public view
(:mod:`game.rules.public`) or in an event before the hole card is turned over.

Seats (§10 Extensions): with ``seats`` N > 1 the round has N :class:`Box` es, dealt and
played left to right against one dealer hand (:meth:`Game.start_round` with ``boxes``).
Each offer stage goes box by box; hands are listed box by box, so the player's turn
simply runs on across them. Events and records of such a round name their ``box``
(1, 2, 3); the one-box game's events, state and view keep their shape.

Shared rounds (TABLES.md, :meth:`Game.start_shared_round`): 1–7 boxes, each played by its
own player with its own :class:`~game.rules.wallets.Wallet` (bank and trivia credits);
every cent and credit of a box moves in its wallet, never in ``Game.bank``/``Game.credits``.
The offer stages are open to every box concerned at once (T-7): a box may answer ahead of
its turn (:meth:`Game.answer_for_box`), the answer is kept in ``Round.answers_ahead`` and
applied when the stage reaches that box, so the outcome never depends on the order of
answers. Each offer stage that waits gets one deadline; each decision of a turn its own
(T-8).

Beside this module, not inside it: :mod:`game.rules.storage` (the state as JSON, the copy
the server stores), :mod:`game.rules.public` (what the page may see of it),
:mod:`game.rules.bets` (the checks of bets before the deal), :mod:`game.rules.wallets`
(a shared round's wallets) and :mod:`game.rules.table_rules` (the options the hot path
reads).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from game.rules import sidebets as sb
from game.rules.bets import as_box_bet, check_bets_being_built, check_covered, checked_stakes
from game.rules.cards import RANK_VALUE, TEN_CARD_RANKS, is_ace, is_ten_card, standard_deck
from game.rules.clock import Clock, system_clock
from game.rules.fair import CommittedShoes
from game.rules.hands import dealer_hits, hand_total, is_two_card_natural, soften
from game.rules.money import (
    MAX_AMOUNT_CENTS,
    check_amount,
    display_cents,
    format_cents,
    half_down,
    payout_profit,
)
from game.rules.options import Options
from game.rules.records import (
    ALL_ACTIONS,
    ALLOWED,
    BETTING,
    DEALER_TURN,
    DEALING,
    EARLY_SURRENDER,
    EVEN_MONEY,
    EXTRA_BET,
    HOUSE_MONEY_PARLAY,
    INSURANCE,
    LOSE,
    NATURAL,
    PEEK,
    PLAY_ACTIONS,
    PLAYER_TURN,
    PUSH,
    ROUND_OVER,
    SETTLEMENT,
    SURRENDER,
    WIN,
    BoxBet,
    Event,
    GameOver,
    IllegalAction,
    InsuranceOffer,
    SharedBox,
    TriviaOutcome,
)
from game.rules.shoe import Rng, SeededShoes, Shoe, ShoeSource, default_rng
from game.rules.table_rules import TableRules
from game.rules.wallets import MAX_SHARED_BOXES, Wallet, checked_wallet, public_wallet

MAX_HANDS: Final = 4  # R-5.5
# T-7: an offer stage of a shared round is timed with turn_seconds, or 20 s when the
# table's timers are off.
SHARED_OFFER_MS: Final = 20_000
DICE: Final = 3

# The play actions by their index in PLAY_ACTIONS (play_mask sets bit 1 << index).
PLAY_HIT: Final = 0
PLAY_STAND: Final = 1
PLAY_DOUBLE: Final = 2
PLAY_SPLIT: Final = 3
PLAY_SURRENDER: Final = 4

# The stages of a round in their order (RULES.md §4): Round.step is one of these, and
# Game._advance runs them from there; each returns True when it waits for the player.
STEP_AFTER_DEAL: Final = 0  # side bets on the first cards (R-4.3)
STEP_EXTRA_BET: Final = 1  # R-4.4
STEP_INSURANCE: Final = 2  # R-4.5
STEP_EARLY_SURRENDER: Final = 3  # R-4.6
STEP_PEEK: Final = 4  # R-4.7
STEP_PARLAY: Final = 5  # R-4.7a
STEP_NATURAL: Final = 6  # R-4.8
STEP_PLAYER_TURN: Final = 7  # R-4.9, R-4.10
STEP_DEALER_TURN: Final = 8  # R-4.11, R-6
STEP_SETTLEMENT: Final = 9  # R-7
_STAGE_COUNT: Final = 10


# Blackjack value of every card code (ace = 1), Jackpot Ace included: one dict lookup
# per card instead of indexing the rank first (the hot path of every total). Keyed by
# the very strings the shoe deals (standard_deck's), so a lookup matches by identity.
CARD_VALUE: Final[dict[str, int]] = {code: RANK_VALUE[code[0]] for code in standard_deck()}
CARD_VALUE["AS*"] = 1
# Upcard ranks with which the dealer can hold a natural (an ace or a ten-card).
_NATURAL_UPCARD_RANKS: Final = TEN_CARD_RANKS | {"A"}


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
        self.split = split  # formed by a split: 21 is never a natural (R-3.4)
        self.split_aces = False  # formed by splitting aces (R-5.6)
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
        # R-3.4: two cards, an ace and a ten-card (the only two-card hard 11 with an ace).
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
        self.ended = False  # ended by End Game (R-1.6)
        # R-4.13: when the pending decision of the player's turn runs out (epoch ms), or
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
        settled = _settled_side_bets(self)
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


def _settled_side_bets(round_: Round) -> set[tuple[int, str]]:
    """(box index, name) of every side bet already settled."""
    return {(record.get("box", 1) - 1, record["name"]) for record in round_.side_bets}


class Game:
    """A game (R-1.1): bank, credits, options, shoe, round number and the current round."""

    __slots__ = (
        "options",
        "bank",
        "credits",
        "round_number",
        "game_over",
        "game_over_reason",
        "shoe",
        "round",
        "source",
        "record_events",
        "dice_queue",
        "_events",
        "_options_json",
        "_table",
        "_active_stages",
        "clock",
        "_decision_start",
    )

    STARTING_CREDITS = 10  # R-1.3

    def __init__(
        self,
        options: Options | None = None,
        *,
        rng: Rng | None = None,
        source: ShoeSource | None = None,
        bank: int | None = None,
        credits: int | None = None,
        shoe: Shoe | None = None,
        record_events: bool = True,
        clock: Clock | None = None,
    ) -> None:
        self._use_options(options or Options())
        # Every shoe and die comes from one source: a committed stream in play (FAIRNESS.md),
        # ``rng``'s draws for the simulator, the engine's tests and replays.
        self.source: ShoeSource = (
            source if source is not None else SeededShoes(rng if rng is not None else default_rng())
        )
        self.bank = check_amount(self.options.starting_bank if bank is None else bank)
        self.credits = self.STARTING_CREDITS if credits is None else credits
        self.round_number = 0
        self.game_over = False
        self.game_over_reason: str | None = None
        self.shoe = shoe if shoe is not None else self.source.new_shoe(self._table.deck_count, None)
        self.round: Round | None = None
        self.record_events = record_events
        # Dice faces to use before asking the rng (replay files give them, REPLAY.md).
        self.dice_queue: list[int] | None = None
        self._events: list[Event] | None = None
        self.clock: Clock = clock if clock is not None else system_clock
        # When the next decision's clock starts, if not now (a timeout's cascade, R-4.13).
        self._decision_start: int | None = None
        self._check_game_over()

    def _use_options(self, options: Options) -> None:
        """Set the options and what the hot path derives from them once per change."""
        self.options = options
        # Every round's record of its options (shared, never mutated: storage.round_to_json
        # and round_replay copy it). A new dict per change, so older rounds keep theirs.
        self._options_json = options.to_dict()
        self._table = TableRules(options)
        self._active_stages = _stage_plan(options)

    # ------------------------------------------------------------------ queries

    @property
    def round_in_progress(self) -> bool:
        return self.round is not None and not self.round.over

    def legal_actions(self) -> dict[str, str]:
        """Every player action with ``"allowed"`` or a reason a person can read."""
        return {name: self._why_not(name) or ALLOWED for name in ALL_ACTIONS}

    def allowed_actions(self) -> list[str]:
        return [name for name in ALL_ACTIONS if self._why_not(name) is None]

    def play_actions(self) -> frozenset[str]:
        """The play actions (hit, stand, double, split, surrender) allowed now.

        The same checks as :meth:`legal_actions`, for the five actions of the player's
        turn only. The answer is one of a few shared frozensets (their hashes are cached).
        """
        return _PLAY_SETS[self.play_mask()]

    def play_mask(self) -> int:
        """:meth:`play_actions` as bits: ``1 << i`` when ``PLAY_ACTIONS[i]`` is allowed.

        The cheapest legality query (no set, no strings): the simulator's hot loop.
        """
        round_ = self.round
        if self.game_over or round_ is None or round_.phase != PLAYER_TURN:
            return 0
        hand = round_.hands[round_.current]
        mask = 0
        # Each check called directly (not from a table): see _advance.
        if self._why_not_hit(round_, hand) is None:
            mask |= 1 << PLAY_HIT
        mask |= 1 << PLAY_STAND  # a hand in play may always stand
        if self._why_not_double(round_, hand) is None:
            mask |= 1 << PLAY_DOUBLE
        if self._why_not_split(round_, hand) is None:
            mask |= 1 << PLAY_SPLIT
        if self._why_not_surrender(round_, hand) is None:
            mask |= 1 << PLAY_SURRENDER
        return mask

    def insurance_cost(self, box: int | None = None) -> int:
        """R-4.5: half the base bet of the box in play (or of box index ``box``), rounded
        down to the cent."""
        return half_down(self._box_bet_in_play(box))

    def extra_bet_limits(self, box: int | None = None) -> tuple[int, int]:
        """(smallest, largest) extra bet allowed now (R-SB-20: up to 5× the base bet of
        the box in play, or of box index ``box``, and the bet plus its fee must be covered
        by the bank: that box's wallet in a shared round)."""
        bank = self._bank_of(self._box_index(box))
        by_bet = sb.extra_bet_max(self._box_bet_in_play(box))
        by_bank = bank * 5 // 6  # amount + 20% fee ≤ bank, before rounding the fee down
        while sb.extra_bet_cost(by_bank + 1) <= bank:
            by_bank += 1
        largest = min(by_bet, by_bank)
        return self._table.min_bet, largest

    def _box_index(self, box: int | None) -> int:
        """``box``, or the box in play when None."""
        if box is not None:
            return box
        round_ = self.round
        return round_.box_in_play() if round_ is not None else 0

    def _box_bet_in_play(self, box: int | None = None) -> int:
        round_ = self.round
        return round_.boxes[self._box_index(box)].bet if round_ is not None else 0

    def _bank_of(self, box: int) -> int:
        """The bank that pays for box index ``box``: its wallet's in a shared round, else
        the game's."""
        round_ = self.round
        wallets = None if round_ is None else round_.wallets
        return self.bank if wallets is None else wallets[box].bank

    # ------------------------------------------------------------------ shared rounds

    def box_wallet(self, index: int) -> tuple[int, int]:
        """(bank, credits) of box ``index`` (0-based) of the current shared round, as they
        stand now: what the caller writes back to that box's seat after any action."""
        round_ = self.round
        wallets = None if round_ is None else round_.wallets
        if wallets is None:
            raise IllegalAction("No shared round: the game has one bank")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(wallets):
            raise IllegalAction(f"No box {index!r} in this round")
        wallet = wallets[index]
        return wallet.bank, wallet.credits

    def box_in_turn(self) -> int | None:
        """The box (0-based) whose hand is being played in the player's turn, else None."""
        round_ = self.round
        if self.game_over or round_ is None or round_.phase != PLAYER_TURN:
            return None
        return round_.hands[round_.current].box

    def offer_for_box(self, index: int) -> str | None:
        """The offer the current stage awaits from box ``index`` (0-based): "insurance",
        "even_money", "early_surrender", "extra_bet", "parlay" or "roll"; None when the
        box is not concerned, has answered already, or no offer is open.

        In a shared round every box the open stage concerns may answer (T-7); otherwise
        only the box the stage has reached. Decided by the stages' own predicates
        (:meth:`_box_offer`)."""
        round_ = self.round
        if self.game_over or round_ is None or round_.over or round_.step >= STEP_PLAYER_TURN:
            return None
        if isinstance(index, bool) or not isinstance(index, int):
            return None
        reached = round_.offer_box
        if index < reached or index >= len(round_.boxes):
            return None
        if index != reached and (round_.wallets is None or index in round_.answers_ahead):
            return None
        return self._box_offer(round_, round_.step, index)

    def insurance_offers(self) -> list[InsuranceOffer]:
        """The offers of the insurance stage (R-4.5) while it waits for an answer: every
        box it offers insurance or even money to, left to right, each with its cost and
        whether it has been answered; [] at any other moment.

        A read only: the stage still asks box by box and records one answer per box."""
        round_ = self.round
        if self.game_over or round_ is None or round_.phase not in (INSURANCE, EVEN_MONEY):
            return []
        offers = []
        for index in range(len(round_.boxes)):
            offer = self._insurance_offer(round_, index)
            if offer is not None:
                answered = index < round_.offer_box or index in round_.answers_ahead
                offers.append(InsuranceOffer(index, offer, self.insurance_cost(index), answered))
        return offers

    def answer_for_box(self, index: int, answer: str) -> list[Event]:
        """Answer the open offer for box ``index`` (0-based), in any box order in a shared
        round (T-7). ``answer``: "insurance:accept", "insurance:decline",
        "even_money:accept", "even_money:decline", "early_surrender:accept",
        "early_surrender:decline", "extra_bet:decline", "extra_bet:<cents>",
        "parlay:<choice>" or "roll".

        Refused (IllegalAction, nothing changes) unless that offer awaits that box and the
        answer is legal for it (its own wallet). The box the stage has reached is answered
        at once; a box further on has its answer kept and applied when the stage reaches
        it, so the result never depends on the order the players answered in."""
        self._check_answer(index, answer)
        round_ = self.round
        assert round_ is not None  # _check_answer found a round
        self._begin()
        if index == round_.offer_box:
            self._apply_answer(answer)
            self._advance()
        else:
            round_.answers_ahead[index] = answer
            self._emit("offer_answer_recorded", offer=answer.partition(":")[0], box=index + 1)
        return self._finish()

    def _check_answer(self, index: int, answer: str) -> None:
        """Raise IllegalAction unless ``answer`` is a legal answer of box ``index`` now."""
        if self.game_over:
            raise GameOver("The game is over; start a new game")
        round_ = self.round
        if round_ is None or round_.over:
            raise IllegalAction("No round in progress: place a bet and deal")
        if isinstance(index, bool) or not isinstance(index, int):
            raise IllegalAction(f"No box {index!r} in this round")
        if not 0 <= index < len(round_.boxes):
            raise IllegalAction(f"No box {index + 1} in this round")
        if not isinstance(answer, str):
            raise IllegalAction(f"Not an answer: {answer!r}")
        label = f"Box {index + 1}: "
        offer = self.offer_for_box(index)
        kind, colon, value = answer.partition(":")
        if offer is None:
            raise IllegalAction(f"{label}no offer awaits an answer from this box now")
        if kind != offer:
            raise IllegalAction(f"{label}{_NOT_OFFERED.get(kind, f'Unknown offer: {kind}')}")
        if kind == "roll":
            if colon:
                raise IllegalAction(f"{label}roll the dice with 'roll'")
            return
        if kind == "parlay":
            if value not in sb.PARLAY_CHOICES:
                raise IllegalAction(f"{label}Unknown parlay choice: {value}")
            return
        if kind == "extra_bet":
            if value == "decline":
                return
            if not (value.isascii() and value.isdigit()):
                raise IllegalAction(f"{label}An extra bet must be a whole number of cents")
            try:
                self._check_extra_bet_amount(int(value), index)
            except IllegalAction as error:
                raise IllegalAction(f"{label}{error}") from None
            return
        if value not in ("accept", "decline"):
            raise IllegalAction(f"{label}answer {kind} with accept or decline")
        if value == "accept" and kind != "early_surrender":
            reason = self._why_not_insure(kind, index)
            if reason is not None:
                raise IllegalAction(f"{label}{reason}")

    def _box_offer(self, round_: Round, step: int, index: int) -> str | None:
        """The offer stage ``step`` makes to box ``index``: the predicates the stages use."""
        if step == STEP_AFTER_DEAL:
            return "roll" if self._box_needs_dice(round_, index) else None
        if step == STEP_EXTRA_BET:
            return EXTRA_BET if _extra_bet_offered(round_, index) else None
        if step == STEP_INSURANCE:
            return self._insurance_offer(round_, index)
        if step == STEP_EARLY_SURRENDER:
            return EARLY_SURRENDER if _early_surrender_offered(round_, index) else None
        if step == STEP_PARLAY:
            return "parlay" if self._parlay_offered(round_, index) else None
        return None  # pragma: no cover - the other stages never wait for an answer

    def _box_needs_dice(self, round_: Round, index: int) -> bool:
        """R-SB-12: box ``index``'s Perfect 11s waits (or will wait) for the dice."""
        box = round_.boxes[index]
        pending = box.pending_side_bets.get(sb.PERFECT_11S)
        if pending is not None:  # the box the after-deal stage waits at
            return bool(pending.get("needs_dice", False))
        if not box.side_stakes.get(sb.PERFECT_11S) or index < round_.offer_box:
            return False  # no stake, or settled already
        return _needs_dice(_first_cards_win(round_, index, sb.PERFECT_11S))

    def _insurance_offer(self, round_: Round, index: int) -> str | None:
        """R-4.5 for one box, by its own hand: even money to a natural, else insurance."""
        table = self._table
        if round_.hands[index].is_natural():
            return EVEN_MONEY if table.even_money else None
        return INSURANCE if table.insurance else None

    def _parlay_offered(self, round_: Round, index: int) -> bool:
        """R-4.7a for one box: House Money won and the dealer known to have no natural
        (inverted, §10 Extensions: the win is settled as a loss, nothing to parlay)."""
        return (
            sb.HOUSE_MONEY in round_.boxes[index].pending_side_bets
            and self._dealer_natural_ruled_out()
            and not self._table.inverted
        )

    # ------------------------------------------------------------------ betting

    def start_round(
        self,
        bet: int | None = None,
        side_bets: Mapping[str, int] | None = None,
        *,
        extra_bet: bool = False,
        boxes: Sequence[BoxBet | tuple[Any, ...]] | None = None,
    ) -> list[Event]:
        """R-4.1/R-4.2: lock in the bets, take them from the bank and deal.

        One box: ``start_round(bet, side_bets, extra_bet=...)``. Several (§10 Extensions,
        ``seats``): ``start_round(boxes=[BoxBet(bet, side_bets, extra_bet), ...])`` with one
        entry per seat, left to right (a ``(bet, side_bets[, extra_bet])`` tuple will do).
        Every box is checked as a one-box bet is, and all of them together must fit the
        bank (R-1.4). Nothing changes when a bet is refused.
        """
        if boxes is None:
            if bet is None:
                raise IllegalAction("Place a bet to deal")
            if self.options.seats != 1:
                raise IllegalAction(
                    f"This table plays {self.options.seats} boxes: place a bet on each box"
                )
            stakes = self._validate_bets(bet, side_bets, extra_bet, self.bank)
            return self._deal([Box(bet, stakes, extra_bet)])
        if bet is not None or side_bets is not None or extra_bet:
            raise IllegalAction("Give the bets either for one box or as boxes, not both")
        return self._deal(self._validate_boxes(boxes))

    def start_shared_round(self, boxes: Sequence[SharedBox]) -> list[Event]:
        """A shared round (TABLES.md T-6): 1–7 boxes, each played by its own player with
        that player's wallet, against one dealer hand, whatever ``options.seats`` says.

        Each box's bets are checked as a one-box bet is, against its own bank ("Box N: "
        before the reason), taken from its wallet, and the boxes are dealt as several
        boxes are (R-4.2 per box). ``Game.bank`` and ``Game.credits`` are never touched:
        read each box's wallet with :meth:`box_wallet`. Nothing changes when a bet is
        refused.
        """
        if self.game_over and self.game_over_reason == "ended":
            raise GameOver("The game is over; start a new game")
        if self.round_in_progress:
            raise IllegalAction("Finish the current round first")
        if isinstance(boxes, str | bytes) or not 1 <= len(boxes) <= MAX_SHARED_BOXES:
            raise IllegalAction(f"A shared round has 1 to {MAX_SHARED_BOXES} boxes")
        checked: list[Box] = []
        wallets: list[Wallet] = []
        for number, entry in enumerate(boxes, start=1):
            if not isinstance(entry, SharedBox):
                raise IllegalAction(f"Box {number}: give its bets and wallet as a SharedBox")
            try:
                stakes = self.check_shared_box(entry)
            except IllegalAction as error:
                raise IllegalAction(f"Box {number}: {error}") from None
            checked.append(Box(entry.bet, stakes, entry.extra_bet))
            wallets.append(Wallet(entry.bank, entry.credits))
        # A shared table's game never ends by its own bank or credits (R-1.5 is each
        # player's, by seat); its clock starts now.
        self.game_over = False
        self.game_over_reason = None
        self._decision_start = None
        return self._deal(checked, wallets)

    def _deal(self, boxes: list[Box], wallets: list[Wallet] | None = None) -> list[Event]:
        """Take the validated bets of ``boxes`` and deal (R-4.2 per box)."""
        events = self._events = [] if self.record_events else None  # _begin()
        if self.shoe.due_for_rebuild(self._table.reshuffle):
            # R-2.2, or the reshuffle option (§10 Extensions).
            self.shoe = self.source.new_shoe(self._table.deck_count, self.shoe)
            self._emit("shoe_shuffled", reason="reshuffle", message="Shuffling a new shoe")
        self.round_number += 1
        first = boxes[0]
        round_ = Round(
            self.round_number,
            first.bet,
            self.bank,
            self.credits,
            options=self._options_json,
            boxes=boxes,
        )
        self.round = round_
        round_.wallets = wallets
        for index, box in enumerate(boxes):
            stakes = box.side_stakes
            self._take(box.bet + sum(stakes.values()) if stakes else box.bet, index)
            if events is not None:
                self._emit(
                    "bets_placed",
                    bet=box.bet,
                    side_bets=dict(stakes),
                    extra_bet_active=box.extra_bet_active,
                    **self._box_key(index),
                )
        round_.phase = DEALING
        if len(boxes) > 1 or wallets is not None:
            self._deal_boxes(round_, boxes)
        else:
            hand = Hand([], first.bet)
            round_.hands.append(hand)
            # R-4.2: player, dealer (hole, face down), player, dealer (upcard).
            if events is None:
                # The same four draws without the per-card events (the simulator's path).
                dealer = round_.dealer
                hand.add(self._draw())
                dealer.append(self._draw_for_dealer())
                hand.add(self._draw())
                dealer.append(self._draw_for_dealer())
            else:
                self._deal_to_hand(hand, 0)
                self._deal_to_dealer(face_down=True)
                self._deal_to_hand(hand, 0)
                self._deal_to_dealer(face_down=False)
        self._advance()
        return self._finish()

    def _deal_boxes(self, round_: Round, boxes: list[Box]) -> None:
        # R-4.2 for each box in turn (REPLAY.md, seats): box 1, box 2, …, the hole card,
        # then box 1, box 2, …, the upcard. Box i's hand is hand i until the first split.
        hands = [Hand([], box.bet, box=index) for index, box in enumerate(boxes)]
        round_.hands.extend(hands)
        for index, hand in enumerate(hands):
            self._deal_to_hand(hand, index)
        self._deal_to_dealer(face_down=True)
        for index, hand in enumerate(hands):
            self._deal_to_hand(hand, index)
        self._deal_to_dealer(face_down=False)

    def _validate_boxes(self, boxes: Sequence[BoxBet | tuple[Any, ...]]) -> list[Box]:
        """Each box's bets as a one-box bet is checked, then all of them against the bank
        (R-1.4: the bets together ≤ the bank). Returns the boxes to deal."""
        seats = self.options.seats
        if isinstance(boxes, str | bytes) or len(boxes) != seats:
            plural = "box" if seats == 1 else "boxes"
            raise IllegalAction(f"This table plays {seats} {plural}: place a bet on each box")
        checked: list[Box] = []
        total = 0
        for number, entry in enumerate(boxes, start=1):
            box_bet = as_box_bet(entry, number)
            try:
                stakes = self._validate_bets(
                    box_bet.bet, box_bet.side_bets, box_bet.extra_bet, self.bank
                )
            except GameOver:
                raise
            except IllegalAction as error:
                raise IllegalAction(f"Box {number}: {error}") from None
            checked.append(Box(box_bet.bet, stakes, box_bet.extra_bet))
            total += box_bet.bet + sum(stakes.values())
        check_covered(total, self.bank)
        return checked

    def _validate_bets(
        self,
        bet: int,
        side_bets: Mapping[str, int] | None,
        extra_bet: bool,
        bank: int,
        shared: bool = False,
    ) -> dict[str, int]:
        """One box's bets checked against ``bank`` (the game's, or a shared box's own)."""
        if self.game_over and not shared:
            raise GameOver("The game is over; start a new game")
        if self.round_in_progress:
            raise IllegalAction("Finish the current round first")
        return checked_stakes(self._table, bet, side_bets, extra_bet, bank)

    def check_shared_box(self, box: SharedBox) -> dict[str, int]:
        """Every check ``start_shared_round`` makes of one box, and the only place it
        makes them: its wallet, R-1.5 (no trivia credits, no box in trivia mode), then its
        bets as a one-box bet is checked against its own bank. A shared table asks it at
        Ready and again before the deal, so no seat's bet can refuse the others' deal.
        Returns the stakes as they will ride. Raises IllegalAction (without "Box N: ")."""
        bank, credits = checked_wallet(box)
        if self._table.trivia_mode and credits <= 0:
            raise IllegalAction("No trivia credits left")
        side_bets = box.side_bets
        if not isinstance(side_bets, Mapping):
            raise IllegalAction("Side bets must be stakes by name")
        return self._validate_bets(box.bet, side_bets, box.extra_bet, bank, True)

    def check_bets_being_built(
        self, bet: int, side_stakes: Mapping[str, int], *, bank: int | None = None
    ) -> None:
        """:func:`game.rules.bets.check_bets_being_built` with this game's options and,
        unless ``bank`` is given, its bank. Raises IllegalAction."""
        check_bets_being_built(
            self.options, bet, side_stakes, bank=self.bank if bank is None else bank
        )

    # ------------------------------------------------------------------ player actions

    def hit(self, trivia: TriviaOutcome | None = None) -> list[Event]:
        """R-5.1 (with R-8.2 in trivia mode)."""
        self._require("hit")
        self._check_trivia(trivia, "Hit")
        self._begin()
        round_, hand = self._record_action("hit", trivia)
        index = round_.current
        if trivia is None or self._answer_trivia(trivia, hand, index):
            hand.acted = True
            self._deal_to_hand(hand, index)
            self._auto_end(hand, index)  # bust, Charlie or 21 ends it (R-4.10, R-5.8)
        self._advance()
        return self._finish()

    def stand(self) -> list[Event]:
        """R-5.2."""
        self._require("stand")
        self._begin()
        round_, hand = self._record_action("stand")
        self._stand(hand, round_.current, "stand")
        self._advance()
        return self._finish()

    def timeout(self) -> list[Event]:
        """R-4.13: the pending decision's time ran out, so the hand stands (replay ``timeout``).

        In a shared round's open offer stage (T-7): every box still awaited gets the
        default answer — decline, collect, an automatic roll — each with an
        ``offer_timed_out`` event, and the stage ends.

        The deadline itself is the clock's business (:meth:`run_clock`); a replay file
        says when it ran out, so this does not read the clock."""
        round_ = self.round
        if round_ is None or round_.deadline is None or self.game_over:
            raise IllegalAction("No decision is timed now")
        if round_.phase != PLAYER_TURN:
            if round_.wallets is None or round_.open_stage != round_.step:
                raise IllegalAction("No decision is timed now")
            return self._time_out_stage(round_)
        self._begin()
        round_, hand = self._record_action("timeout")
        self._emit("timed_out", hand=round_.current)
        self._decision_start = round_.deadline
        round_.deadline = None
        self._stand(hand, round_.current, "timeout")
        self._advance()
        return self._finish()

    def _time_out_stage(self, round_: Round) -> list[Event]:
        """T-7: a shared round's offer stage ran out of time: the defaults for every box
        still awaited, applied in box order with the answers given ahead."""
        self._begin()
        self._decision_start = round_.deadline  # the next deadline starts from this one
        round_.deadline = None
        step = round_.step
        ahead = round_.answers_ahead
        for index in range(round_.offer_box, len(round_.boxes)):
            if index in ahead:
                continue
            offer = self._box_offer(round_, step, index)
            if offer is not None:
                ahead[index] = _DEFAULT_ANSWERS[offer]
                self._emit("offer_timed_out", offer=offer, box=index + 1)
        # The stage waits at offer_box, which now has its answer: apply it, and the
        # stage applies the others as it reaches them.
        self._apply_answer(ahead.pop(round_.offer_box))
        self._advance()
        return self._finish()

    def deadline_passed(self) -> bool:
        """Whether the pending decision's deadline has run out by the clock (a shared
        round's offer stage included)."""
        round_ = self.round
        if round_ is None or round_.deadline is None or self.game_over:
            return False
        if round_.phase != PLAYER_TURN and (
            round_.wallets is None or round_.open_stage != round_.step
        ):
            return False
        return self.clock() >= round_.deadline

    def run_clock(self) -> list[Event]:
        """Apply every turn deadline that has run out by now (R-4.13), in order; [] if none."""
        events: list[Event] = []
        while self.deadline_passed():
            events.extend(self.timeout())
        return events

    def pause_turn_clock(self) -> None:
        """Hit or Double was chosen and its question is shown: the decision is made, so the
        turn's clock stops (the answer has its own, R-8.9). The answer restarts it."""
        if self.round is not None:
            self.round.deadline = None

    def start_next_decision_at(self, ms: int) -> None:
        """The next decision's clock starts at ``ms`` instead of now: an answer whose own
        deadline ran out is applied late, as if at that deadline (R-8.9, R-4.13)."""
        self._decision_start = ms

    def double(self, trivia: TriviaOutcome | None = None) -> list[Event]:
        """R-5.3: bet doubled first, exactly one card, then the hand stands."""
        self._require("double")
        self._check_trivia(trivia, "Double Down")
        self._begin()
        round_, hand = self._record_action("double", trivia)
        index = round_.current
        if trivia is None or self._answer_trivia(trivia, hand, index):
            hand.acted = True
            self._take(hand.bet, hand.box)
            hand.bet *= 2
            hand.doubled = True
            if self._events is not None:
                self._emit("hand_doubled", hand=index, bet=hand.bet)
            self._deal_to_hand(hand, index)
            self._auto_end(hand, index)  # bust, Charlie or 21 ends it (R-4.10, R-5.8)
            if hand.status == "open":
                self._stand(hand, index, "doubled")
        self._advance()
        return self._finish()

    def split(self) -> list[Event]:
        """R-5.4/R-5.5: hand A keeps the first card, hand B (inserted right after) the second;
        A gets a card, then B, and play goes on with A. No trivia for split cards."""
        self._require("split")
        self._begin()
        round_, hand = self._record_action("split")
        index = round_.current
        aces = is_ace(hand.cards[0])
        self._take(hand.bet, hand.box)
        new_hand = Hand([hand.cards.pop()], hand.bet, split=True, box=hand.box)
        hand.recount()
        hand.split = True
        hand.acted = False
        hand.split_aces = new_hand.split_aces = aces
        round_.hands.insert(index + 1, new_hand)
        self._emit("hand_split", hand=index, new_hand=index + 1, bet=hand.bet)
        self._deal_to_hand(hand, index)
        self._deal_to_hand(new_hand, index + 1)
        self._advance()
        return self._finish()

    def surrender(self) -> list[Event]:
        """R-5.7: the hand ends, half its bet comes back at settlement."""
        self._require("surrender")
        self._begin()
        round_, hand = self._record_action("surrender")
        self._surrender(hand, round_.current)
        self._advance()
        return self._finish()

    def answer_offer(self, offer: str, accept: bool) -> list[Event]:
        """Answer Insurance, Even Money (R-4.5) or Early Surrender (R-4.6)."""
        name = f"{offer}:{'accept' if accept else 'decline'}"
        if offer not in ("insurance", "even_money", "early_surrender"):
            raise IllegalAction(f"Unknown offer: {offer}")
        self._require(name)
        self._begin()
        self._apply_offer_answer(offer, accept)
        self._advance()
        return self._finish()

    def _apply_offer_answer(self, offer: str, accept: bool) -> None:
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        index = round_.offer_box  # offers come before any split: box i holds hand i
        round_.actions.append(f"{offer}:{'accept' if accept else 'decline'}")
        self._emit("offer_answered", offer=offer, accept=accept, **self._box_key(index))
        if offer == "early_surrender":
            if accept:
                self._surrender(round_.hands[index], index)
        elif accept:
            stake = self.insurance_cost(index)
            self._take(stake, index)
            insurance = {"kind": offer, "stake": stake, "result": None, "winnings": 0}
            round_.boxes[index].insurance = insurance
        round_.offer_box += 1  # the same offer to the next box, or the next stage

    def place_extra_bet(self, amount: int | None) -> list[Event]:
        """R-SB-20: place the extra bet (amount in cents) or decline it (None)."""
        self._require("extra_bet" if amount is not None else "extra_bet:decline")
        if amount is not None:
            self._check_extra_bet_amount(amount)
        self._begin()
        self._apply_extra_bet(amount)
        self._advance()
        return self._finish()

    def _apply_extra_bet(self, amount: int | None) -> None:
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        index = round_.offer_box
        if amount is None:
            round_.actions.append("extra_bet:decline")
            self._emit("offer_answered", offer="extra_bet", accept=False, **self._box_key(index))
        else:
            round_.actions.append(f"extra_bet:{format_cents(amount)}")
            fee = sb.extra_bet_fee(amount)
            self._take(amount + fee, index)
            round_.boxes[index].extra_bet = {"stake": amount, "fee": fee}
            self._emit("extra_bet_placed", stake=amount, fee=fee, **self._box_key(index))
        round_.offer_box += 1

    def parlay(self, choice: str) -> list[Event]:
        """R-SB-31: collect, or parlay the bet, the winnings or all onto hand 1."""
        self._require(f"parlay:{choice}")
        self._begin()
        self._apply_parlay(choice)
        self._advance()
        return self._finish()

    def _apply_parlay(self, choice: str) -> None:
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        round_.actions.append(f"parlay:{choice}")
        self._settle_house_money(choice, round_.offer_box)
        round_.offer_box += 1

    def roll(self) -> list[Event]:
        """R-SB-12: roll the three Infinity dice for a suited 11 (decided here, server side)."""
        self._require("roll")
        dice = self._roll_dice()
        self._begin()
        self._apply_roll(dice)
        self._advance()
        return self._finish()

    def _apply_roll(self, dice: list[int]) -> None:
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        round_.actions.append("roll")
        round_.dice.extend(dice)
        index = round_.offer_box
        box = round_.boxes[index]
        pending = box.pending_side_bets.pop(sb.PERFECT_11S)
        win = sb.perfect_11s_with_dice(pending["cards"], dice)
        self._emit("dice_rolled", dice=list(dice), **self._box_key(index))
        self._settle_side_bet(sb.PERFECT_11S, box.side_stakes[sb.PERFECT_11S], win, index)
        round_.offer_box += 1  # the next box's side bets on the first cards (R-4.3)

    def _apply_answer(self, answer: str) -> None:
        """Apply ``answer`` (answer_for_box's spelling) for the box the stage waits at, as
        the player's own answer method would. An answer kept since it was given that is no
        longer legal (it cannot be: only its own box moves its wallet) gets the default."""
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        index = round_.offer_box
        try:
            self._check_answer(index, answer)
        except IllegalAction:  # pragma: no cover - defensive, see the docstring
            offer = self._box_offer(round_, round_.step, index)
            assert offer is not None
            answer = _DEFAULT_ANSWERS[offer]
        kind, _, value = answer.partition(":")
        if kind == "roll":
            self._apply_roll(self._roll_dice())
        elif kind == "parlay":
            self._apply_parlay(value)
        elif kind == "extra_bet":
            self._apply_extra_bet(None if value == "decline" else int(value))
        else:
            self._apply_offer_answer(kind, value == "accept")

    def end_game(self) -> list[Event]:
        """R-1.6: bets in play in an unfinished round are forfeited; the game is over."""
        if self.game_over:
            raise GameOver("The game is over; start a new game")
        self._begin()
        round_ = self.round
        if round_ is not None and not round_.over:
            for index, hand in enumerate(round_.hands):
                if hand.result is None:
                    hand.result, hand.how, hand.winnings = LOSE, "forfeit", 0
                    self._emit("hand_settled", hand=index, result=LOSE, how="forfeit", winnings=0)
            settled = _settled_side_bets(round_)
            for box_index, box in enumerate(round_.boxes):
                self._forfeit_box(box, box_index, settled)
            round_.ended = True
            round_.phase = ROUND_OVER
            round_.bank_after = self.bank
        self._set_game_over("ended")
        return self._finish()

    def _forfeit_box(self, box: Box, index: int, settled: set[tuple[int, str]]) -> None:
        """R-1.6: the box's insurance and side bets still in play are lost."""
        if box.insurance is not None and box.insurance["result"] is None:
            box.insurance["result"] = LOSE
        for name, stake in box.side_stakes.items():
            if (index, name) not in settled:
                self._record_side_bet(name, stake, None, index)
        extra = box.extra_bet
        if extra is not None and (index, sb.EXTRA_BET_BLACKJACK) not in settled:
            stake, fee = extra["stake"], extra["fee"]
            self._record_side_bet(sb.EXTRA_BET_BLACKJACK, stake, None, index, fee=fee)
        box.pending_side_bets.clear()

    def set_options(self, options: Options) -> list[Event]:
        """Options change only between rounds (§10); a new deck count rebuilds the shoe."""
        if self.round_in_progress:
            raise IllegalAction("Options can be changed only between rounds")
        self._begin()
        rebuild = options.deck_count != self.options.deck_count
        self._use_options(options)
        if rebuild:
            self.shoe = self.source.new_shoe(self._table.deck_count, self.shoe)
            self._emit("shoe_shuffled", reason="deck_count", message="Shuffling a new shoe")
        self._check_game_over()
        return self._finish()

    def shuffle_now(self) -> list[Event]:
        """Finish the shoe and deal on from a new one (F-6), between rounds only.

        A shoe nothing was dealt from stays: it is already the newest shoe, committed.
        """
        if self.round_in_progress:
            raise IllegalAction("The shoe can be changed only between rounds")
        if self.shoe.fixed:
            raise IllegalAction("A replay's shoe cannot be shuffled")
        if self.shoe.duplicate:
            # Each round of a Daily Shoe has its own shoe (D-2): a new one now would deal
            # the next round's cards to this one.
            raise IllegalAction("A Daily Shoe's rounds each have their own shoe")
        self._begin()
        if self.shoe.remaining() != self.shoe.size:
            self.shoe = self.source.new_shoe(self._table.deck_count, self.shoe)
            self._emit("shoe_shuffled", reason="player", message="Shuffling a new shoe")
        return self._finish()

    def set_client_seed(self, client_seed: str) -> list[Event]:
        """Use ``client_seed`` (F-2) for the shoe not yet dealt from and every shoe after.

        Refused mid-round and once a card of the shoe has been dealt: the client seed of a
        shoe that is dealing is part of what it was committed to.
        """
        source = self.source
        if not isinstance(source, CommittedShoes):
            raise IllegalAction("This game's shoes have no client seed")
        if self.round_in_progress:
            raise IllegalAction("The client seed can be changed only between rounds")
        if self.shoe.remaining() != self.shoe.size:
            raise IllegalAction("The client seed can be changed only between shoes")
        self._begin()
        self.shoe = source.reseed(client_seed, self.shoe)
        return self._finish()

    def finish_shoe(self) -> None:
        """Reveal the shoe in play (F-6: the game ended or the table closed)."""
        source = self.source
        if isinstance(source, CommittedShoes):
            source.finish(self.shoe)

    # ------------------------------------------------------------------ legality

    def _require(self, name: str) -> None:
        reason = self._why_not(name)
        if reason is not None:
            raise IllegalAction(reason)

    def _why_not(self, name: str) -> str | None:
        """None when ``name`` is allowed now, else the reason a person can read."""
        if self.game_over:
            return "The game is over; start a new game"
        round_ = self.round
        if round_ is None or round_.phase == ROUND_OVER:
            return "No round in progress: place a bet and deal"
        play = _PLAY_INDEX.get(name, -1)  # the common case, without parsing the name
        kind, answer = name, ""
        if play < 0:
            kind, _, answer = name.partition(":")
            play = _PLAY_INDEX.get(kind, -1)
        if play >= 0:
            if round_.phase != PLAYER_TURN:
                return _waiting_message(round_.phase)
            return self._why_not_play(play, round_, round_.hands[round_.current])
        expected_phase = _OFFER_PHASES[kind]
        if round_.phase != expected_phase or (kind == "roll" and not self._roll_pending()):
            return _NOT_OFFERED[kind]
        if answer == "accept" and kind in ("insurance", "even_money"):
            return self._why_not_insure(kind, round_.offer_box)
        if kind == "extra_bet" and answer != "decline":
            low, high = self.extra_bet_limits()
            if high < low:
                return "Your bank does not cover the smallest extra bet and its fee"
        return None

    def _why_not_play(self, play: int, round_: Round, hand: Hand) -> str | None:
        """The check of play action ``PLAY_ACTIONS[play]`` (called directly: see _advance)."""
        if play == PLAY_HIT:
            return self._why_not_hit(round_, hand)
        if play == PLAY_STAND:
            return None  # a hand in play may always stand
        if play == PLAY_DOUBLE:
            return self._why_not_double(round_, hand)
        if play == PLAY_SPLIT:
            return self._why_not_split(round_, hand)
        return self._why_not_surrender(round_, hand)

    def _why_not_insure(self, kind: str, box: int) -> str | None:
        cost = self.insurance_cost(box)
        label = "Insurance" if kind == "insurance" else "Even Money"
        if cost <= 0:
            return f"{label} would cost nothing at this bet"
        if cost > self._bank_of(box):
            return f"{label} costs {display_cents(cost)}; your bank does not cover it"
        return None

    def _why_not_hit(self, round_: Round, hand: Hand) -> str | None:
        if hand.split_aces and self._table.one_card_after_split_aces:
            return "Only one card is dealt to each split ace"
        if hand.best_total() >= 21:
            return "The hand already has 21"
        return None

    def _why_not_double(self, round_: Round, hand: Hand) -> str | None:
        options = self._table
        if options.simple:
            return _SIMPLE_GAME
        if hand.acted or len(hand.cards) != 2:
            return "Double Down only as the first action on a hand"
        if hand.split_aces and options.one_card_after_split_aces:
            return "Only one card is dealt to each split ace"
        if hand.split_aces and not options.double_after_split_aces:
            return "Double Down after splitting aces is not allowed at this table"
        if hand.split and not options.double_after_split:
            return "Double Down after a split is not allowed at this table"
        total = hand.best_total()
        if options.double_on == "9-11" and not 9 <= total <= 11:
            return "Double Down only on a total of 9, 10 or 11"
        if options.double_on == "10-11" and not 10 <= total <= 11:
            return "Double Down only on a total of 10 or 11"
        if hand.bet > self._bank_of(hand.box):
            return f"Your bank does not cover another bet of {display_cents(hand.bet)}"
        return None

    def _why_not_split(self, round_: Round, hand: Hand) -> str | None:
        options = self._table
        if options.simple:
            return _SIMPLE_GAME
        if hand.acted or len(hand.cards) != 2:
            return "Split only as the first action on a hand"
        first, second = hand.cards
        same_rank = first[0] == second[0]
        if not same_rank and not (
            options.split_any_ten and is_ten_card(first) and is_ten_card(second)
        ):
            if options.split_any_ten:
                return "Split needs two cards of the same rank or two ten-cards"
            return "Split needs two cards of the same rank"
        # max_splits / max_ace_splits (R-5.4, R-5.5, §10 Extensions): every hand of the
        # box holds the rank of the first pair, so the splits made are hands - 1.
        aces = is_ace(first)
        limit = options.max_ace_splits if aces else options.max_splits
        if aces and limit == 0:
            return "Splitting aces is not allowed at this table"
        hands = _hands_in_box(round_, hand.box)  # each box's splits are its own
        if hands >= MAX_HANDS:
            return f"No more than {MAX_HANDS} hands"
        if hands > limit:
            if limit == 1:
                if aces:
                    return "Resplitting aces is not allowed at this table"
                return "Resplitting is not allowed at this table"
            pairs = "aces" if aces else "a pair"
            return f"No more than {limit} splits of {pairs} at this table"
        if hand.bet > self._bank_of(hand.box):
            return f"Your bank does not cover another bet of {display_cents(hand.bet)}"
        return None

    def _why_not_surrender(self, round_: Round, hand: Hand) -> str | None:
        if self._table.simple:
            return _SIMPLE_GAME
        if self._table.surrender == "off":
            return "Surrender is not offered at this table"
        if hand.acted or len(hand.cards) != 2:
            return "Surrender only as the first action on a hand"
        if hand.split_aces and self._table.one_card_after_split_aces:
            return "Only one card is dealt to each split ace"
        return None

    def _check_trivia(self, trivia: TriviaOutcome | None, label: str) -> None:
        trivia_mode = self._table.trivia_mode
        if trivia_mode and trivia is None:
            raise IllegalAction(f"{label} needs a trivia answer first (trivia mode)")
        if not trivia_mode and trivia is not None:
            raise IllegalAction(f"Trivia mode is off: {label} needs no trivia answer")
        if trivia is not None and trivia.timed_out and self.options.answer_ms is None:
            raise IllegalAction("No question is timed at this table (answer_seconds is off)")

    def _check_extra_bet_amount(self, amount: int, box: int | None = None) -> None:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise IllegalAction("An extra bet must be a whole number of cents")
        low, high = self.extra_bet_limits(box)
        if amount < low:
            raise IllegalAction(f"The extra bet must be at least {display_cents(low)}")
        bet = self._box_bet_in_play(box)  # R-SB-20: 5× the base bet of the box offered it
        if amount > sb.extra_bet_max(bet):
            limit = display_cents(sb.extra_bet_max(bet))
            raise IllegalAction(f"The extra bet can be at most 5× the base bet, {limit}")
        if sb.extra_bet_cost(amount) > self._bank_of(self._box_index(box)):
            raise IllegalAction(
                f"Your bank does not cover an extra bet of {display_cents(amount)} "
                f"and its fee of {display_cents(sb.extra_bet_fee(amount))}"
            )

    def _roll_pending(self) -> bool:
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        pending = round_.boxes[round_.offer_box].pending_side_bets.get(sb.PERFECT_11S)
        return pending is not None and pending.get("needs_dice", False)

    # ------------------------------------------------------------------ the stages

    def _advance(self) -> None:
        """Run the round forward until it needs the player (or is over)."""
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        active = self._active_stages  # False where these options make a stage a no-op
        while (step := round_.step) < _STAGE_COUNT:
            # A chain of ifs, not a table of methods: the compiled build then calls each
            # stage directly (a method taken from a table is called through Python).
            if active[step]:
                if step == STEP_PLAYER_TURN:
                    waits = self._stage_player_turn(round_)
                elif step == STEP_DEALER_TURN:
                    waits = self._stage_dealer_turn(round_)
                elif step == STEP_SETTLEMENT:
                    waits = self._stage_settlement(round_)
                elif step == STEP_NATURAL:
                    waits = self._stage_natural(round_)
                elif step == STEP_PEEK:
                    waits = self._stage_peek(round_)
                elif step == STEP_INSURANCE:
                    waits = self._stage_insurance(round_)
                elif step == STEP_EARLY_SURRENDER:
                    waits = self._stage_early_surrender(round_)
                elif step == STEP_AFTER_DEAL:
                    waits = self._stage_after_deal(round_)
                elif step == STEP_EXTRA_BET:
                    waits = self._stage_extra_bet(round_)
                else:
                    waits = self._stage_parlay(round_)
                if waits:
                    if (
                        step < STEP_PLAYER_TURN
                        and round_.wallets is not None
                        and self._shared_stage_waits(round_, step)
                    ):
                        continue  # an answer given ahead was applied: the stage goes on
                    return
            round_.step += 1

    def _shared_stage_waits(self, round_: Round, step: int) -> bool:
        """A shared round's offer stage waits at ``round_.offer_box`` (T-7). Apply the
        answer that box gave ahead, if any (True: run the stage on). Otherwise the stage
        opens, the first time it waits: every box concerned may answer from now on, until
        one deadline for the whole stage (False: wait)."""
        answer = round_.answers_ahead.pop(round_.offer_box, None)
        if answer is not None:
            self._apply_answer(answer)
            return True
        if round_.open_stage != step:
            round_.open_stage = step
            start = self._decision_start
            self._decision_start = None
            turn_ms = self._table.turn_ms
            round_.deadline = (self.clock() if start is None else start) + (
                SHARED_OFFER_MS if turn_ms is None else turn_ms
            )
            offers = []
            for index in range(round_.offer_box, len(round_.boxes)):
                offer = self._box_offer(round_, step, index)
                if offer is not None:
                    offers.append({"box": index + 1, "offer": offer})
            self._emit("offers_opened", offers=offers, deadline=round_.deadline)
        return False

    def _end_offer_stage(self, round_: Round) -> None:
        """Every box has had the stage's offer: back to box 1 for the next stage (a shared
        round's stage closes, with its deadline)."""
        round_.offer_box = 0
        if round_.open_stage is not None:
            round_.open_stage = None
            round_.deadline = None

    # The offer stages go box by box, left to right (§10 Extensions, seats; REPLAY.md):
    # round_.offer_box is the box reached. A stage that waits keeps it; the answer moves
    # it on (offer_box += 1) and the stage runs again from there; when every box is done
    # it goes back to 0 for the next stage. Before any split, box i holds hand i.

    def _stage_after_deal(self, round_: Round) -> bool:
        """R-4.3: 21+3, Perfect 11s (maybe waiting for the dice) and House Money."""
        boxes = round_.boxes
        while round_.offer_box < len(boxes):
            index = round_.offer_box
            if boxes[index].side_stakes and self._side_bets_after_deal(round_, index):
                return True
            round_.offer_box = index + 1
        self._end_offer_stage(round_)
        return False

    def _side_bets_after_deal(self, round_: Round, index: int) -> bool:
        """R-4.3 for one box; True when its Perfect 11s waits for the dice (R-SB-12)."""
        box = round_.boxes[index]
        for name in (sb.TWENTY_ONE_PLUS_THREE, sb.HOUSE_MONEY, sb.PERFECT_11S):
            stake = box.side_stakes.get(name)
            if not stake:
                continue
            win = _first_cards_win(round_, index, name)
            if name == sb.HOUSE_MONEY and win is not None:
                # Paid (or parlayed) later: after the peek, R-4.7a.
                box.pending_side_bets[name] = _pending(win, stake)
                self._emit(
                    "side_bet_won",
                    name=name,
                    condition=win.condition,
                    settled=False,
                    **self._box_key(index),
                )
            elif name == sb.PERFECT_11S and win is not None and _needs_dice(win):
                box.pending_side_bets[name] = {**_pending(win, stake), "needs_dice": True}
                self._emit(
                    "dice_needed", name=name, condition=win.condition, **self._box_key(index)
                )
                return True
            else:
                self._settle_side_bet(name, stake, win, index)
        return False

    def _stage_extra_bet(self, round_: Round) -> bool:
        """R-4.4: offer the extra bet when active and hand 1's first card is a ten-card."""
        boxes = round_.boxes
        while round_.offer_box < len(boxes):
            index = round_.offer_box
            if _extra_bet_offered(round_, index):
                round_.phase = EXTRA_BET
                low, high = self.extra_bet_limits(index)
                self._emit(
                    "offer", offer="extra_bet", minimum=low, maximum=high, **self._box_key(index)
                )
                return True
            round_.offer_box = index + 1
        self._end_offer_stage(round_)
        return False

    def _stage_insurance(self, round_: Round) -> bool:
        """R-4.5: Even Money to a natural, Insurance otherwise, against an ace upcard."""
        if round_.dealer[1][0] != "A":
            return False
        count = len(round_.boxes)
        while round_.offer_box < count:
            index = round_.offer_box
            # Each box by its own hand: a box with a natural is offered even money, the
            # others insurance.
            offer = self._insurance_offer(round_, index)
            if offer is None:
                round_.offer_box = index + 1
                continue
            round_.phase = offer
            self._emit(
                "offer", offer=offer, cost=self.insurance_cost(index), **self._box_key(index)
            )
            return True
        self._end_offer_stage(round_)
        return False

    def _stage_early_surrender(self, round_: Round) -> bool:
        """R-4.6: offered before the peek in early mode (early_non_ace: ten-card upcard)."""
        mode = self._table.surrender
        offered = mode == "early" or (mode == "early_non_ace" and is_ten_card(round_.upcard))
        if not offered:
            return False
        count = len(round_.boxes)
        while round_.offer_box < count:
            index = round_.offer_box
            if _early_surrender_offered(round_, index):
                round_.phase = EARLY_SURRENDER
                self._emit("offer", offer="early_surrender", **self._box_key(index))
                return True
            round_.offer_box = index + 1
        self._end_offer_stage(round_)
        return False

    def _stage_peek(self, round_: Round) -> bool:
        """R-4.7: with an ace or ten-card up the dealer checks for a natural."""
        if not self._table.dealer_peek or round_.dealer[1][0] not in _NATURAL_UPCARD_RANKS:
            return False
        round_.phase = PEEK
        if is_two_card_natural(round_.dealer):
            self._emit("dealer_peeked", natural=True)
            self._reveal_hole_card()
            self._settle_insurances()
            round_.step = STEP_SETTLEMENT - 1  # the round ends at once
            return False
        round_.peeked = True
        if self._events is not None:
            self._emit("dealer_peeked", natural=False)
        self._settle_insurances()
        return False

    def _stage_parlay(self, round_: Round) -> bool:
        """R-4.7a: House Money won and the dealer has no natural: the parlay choice."""
        boxes = round_.boxes
        while round_.offer_box < len(boxes):
            index = round_.offer_box
            if sb.HOUSE_MONEY in boxes[index].pending_side_bets:
                # Inverted (§10 Extensions): the win is settled as a loss, nothing to parlay.
                if self._parlay_offered(round_, index):
                    round_.phase = HOUSE_MONEY_PARLAY
                    self._emit(
                        "offer",
                        offer="parlay",
                        choices=list(sb.PARLAY_CHOICES),
                        **self._box_key(index),
                    )
                    return True
                # No peek against an ace or ten-card: no parlay can be offered, it is
                # simply paid.
                self._settle_house_money("collect", index)
            round_.offer_box = index + 1
        self._end_offer_stage(round_)
        return False

    def _stage_natural(self, round_: Round) -> bool:
        """R-4.8: a player natural against a dealer known to have none ends the round
        (with several boxes: once no box has a hand left to play)."""
        hands = round_.hands
        naturals = False
        for index in range(len(round_.boxes)):
            hand = hands[index]
            if hand.status == "open" and hand.is_natural():
                hand.status = "natural"
                naturals = True
                self._emit("hand_natural", hand=index, **self._box_key(index))
        if naturals and self._dealer_natural_ruled_out():
            for hand in hands:
                if hand.status == "open":
                    return False
            round_.step = STEP_SETTLEMENT - 1
        return False

    def _stage_player_turn(self, round_: Round) -> bool:
        """R-4.9/R-4.10: play the hands left to right; True while one waits for the player."""
        round_.phase = PLAYER_TURN
        hands = round_.hands
        while round_.current < len(hands):
            hand = hands[round_.current]
            if hand.status == "open":
                if round_.out_of_credits:
                    self._stand(hand, round_.current, "out_of_credits")
                elif not self._auto_end(hand, round_.current):
                    self._start_turn_clock(round_)
                    return True
            round_.current += 1
        round_.current = len(hands) - 1
        round_.deadline = None
        return False

    def _start_turn_clock(self, round_: Round) -> None:
        """R-4.13: each decision of the player's turn gets ``turn_seconds`` from when it
        became pending — now, or the deadline a timeout just applied (so a game resumed
        late finds every hand whose time ran out stood, one after another)."""
        turn_ms = self._table.turn_ms
        if turn_ms is None:
            return
        start = self._decision_start
        self._decision_start = None
        round_.deadline = (self.clock() if start is None else start) + turn_ms

    def _stage_dealer_turn(self, round_: Round) -> bool:
        """R-4.11/R-6: the dealer draws only for a hand whose outcome is still open."""
        for hand in round_.hands:
            if hand.status == "stood":
                break
        else:
            return False
        round_.phase = DEALER_TURN
        self._reveal_hole_card()
        rule = self._table.dealer_rule
        limit = self._table.charlie_limit
        dealer = round_.dealer
        # hands.dealer_must_hit, with the all-aces-as-1 sum kept as cards arrive.
        hard = CARD_VALUE[dealer[0]] + CARD_VALUE[dealer[1]]
        has_ace = dealer[0][0] == "A" or dealer[1][0] == "A"
        while (limit is None or len(dealer) < limit) and dealer_hits(hard, has_ace, rule):
            self._deal_to_dealer(face_down=False)
            card = dealer[-1]
            hard += CARD_VALUE[card]
            has_ace = has_ace or card[0] == "A"
        return False

    def _stage_settlement(self, round_: Round) -> bool:
        """R-7.1: reveal, settle every hand and bet in play, pay the bank, end the round."""
        round_.phase = SETTLEMENT
        self._reveal_hole_card()
        self._settle_insurances()
        dealer = round_.dealer
        total = hand_total(dealer)[0]
        limit = self._table.charlie_limit
        # hands.is_charlie on the total just computed.
        dealer_charlie = limit is not None and len(dealer) >= limit and total <= 21
        dealer_natural = is_two_card_natural(dealer)
        if dealer_natural:
            round_.dealer_result = "natural"
        elif total > 21:
            round_.dealer_result = "bust"
        elif dealer_charlie:
            round_.dealer_result = "charlie"
        else:
            round_.dealer_result = "stand"
        if self._events is not None:
            self._emit("dealer_final", cards=list(dealer), total=total, result=round_.dealer_result)
        # R-7.1a: with no peek, a natural found now also beats late surrenders and
        # Charlies; an early surrender was made before the dealer could have one.
        no_hole_card_natural = dealer_natural and not self._table.dealer_peek
        early = _surrender_is_early(self._table.surrender, round_.upcard)
        for index, hand in enumerate(round_.hands):
            result, how = _hand_outcome(
                hand, total, dealer_charlie, dealer_natural, no_hole_card_natural and not early
            )
            self._settle_hand(hand, index, result, how)
        for index, box in enumerate(round_.boxes):
            if box.side_stakes or box.extra_bet is not None or box.pending_side_bets:
                self._settle_side_bets_at_end(index)  # nothing to do without side bets
        self._finish_round()
        return True

    # ------------------------------------------------------------------ mechanics

    def _deal_to_hand(self, hand: Hand, index: int) -> None:
        card = self._draw()
        hand.add(card)
        if self._events is not None:
            self._emit("card_dealt", to="player", hand=index, card=card)

    def _deal_to_dealer(self, *, face_down: bool) -> None:
        card = self._draw_for_dealer()
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        round_.dealer.append(card)
        if self._events is not None:
            if face_down:
                self._emit("card_dealt", to="dealer", face_down=True)
            else:
                self._emit("card_dealt", to="dealer", card=card)

    def _draw(self) -> str:
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        shoe = self.shoe
        position = shoe.position
        if position >= len(shoe.cards):
            shoe = self._refill(round_)
            position = shoe.position
        # Shoe.draw inlined: the refill above guarantees a card (this is the hottest call).
        card = shoe.cards[position]
        shoe.position = position + 1
        round_.dealt.append(card)
        return card

    def _draw_for_dealer(self) -> str:
        """Draw the dealer's next card: the shoe's next, as for the player, except from a
        duplicate shoe, which deals the dealer from its bottom (D-2: the hole card second
        to last, the upcard last, each draw the next one up)."""
        shoe = self.shoe
        if not shoe.duplicate:
            return self._draw()
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        hole = not round_.dealer
        if len(shoe.cards) - shoe.position < (2 if hole else 1):
            shoe = self._refill(round_)
            if not shoe.duplicate:
                return self._draw()
        card = shoe.draw_bottom(hole)
        round_.dealt.append(card)
        return card

    def _refill(self, round_: Round) -> Shoe:
        """R-2.2 mid-round: the shoe to go on with, from the cards not on the table (a
        fixed shoe raises). Returns the shoe now in play."""
        shoe, reshuffled = self.source.refill(self.shoe, round_.table_cards())
        self.shoe = shoe
        if reshuffled:
            self._emit("shoe_shuffled", reason="refill", message="Shuffling a new shoe")
        return shoe

    def _auto_end(self, hand: Hand, index: int) -> bool:
        """End ``hand`` if the rules end it without a decision; True if it ended."""
        total = hand.best_total()
        if total > 21:
            hand.status = "bust"
            if self._events is not None:
                self._emit("hand_bust", hand=index, total=total)
            return True
        limit = self._table.charlie_limit
        if limit is not None and len(hand.cards) >= limit:
            # R-3.5: the Charlie number of cards without busting (not bust, see above).
            hand.status = "charlie"
            if self._events is not None:
                self._emit("hand_charlie", hand=index, cards=len(hand.cards))
            return True
        if total == 21:
            self._stand(hand, index, "twenty_one")
            return True
        if (
            hand.split_aces
            and self._table.one_card_after_split_aces
            and self.round is not None
            and self._why_not_split(self.round, hand) is not None
        ):
            # R-5.6: one card to each split ace, unless it can (and may) resplit aces.
            self._stand(hand, index, "one_card_after_split_aces")
            return True
        return False

    def _stand(self, hand: Hand, index: int, reason: str) -> None:
        hand.status = "stood"
        hand.acted = True
        hand.stand_reason = reason
        if self._events is not None:
            self._emit("hand_stood", hand=index, reason=reason, total=hand.best_total())

    def _surrender(self, hand: Hand, index: int) -> None:
        hand.status = "surrendered"
        hand.acted = True
        if self._events is not None:
            self._emit("hand_surrendered", hand=index)

    def _answer_trivia(self, trivia: TriviaOutcome | None, hand: Hand, index: int) -> bool:
        """R-8.2/R-8.3/R-8.7: apply the answer; True when the action goes ahead."""
        if trivia is None:
            return True
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        change = trivia.credit_change
        round_.credits_change += change
        wallets = round_.wallets
        if wallets is None:
            self.credits += change
            credits = self.credits
        else:  # a shared round: the credits of the hand's box (its player's)
            wallet = wallets[hand.box]
            wallet.credits += change
            wallet.credits_change += change
            credits = wallet.credits
        self._emit(
            "trivia_answered",
            difficulty=trivia.difficulty,
            correct=trivia.correct,
            timed_out=trivia.timed_out,
            credits_change=change,
            credits=credits,
            **self._box_key(hand.box),
        )
        if trivia.correct:
            return True
        self._stand(hand, index, "trivia_wrong")
        if credits <= 0:
            self._emit("credits_exhausted", **self._box_key(hand.box))
            if wallets is None:
                round_.out_of_credits = True
            else:
                # R-8.7 for this box alone: its remaining hands stand now (they follow
                # this one), the other boxes play on.
                wallets[hand.box].out_of_credits = True
                for later in range(index + 1, len(round_.hands)):
                    other = round_.hands[later]
                    if other.box == hand.box and other.status == "open":
                        self._stand(other, later, "out_of_credits")
        return False

    def _record_action(self, name: str, trivia: TriviaOutcome | None = None) -> tuple[Round, Hand]:
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        round_.actions.append(name if trivia is None else f"{name}:{trivia.code()}")
        return round_, round_.hands[round_.current]

    def _reveal_hole_card(self) -> None:
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        if round_.hole_revealed:
            return
        round_.hole_revealed = True
        if self._events is not None:
            self._emit(
                "hole_card_revealed",
                card=round_.dealer[0],
                dealer_cards=list(round_.dealer),
                total=hand_total(round_.dealer)[0],
            )
        for index, box in enumerate(round_.boxes):
            stake = box.side_stakes.get(sb.PERFECT_PAIR) if box.side_stakes else None
            if stake:
                # R-SB-1: settled the moment the hole card is shown, on the box's first
                # two cards as dealt (a split since does not undo its pair).
                win = sb.perfect_pair(round_.initial_cards(index), round_.dealer[:2])
                self._settle_side_bet(sb.PERFECT_PAIR, stake, win, index)

    def _dealer_natural_ruled_out(self) -> bool:
        """Known to have no natural: peeked, or the upcard cannot make one."""
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        return round_.peeked or round_.dealer[1][0] not in _NATURAL_UPCARD_RANKS

    def _settle_insurances(self) -> None:
        """R-7.4/R-7.5 for every box that took insurance or even money, left to right."""
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        for index, box in enumerate(round_.boxes):
            insurance = box.insurance
            if insurance is not None and insurance["result"] is None:
                self._settle_insurance(insurance, index)

    def _settle_insurance(self, insurance: dict[str, Any], index: int) -> None:
        """R-7.4/R-7.5: insurance and even money pay 2:1 if the dealer has a natural."""
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        stake = insurance["stake"]
        if is_two_card_natural(round_.dealer):
            insurance["result"] = WIN
            winnings = stake + payout_profit(stake, 2, 1)
            insurance["winnings"] = self._pay_settled(stake, winnings, index)
        else:
            insurance["result"] = LOSE
            insurance["winnings"] = self._pay_settled(stake, 0, index)
        self._emit(
            "insurance_settled",
            kind=insurance["kind"],
            result=insurance["result"],
            winnings=insurance["winnings"],
            **self._box_key(index),
        )

    def _settle_hand(self, hand: Hand, index: int, result: str, how: str) -> None:
        bet = hand.bet
        if result == WIN:
            winnings = bet + bet
        elif result == NATURAL:
            table = self._table
            winnings = bet + payout_profit(bet, table.blackjack_profit, table.blackjack_stake)
        elif result == PUSH:
            winnings = bet
        elif result == SURRENDER:
            winnings = half_down(bet)
        else:
            winnings = 0
        hand.result, hand.how = result, how
        hand.winnings = self._pay_settled(bet, winnings, hand.box)
        if self._events is not None:
            self._emit("hand_settled", hand=index, result=result, how=how, winnings=winnings)

    def _finish_round(self) -> None:
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        round_.phase = ROUND_OVER
        round_.bank_after = self.bank
        wallets = round_.wallets
        if self._events is not None:
            if wallets is None:
                self._emit(
                    "round_over",
                    bank=self.bank,
                    paid=round_.paid,
                    staked=round_.staked,
                    credits_change=round_.credits_change,
                )
            else:
                self._emit(
                    "round_over",
                    paid=round_.paid,
                    staked=round_.staked,
                    credits_change=round_.credits_change,
                    wallets=[public_wallet(wallet, index) for index, wallet in enumerate(wallets)],
                )
        if wallets is None:  # a shared round's wallets never end the game (T-3)
            self._check_game_over()

    def _check_game_over(self) -> None:
        """R-1.5: between rounds, bank below the minimum or (trivia) no credits left."""
        if self.game_over:
            return
        if self.bank < self._table.min_bet:
            self._set_game_over("bank")
        elif self._table.trivia_mode and self.credits <= 0:
            self._set_game_over("credits")

    def _set_game_over(self, reason: str) -> None:
        self.game_over = True
        self.game_over_reason = reason
        self._emit("game_over", reason=reason)

    def _take(self, cents: int, box: int = 0) -> None:
        """Take ``cents`` from the bank: box index ``box``'s wallet in a shared round."""
        round_ = self.round
        assert round_ is not None  # money moves only within a round
        wallets = round_.wallets
        if wallets is None:
            # Legality checks ran first, so this can never take the bank below zero.
            assert cents <= self.bank, "bank would go negative"
            self.bank -= cents
        else:
            wallet = wallets[box]
            assert cents <= wallet.bank, "bank would go negative"
            wallet.bank -= cents
            wallet.staked += cents
        round_.staked += cents

    def _pay(self, cents: int, box: int = 0) -> int:
        """Pay ``cents`` into the bank (negative: take them, §10 inverted); returns what
        moved. R-1.4a: a bank that would pass the ceiling stops there; inverted: a bank
        stops at zero. In a shared round the bank is box index ``box``'s wallet."""
        round_ = self.round
        assert round_ is not None  # money moves only within a round
        wallets = round_.wallets
        if wallets is None:
            paid = min(cents, MAX_AMOUNT_CENTS - self.bank)
            if paid < 0:
                paid = max(paid, -self.bank)
            self.bank += paid
        else:
            wallet = wallets[box]
            paid = min(cents, MAX_AMOUNT_CENTS - wallet.bank)
            if paid < 0:
                paid = max(paid, -wallet.bank)
            wallet.bank += paid
            wallet.paid += paid
        round_.paid += paid
        return paid

    def _pay_settled(self, stake: int, winnings: int, box: int = 0) -> int:
        """Pay a settled bet its winnings (R-PAY-1); returns what the bank received.

        §10 Extensions, inverted: the bet's net result is negated first — a profit of N
        becomes a loss of N, a lost stake S comes back with a profit of S, a push stays a
        push. A loss beyond the stake is taken from the bank, which stops at zero. Under
        R-1.4a's ceiling (or that floor) what moved is recorded, not what was due.
        """
        if self._table.inverted:
            winnings = stake + stake - winnings
        return self._pay(winnings, box)

    def _roll_dice(self) -> list[int]:
        queue = self.dice_queue
        if queue is not None:
            if len(queue) < DICE:
                raise IllegalAction("The replay has no dice left to roll")
            dice = queue[:DICE]
            for face in dice:
                if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
                    raise IllegalAction(f"Not a die face: {face!r}")
            del queue[:DICE]
            return dice
        return self.source.roll_dice(DICE)

    # ------------------------------------------------------------------ side bets

    def _settle_side_bet(
        self,
        name: str,
        stake: int,
        win: sb.SideBetWin | None,
        box: int = 0,
    ) -> None:
        winnings = self._pay_settled(stake, sb.side_bet_winnings(stake, win), box)
        self._record_side_bet(name, stake, win, box, winnings=winnings)

    def _record_side_bet(
        self,
        name: str,
        stake: int,
        win: sb.SideBetWin | None,
        box: int = 0,
        *,
        winnings: int = 0,
        fee: int = 0,
        parlayed: int = 0,
    ) -> None:
        if win is None:
            result = LOSE
        elif win.is_push:
            result = PUSH
        else:
            result = WIN
        record = {
            "name": name,
            "stake": stake,
            "result": result,
            "condition": None if win is None else win.condition,
            "ratio": None if win is None else list(win.ratio),
            "winnings": winnings,
            "fee": fee,
            "parlayed": parlayed,
            "cards": [] if win is None else list(win.cards),
        }
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        if round_.several:
            record["box"] = box + 1  # several boxes: whose bet it was (1, 2, 3)
        round_.side_bets.append(record)
        self._emit("side_bet_settled", **record)

    def _settle_house_money(self, choice: str, index: int) -> None:
        """R-SB-31: pay House Money, moving the parlayed part onto the box's hand 1."""
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        box = round_.boxes[index]
        pending = box.pending_side_bets.pop(sb.HOUSE_MONEY)
        stake = pending["stake"]
        win = sb.SideBetWin(pending["condition"], tuple(pending["ratio"]), tuple(pending["cards"]))
        paid, parlayed = sb.house_money_parlay(stake, win, choice)
        if parlayed:
            self._pay(paid, index)
        else:  # collected: a settled bet (inverted negates it, §10 Extensions)
            paid = self._pay_settled(stake, paid, index)
        if parlayed:
            # Parlayed money rides on the box's hand 1 as part of its base bet (later
            # splits and doubles use the new bet). It never passes through the bank.
            # Before any split (R-4.7a) the box's hand 1 is hand ``index``.
            round_.hands[index].bet += parlayed
            box.bet += parlayed
        self._record_side_bet(sb.HOUSE_MONEY, stake, win, index, winnings=paid, parlayed=parlayed)
        if parlayed:
            self._emit(
                "bet_parlayed",
                hand=index,
                amount=parlayed,
                bet=round_.hands[index].bet,
                **self._box_key(index),
            )

    def _settle_side_bets_at_end(self, index: int) -> None:
        """Settlement: House Money still pending, Extra Bet and Lucky Ladies (R-SB-20, -40),
        for box ``index``, on its hand 1."""
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        box = round_.boxes[index]
        if sb.HOUSE_MONEY in box.pending_side_bets:
            self._settle_house_money("collect", index)  # dealer natural: simply paid (R-SB-31)
        hand = round_.first_hand(index)
        extra = box.extra_bet
        if extra is not None:
            assert hand.result is not None  # hands are settled before the side bets
            win = sb.extra_bet_blackjack(hand.result, hand.cards)
            # The fee is no part of the bet's result: never returned (R-SB-20).
            winnings = self._pay_settled(
                extra["stake"], sb.side_bet_winnings(extra["stake"], win), index
            )
            self._record_side_bet(
                sb.EXTRA_BET_BLACKJACK,
                extra["stake"],
                win,
                index,
                winnings=winnings,
                fee=extra["fee"],
            )
        stake = box.side_stakes.get(sb.LUCKY_LADIES)
        if stake:
            win = sb.lucky_ladies(hand.cards, round_.dealer)
            self._settle_side_bet(sb.LUCKY_LADIES, stake, win, index)

    # ------------------------------------------------------------------ events

    def _begin(self) -> None:
        self._events = [] if self.record_events else None

    def _finish(self) -> list[Event]:
        events = self._events
        self._events = None
        return events if events is not None else []

    def _emit(self, type_: str, **data: Any) -> None:
        events = self._events
        if events is not None:
            data["type"] = type_
            events.append(data)

    def _box_key(self, index: int) -> dict[str, int]:
        """``{"box": n}`` (1, 2, 3) for an event or record of a round of several boxes;
        nothing in the one-box game, whose events keep their shape."""
        round_ = self.round
        if round_ is None or not round_.several:
            return {}
        return {"box": index + 1}


def _hand_outcome(
    hand: Hand,
    dealer_total: int,
    dealer_charlie: bool,
    dealer_natural: bool,
    natural_beats_all: bool = False,
) -> tuple[str, str]:
    """R-7.1, in its order; ``how`` names the step that decided.

    ``natural_beats_all``: R-7.1a, a dealer natural found at the end of a no-hole-card
    round (no early surrender): it comes before step 1 for a surrendered hand and before
    step 3 for a Charlie.
    """
    status = hand.status
    if status == "surrendered":
        if natural_beats_all:
            return LOSE, "dealer_natural"
        return SURRENDER, "surrender"
    if status == "bust":
        return LOSE, "bust"
    if natural_beats_all and status == "charlie":
        return LOSE, "dealer_natural"
    if status == "charlie":
        return (PUSH if dealer_charlie else WIN), "charlie"
    if dealer_charlie:
        return LOSE, "dealer_charlie"
    natural = hand.is_natural()
    if dealer_natural:
        return (PUSH if natural else LOSE), "dealer_natural"
    if natural:
        return NATURAL, "natural"
    if dealer_total > 21:
        return WIN, "dealer_bust"
    total = hand.total()[0]
    if total > dealer_total:
        return WIN, "higher_total"
    if total < dealer_total:
        return LOSE, "lower_total"
    return PUSH, "equal_total"


def _pending(win: sb.SideBetWin, stake: int) -> dict[str, Any]:
    return {
        "condition": win.condition,
        "ratio": list(win.ratio),
        "cards": list(win.cards),
        "stake": stake,
    }


def _first_cards_win(round_: Round, index: int, name: str) -> sb.SideBetWin | None:
    """R-4.3: side bet ``name`` of box ``index`` on its first two cards and the upcard."""
    return sb.evaluate_first_cards(name, tuple(round_.hands[index].cards), round_.upcard)


def _needs_dice(win: sb.SideBetWin | None) -> bool:
    """R-SB-12: a Perfect 11s win that waits for the Infinity dice."""
    return win is not None and win.needs_dice


def _extra_bet_offered(round_: Round, index: int) -> bool:
    """R-4.4 for one box: activated, and its hand 1's first card is a ten-card."""
    return round_.boxes[index].extra_bet_active and sb.extra_bet_offered(
        round_.hands[index].cards[0]
    )


def _early_surrender_offered(round_: Round, index: int) -> bool:
    """R-4.6 for one box (in a stage that offers it): a natural is never offered it."""
    return not round_.hands[index].is_natural()


def _hands_in_box(round_: Round, box: int) -> int:
    hands = round_.hands
    if len(round_.boxes) == 1:
        return len(hands)
    count = 0
    for hand in hands:
        if hand.box == box:
            count += 1
    return count


def _waiting_message(phase: str) -> str:
    return {
        DEALING: "Roll the Perfect 11s dice first",
        EXTRA_BET: "Answer the extra bet offer first",
        INSURANCE: "Answer the insurance offer first",
        EVEN_MONEY: "Answer the even money offer first",
        EARLY_SURRENDER: "Answer the early surrender offer first",
        HOUSE_MONEY_PARLAY: "Make the House Money parlay choice first",
    }.get(phase, "It is not the player's turn")


_PLAY_INDEX: Final = {name: index for index, name in enumerate(PLAY_ACTIONS)}
# Every answer of play_actions(), indexed by play_mask().
_PLAY_SETS: Final = tuple(
    frozenset(name for index, name in enumerate(PLAY_ACTIONS) if mask >> index & 1)
    for mask in range(1 << len(PLAY_ACTIONS))
)
_OFFER_PHASES = {
    "insurance": INSURANCE,
    "even_money": EVEN_MONEY,
    "early_surrender": EARLY_SURRENDER,
    "extra_bet": EXTRA_BET,
    "parlay": HOUSE_MONEY_PARLAY,
    "roll": DEALING,
}
_NOT_OFFERED = {
    "insurance": "Insurance is not on offer now",
    "even_money": "Even Money is not on offer now",
    "early_surrender": "Early surrender is not on offer now",
    "extra_bet": "The extra bet is not on offer now",
    "parlay": "There is no House Money parlay choice now",
    "roll": "There are no Perfect 11s dice to roll now",
}
# T-7: what a box that did not answer an offer stage in time gets.
_DEFAULT_ANSWERS: Final = {
    INSURANCE: "insurance:decline",
    EVEN_MONEY: "even_money:decline",
    EARLY_SURRENDER: "early_surrender:decline",
    EXTRA_BET: "extra_bet:decline",
    "parlay": "parlay:collect",
    "roll": "roll",
}
_EARLY_SURRENDER_MODES = ("early", "early_non_ace")
_SIMPLE_GAME: Final = "Only Hit and Stand in the simple game"


def answer_deadline(shown_at_ms: int, options: Options) -> int | None:
    """R-8.9: when a question shown at ``shown_at_ms`` must be answered by, or None (no
    answer clock). The clock starts when the question is first sent."""
    answer_ms = options.answer_ms
    return None if answer_ms is None or not options.trivia_mode else shown_at_ms + answer_ms


def _surrender_is_early(mode: str, upcard: str) -> bool:
    """Whether a surrender against ``upcard`` is early (R-4.6, R-7.3): made before the
    dealer could show a natural. ``early_non_ace`` is early against a ten-card only."""
    return mode == "early" or (mode == "early_non_ace" and is_ten_card(upcard))


def _stage_plan(options: Options) -> tuple[bool, ...]:
    """Per STEP_* stage: False for each stage that can never act under ``options``.

    Skipping such a stage is exactly what calling it would do (return False, change
    nothing); it only saves the call on every round.
    """
    idle: set[int] = set()
    simple = options.simple  # Hit and Stand only: no side bets, offers or surrender
    if not options.side_bets or simple:
        # No side stakes and no extra bet can be placed (R-4.1), so none is pending.
        idle |= {STEP_AFTER_DEAL, STEP_EXTRA_BET, STEP_PARLAY}
    if options.surrender not in _EARLY_SURRENDER_MODES or simple:
        idle.add(STEP_EARLY_SURRENDER)
    if (not options.insurance and not options.even_money) or simple:
        idle.add(STEP_INSURANCE)
    if not options.dealer_peek:
        idle.add(STEP_PEEK)
    return tuple(step not in idle for step in range(_STAGE_COUNT))
