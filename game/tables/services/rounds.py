"""The table's round under the lock: betting opened and ended with the deal (T-5, T-6), the
engine's events recorded and the wallets written back to the seats, the round finished
into the next intermission (T-9), an answer carried into the hand (R-8.2) and the table
closed (T-2). Actions and deadlines alike call these; none locks or checks a version.
"""

from __future__ import annotations

import logging
from typing import Any

from game.core.clock import now_ms
from game.rules import sidebets as sb
from game.rules.records import Event, IllegalAction, SharedBox, TriviaOutcome
from game.tables.models import Seat, SharedTable, TableQuestion
from game.tables.services.boxes import seat_side_stakes, shared_box
from game.tables.services.saving import LockedTable, players_words, run_engine
from game.tables.services.seeds import seed_the_deal

logger = logging.getLogger(__name__)


def close_locked_table(locked: LockedTable, *, reason: str) -> None:
    """Close the table: its shoe finished, every seat stood up, the reason told (T-2)."""
    locked.table.phase = SharedTable.Phase.CLOSED
    # F-6: nothing more is dealt from the table's shoe, so its seed can be told.
    locked.engine.finish_shoe()
    for seat in locked.seated():
        seat.number = None
        seat.ready = False
        locked.touch(seat)
    locked.announce("table_closed", reason=reason)


def open_betting(locked: LockedTable, *, again: bool = False) -> None:
    """Open a new intermission, timed only while someone is seated (T-5, T-9).

    ``again``: the intermission before it ended with no bet (T-5): it starts over as
    ``betting_reopened``, news for the pages (the new clock) that adds no line to the
    log, so an idle table's log does not fill with "Place your bets" every intermission."""
    table = locked.table
    table.phase = SharedTable.Phase.INTERMISSION
    for seat in locked.seats:
        if seat.ready or seat.sitting_out:
            seat.ready = seat.sitting_out = False
            locked.touch(seat)
    if locked.seated():
        table.betting_ends_ms = now_ms() + table.intermission_seconds * 1000
        kind = "betting_reopened" if again else "betting_open"
        locked.announce(kind, seconds=table.intermission_seconds)
    else:
        table.betting_ends_ms = None


def end_betting_if_everyone_decided(locked: LockedTable) -> None:
    """Deal once every seated player is Ready or sitting out (T-5)."""
    seated = locked.seated()
    if seated and all(seat.ready or seat.sitting_out for seat in seated):
        end_betting(locked)


def end_betting(locked: LockedTable) -> None:
    """Deal to every seat with a bet placed, in seat order; with none, betting reopens
    (T-5, T-6).

    Each box is checked again by the engine first (``Game.check_shared_box``, the checks
    the deal itself makes): a bet that no longer passes (checked at Ready, but the seat's
    row may have changed since) sits that seat out of the round, said in the table's log,
    so one seat's bet can never refuse the others' deal nor stall the table's clock."""
    engine = locked.engine
    options = engine.options
    players: list[Seat] = []
    boxes: list[SharedBox] = []
    for seat in locked.seated():
        if not seat.ready:
            continue
        box = shared_box(options, seat)
        try:
            engine.check_shared_box(box)
        except IllegalAction as error:
            seat.ready = False
            locked.touch(seat)
            reason = players_words(error)
            logger.warning(
                "table %s: seat %s sits the round out, its bet refused: %s",
                locked.table.pk,
                seat.number,
                reason,
            )
            locked.announce("bet_refused", seat=seat.number, reason=reason)
            continue
        players.append(seat)
        boxes.append(box)
    for seat in locked.seats:
        if seat.box is not None:
            seat.box = None
            locked.touch(seat)
    if not players:
        open_betting(locked, again=True)
        return
    seed_the_deal(locked)
    events = run_engine(lambda: engine.start_shared_round(boxes))
    for index, seat in enumerate(players):
        seat.box = index
        seat.ready = False
        seat.trivia_choice_for = ""
        locked.touch(seat)
    table = locked.table
    table.phase = SharedTable.Phase.ROUND
    table.round_number = locked.engine.round_number
    table.betting_ends_ms = None
    locked.announce("round_dealt", round=table.round_number, seats=[s.number for s in players])
    after_engine(locked, events)


