"""What the page may see of a game: its public view.

Nothing derived from the hole card before it is shown, and never the shoe order (R-2.3):
the server keeps both in the state (:mod:`game.rules.storage`), this view leaves them
out. The presentation layer words and draws the table from this view alone.

The view is a tree of frozen records: :class:`PublicGame` holds the :class:`PublicRound`
(None before the first round), which holds its :class:`PublicHand`\\ s, its dealer
(:class:`HiddenDealer` until the hole card is turned over, then :class:`RevealedDealer`:
a hidden hole card has no field to read) and, with several boxes, its
:class:`PublicBox`\\ es. Amounts are in cents. ``to_dict()`` gives the JSON-shaped form.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from game.rules.engine import Box, Engine, Hand, Round
from game.rules.fair import CommittedShoes, ShoeCommitment
from game.rules.hands import hand_total

__all__ = [
    "HiddenDealer",
    "PublicBox",
    "PublicDealer",
    "PublicGame",
    "PublicHand",
    "PublicRound",
    "RevealedDealer",
    "ShoeCommitment",
    "SideBetRecord",
    "public_view",
]

# A settled side bet as the engine records it (and its ``side_bet_settled`` event tells
# it): ``name``, ``stake``, ``result`` ("win", "lose", "push"), ``condition`` (None when
# lost), ``ratio`` ([paid, per] or None), ``winnings``, ``fee``, ``parlayed``, ``cards``
# (those that made the condition) and, with several boxes, ``box`` (1, 2, 3). An open
# record: the view holds a copy of each.
SideBetRecord = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class PublicHand:
    """One player hand."""

    cards: tuple[str, ...]
    bet: int  # its stake (doubled included)
    total: int  # its best total
    soft: bool  # the total counts an ace as 11
    status: str  # open, stood, bust, charlie, surrendered, natural
    doubled: bool
    split: bool  # formed by a split
    stand_reason: str | None  # why it stood: "trivia_wrong", "twenty_one", "timeout", …
    result: str | None  # once settled: win, lose, push, …
    how: str | None  # how it was settled (blackjack, dealer bust, …)
    winnings: int  # paid back to the bank, stake included
    box: int | None = None  # with several boxes: its box (1, 2, 3); None with one box

    def to_dict(self) -> dict[str, Any]:
        view: dict[str, Any] = {
            "cards": list(self.cards),
            "bet": self.bet,
            "total": self.total,
            "soft": self.soft,
            "status": self.status,
            "doubled": self.doubled,
            "split": self.split,
            "stand_reason": self.stand_reason,
            "result": self.result,
            "how": self.how,
            "winnings": self.winnings,
        }
        if self.box is not None:
            view["box"] = self.box
        return view


@dataclass(frozen=True, slots=True)
class HiddenDealer:
    """The dealer's hand before the hole card is turned over: the upcard alone. The hole
    card's place in ``cards`` is None, and nothing here is worked out from it."""

    hole_revealed: ClassVar[Literal[False]] = False

    cards: tuple[str | None, ...]  # None (the hole card, face down), then the upcard
    upcard_total: int  # the upcard's total
    upcard_soft: bool  # the upcard is an ace

    def to_dict(self) -> dict[str, Any]:
        return {
            "cards": list(self.cards),
            "hole_revealed": False,
            "upcard_total": self.upcard_total,
            "upcard_soft": self.upcard_soft,
        }


@dataclass(frozen=True, slots=True)
class RevealedDealer:
    """The dealer's hand once the hole card is turned over: every card, its total."""

    hole_revealed: ClassVar[Literal[True]] = True

    cards: tuple[str, ...]  # the hole card first, then the upcard, then the draws
    total: int
    soft: bool
    result: str | None  # once played: "bust", "blackjack", … (None before)

    def to_dict(self) -> dict[str, Any]:
        return {
            "cards": list(self.cards),
            "hole_revealed": True,
            "total": self.total,
            "soft": self.soft,
            "result": self.result,
        }


# The dealer as the page sees it: test ``isinstance(dealer, RevealedDealer)`` (or
# ``dealer.hole_revealed``) before reading a total.
PublicDealer = HiddenDealer | RevealedDealer


