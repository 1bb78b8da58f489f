"""Every action's transaction: the game row locked, its deadlines applied, the version
checked.

Every action runs in :func:`locked_game`: one ``transaction.atomic`` with the game row
locked (``SELECT ... FOR UPDATE``, filtered by owner so another player's game is simply
not found: GameNotFound). The page posts the version it was rendered from; an older one
is a stale post (double click, second tab, back button) and changes nothing. The save
repeats the version check inside the UPDATE so it also holds on SQLite, which has no row
locks.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction

from game.core.errors import GameNotFound, StaleVersion, TimeRanOut
from game.core.sql import read_game
from game.models import Game
from game.services.deadlines import TIME_RAN_OUT, apply_deadlines, deadline_due
from game.services.results import Played
from game.services.saving import LockedGame, load_engine

if TYPE_CHECKING:
    from game.services.saving import Player


@contextmanager
def locked_game(*, game_id: int, user: Player, version: int) -> Iterator[LockedGame]:
    """One action's transaction: the owner's game row locked, the posted version checked.

    Raises GameNotFound (another player's game too) or StaleVersion; whatever the body
    raises rolls the transaction back, so a refused action changes nothing. A deadline
    that ran out before the action came is applied first and kept, and the action is
    refused with TimeRanOut (R-4.13, R-8.9)."""
    with transaction.atomic():
        locked = lock_game(game_id=game_id, user=user)
        if not apply_deadlines(locked):
            _check_version(locked.game, version)
            yield locked
            if locked.pending_writes or locked.new_row is not None:
                # A write queued after the game's save would be lost without a word.
                raise RuntimeError("writes queued after the game was saved")
            return
    raise TimeRanOut()


def _check_version(game: Game, version: int) -> None:
    if game.version == version:
        return
    if (game.status_note or {}).get("kind") == TIME_RAN_OUT and version < game.version:
        # The page was shown before its deadline was applied (by a reload, or another
        # tab): say why the table moved on, not merely that the page is old.
        raise TimeRanOut()
    raise StaleVersion(f"game {game.pk}: version {version} posted, {game.version} stored")


def lock_game(*, game_id: int, user: Player | int) -> LockedGame:
    """Lock the owner's game row (call inside atomic), reading with it in the same query
    all an action needs besides the engine state (game/core/sql.py)."""
    owner_id = user if isinstance(user, int) else user.pk
    read = read_game(game_id=game_id, owner_id=owner_id, lock=True)
    if read is None:
        raise GameNotFound(game_id)
    engine = load_engine(read.game)
    return LockedGame(
        read.game,
        engine,
        round_was_open=engine.round_in_progress,
        round_row_id=read.round_row_id,
        question_pool_stamp=read.question_pool_stamp,
        player_rating=read.player_rating,
        player_rated_answers=read.player_rated_answers,
        asked_since_review=read.asked_since_review,
    )


def catch_up_deadlines(*, game: Game) -> Played | None:
    """Apply the game's deadlines that have run out before it is shown (R-4.13: a game
    resumed after its deadline finds the hand stood); what that played, None when no
    deadline was due. Locks only when one is due."""
    if not deadline_due(game):
        return None
    with transaction.atomic():
        locked = lock_game(game_id=game.pk, user=game.owner_id)
        apply_deadlines(locked)
    # A deadline makes no move the coach judges: there is no note.
    return Played(locked.game, locked.engine, coach_note="")


def lock_player(user: Player | int) -> None:
    """Lock the player's account row until the transaction ends (call inside atomic): what
    creates something for a player (a game, a table) checks and creates under it, so two
    posts at once queue instead of both finding room. PostgreSQL's FOR NO KEY UPDATE: rows
    that only refer to the account (a game, a seat) are still inserted meanwhile. SQLite
    has no row locks; its transactions take the write lock at BEGIN (IMMEDIATE) and queue
    the same way."""
    user_id = user if isinstance(user, int) else user.pk
    list(
        get_user_model()
        .objects.select_for_update(no_key=True)
        .filter(pk=user_id)
        .values_list("pk", flat=True)
    )
