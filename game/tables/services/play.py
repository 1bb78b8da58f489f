"""The decisions of a shared round (T-7, T-8): the offers each player concerned answers at
once, and the play of the box in turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.errors import ActionRefused
from game.rules.records import OFFER_ACTIONS
from game.services.guards import TRIVIA_ACTIONS
from game.tables.models import Seat
from game.tables.services.guards import own_seat, require_round, require_turn
from game.tables.services.locking import locked_table
from game.tables.services.rounds import after_engine
from game.tables.services.saving import run_engine

if TYPE_CHECKING:
    from game.tables.services.saving import Player


# T-7's answers a shared table takes: the engine's own (insurance, even money, early
# surrender, the extra bet, the House Money parlay, the Perfect 11s dice). The engine then
# refuses any that is not on offer to that box now.
OFFER_ANSWERS = OFFER_ACTIONS


# The one answer that carries an amount: "extra_bet" with the amount in cents.
EXTRA_BET_ANSWER = "extra_bet"


PLAYS = ("stand", "split", "surrender")


TRIVIA_PLAYS = TRIVIA_ACTIONS


def answer_offer(
    *,
    table_id: int,
    user: Player,
    version: int,
    answer: str,
    amount_cents: int | None = None,
) -> Seat:
    """Answer an offer: insurance / even money, early surrender, the extra bet
    (``"extra_bet"`` with ``amount_cents``, or ``"extra_bet:decline"``), the House Money
    parlay and the Perfect 11s dice, answered by each player concerned at once; the engine
    checks the answer against that seat's box and wallet, the extra bet's limits
    included (T-7)."""
    if answer not in OFFER_ANSWERS:
        raise ActionRefused("no_such_answer")
    if answer == EXTRA_BET_ANSWER:
        if amount_cents is None:
            raise ActionRefused("no_amount")
        answer = f"{EXTRA_BET_ANSWER}:{amount_cents}"
    with locked_table(table_id=table_id) as locked:
        seat = own_seat(locked, user, version)
        require_round(locked)
        if seat.box is None:
            raise ActionRefused("not_your_turn")
        box = seat.box
        events = run_engine(lambda: locked.engine.answer_for_box(box, answer))
        after_engine(locked, events)
        return seat


def play(*, table_id: int, user: Player, version: int, action: str) -> Seat:
    """Stand, Split or Surrender for the box in turn; Hit and Double Down ask a question
    first in trivia mode (the difficulty choice opens), else act at once (T-8)."""
    if action not in PLAYS + TRIVIA_PLAYS:
        raise ActionRefused("no_such_action")
    with locked_table(table_id=table_id) as locked:
        seat = own_seat(locked, user, version)
        require_turn(locked, seat)
        engine = locked.engine
        legality = engine.legal_actions().get(action)
        if legality != "allowed":
            raise ActionRefused("rule", text=legality)
        if action in TRIVIA_PLAYS and engine.options.trivia_mode:
            seat.trivia_choice_for = action
            return seat
        method = getattr(engine, action)
        after_engine(locked, run_engine(method))
        return seat