@dataclass(frozen=True, slots=True)
class PublicBox:
    """One box of a round of several boxes (§10 Extensions, seats), left to right: its
    bets, its hands and its settled side bets; in a shared round (TABLES.md) also its
    wallet, the offer it may answer now (T-7) and whether it answered ahead."""

    box: int  # its number, 1, 2, 3
    bet: int  # the base bet of its hand 1 (a House Money parlay raises it)
    side_stakes: Mapping[str, int]  # side bet name -> stake
    extra_bet_active: bool  # Extra Bet Blackjack was switched on for the box
    extra_bet: Mapping[str, int] | None  # {"stake", "fee"} once placed
    insurance: Mapping[str, Any] | None  # the insurance or even money taken
    pending_side_bets: tuple[str, ...]  # side bets decided but not yet settled, sorted
    hand_indices: tuple[int, ...]  # its hands' indices into the round's ``hands``
    hands: tuple[PublicHand, ...]  # its hands
    side_bets: tuple[SideBetRecord, ...]  # its settled side bets
    # A shared round only (None otherwise): the box's wallet
    # (:func:`game.rules.wallets.public_wallet`), …
    bank: int | None = None
    credits: int | None = None
    credits_change: int | None = None
    out_of_credits: bool | None = None
    staked: int | None = None  # every cent taken from its bank this round
    paid: int | None = None  # every cent paid into its bank this round
    # … the offer the box may answer now (:meth:`~game.rules.engine.Engine.offer_for_box`)
    # and whether it answered the open offer ahead of its turn.
    offer: str | None = None
    answered_ahead: bool | None = None

    @property
    def shared(self) -> bool:
        """The box is a shared round's: its wallet fields are set."""
        return self.bank is not None

    def to_dict(self) -> dict[str, Any]:
        view: dict[str, Any] = {
            **_stakes_dict(self),
            "box": self.box,
            "hand_indices": list(self.hand_indices),
            "hands": [hand.to_dict() for hand in self.hands],
            "side_bets": [dict(record) for record in self.side_bets],
        }
        if self.bank is not None:
            view["bank"] = self.bank
            view["credits"] = self.credits
            view["credits_change"] = self.credits_change
            view["out_of_credits"] = self.out_of_credits
            view["staked"] = self.staked
            view["paid"] = self.paid
            view["offer"] = self.offer
            view["answered_ahead"] = self.answered_ahead
        return view


@dataclass(frozen=True, slots=True)
class PublicRound:
    """The round on the table (the last one, once over).

    ``bet``, ``side_stakes``, ``extra_bet_active``, ``extra_bet``, ``insurance`` and
    ``pending_side_bets`` are the box in play's (the one-box game's names). With several
    boxes also ``current_box`` and ``boxes``; a shared round also has ``shared``,
    ``box_in_turn``, ``open_stage`` and each box's wallet.
    """

    number: int
    phase: str
    bet: int
    side_stakes: Mapping[str, int]
    extra_bet_active: bool
    extra_bet: Mapping[str, int] | None
    insurance: Mapping[str, Any] | None
    pending_side_bets: tuple[str, ...]
    current_hand: int  # the hand in play: an index into ``hands``
    hands: tuple[PublicHand, ...]  # every hand, box by box
    dealer: PublicDealer
    # The dealer looked and found no natural: only "no natural" can be known while play
    # goes on.
    dealer_peeked_no_natural: bool
    side_bets: tuple[SideBetRecord, ...]  # every settled side bet, box by box
    dice: tuple[int, ...]  # the Infinity dice rolled this round
    credits_change: int
    staked: int  # every cent taken from the bank this round (bets and fees)
    paid: int  # every cent paid into the bank this round
    bank_after: int | None  # the bank once the round is over
    ended: bool  # ended by End Game
    deadline: int | None  # when the pending decision times out (the page counts down)
    # Several boxes (§10 Extensions, seats): the box in play (0-based, as current_hand)
    # and every box, left to right; None with one box.
    current_box: int | None = None
    boxes: tuple[PublicBox, ...] | None = None
    # A shared round (TABLES.md): whose turn it is (T-8, 0-based, None between turns)
    # and whether an offer stage is open to every box at once (T-7).
    shared: bool = False
    box_in_turn: int | None = None
    open_stage: bool = False

    def to_dict(self) -> dict[str, Any]:
        view: dict[str, Any] = {
            "number": self.number,
            "phase": self.phase,
            **_stakes_dict(self),
            "current_hand": self.current_hand,
            "hands": [hand.to_dict() for hand in self.hands],
            "dealer": self.dealer.to_dict(),
            "dealer_peeked_no_natural": self.dealer_peeked_no_natural,
            "side_bets": [dict(record) for record in self.side_bets],
            "dice": list(self.dice),
            "credits_change": self.credits_change,
            "staked": self.staked,
            "paid": self.paid,
            "bank_after": self.bank_after,
            "ended": self.ended,
            "deadline": self.deadline,
        }
        if self.boxes is not None:
            view["current_box"] = self.current_box
            view["boxes"] = [box.to_dict() for box in self.boxes]
        if self.shared:
            view["shared"] = True
            view["box_in_turn"] = self.box_in_turn
            view["open_stage"] = self.open_stage
        return view


