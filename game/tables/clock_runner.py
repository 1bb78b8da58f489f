"""The shared tables' clock (T-13): applies every deadline that ran out, several times a
second, whether or not anybody is connected.

``run_clock`` is the loop; ``manage.py table_clock`` runs it as its own process (production:
one or more beside the app servers -- game.tables.services.apply_due_deadlines locks each
table, so several clocks never apply a deadline twice); ``ensure_in_process_clock`` runs it
in a daemon thread of the web process when settings.TABLE_CLOCK is "in-process" (the
default without Redis: ``make run``). The deadlines live in the database, so a clock
restarted carries on where the last one stopped.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable

from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)

# After an error (the database away, a lock timeout) the loop waits this long, then goes on.
ERROR_PAUSE_SECONDS = 1.0


def load_apply_due_deadlines() -> Callable[[], int]:
    """game.tables.services.apply_due_deadlines, imported when first needed (it takes the
    current time from the services' own clock when called without one)."""
    from game.tables.services import apply_due_deadlines

    return apply_due_deadlines


def tick(apply: Callable[[], int] | None = None) -> int:
    """Applies what is due now; how many deadlines that was."""
    return int((apply or load_apply_due_deadlines())() or 0)


def run_clock(
    stop: threading.Event,
    *,
    interval: float = 0.2,
    once: bool = False,
    apply: Callable[[], int] | None = None,
    keep_connections: bool = True,
) -> int:
    """Ticks every ``interval`` seconds until ``stop`` is set (or once). An error is logged
    and the loop goes on after ERROR_PAUSE_SECONDS. Returns the deadlines applied.
    ``keep_connections=False`` closes the database connection after every tick (the
    in-process clock: a daemon thread must not pin a connection, e.g. to a test database
    about to be dropped)."""
    total = 0
    try:
        while not stop.is_set():
            try:
                total += tick(apply)
            except Exception:
                logger.exception("table clock: applying the due deadlines failed")
                _drop_connections()
                if once:
                    raise
                stop.wait(ERROR_PAUSE_SECONDS)
                continue
            finally:
                if keep_connections:
                    _tidy_connections()
                else:
                    _drop_connections()
            if once:
                break
            stop.wait(interval)
    finally:
        _drop_connections()
    return total


def _tidy_connections() -> None:
    """Django's close_old_connections (a broken or too old connection is closed), leaving
    alone a connection inside a transaction (a test's)."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()


def _drop_connections() -> None:
    """Closes this thread's connections (a broken one is replaced at the next tick; a
    stopped clock holds none)."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            try:
                connection.close()
            except Exception:
                logger.debug("table clock: closing a connection failed", exc_info=True)


# ---------------------------------------------------------------- in-process clock


class _InProcessClock:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.stop = threading.Event()
        self.pid = 0


_clock = _InProcessClock()


def ensure_in_process_clock() -> bool:
    """Starts the clock in a daemon thread of this process, once (again after a fork),
    when settings.TABLE_CLOCK is "in-process"; a no-op when it is "external" (a
    ``manage.py table_clock`` process runs it). True when the thread runs."""
    if getattr(settings, "TABLE_CLOCK", "external") != "in-process":
        return False
    pid = os.getpid()
    thread = _clock.thread
    if thread is not None and thread.is_alive() and _clock.pid == pid:
        return True
    with _clock.lock:
        thread = _clock.thread
        if thread is not None and thread.is_alive() and _clock.pid == pid:
            return True
        _clock.stop = threading.Event()
        _clock.pid = pid
        interval = float(getattr(settings, "TABLE_CLOCK_INTERVAL", 0.2))
        thread = threading.Thread(
            target=run_clock,
            args=(_clock.stop,),
            kwargs={"interval": interval, "keep_connections": False},
            name="table-clock",
            daemon=True,
        )
        thread.start()
        _clock.thread = thread
        return True


def stop_in_process_clock(timeout: float = 5.0) -> None:
    """Stops the in-process clock and waits for it (tests; its connections are closed)."""
    with _clock.lock:
        thread, _clock.thread = _clock.thread, None
        _clock.stop.set()
    if thread is not None and thread is not threading.current_thread():
        thread.join(timeout)
