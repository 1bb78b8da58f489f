"""A Daily Shoe attempt's record (FAIRNESS.md D-6, D-7), kept as its game is played: each
round's result when it ends, the trivia score, and the final bank when the attempt is over.
Written with the game's save; only a Daily game's actions that end a round pay the read."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from game.core import sql
from game.models import DailyAttempt, DailyRoundResult, DailyShoe, Game, TriviaAttempt
from game.rules.engine import Engine


def round_result(net_cents: int) -> str:
    """A round's square: a win, a loss or a push by what the round paid (D-7)."""
    return "win" if net_cents > 0 else "loss" if net_cents < 0 else "push"


def daily_writes(game: Game, engine: Engine) -> list[sql.Write]:
    """The attempt's UPDATE after an action that ended a round or the attempt, with the
    round's result row when a round ended (D-6, D-7); else none."""
    round_ = engine.round
    # A round dealt and settled by the same action (a natural on either side) was never
    # open before it; the attempt's count of rounds tells whether it is recorded yet.
    ended_round = round_ is not None and round_.over
    if not (ended_round or engine.game_over):
        return []
    attempt = DailyAttempt.objects.filter(game_id=game.pk).first()
    if attempt is None or attempt.finished:
        return []
    values: dict[str, Any] = {}
    writes: list[sql.Write] = []
    if ended_round and round_ is not None and len(attempt.rounds) < round_.number:
        net = round_.paid - round_.staked
        values["rounds"] = [*attempt.rounds, {"net_cents": net, "result": round_result(net)}]
        # The same figure as a row, which the percentile counts along its index (D-6).
        result = DailyRoundResult(
            attempt_id=attempt.pk, day_id=attempt.day_id, round_number=round_.number, net_cents=net
        )
        insert = sql.insert_all_write([result])
        if insert is not None:
            writes.append(insert)
    values["questions_answered"], values["right_answers"] = _trivia_score(game)
    if engine.game_over:
        values["final_bank_cents"] = engine.bank
        values["finished_at"] = timezone.now()
        writes.append(finished_attempt_write(attempt.day_id))
    return [sql.update_write(DailyAttempt, values, id=attempt.pk), *writes]


def finished_attempt_write(day_id: int) -> sql.Write:
    """An attempt of the day finished: one more row on its leaderboard, which has changed."""
    return sql.add_write(DailyShoe, {"finished_attempts": 1, "board_version": 1}, id=day_id)


def _trivia_score(game: Game) -> tuple[int, int]:
    """Questions answered and answered right in the game, the one answered by this action
    included (its UPDATE is among the save's writes, not in the table yet)."""
    pending = game.pending_trivia if game.pending_trivia_id is not None else None
    answered = TriviaAttempt.objects.filter(game_id=game.pk, correct__isnull=False)
    if pending is not None:
        answered = answered.exclude(pk=pending.pk)
    counts = [answered.count(), answered.filter(correct=True).count()]
    if pending is not None and pending.correct is not None:
        counts[0] += 1
        counts[1] += int(pending.correct)
    return counts[0], counts[1]
