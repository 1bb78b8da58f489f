"""Applies every deadline that ran out, oldest first (T-13): an intermission's end, an
empty table's closing, an unanswered question, an offer's or a turn's time.
"""

from __future__ import annotations

from game.core.clock import now_ms
from game.tables.models import SharedTable
from game.tables.services.rounds import after_engine, apply_answer, close_locked_table, end_betting
from game.tables.services.saving import (
    LockedTable,
    empty_table_closes_ms,
    pending_answer_deadlines,
    run_engine,
)


def apply_due(locked: LockedTable) -> int:
    """Apply every deadline that has run out, oldest first; how many were applied."""
    applied = 0
    while True:
        now = now_ms()
        table = locked.table
        if table.is_closed:
            return applied
        if table.phase == SharedTable.Phase.INTERMISSION:
            if not locked.seated():
                if table.empty_since is not None and now >= empty_table_closes_ms(table):
                    close_locked_table(locked, reason="empty")
                    return applied + 1
                return applied
            ends = table.betting_ends_ms
            if ends is None or now < ends:
                return applied
            end_betting(locked)
            applied += 1
            continue
        answers = pending_answer_deadlines(locked)
        if answers and now >= answers[0][0]:
            deadline, seat = answers[0]
            question = seat.pending_question
            assert question is not None  # a pending answer's deadline is its question's
            apply_answer(locked, seat, question, answer="", deadline=deadline)
            applied += 1
            continue
        if locked.engine.deadline_passed():
            _time_out_decision(locked)
            applied += 1
            continue
        return applied


def _time_out_decision(locked: LockedTable) -> None:
    """Time out an offer stage or a turn: the engine applies the defaults (decline,
    collect, roll) or stands the hand, and the next box plays (T-7, T-8)."""
    engine = locked.engine
    for seat in locked.seats:
        if seat.box is not None and seat.trivia_choice_for:
            seat.trivia_choice_for = ""
            locked.touch(seat)
    after_engine(locked, run_engine(engine.timeout))
