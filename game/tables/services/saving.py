"""The locked table an action works on and its save: the table row, its seats and its
engine (read when first asked for), written back with the events everyone may see, the
table's next deadline (T-13) and the live channel told after the commit (T-10).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from game.core import sql
from game.core.clock import epoch_ms, now_ms
from game.core.errors import ActionRefused
from game.rules.engine import Engine
from game.rules.options import Options
from game.rules.records import IllegalAction
from game.rules.storage import game_from_json, game_to_json
from game.services import randomness
from game.services.shoe_records import shoe_writes
from game.tables import live
from game.tables.models import Seat, SharedTable, TableEvent, TableShoe
from game.tables.services.options import table_options

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    # The player acting: the logged-in account a view passes in.
    Player = User


@dataclass
class LockedTable:
    """A table row locked for one action, its seats and its engine.

    The engine is read from the table's state the first time it is asked for: an action
    that needs only the rules (a chip, a side chip) reads ``options`` and never parses the
    round and the shoe."""

    table: SharedTable
    seats: list[Seat]
    loaded_engine: Engine | None = None
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    changed_seats: set[int] = field(default_factory=set)
    # The events saved so far, oldest first (the answer's scene takes them, not a read).
    written_events: list[TableEvent] = field(default_factory=list)

    @property
    def engine(self) -> Engine:
        if self.loaded_engine is None:
            self.loaded_engine = load_engine(self.table)
        return self.loaded_engine

    @property
    def options(self) -> Options:
        """The table's rules: the engine's when it is loaded, else the stored copy (the
        same options: ``save_table`` writes the engine's back whenever they change)."""
        if self.loaded_engine is not None:
            return self.loaded_engine.options
        return table_options(self.table.options)

    def seat_of(self, user: Player) -> Seat | None:
        for seat in self.seats:
            if seat.player_id == user.pk:
                return seat
        return None

    def seated(self) -> list[Seat]:
        return sorted((s for s in self.seats if s.number is not None), key=lambda s: s.number or 0)

    def seat_with_box(self, box: int) -> Seat | None:
        for seat in self.seats:
            if seat.box == box:
                return seat
        return None

    def touch(self, seat: Seat) -> None:
        self.changed_seats.add(seat.pk)

    def announce(self, kind: str, /, **data: Any) -> None:
        """Record an event everyone at the table sees (named by seat and player)."""
        number = data.get("seat")
        if number is not None and "player" not in data:
            for seat in self.seats:
                if seat.number == number:
                    data["player"] = seat.player.get_username()
                    break
        self.events.append((kind, data))


def load_engine(table: SharedTable) -> Engine:
    """The table's engine as stored: its committed shoes go on (a table stored before
    shoes were committed gets them from its next shoe, F-1)."""
    if table.state:
        return game_from_json(
            table.state,
            rng=randomness.make_rng(),
            seed_bytes=randomness.server_seeds(),
            clock=now_ms,
        )
    return new_engine(table_options(table.options))


def new_engine(options: Options) -> Engine:
    """A new table's engine: its first shoe committed before anyone sits (F-1)."""
    return Engine(options, rng=randomness.make_rng(), source=randomness.shoe_source(), clock=now_ms)


def seats_of_table(table_id: int) -> list[Seat]:
    """A table's seats in order, with their players and open questions."""
    seats = Seat.objects.filter(table_id=table_id)
    return list(seats.select_related("player", "pending_question__question").order_by("id"))


def save_table(locked: LockedTable) -> None:
    """Write what the action changed: the shoes, the engine's state and rules when they
    changed, the next deadline, the events, the seats touched; tell the live channel (T-10)."""
    table = locked.table
    written = list(TABLE_ROW_FIELDS)
    # The engine's state and the rules are written only when they changed: a chip, a
    # Ready or a seat taken leaves them alone, and the table's lock is held for less. An
    # engine never loaded has changed nothing.
    engine = locked.loaded_engine
    if engine is not None:
        # The shoes the action opened, dealt again for new seeds or revealed (F-1, F-6).
        sql.run_all(shoe_writes(engine.source, TableShoe, {"table_id": table.pk}))
        state = game_to_json(engine)
        if state != table.state:
            table.state = state
            written.append("state")
        # The rules as chosen (a shared table's one box per seat is implied, not stored).
        options = {k: v for k, v in engine.options.to_dict().items() if k != "seats"}
        if options != table.options:
            table.options = options
            written.append("options")
    table.deadline_ms = next_deadline(locked)
    first_seq = table.version + 1
    if locked.events:
        locked.written_events += TableEvent.objects.bulk_create(
            [
                TableEvent(table=table, seq=first_seq + i, kind=kind, data=data)
                for i, (kind, data) in enumerate(locked.events)
            ]
        )
        table.version += len(locked.events)
    table.revision += 1
    SharedTable.objects.filter(pk=table.pk).update(
        **{name: getattr(table, name) for name in written}
    )
    for seat in locked.seats:
        if seat.pk in locked.changed_seats:
            # One UPDATE a seat: bulk_update's CASE … WHEN cost more Python than the
            # statements it saved (py-spy, the load bench).
            update_seat(seat)
    if locked.events:
        live.announce(table.pk, table.version)
    locked.events = []
    locked.changed_seats = set()


# What an action may change on a table (everything but its key, host and creation time).
TABLE_STATE_FIELDS = tuple(
    field.name
    for field in SharedTable._meta.concrete_fields
    if field.name not in ("id", "host", "created")
)


# Those always written (the engine's state and the rules only when changed).
TABLE_ROW_FIELDS = tuple(name for name in TABLE_STATE_FIELDS if name not in ("state", "options"))


# What an action may change on a seat (saved by one UPDATE for each seat changed).
SEAT_STATE_FIELDS = (
    "number",
    "bank_cents",
    "credits",
    "bet_cents",
    "side_bets",
    "extra_bet",
    "ready",
    "sitting_out",
    "box",
    "trivia_choice_for",
    "pending_question",
    "client_seed",
    "version",
)


def update_seat(seat: Seat) -> None:
    """Write what an action may change on ``seat`` (its row is locked by the action)."""
    Seat.objects.filter(pk=seat.pk).update(
        **{name: getattr(seat, name) for name in SEAT_STATE_FIELDS}
    )


Result = TypeVar("Result")


def run_engine(action: Callable[[], Result]) -> Result:
    """Run an engine action and give back what it returns (its events, or nothing for a
    check), its IllegalAction refused in the player's words (``rule``)."""
    try:
        return action()
    except IllegalAction as error:
        raise ActionRefused("rule", text=players_words(error)) from None


_BOX_PREFIX = re.compile(r"^Box \d+: ")


def players_words(error: IllegalAction) -> str:
    """The engine's reason without the "Box N: " a shared round puts before it: a player
    knows their seat, not their box's number in the engine's order."""
    text = _BOX_PREFIX.sub("", str(error), count=1)
    return text[:1].upper() + text[1:]


EMPTY_TABLE_CLOSES_AFTER = timedelta(minutes=30)  # T-2


def _answer_ms(options: Options) -> int:
    """The question's clock inside the turn (R-8.9, T-8): table_options always sets one."""
    assert options.answer_ms is not None
    return options.answer_ms


def pending_answer_deadlines(locked: LockedTable) -> list[tuple[int, Seat]]:
    """Each open question's deadline and its seat, soonest first (R-8.9, T-8)."""
    options = locked.options
    return sorted(
        (
            (seat.pending_question.shown_ms + _answer_ms(options), seat)
            for seat in locked.seats
            if seat.pending_question is not None
        ),
        key=lambda pair: pair[0],
    )


def next_deadline(locked: LockedTable) -> int | None:
    """The table's next deadline, None when nothing waits on the clock (T-13)."""
    table = locked.table
    if table.is_closed:
        return None
    if table.phase == SharedTable.Phase.INTERMISSION:
        if locked.seated():
            return table.betting_ends_ms
        if table.empty_since is not None:
            return empty_table_closes_ms(table)
        return None
    candidates = [deadline for deadline, _ in pending_answer_deadlines(locked)]
    round_ = locked.engine.round
    if round_ is not None and round_.deadline is not None:
        candidates.append(round_.deadline)
    return min(candidates) if candidates else None


def empty_table_closes_ms(table: SharedTable) -> int:
    """When a table with nobody seated closes (T-2), on the table clock: the clock every
    other deadline reads."""
    assert table.empty_since is not None
    return epoch_ms(table.empty_since + EMPTY_TABLE_CLOSES_AFTER)