def after_engine(locked: LockedTable, events: list[Event]) -> None:
    """Record what the engine did (public: the engine never puts the hole card or the shoe
    in an event), write each box's wallet back to its seat, and end the round when over."""
    engine = locked.engine
    round_ = engine.round
    for event in events:
        data = {k: v for k, v in event.items() if k != "type"}
        seat = _seat_of_event(locked, data)
        if seat is not None:
            data["seat"] = seat.number
        locked.announce(event["type"], **data)
    if round_ is None:
        return
    for seat in locked.seats:
        if seat.box is None or seat.box >= len(round_.boxes):
            continue
        bank, credits = engine.box_wallet(seat.box)
        if (bank, credits) != (seat.bank_cents, seat.credits):
            seat.bank_cents, seat.credits = bank, credits
            locked.touch(seat)
    if round_.over and locked.table.phase == SharedTable.Phase.ROUND:
        _finish_round(locked)


def _seat_of_event(locked: LockedTable, data: dict[str, Any]) -> Seat | None:
    """The seat an engine event is about: by its box (several boxes), its hand, or the one
    box of a round dealt to one seat."""
    round_ = locked.engine.round
    if round_ is None or data.get("to") == "dealer":
        return None
    if "box" in data:
        return locked.seat_with_box(int(data["box"]) - 1)
    if "hand" in data and int(data["hand"]) < len(round_.hands):
        return locked.seat_with_box(round_.hands[int(data["hand"])].box)
    if len(round_.boxes) == 1 and data.get("to") == "player":
        return locked.seat_with_box(0)
    return None


def _finish_round(locked: LockedTable) -> None:
    """Every box settled and shown: the next intermission begins (T-9)."""
    for seat in locked.seats:
        if seat.pending_question_id is not None or seat.trivia_choice_for:
            seat.pending_question = None
            seat.trivia_choice_for = ""
            locked.touch(seat)
        if seat.bet_cents > seat.bank_cents:
            seat.bet_cents = 0
            locked.touch(seat)
        _fit_side_stakes(locked, seat)
    open_betting(locked)


def _fit_side_stakes(locked: LockedTable, seat: Seat) -> None:
    """The side stakes stay as the next round's defaults, cut down in menu order to what
    the bank still covers after the bet (one below the table minimum is dropped), as in the
    single-player game."""
    stakes = seat_side_stakes(seat)
    if not stakes:
        return
    fitted = sb.fit_side_stakes(
        stakes,
        base_cents=seat.bet_cents,
        bank_cents=seat.bank_cents,
        min_cents=locked.options.min_bet,
    )
    if fitted != stakes:
        seat.side_bets = fitted
        locked.touch(seat)


def apply_answer(
    locked: LockedTable, seat: Seat, asked: TableQuestion, *, answer: str, deadline: int | None
) -> None:
    """Carry an answer, or a question's time run out (``deadline``), into the hand: the
    question revealed to everyone (T-11), the card dealt or the hand standing (R-8.2, R-8.9)."""
    correct = deadline is None and answer == asked.question.correct_answer
    outcome = TriviaOutcome(asked.difficulty, correct, timed_out=deadline is not None)
    asked.answer_given = answer
    asked.correct = correct
    asked.timed_out = deadline is not None
    asked.save(update_fields=["answer_given", "correct", "timed_out"])
    seat.pending_question = None
    locked.touch(seat)
    locked.announce(
        "question_revealed",
        seat=seat.number,
        difficulty=asked.difficulty,
        question=asked.question.text,
        answer_given=answer,
        correct_answer=asked.question.correct_answer,
        correct=correct,
        timed_out=deadline is not None,
    )
    engine = locked.engine
    if deadline is not None:
        engine.start_next_decision_at(deadline)
    method = engine.hit if asked.action == "hit" else engine.double
    after_engine(locked, run_engine(lambda: method(outcome)))
