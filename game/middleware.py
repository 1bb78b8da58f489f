"""Two answers every game response needs, kept in one place.

* A lost race for the database (SQLite's "database is locked" once its busy timeout has
  passed, a PostgreSQL lock timeout, serialization failure or deadlock) is the stale post
  it is: 409 with the current table, never a 500. Nothing was written: the transaction
  that raised it was rolled back.
* Game pages, shared tables' pages (a live table, the lobby's seats taken, the host's
  invitation link: a secret) and every htmx answer say ``Cache-Control: no-store``: a
  table shown from a cache (the Back button, the back/forward cache) would show a hand
  that is over, and a stored page would keep the secret where the next user of the
  browser could find it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import cast

from django.db import OperationalError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers

from game.core.errors import STALE
from game.core.http import HtmxHttpRequest
from game.models import Game
from game.presentation.notices import STALE_NOTICE
from game.views.rendering import render_table

logger = logging.getLogger(__name__)

# Namespaces and URL names whose pages show a game's or a table's live state, or a secret.
LIVE_NAMESPACES = frozenset({"game", "tables"})
LIVE_URL_NAMES = frozenset({"my_games", "move_guest_games"})
_LOCK_MESSAGES = ("database is locked", "database table is locked")
# PostgreSQL SQLSTATEs of a lost race: lock_not_available, serialization_failure,
# deadlock_detected.
_LOCK_SQLSTATES = frozenset({"55P03", "40001", "40P01"})


def is_lock_conflict(error: BaseException) -> bool:
    if not isinstance(error, OperationalError):
        return False
    cause = error.__cause__
    if getattr(cause, "sqlstate", None) in _LOCK_SQLSTATES:
        return True
    return any(message in str(error).lower() for message in _LOCK_MESSAGES)


class GameResponseMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if _shows_live_state(request):
            add_never_cache_headers(response)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_lock_conflict(exception):
            return None
        logger.warning("Lock conflict answered as a stale post: %s", exception)
        game_id = request.resolver_match.kwargs.get("game_id") if request.resolver_match else None
        if game_id is None or not request.user.is_authenticated:
            return render(request, "busy.html", status=409)
        game = Game.objects.filter(pk=game_id, owner=request.user).first()
        if game is None:
            raise Http404("No such game")
        return render_table(cast(HtmxHttpRequest, request), game, status=STALE, notice=STALE_NOTICE)


def _shows_live_state(request: HttpRequest) -> bool:
    if getattr(request, "htmx", False):
        return True
    match = request.resolver_match
    if match is None:
        return False
    return bool(LIVE_NAMESPACES.intersection(match.namespaces)) or match.url_name in LIVE_URL_NAMES
