"""The Daily Shoe's days (FAIRNESS.md D-1, D-3, D-4): made ahead, or by the first request
that needs one, exactly once whoever races.

A day's server seed comes from :func:`game.services.randomness.server_seeds` and its
question lists from the active bank, drawn with :func:`randomness.make_rng`; the unique
date makes a second maker's INSERT fail, and that maker reads the first one's row.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from game.core.clock import now_ms
from game.core.errors import ActionRefused
from game.models import DailyAttempt, DailyShoe, Game
from game.rules.daily import DAILY_STAKE_CENTS, daily_game, question_list_commitment
from game.rules.fair import SEED_BYTES, commitment
from game.rules.storage import game_to_json
from game.services import randomness
from game.services.locking import lock_player
from game.services.saving import phase_note
from trivia.services import active_question_ids

if TYPE_CHECKING:
    from game.services.saving import Player

DIFFICULTIES = ("easy", "medium", "hard")
# More than a day's twenty rounds can ask of any one difficulty (two questions a round at
# most: a hit and a double, or hits on split hands, until the credits run out).
QUESTIONS_PER_DIFFICULTY = 60


def utc_today() -> date:
    """Today's UTC date on the game clock (tests move the clock, not the calendar)."""
    return datetime.fromtimestamp(now_ms() / 1000, tz=UTC).date()


def daily_shoe_for(day: date) -> DailyShoe:
    """The Daily Shoe of ``day``, made now if nothing made it before (D-4)."""
    existing = DailyShoe.objects.filter(date=day).first()
    if existing is not None:
        return existing
    seed = randomness.server_seeds()(SEED_BYTES)
    questions = {difficulty: _question_list(difficulty) for difficulty in DIFFICULTIES}
    committed = {difficulty: question_list_commitment(ids) for difficulty, ids in questions.items()}
    try:
        with transaction.atomic():
            return DailyShoe.objects.create(
                date=day,
                server_seed=seed.hex(),
                commitment=commitment(seed),
                questions=questions,
                question_commitments=committed,
            )
    except IntegrityError:
        # Another request or server made the day meanwhile: theirs is the day.
        return DailyShoe.objects.get(date=day)


def make_days_ahead(*, ahead: int, today: date | None = None) -> list[DailyShoe]:
    """Today's Daily Shoe and the next ``ahead`` days' (D-4: at least a day early)."""
    first = today or utc_today()
    return [daily_shoe_for(first + timedelta(days=offset)) for offset in range(ahead + 1)]


def _question_list(difficulty: str) -> list[int]:
    ids = list(active_question_ids(difficulty))
    randomness.make_rng().shuffle(ids)
    return ids[:QUESTIONS_PER_DIFFICULTY]


def start_attempt(*, user: Player, day: DailyShoe) -> DailyAttempt:
    """The player's one attempt at ``day`` (D-5): made now in a game of its own, or the one
    made before (resumed, never restarted). Under the player's row lock, and the unique
    (day, player) pair besides: twenty presses of Play Daily Shoe make one attempt.

    Refused (ActionRefused ``daily_not_today``) for any day but today's."""
    with transaction.atomic():
        lock_player(user)
        made = DailyAttempt.objects.filter(day=day, player=user).first()
        if made is not None:
            return made
        if day.date != utc_today():
            raise ActionRefused("daily_not_today")
        engine = daily_game(bytes.fromhex(day.server_seed), day.date)
        game = Game.objects.create(
            owner=user,
            bank_cents=engine.bank,
            credits=engine.credits,
            options=engine.options.to_dict(),
            state=game_to_json(engine),
            status_note=phase_note(),
            # D-1: the stake is fixed; Deal (or Rebet) places it.
            pending_bet_cents=DAILY_STAKE_CENTS,
        )
        return DailyAttempt.objects.create(day=day, player=user, game=game)
