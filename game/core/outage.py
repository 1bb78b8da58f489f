"""A service that may go away for a while (Redis): when to try it again, and what to log.

Everything that reaches Redis -- the cache (sessions, users), the live channel's publisher
and its subscriber -- keeps working without it, so an outage is news for the operator, not
for every request: one line when it begins and one when it ends, however many calls fail
in between. While it lasts, callers that would rather not wait on a dead server ask
``may_try`` first: one caller per ``retry_seconds`` probes, the others go without at once.

One ``Outage`` per service and process, shared by its threads.
"""

from __future__ import annotations

import logging
import threading
import time
from urllib.parse import urlsplit


def server_name(url: str) -> str:
    """``host:port`` of a Redis URL, for the log (never its password)."""
    try:
        parts = urlsplit(url)
        return f"{parts.hostname}:{parts.port or 6379}" if parts.hostname else parts.path
    except ValueError:
        return "(unparsable URL)"


class Outage:
    """Whether ``service`` is down in this process, since when, and when to try it again."""

    def __init__(self, service: str, logger: logging.Logger, retry_seconds: float) -> None:
        self.service = service
        self.logger = logger
        self.retry_seconds = retry_seconds
        self._lock = threading.Lock()
        self._down_since: float | None = None
        self._next_try = 0.0

    @property
    def down(self) -> bool:
        return self._down_since is not None

    def may_try(self) -> bool:
        """True while the service is up; while it is down, True for one caller every
        ``retry_seconds`` (that caller's call is the probe), False for the others."""
        if self._down_since is None:
            return True
        with self._lock:
            now = time.monotonic()
            if self._down_since is None or now >= self._next_try:
                self._next_try = now + self.retry_seconds
                return True
            return False

    def failed(self, error: BaseException, consequence: str) -> bool:
        """Records a failed call; True (and one ERROR line saying ``consequence``) when
        it began an outage."""
        with self._lock:
            now = time.monotonic()
            self._next_try = now + self.retry_seconds
            if self._down_since is not None:
                return False
            # Logged before any other thread can see the service down, so that a test (or
            # an operator) who sees the outage finds its line already there.
            self.logger.error(
                "%s is unreachable (%s: %s); %s",
                self.service,
                type(error).__name__,
                error,
                consequence,
            )
            self._down_since = now
        return True

    def succeeded(self) -> bool:
        """Records a call that worked; True (and one WARNING line) when it ended an outage."""
        if self._down_since is None:
            return False
        with self._lock:
            since = self._down_since
            if since is None:
                return False
            self.logger.warning(
                "%s answers again after %.1f s", self.service, time.monotonic() - since
            )
            self._down_since = None
        return True
