"""Helpers for the shared-table tests."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from game.rules.engine import Engine
from game.rules.storage import game_from_json
from game.tables import services
from game.tables.models import SharedTable


def with_cards_on_top(state: dict[str, Any], cards: list[str]) -> dict[str, Any]:
    """A table's engine state with ``cards`` next in its shoe, in deal order (what is left
    of the shoe after them).

    The stacked shoe counts one card dealt already: a shoe no card has left is shuffled
    again for the seated players' seeds at the deal (F-2), which would undo the stacking.
    Its committed stream stays open for the dice."""
    shoe = dict(state["shoe"])
    shoe["cards"] = list(cards) + list(shoe["cards"])[shoe.get("position", 0) :]
    shoe["position"] = 0
    shoe["size"] = max(shoe["size"], len(shoe["cards"]) + 1)
    return {**state, "shoe": shoe}


def http_scope(
    method: str, path: str, headers: Sequence[tuple[bytes, bytes]] = ()
) -> dict[str, Any]:
    """The ASGI scope of an HTTP request from 127.0.0.1 to ``path``, with the host header
    and ``headers``."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


def run_in_fresh_loop(make_coroutine: Callable[[], Awaitable[Any]]) -> Any:
    """Run a coroutine on its own event loop in its own thread.

    Not ``asyncio.run`` / ``async_to_sync`` in the test's thread: the browser tests run earlier
    in the same session, and Playwright's sync API leaves an event loop running there."""
    outcome: dict[str, Any] = {}

    async def main() -> Any:
        return await make_coroutine()

    def target() -> None:
        try:
            outcome["value"] = asyncio.run(main())
        except BaseException as error:  # re-raised in the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def stack_table_shoe(table: SharedTable, cards: Sequence[str]) -> SharedTable:
    """Put ``cards`` on top of the table's shoe, in deal order."""
    table.refresh_from_db()
    state = with_cards_on_top(table.state, list(cards))
    SharedTable.objects.filter(pk=table.pk).update(state=state)
    table.refresh_from_db()
    return table


def engine_of(table: SharedTable) -> Engine:
    table.refresh_from_db()
    return game_from_json(table.state)


def bet_and_ready(table: SharedTable, user: Any, dollars: int = 10) -> None:
    seat = table.seats.get(player=user)
    services.add_chip(table_id=table.pk, user=user, version=seat.version, chip_cents=dollars * 100)
    services.ready(table_id=table.pk, user=user, version=seat.version + 1)


def seat_version(table: SharedTable, user: Any) -> int:
    """The version ``user``'s seat actions post: their seat's, the starting one before
    they ever sat."""
    seat = table.seats.filter(player=user).first()
    return services.NO_SEAT_VERSION if seat is None else seat.version


def table_version(table: SharedTable) -> int:
    """The table's version now (its last event): what the host's actions post."""
    return SharedTable.objects.get(pk=table.pk).version
