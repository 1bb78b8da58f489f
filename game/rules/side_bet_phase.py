"""The side bets of a round (RULES.md R-4.3, §9: R-SB-…).

The phase of :class:`game.rules.engine.Engine` that settles the side bets at their
moments — on the first cards after the deal, when House Money is collected or parlayed,
at the end of the round — and records each result. What each side bet pays is decided in
:mod:`game.rules.sidebets`.
"""

from __future__ import annotations

from typing import Any

from game.rules import sidebets as sb
from game.rules.phase_base import PhaseBase, trait
from game.rules.records import (
    LOSE,
    PUSH,
    WIN,
)
from game.rules.round_state import (
    Box,
    Round,
)


@trait
class SideBetPhase(PhaseBase):
    """The side bets of a round: settled after the deal, when House Money is collected
    or parlayed, or at the end of the round, and recorded (R-4.3, §9)."""

    # The state is PhaseBase's.
    __slots__ = ()

    def _stage_after_deal(self, round_: Round) -> bool:
        """Settle the side bets on the first cards: 21+3, Perfect 11s (maybe waiting for the
        dice) and House Money (R-4.3)."""
        boxes = round_.boxes
        while round_.offer_box < len(boxes):
            index = round_.offer_box
            if boxes[index].side_stakes and self._side_bets_after_deal(round_, index):
                return True
            round_.offer_box = index + 1
        self._end_offer_stage(round_)
        return False

    def _side_bets_after_deal(self, round_: Round, index: int) -> bool:
        """Settle one box's side bets on the first cards (R-4.3); True when its Perfect 11s
        waits for the dice (R-SB-12)."""
        box = round_.boxes[index]
        for name in (sb.TWENTY_ONE_PLUS_THREE, sb.HOUSE_MONEY, sb.PERFECT_11S):
            stake = box.side_stakes.get(name)
            if not stake:
                continue
            win = first_cards_win(round_, index, name)
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
            elif name == sb.PERFECT_11S and win is not None and needs_dice(win):
                box.pending_side_bets[name] = {**_pending(win, stake), "needs_dice": True}
                self._emit(
                    "dice_needed", name=name, condition=win.condition, **self._box_key(index)
                )
                return True
            else:
                self._settle_side_bet(name, stake, win, index)
        return False

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
        """Pay House Money, moving the parlayed part onto the box's hand 1 (R-SB-31)."""
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

    def _forfeit_box(self, box: Box, index: int, settled: set[tuple[int, str]]) -> None:
        """Lose the box's insurance and side bets still in play (R-1.6)."""
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


def _pending(win: sb.SideBetWin, stake: int) -> dict[str, Any]:
    return {
        "condition": win.condition,
        "ratio": list(win.ratio),
        "cards": list(win.cards),
        "stake": stake,
    }


def first_cards_win(round_: Round, index: int, name: str) -> sb.SideBetWin | None:
    """Side bet ``name`` of box ``index`` on its first two cards and the upcard (R-4.3)."""
    return sb.evaluate_first_cards(name, tuple(round_.hands[index].cards), round_.upcard)


def needs_dice(win: sb.SideBetWin | None) -> bool:
    """Whether a Perfect 11s win waits for the Infinity dice (R-SB-12)."""
    return win is not None and win.needs_dice
