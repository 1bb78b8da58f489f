"""Betting and the deal (RULES.md R-1.4, R-4.1, R-4.2; shared rounds TABLES.md T-6).

The phase of :class:`game.rules.engine.Engine` that locks in a round's bets — one box,
several boxes or a shared round's boxes with their wallets — takes them from the bank and
deals the first cards. The checks of the bets themselves are :mod:`game.rules.bets`'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game.rules.bets import as_box_bet, check_bets_being_built, check_covered, checked_stakes
from game.rules.phase_base import PhaseBase, trait
from game.rules.records import (
    DEALING,
    BoxBet,
    Event,
    GameOver,
    IllegalAction,
    SharedBox,
)
from game.rules.round_state import (
    Box,
    Hand,
    Round,
)
from game.rules.wallets import MAX_SHARED_BOXES, Wallet, checked_wallet


@trait
class Betting(PhaseBase):
    """Betting and the deal: bets checked and taken, the first cards dealt (R-1.4, R-4.1, R-4.2)."""

    # The state is PhaseBase's.
    __slots__ = ()

    def start_round(
        self,
        bet: int | None = None,
        side_bets: Mapping[str, int] | None = None,
        *,
        extra_bet: bool = False,
        boxes: Sequence[BoxBet | tuple[Any, ...]] | None = None,
    ) -> list[Event]:
        """Lock in the bets, take them from the bank and deal (R-4.1, R-4.2).

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
            # or the reshuffle option (§10 Extensions).
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
            # player, dealer (hole, face down), player, dealer (upcard).
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
        # for each box in turn (REPLAY.md, seats): box 1, box 2, …, the hole card,
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
