"""The domain errors the services raise, and the HTTP status each one answers with.

Services raise these and know nothing of HTTP; views (the single-player game's and the
shared tables') answer with :func:`http_status` of what they caught, and the presentation
layer words an :class:`ActionRefused` (game/presentation/notices.py). Nothing was changed
when one is raised: the action's transaction rolled back.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any


class ActionRefused(Exception):
    """The action is not allowed now or its input is bad; nothing was changed (HTTP 422).

    ``reason`` names why (game/presentation/notices.py words it); ``details`` are its facts,
    amounts in cents under names ending in ``_cents``."""

    def __init__(self, reason: str, **details: Any) -> None:
        super().__init__(reason, details)
        self.reason = reason
        self.details = details


class StaleVersion(Exception):
    """The page posted an old version: another request got there first (HTTP 409)."""


class TimeRanOut(ActionRefused):
    """R-4.13 / R-8.9: the decision or answer came after its deadline. The deadline was
    applied (and saved) first: the hand stood, or the answer counted as wrong (HTTP 422)."""

    def __init__(self) -> None:
        super().__init__("time_ran_out")


class LimitReached(ActionRefused):
    """A per-player limit stops the action (games in progress, open tables hosted): nothing
    was made (HTTP 429). ``limit`` is in the details, for the sentence that words it."""

    def __init__(self, reason: str, *, limit: int) -> None:
        super().__init__(reason, limit=limit)


class FormExpired(Exception):
    """A form that creates something came without a one-time key this site made for it, or
    with one whose first submission this request may not be answered with (another
    player's, or too old): nothing was made (HTTP 400). See game/core/once_keys.py."""


class GameNotFound(Exception):
    """No such game of this player's (HTTP 404): another player's game looks the same."""


class TableNotFound(Exception):
    """No such open shared table, or a private one reached without its link (HTTP 404)."""


# A refused action, and a post made from a page older than the row.
REFUSED = HTTPStatus.UNPROCESSABLE_ENTITY
STALE = HTTPStatus.CONFLICT

HTTP_STATUS: dict[type[Exception], HTTPStatus] = {
    LimitReached: HTTPStatus.TOO_MANY_REQUESTS,
    FormExpired: HTTPStatus.BAD_REQUEST,
    GameNotFound: HTTPStatus.NOT_FOUND,
    TableNotFound: HTTPStatus.NOT_FOUND,
    StaleVersion: STALE,
    ActionRefused: REFUSED,
}


def http_status(error: Exception) -> HTTPStatus:
    """The status a view answers ``error`` with (a subclass answers as its base)."""
    for kind in type(error).__mro__:
        status = HTTP_STATUS.get(kind)
        if status is not None:
            return status
    raise LookupError(f"{type(error).__name__} is not a domain error")
