"""A table's life: created (T-1), its options changed between rounds and its invitation
link renewed by the host, closed (T-2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, transaction

from game.core import once_keys
from game.core.clock import from_epoch_ms, now_ms
from game.core.errors import ActionRefused, FormExpired, LimitReached
from game.models import OnceKey
from game.services.locking import lock_player
from game.tables.models import SEATS_MAX, SEATS_MIN, SharedTable, new_invite_token
from game.tables.services.guards import check_table_version, require_between_rounds, require_host
from game.tables.services.locking import locked_table
from game.tables.services.options import INTERMISSION_SECONDS, table_options
from game.tables.services.rounds import close_locked_table
from game.tables.services.saving import LockedTable, new_engine, run_engine, save_table

if TYPE_CHECKING:
    from game.tables.services.saving import Player


def create_table(
    *,
    host: Player,
    name: str,
    public: bool,
    seat_count: int,
    intermission_seconds: int = 30,
    options: dict[str, Any] | None = None,
    once_key: str | None = None,
) -> SharedTable:
    """Create a table; its host sits down later like anyone else (T-1).

    Made under the host's row lock: a host has at most ``TABLES_HOSTED_PER_PLAYER`` open
    tables (LimitReached past it). With ``once_key`` (Create Table's one-time key,
    game/core/once_keys.py) a repeat of the same form answers the table the first one made
    (FormExpired when the key was another player's or its table is gone)."""
    name = name.strip()
    if not name:
        raise ActionRefused("table_name_missing")
    if not SEATS_MIN <= seat_count <= SEATS_MAX:
        raise ActionRefused("seat_count_out_of_range")
    low, high = INTERMISSION_SECONDS
    if not low <= intermission_seconds <= high:
        raise ActionRefused("intermission_out_of_range")
    engine = new_engine(table_options(options))
    try:
        with transaction.atomic():
            lock_player(host)
            made = None if once_key is None else once_keys.used(OnceKey.Kind.TABLE, once_key)
            if made is not None:
                return once_keys.made_for(made, host, SharedTable.objects.filter(host=host))
            _check_room_for_a_table(host)
            table = SharedTable.objects.create(
                name=name[:60],
                host=host,
                public=public,
                seat_count=seat_count,
                intermission_seconds=intermission_seconds,
                empty_since=from_epoch_ms(now_ms()),  # T-2: nobody seated yet
            )
            locked = LockedTable(table, [], engine)
            locked.announce("table_opened", name=table.name)
            save_table(locked)
            if once_key is not None:
                OnceKey.objects.create(
                    kind=OnceKey.Kind.TABLE, key=once_key, user=host, made_id=table.pk
                )
    except IntegrityError:
        # Stored meanwhile by a post that did not queue behind this host's lock: another
        # player's, with this player's key.
        raise FormExpired("a table key used by another player") from None
    return table


def _check_room_for_a_table(host: Player) -> None:
    """Refuse a new table past the host's ``TABLES_HOSTED_PER_PLAYER`` open ones."""
    limit = int(settings.TABLES_HOSTED_PER_PLAYER)
    hosted = SharedTable.objects.filter(host=host).exclude(phase=SharedTable.Phase.CLOSED)
    if hosted.count() >= limit:
        raise LimitReached("too_many_tables", limit=limit)


def change_options(
    *, table_id: int, user: Player, version: int, options: dict[str, Any]
) -> SharedTable:
    """The host changes the options between rounds, while no bet is placed (T-2)."""
    with locked_table(table_id=table_id) as locked:
        require_host(locked, user)
        check_table_version(locked.table, version)
        require_between_rounds(locked)
        if any(seat.ready for seat in locked.seats):
            raise ActionRefused("bets_placed")
        new_options = table_options(options)
        run_engine(lambda: locked.engine.set_options(new_options))
        locked.announce("options_changed")
        return locked.table


def renew_invite(*, table_id: int, user: Player, version: int) -> SharedTable:
    """A new invitation link; the old one stops working (T-1). The event wakes every
    stream at the table at once, so that one a watcher opened by the old link ends now."""
    with locked_table(table_id=table_id) as locked:
        require_host(locked, user)
        check_table_version(locked.table, version)
        locked.table.invite_token = new_invite_token()
        locked.announce("invite_renewed")
        return locked.table


def close_table(*, table_id: int, user: Player, version: int) -> SharedTable:
    """The host closes the table between rounds (T-2)."""
    with locked_table(table_id=table_id) as locked:
        require_host(locked, user)
        check_table_version(locked.table, version)
        require_between_rounds(locked)
        close_locked_table(locked, reason="host")
        return locked.table
