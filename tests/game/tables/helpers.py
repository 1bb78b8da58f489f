"""Helpers for the shared-table tests."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any


def with_cards_on_top(state: dict[str, Any], cards: list[str]) -> dict[str, Any]:
    """A table's engine state with ``cards`` next in its shoe, in deal order (what is left
    of the shoe after them)."""
    shoe = dict(state["shoe"])
    shoe["cards"] = list(cards) + list(shoe["cards"])[shoe.get("position", 0) :]
    shoe["position"] = 0
    shoe["size"] = max(shoe["size"], len(shoe["cards"]))
    return {**state, "shoe": shoe}


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
