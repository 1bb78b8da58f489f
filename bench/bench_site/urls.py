"""The site's URLs plus ``/bench/bare/``: the baseline every game action is compared with.

The bare view does what any logged-in post of this site must do and nothing of the game:
the same middleware (session, CSRF, authentication, CSP, htmx, axes…), one UPDATE, and a
tiny template.
``/bench/queries/`` answers the process's query counts by thread (query_counter.py).
``/bench/floor/`` adds what every game action's database work must do at the least (the game
row locked in a transaction and written back), for reference.
"""

from __future__ import annotations

import gc
import tracemalloc

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import connection, transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template import engines
from django.urls import path
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from bench_site import query_counter
from blackjack_site.urls import urlpatterns as site_urlpatterns

BARE_TEMPLATE = engines["django"].from_string(
    '<div id="bare"><p>{{ user.get_username }} at {{ now|time:"H:i:s" }}</p>'
    '<form method="post">{% csrf_token %}<button>Again</button></form></div>'
)


@login_required
@require_POST
def bare(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    get_user_model().objects.filter(pk=request.user.pk).update(last_login=now)
    return HttpResponse(BARE_TEMPLATE.render({"now": now}, request))


# The least a game action's database work can be, in raw SQL (no ORM compile, no engine,
# no table): the player's game row locked in a transaction and written back. Measured
# beside the bare view to show how much of the 2x budget the transaction itself takes.
FLOOR_LOCK = "SELECT id, version FROM game_game WHERE id = %s AND owner_id = %s"
FLOOR_WRITE = "UPDATE game_game SET last_played = %s WHERE id = %s AND version = %s"


@login_required
@require_POST
def floor(request: HttpRequest) -> HttpResponse:
    game = request.POST.get("game", "")
    if not game.isdigit():
        raise Http404("no such game")
    now = timezone.now()
    with transaction.atomic(), connection.cursor() as cursor:
        # FOR UPDATE where the database has it (SQLite's write lock is the transaction's).
        lock = FLOOR_LOCK + (" FOR UPDATE" if connection.features.has_select_for_update else "")
        cursor.execute(lock, [int(game), request.user.pk])
        row = cursor.fetchone()
        if row is None:
            raise Http404("no such game")
        cursor.execute(FLOOR_WRITE, [now, row[0], row[1]])
    return HttpResponse(BARE_TEMPLATE.render({"now": now}, request))


@require_GET
def queries(request: HttpRequest) -> JsonResponse:
    """This process's database queries so far, by thread (no login: bench only). With
    ``--workers 1`` a server is one process, so two readings bracket a window's queries."""
    return JsonResponse(query_counter.counts())


_marked: list[tracemalloc.Snapshot] = []


@require_GET
def memory(request: HttpRequest) -> JsonResponse:
    """Where this process's memory went since the last ``?mark=1`` (tracemalloc: only when
    the server runs with PYTHONTRACEMALLOC set, tables_bench.py --trace-memory): the
    largest growths by source line, and their total. No login: bench only."""
    if not tracemalloc.is_tracing():
        return JsonResponse({"tracing": False})
    gc.collect()
    snapshot = tracemalloc.take_snapshot()
    if request.GET.get("mark") or not _marked:
        _marked[:] = [snapshot]
        return JsonResponse({"tracing": True, "marked": True})
    growth = snapshot.compare_to(_marked[0], "lineno")
    return JsonResponse(
        {
            "tracing": True,
            "total_bytes": sum(stat.size_diff for stat in growth),
            "top": [
                {
                    "where": str(stat.traceback[0]),
                    "bytes": stat.size_diff,
                    "blocks": stat.count_diff,
                }
                for stat in growth[:30]
            ],
        }
    )


urlpatterns = [
    path("bench/bare/", bare, name="bench_bare"),
    path("bench/memory/", memory, name="bench_memory"),
    path("bench/queries/", queries, name="bench_queries"),
    path("bench/floor/", floor, name="bench_floor"),
    *site_urlpatterns,
]
