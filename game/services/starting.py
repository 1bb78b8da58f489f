"""Starting a game because a player asked for one: New Game and Play now.

Both lock the player's account row first (locking.lock_player), so that twenty posts at
once are checked and answered one after the other: New Game makes one game per form
(its one-time key, game/core/once_keys.py) and Play now resumes the game the first post made.
A player has at most ``GAMES_IN_PROGRESS_PER_PLAYER`` games in progress (ended ones do
not count); New Game past it is refused with LimitReached.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import IntegrityError, transaction

from game.core import once_keys
from game.core.errors import FormExpired, LimitReached
from game.models import Game, OnceKey
from game.selectors import latest_game_in_progress
from game.services.locking import lock_player
from game.services.options import new_game

if TYPE_CHECKING:
    from game.services.saving import Player


def games_in_progress_limit() -> int:
    return int(settings.GAMES_IN_PROGRESS_PER_PLAYER)


def start_new_game(*, user: Player, once_key: str) -> Game:
    """New Game: a game with the player's last-used options, made once per form
    (``once_key``, read by once_keys.read): a repeat of the same form answers the game the
    first made. FormExpired when the key was another player's or its game is gone;
    LimitReached at the limit of games in progress."""
    try:
        with transaction.atomic():
            lock_player(user)
            record = once_keys.used(OnceKey.Kind.NEW_GAME, once_key)
            if record is not None:
                return once_keys.made_for(record, user, Game.objects.filter(owner=user))
            limit = games_in_progress_limit()
            if Game.objects.filter(owner=user, status=Game.Status.IN_PROGRESS).count() >= limit:
                raise LimitReached("too_many_games", limit=limit)
            game = new_game(user=user)
            OnceKey.objects.create(
                kind=OnceKey.Kind.NEW_GAME, key=once_key, user=user, made_id=game.pk
            )
            return game
    except IntegrityError:
        # The key was stored meanwhile by a post that did not queue behind this player's
        # lock: another player's, with this player's key.
        raise FormExpired("a new-game key used by another player") from None


def resume_or_new_game(*, user: Player) -> Game:
    """Play now for a player (a guest included): their newest game in progress, else a new
    one. Twenty posts at once make at most one game: each looks under the player's lock."""
    with transaction.atomic():
        lock_player(user)
        return latest_game_in_progress(user) or new_game(user=user)
