"""The dealer's play and settlement (RULES.md R-4.7, R-4.8, R-4.11, R-6, R-7, R-1.6).

The phase of :class:`game.rules.engine.Engine` that peeks for a dealer natural, ends a
round on a player natural, plays the dealer's hand, settles every hand and insurance,
pays the bank and ends the round — or, when the player ends the game, forfeits what is
still in play.
"""

from __future__ import annotations

from typing import Any, Final

from game.rules import sidebets as sb
from game.rules.cards import TEN_CARD_RANKS, is_ten_card
from game.rules.hands import dealer_hits, hand_total, is_two_card_natural
from game.rules.money import (
    half_down,
    payout_profit,
)
from game.rules.phase_base import PhaseBase, trait
from game.rules.records import (
    DEALER_TURN,
    LOSE,
    NATURAL,
    PEEK,
    PUSH,
    ROUND_OVER,
    SETTLEMENT,
    SURRENDER,
    WIN,
    Event,
    GameOver,
)
from game.rules.round_state import (
    CARD_VALUE,
    STEP_SETTLEMENT,
    Hand,
    Round,
    settled_side_bets,
)
from game.rules.wallets import public_wallet

# Upcard ranks with which the dealer can hold a natural (an ace or a ten-card).
_NATURAL_UPCARD_RANKS: Final = TEN_CARD_RANKS | {"A"}


@trait
class Settlement(PhaseBase):
    """The dealer's play and settlement: the peek, naturals, the dealer's turn, every hand
    and insurance settled, the round's end, and the game ended by the player (R-1.6,
    R-4.7, R-4.8, R-4.11, R-6, R-7)."""

    # The state is PhaseBase's.
    __slots__ = ()

    def end_game(self) -> list[Event]:
        """End the game: bets in play in an unfinished round are forfeited (R-1.6)."""
        if self.game_over:
            raise GameOver("The game is over; start a new game")
        self._begin()
        round_ = self.round
        if round_ is not None and not round_.over:
            for index, hand in enumerate(round_.hands):
                if hand.result is None:
                    hand.result, hand.how, hand.winnings = LOSE, "forfeit", 0
                    self._emit("hand_settled", hand=index, result=LOSE, how="forfeit", winnings=0)
            settled = settled_side_bets(round_)
            for box_index, box in enumerate(round_.boxes):
                self._forfeit_box(box, box_index, settled)
            round_.ended = True
            round_.phase = ROUND_OVER
            round_.bank_after = self.bank
        self._set_game_over("ended")
        return self._finish()

    def _stage_peek(self, round_: Round) -> bool:
        """With an ace or ten-card up, the dealer checks for a natural (R-4.7)."""
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

    def _stage_natural(self, round_: Round) -> bool:
        """End the round on a player natural against a dealer known to have none (R-4.8;
        with several boxes, once no box has a hand left to play)."""
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

    def _stage_dealer_turn(self, round_: Round) -> bool:
        """Play the dealer's hand, only for a hand whose outcome is still open (R-4.11, R-6)."""
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
        """Reveal, settle every hand and bet in play, pay the bank, end the round (R-7.1)."""
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
        """Settle every box's insurance or even money, left to right (R-7.4, R-7.5)."""
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        for index, box in enumerate(round_.boxes):
            insurance = box.insurance
            if insurance is not None and insurance["result"] is None:
                self._settle_insurance(insurance, index)

    def _settle_insurance(self, insurance: dict[str, Any], index: int) -> None:
        """Settle one insurance or even money: 2:1 if the dealer has a natural (R-7.4, R-7.5)."""
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


def _hand_outcome(
    hand: Hand,
    dealer_total: int,
    dealer_charlie: bool,
    dealer_natural: bool,
    natural_beats_all: bool = False,
) -> tuple[str, str]:
    """The result of a hand against the dealer's, by R-7.1 in its order; ``how`` names the
    step that decided.

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


def _surrender_is_early(mode: str, upcard: str) -> bool:
    """Whether a surrender against ``upcard`` is early (R-4.6, R-7.3): made before the
    dealer could show a natural. ``early_non_ace`` is early against a ten-card only."""
    return mode == "early" or (mode == "early_non_ace" and is_ten_card(upcard))