@dataclass(frozen=True, slots=True)
class PublicGame:
    """The game as the page may see it."""

    bank: int
    credits: int | None  # trivia credits; None when trivia is off
    options: dict[str, Any]  # the game's options (:meth:`GameOptions.to_dict`)
    round_number: int
    game_over: bool
    game_over_reason: str | None
    cards_in_shoe: int | None  # None: an infinite shoe (∞)
    # F-1: the open shoe's commitment (never its seed); None for an older game's shoe.
    shoe_commitment: ShoeCommitment | None
    round: PublicRound | None  # the round on the table; None before the first
    legal_actions: dict[str, str]  # action -> "allowed" or why not

    def to_dict(self) -> dict[str, Any]:
        """The JSON-shaped form of the view."""
        shown = self.shoe_commitment
        return {
            "bank": self.bank,
            "credits": self.credits,
            "options": self.options,
            "round_number": self.round_number,
            "game_over": self.game_over,
            "game_over_reason": self.game_over_reason,
            "cards_in_shoe": self.cards_in_shoe,
            "shoe_commitment": None if shown is None else _commitment_dict(shown),
            "round": None if self.round is None else self.round.to_dict(),
            "legal_actions": self.legal_actions,
        }


def _commitment_dict(shown: ShoeCommitment) -> dict[str, Any]:
    return {"nonce": shown.nonce, "commitment": shown.commitment, "client_seed": shown.client_seed}


def _stakes_dict(box: PublicBox | PublicRound) -> dict[str, Any]:
    return {
        "bet": box.bet,
        "side_stakes": dict(box.side_stakes),
        "extra_bet_active": box.extra_bet_active,
        "extra_bet": None if box.extra_bet is None else dict(box.extra_bet),
        "insurance": None if box.insurance is None else dict(box.insurance),
        "pending_side_bets": list(box.pending_side_bets),
    }


def public_view(game: Engine) -> PublicGame:
    """The game as the page may see it (see :class:`PublicGame`)."""
    options = game.options
    round_ = game.round
    return PublicGame(
        game.bank,
        game.credits if options.trivia_mode else None,
        options.to_dict(),
        game.round_number,
        game.game_over,
        game.game_over_reason,
        game.shoe.cards_left(),
        _shoe_commitment(game),
        None if round_ is None else _public_round(game, round_),
        game.legal_actions(),
    )


def _shoe_commitment(game: Engine) -> ShoeCommitment | None:
    source = game.source
    return source.showing() if isinstance(source, CommittedShoes) else None


