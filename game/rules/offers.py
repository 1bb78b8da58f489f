"""The offers made before the player's turn (RULES.md R-4.4–R-4.7a; TABLES.md T-7).

The phase of :class:`game.rules.engine.Engine` that offers, box by box, the extra bet,
insurance or even money, early surrender, the House Money parlay and the Perfect 11s
dice, and applies the answers. In a shared round an offer stage is open to every box it
concerns at once: an answer given ahead of the box's turn is kept and applied when the
stage reaches that box, and the stage has one deadline.
"""

from __future__ import annotations

from typing import Final

from game.rules import sidebets as sb
from game.rules.cards import is_ten_card
from game.rules.money import (
    display_cents,
    format_cents,
    half_down,
)
from game.rules.phase_base import PhaseBase, trait
from game.rules.records import (
    DEALING,
    EARLY_SURRENDER,
    EVEN_MONEY,
    EXTRA_BET,
    HOUSE_MONEY_PARLAY,
    INSURANCE,
    Event,
    GameOver,
    IllegalAction,
    InsuranceOffer,
)
from game.rules.round_state import (
    STEP_AFTER_DEAL,
    STEP_EARLY_SURRENDER,
    STEP_EXTRA_BET,
    STEP_INSURANCE,
    STEP_PARLAY,
    STEP_PLAYER_TURN,
    Round,
)
from game.rules.side_bet_phase import first_cards_win, needs_dice

# T-7: an offer stage of a shared round is timed with turn_seconds, or 20 s when the
# table's timers are off.
SHARED_OFFER_MS: Final = 20_000
DICE: Final = 3


@trait
class Offers(PhaseBase):
    """The offers before the player's turn, box by box: extra bet, insurance, even money,
    early surrender, the House Money parlay and the Perfect 11s dice (R-4.3–R-4.7a)."""

    # The state is PhaseBase's.
    __slots__ = ()

    def insurance_cost(self, box: int | None = None) -> int:
        """What insurance costs: half the base bet of the box in play (or of box index
        ``box``), rounded down to the cent (R-4.5)."""
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
            raise IllegalAction(f"{label}{NOT_OFFERED.get(kind, f'Unknown offer: {kind}')}")
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
        """Whether box ``index``'s Perfect 11s waits (or will wait) for the dice (R-SB-12)."""
        box = round_.boxes[index]
        pending = box.pending_side_bets.get(sb.PERFECT_11S)
        if pending is not None:  # the box the after-deal stage waits at
            return bool(pending.get("needs_dice", False))
        if not box.side_stakes.get(sb.PERFECT_11S) or index < round_.offer_box:
            return False  # no stake, or settled already
        return needs_dice(first_cards_win(round_, index, sb.PERFECT_11S))

    def _insurance_offer(self, round_: Round, index: int) -> str | None:
        """The insurance offer to one box, by its own hand: even money to a natural, else
        insurance (R-4.5)."""
        table = self._table
        if round_.hands[index].is_natural():
            return EVEN_MONEY if table.even_money else None
        return INSURANCE if table.insurance else None

    def _parlay_offered(self, round_: Round, index: int) -> bool:
        """Whether box ``index`` is offered the parlay (R-4.7a): House Money won and the
        dealer known to have no natural
        (inverted, §10 Extensions: the win is settled as a loss, nothing to parlay)."""
        return (
            sb.HOUSE_MONEY in round_.boxes[index].pending_side_bets
            and self._dealer_natural_ruled_out()
            and not self._table.inverted
        )

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
        """Place the extra bet (amount in cents) or decline it (None), R-SB-20."""
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
        """Collect House Money, or parlay the bet, the winnings or all onto hand 1 (R-SB-31)."""
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
        """Roll the three Infinity dice for a suited 11, decided here, server side (R-SB-12)."""
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
        round_.offer_box += 1  # the next box's side bets on the first cards

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

    def _time_out_stage(self, round_: Round) -> list[Event]:
        """A shared round's offer stage ran out of time (T-7): the defaults for every box
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

    def _why_not_insure(self, kind: str, box: int) -> str | None:
        cost = self.insurance_cost(box)
        label = "Insurance" if kind == "insurance" else "Even Money"
        if cost <= 0:
            return f"{label} would cost nothing at this bet"
        if cost > self._bank_of(box):
            return f"{label} costs {display_cents(cost)}; your bank does not cover it"
        return None

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

    def _stage_extra_bet(self, round_: Round) -> bool:
        """Offer the extra bet when active and hand 1's first card is a ten-card (R-4.4)."""
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
        """Offer Even Money to a natural, Insurance otherwise, against an ace upcard (R-4.5)."""
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
        """Offer early surrender before the peek in early mode (early_non_ace: against a
        ten-card upcard), R-4.6."""
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

    def _stage_parlay(self, round_: Round) -> bool:
        """Offer the parlay choice where House Money won and the dealer has no natural
        (R-4.7a)."""
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


def _extra_bet_offered(round_: Round, index: int) -> bool:
    """Whether box ``index`` is offered the extra bet: activated, and its hand 1's first
    card a ten-card (R-4.4)."""
    return round_.boxes[index].extra_bet_active and sb.extra_bet_offered(
        round_.hands[index].cards[0]
    )


def _early_surrender_offered(round_: Round, index: int) -> bool:
    """Whether box ``index`` is offered early surrender, in a stage that offers it: never
    to a natural (R-4.6)."""
    return not round_.hands[index].is_natural()


OFFER_PHASES = {
    "insurance": INSURANCE,
    "even_money": EVEN_MONEY,
    "early_surrender": EARLY_SURRENDER,
    "extra_bet": EXTRA_BET,
    "parlay": HOUSE_MONEY_PARLAY,
    "roll": DEALING,
}

NOT_OFFERED = {
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
