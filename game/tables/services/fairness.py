"""The table's committed shoes (F-2, F-6): a player's own client seed, and the host's
Shuffle now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.errors import ActionRefused
from game.rules.fair import InvalidClientSeed, check_client_seed
from game.services.fairness import untouched_shoe
from game.tables.models import Seat, SharedTable
from game.tables.services.guards import check_table_version, own_seat, require_host
from game.tables.services.locking import locked_table
from game.tables.services.rounds import after_engine
from game.tables.services.saving import run_engine
from game.tables.services.seeds import seed_new_shoes

if TYPE_CHECKING:
    from game.tables.services.saving import Player


def set_seat_client_seed(*, table_id: int, user: Player, version: int, client_seed: str) -> Seat:
    """Set the player's own client seed (1–64 printable ASCII characters). It joins the
    others' in the table's next shoe, or in the shoe no card has left yet at the next deal;
    the shoe dealing now keeps the seed it was committed with (F-2)."""
    try:
        seed = check_client_seed(client_seed)
    except InvalidClientSeed as error:
        raise ActionRefused("bad_client_seed", text=str(error)) from None
    with locked_table(table_id=table_id) as locked:
        seat = own_seat(locked, user, version)
        seat.client_seed = seed
        # News for every page: the felt shows the seeds the next shoe will be dealt with.
        locked.announce("client_seed_changed", seat=seat.number)
        return seat


def shuffle_now(*, table_id: int, user: Player, version: int) -> SharedTable:
    """The host finishes the shoe between rounds (Shuffle now): its seed is revealed with
    the cards dealt from it, and a new committed shoe, dealt with the seated players'
    seeds (F-2), takes its place. A shoe no card has left is new already (F-6)."""
    with locked_table(table_id=table_id) as locked:
        require_host(locked, user)
        check_table_version(locked.table, version)
        if locked.table.phase != SharedTable.Phase.INTERMISSION:
            raise ActionRefused("shuffle_between_rounds")
        engine = locked.engine
        if untouched_shoe(engine):
            raise ActionRefused("shoe_new")
        seed_new_shoes(locked)
        after_engine(locked, run_engine(engine.shuffle_now))
        return locked.table