def _public_round(game: Engine, round_: Round) -> PublicRound:
    several = round_.several
    in_play = round_.box_in_play()
    hands = tuple([_public_hand(hand, several) for hand in round_.hands])
    side_bets: tuple[SideBetRecord, ...] = tuple(map(dict, round_.side_bets))
    boxes: tuple[PublicBox, ...] | None = None
    if several:
        # §10 Extensions, seats: every box, left to right, with its own hands and settled
        # side bets (the round's, already built: shared, never built twice).
        boxes = tuple(
            [
                _public_box(game, round_, index, hands, side_bets)
                for index in range(len(round_.boxes))
            ]
        )
        shown = boxes[in_play]  # the box in play's bets: the round's one-box names
        stakes = (
            shown.bet,
            shown.side_stakes,
            shown.extra_bet_active,
            shown.extra_bet,
            shown.insurance,
            shown.pending_side_bets,
        )
    else:
        box = round_.boxes[in_play]
        stakes = (
            box.bet,
            dict(box.side_stakes),
            box.extra_bet_active,
            None if box.extra_bet is None else dict(box.extra_bet),
            None if box.insurance is None else dict(box.insurance),
            _sorted_names(box.pending_side_bets),
        )
    bet, side_stakes, extra_bet_active, extra_bet, insurance, pending_side_bets = stakes
    # A shared round (TABLES.md): whose turn it is (T-8) and whether an offer stage is open
    # to every box at once (T-7); each box has its wallet.
    shared = round_.wallets is not None
    return PublicRound(
        number=round_.number,
        phase=round_.phase,
        bet=bet,
        side_stakes=side_stakes,
        extra_bet_active=extra_bet_active,
        extra_bet=extra_bet,
        insurance=insurance,
        pending_side_bets=pending_side_bets,
        current_hand=round_.current,
        hands=hands,
        dealer=_public_dealer(round_),
        dealer_peeked_no_natural=round_.peeked,
        side_bets=side_bets,
        dice=tuple(round_.dice),
        credits_change=round_.credits_change,
        staked=round_.staked,
        paid=round_.paid,
        bank_after=round_.bank_after,
        ended=round_.ended,
        deadline=round_.deadline,
        current_box=in_play if several else None,
        boxes=boxes,
        shared=shared,
        box_in_turn=game.box_in_turn() if shared else None,
        open_stage=shared and round_.open_stage is not None,
    )


def _sorted_names(pending: dict[str, Any]) -> tuple[str, ...]:
    return tuple(sorted(pending)) if pending else ()


def _public_dealer(round_: Round) -> PublicDealer:
    """The dealer's hand: the upcard alone until the hole card is turned over."""
    if round_.hole_revealed:
        total, soft = hand_total(round_.dealer)
        return RevealedDealer(tuple(round_.dealer), total, soft, round_.dealer_result)
    upcard = round_.dealer[1:2]
    total, soft = hand_total(upcard)
    return HiddenDealer((None, *upcard), total, soft)


def _public_box(
    game: Engine,
    round_: Round,
    index: int,
    hands: tuple[PublicHand, ...],
    side_bets: tuple[SideBetRecord, ...],
) -> PublicBox:
    """Box ``index`` (0-based) with its hands and settled side bets (``hands`` and
    ``side_bets``: the round's, already built)."""
    box: Box = round_.boxes[index]
    number = index + 1
    indices = tuple([i for i, hand in enumerate(round_.hands) if hand.box == index])
    stakes = (
        number,
        box.bet,
        dict(box.side_stakes),
        box.extra_bet_active,
        None if box.extra_bet is None else dict(box.extra_bet),
        None if box.insurance is None else dict(box.insurance),
        _sorted_names(box.pending_side_bets),
        indices,
        tuple([hands[i] for i in indices]),
        tuple([r for r in side_bets if r.get("box", 1) == number]),
    )
    wallets = round_.wallets
    if wallets is None:
        return PublicBox(*stakes)
    wallet = wallets[index]
    return PublicBox(
        *stakes,
        wallet.bank,
        wallet.credits,
        wallet.credits_change,
        wallet.out_of_credits,
        wallet.staked,
        wallet.paid,
        game.offer_for_box(index),
        index in round_.answers_ahead,
    )


def _public_hand(hand: Hand, several: bool = False) -> PublicHand:
    total, soft = hand.total()
    return PublicHand(
        tuple(hand.cards),
        hand.bet,
        total,
        soft,
        hand.status,
        hand.doubled,
        hand.split,
        hand.stand_reason,
        hand.result,
        hand.how,
        hand.winnings,
        hand.box + 1 if several else None,
    )
