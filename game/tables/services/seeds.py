"""The seated players' client seeds joined into the table's shoes (F-2): the next shoes
always, the shoe about to be dealt from while no card has left it.
"""

from __future__ import annotations

from collections.abc import Iterable

from game.rules.fair import CommittedShoes, join_client_seeds
from game.services.fairness import untouched_shoe
from game.tables.models import Seat
from game.tables.services.saving import LockedTable, run_engine


def seats_client_seed(seats: Iterable[Seat]) -> str | None:
    """The client seed of the table's next shoe: its seated players' seeds in seat order
    joined with "|" (F-2); None while nobody is seated."""
    seated = sorted((s for s in seats if s.number is not None), key=lambda s: s.number or 0)
    if not seated:
        return None
    return join_client_seeds([seat.client_seed for seat in seated])


def seed_new_shoes(locked: LockedTable) -> str | None:
    """Every shoe opened from now on is dealt with the seated players' seeds joined (the
    seeds of who sits now); the joined seed, None while nobody is seated."""
    joined = seats_client_seed(locked.seats)
    source = locked.engine.source
    if joined is not None and isinstance(source, CommittedShoes):
        source.client_seed = joined
    return joined


def seed_the_deal(locked: LockedTable) -> None:
    """Before a deal, the next shoes take the seated players' seeds, and so does the shoe
    about to be dealt from when no card has left it (the table's first shoe, or one
    shuffled since): shuffled again from the same server seed, its commitment unchanged
    (F-2). A shoe rebuilt by the deal itself (R-2.2) is then opened with them too."""
    joined = seed_new_shoes(locked)
    engine = locked.engine
    source = engine.source
    showing = source.showing() if isinstance(source, CommittedShoes) else None
    if joined is None or showing is None or showing.client_seed == joined:
        return
    if untouched_shoe(engine):
        run_engine(lambda: engine.set_client_seed(joined))
