"""The dealer's ace offers (R-4.5) asked once for every box (UI.md "Steady controls": "Insure
all boxes for $15?", then box by box where the player wants to differ), and their words.

The question for every box is asked while two boxes or more are still waiting, none has
been answered yet and the player has not chosen to go box by box; otherwise the table
asks the box the stage has reached, as with one box.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.models import Game
from game.presentation.lookup import TemplateLookup
from game.rules.engine import Engine
from game.rules.money import display_cents
from game.rules.records import EVEN_MONEY, INSURANCE, InsuranceOffer
from game.services.play import INSURANCE_BOX_BY_BOX, waiting_insurance_offers

# The dealer's ace offers: the panel's and the outcome row's name.
OFFER_NAMES = {INSURANCE: "Insurance", EVEN_MONEY: "Even money"}
BOX_BY_BOX_LABEL = "Choose box by box"
PAYS_LINE = "Each pays 2 to 1 if the dealer has blackjack."
# Accept for every box, when the bank does not cover the total (also the refusal's words).
EVERY_BOX_SHORT = (
    "Accepting on every box costs {cost}, more than your bank of {bank}: choose box by box."
)
TOO_SMALL_TO_INSURE = "A bet this small cannot be insured: choose box by box."


@dataclass(frozen=True)
class EveryBoxQuestion(TemplateLookup):
    """Insurance or even money for every box waiting, answered with one Accept or Decline."""

    heading: str  # "Insurance?", "Even money?" or "Insurance and even money?"
    question: str  # "Insure all 3 boxes for $15.00?"
    total: int  # what accepting costs, every box together, in cents
    # Why Accept cannot be pressed ("" when it can): the bank does not cover the total.
    accept_reason: str = ""
    pays: str = PAYS_LINE
    box_by_box_label: str = BOX_BY_BOX_LABEL


def every_box_question(game: Game, engine: Engine) -> EveryBoxQuestion | None:
    """The question for every box waiting, or None when the table asks box by box."""
    offers = engine.insurance_offers()
    waiting = waiting_insurance_offers(engine)
    if len(waiting) < 2 or len(waiting) < len(offers):
        return None  # one box to ask, or the player has begun answering box by box
    if (game.status_note or {}).get("kind") == INSURANCE_BOX_BY_BOX:
        return None
    round_ = engine.round
    assert round_ is not None  # offers wait only in a round
    total = sum(offer.cost for offer in waiting)
    reason = ""
    if total > engine.bank:
        reason = EVERY_BOX_SHORT.format(cost=display_cents(total), bank=display_cents(engine.bank))
    elif any(offer.cost <= 0 for offer in waiting):
        reason = TOO_SMALL_TO_INSURE
    return EveryBoxQuestion(
        heading=_heading(waiting),
        question=_question(waiting, every_box=len(waiting) == len(round_.boxes)),
        total=total,
        accept_reason=reason,
    )


def _heading(waiting: Sequence[InsuranceOffer]) -> str:
    kinds = {offer.offer for offer in waiting}
    if kinds == {INSURANCE, EVEN_MONEY}:
        return "Insurance and even money?"
    return f"{OFFER_NAMES[kinds.pop()]}?"


def _question(waiting: Sequence[InsuranceOffer], *, every_box: bool) -> str:
    total = display_cents(sum(offer.cost for offer in waiting))
    insured = [offer.box + 1 for offer in waiting if offer.offer == INSURANCE]
    even_money = [offer.box + 1 for offer in waiting if offer.offer == EVEN_MONEY]
    if insured and even_money:
        # A box with blackjack is offered even money, the others insurance.
        return (
            f"Take even money on {_boxes(even_money)} and insure {_boxes(insured)}, {total} in all?"
        )
    boxes = _all_boxes(len(waiting)) if every_box else _boxes(insured or even_money)
    if insured:
        return f"Insure {boxes} for {total}?"
    return f"Take even money on {boxes} for {total}?"


def _all_boxes(count: int) -> str:
    return "both boxes" if count == 2 else f"all {count} boxes"


def _boxes(numbers: Sequence[int]) -> str:
    """ "Box 2", "Boxes 1 and 3", "Boxes 1, 2 and 3"."""
    if len(numbers) == 1:
        return f"Box {numbers[0]}"
    return f"Boxes {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"
