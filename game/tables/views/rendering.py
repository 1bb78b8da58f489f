"""How the shared tables' pages answer: who may see a table, the URLs a table's page links to
(reversed once per table and process), the viewer's table partial, and the answer to a
seat action's post (the partial for htmx, 409/422 with a notice for a stale or refused
post; a plain post redirected back, so every action works without JavaScript)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse

from game.core.errors import (
    REFUSED,
    ActionRefused,
    StaleVersion,
    TableNotFound,
    http_status,
)
from game.core.http import AuthenticatedHttpRequest
from game.presentation.notices import STALE_NOTICE
from game.tables import invitations, services
from game.tables.models import Seat, SharedTable
from game.tables.presentation import (
    TableScene,
    refusal_text,
    view_for,
)
from game.tables.scenes import committed_scene, scene_of, table_by_id

TABLE_TEMPLATE = "tables/table.html"


TABLE_PARTIAL = f"{TABLE_TEMPLATE}#shared_table"


def may_see(
    request: AuthenticatedHttpRequest, table: SharedTable, seats: list[Seat] | None = None
) -> bool:
    """Whether the requesting player may see ``table`` (T-1, T-4): a public table anyone
    logged in may; a private one its host, the players who sat there and whoever opened
    its current invitation link (a renewed link ends the old one's access). ``seats``:
    the table's seats when already read, else asked for."""
    if table.public or table.host_id == request.user.pk:
        return True
    if invitations.grants(request.session, table.invite_token):
        return True
    if seats is not None:
        return any(seat.player_id == request.user.pk for seat in seats)
    return Seat.objects.filter(table=table, player=request.user).exists()


def _seen_or_404(request: AuthenticatedHttpRequest, table: SharedTable | None) -> SharedTable:
    """``table`` when the requesting player may see it; else 404, as for no table at all
    (a private table's existence is not told)."""
    if table is None or not may_see(request, table):
        raise Http404("No such table")
    return table


def visible_table(request: AuthenticatedHttpRequest, table_id: int) -> SharedTable:
    """The table ``table_id`` with its engine's state, when the requesting player may
    see it, else 404."""
    return _seen_or_404(request, table_by_id(table_id))


# What ``may_see`` reads of a table: not the engine's state (tens of KB of JSON to parse).
ACCESS_FIELDS = ("public", "host_id", "invite_token")


def visible_table_id(request: AuthenticatedHttpRequest, table_id: int) -> int:
    """The id of a table the requesting player may see, else 404, from a read of only what
    decides it: for an action, which reads the table with its lock anyway, and a stream,
    which keeps only the id."""
    table = SharedTable.objects.filter(pk=table_id).only(*ACCESS_FIELDS).first()
    return _seen_or_404(request, table).pk


@functools.lru_cache(maxsize=1024)
def table_urls(table_id: int) -> dict[str, str]:
    """Every URL a table's page links to, by name (``sit-out`` as ``sit_out``), reversed
    once per table and process: a page has two dozen, each ``{% url %}`` ~0.1 ms."""
    urls = {
        name.replace("-", "_"): reverse("tables:action", args=[table_id, name])
        for name in TABLE_ACTIONS
    }
    urls["events"] = reverse("tables:events", args=[table_id])
    urls["options"] = reverse("tables:options", args=[table_id])
    urls["invite"] = reverse("tables:invite", args=[table_id])
    urls["fairness"] = reverse("tables:fairness", args=[table_id])
    urls["lobby"] = reverse("tables:lobby")
    return urls


def table_context(
    request: AuthenticatedHttpRequest,
    table: SharedTable,
    notice: str = "",
    scene: TableScene | None = None,
    csrf_token: str | None = None,
) -> dict[str, Any]:
    """The table partial's context; ``csrf_token``: the masked token its forms carry, when
    the caller masked one already (a stream masks its viewer's once, not for every
    message: masking draws 32 characters from the system's random source); else the
    request's, masked for this response."""
    scene = scene or scene_of(table)
    view = view_for(scene, request.user)
    invite_url = invite_link(request, scene.table) if view.is_host else ""
    context = {
        "view": view,
        "table": scene.table,
        "notice": notice,
        "invite_url": invite_url,
        "urls": table_urls(table.pk),
    }
    if csrf_token is not None:
        # A value of the context overrides the csrf context processor's (Django's
        # make_context), which is then never evaluated.
        context["csrf_token"] = csrf_token
    return context


def invite_link(request: AuthenticatedHttpRequest, table: SharedTable) -> str:
    return request.build_absolute_uri(reverse("tables:invitation", args=[table.invite_token]))


def table_partial(
    request: AuthenticatedHttpRequest,
    table: SharedTable,
    notice: str = "",
    scene: TableScene | None = None,
    csrf_token: str | None = None,
) -> str:
    return render_to_string(
        TABLE_PARTIAL, table_context(request, table, notice, scene, csrf_token), request=request
    )


def answer_post(
    request: AuthenticatedHttpRequest,
    table_id: int,
    run: Callable[[], Any],
    done_url: str | None = None,
) -> HttpResponse:
    """Run one service; answer htmx with the partial, a plain post with a redirect (to
    ``done_url`` when given and the action went through, else the table)."""
    table_id = visible_table_id(request, table_id)
    status, notice = 200, ""
    with services.committed_tables() as committed:
        try:
            run()
        except TableNotFound:
            raise Http404("No such table") from None
        except StaleVersion as error:
            status, notice = http_status(error), STALE_NOTICE
        except ActionRefused as error:
            status, notice = http_status(error), refusal_text(error)
        except ValueError as error:  # bad input, worded by its parser (game/tables/forms.py)
            status, notice = REFUSED, str(error)
    # The table as the action wrote it, when it wrote the whole table; else read.
    written = committed.get(table_id)
    scene = committed_scene(written) if written is not None else None
    table = scene.table if scene is not None else table_by_id(table_id)
    if table is None:
        raise Http404("No such table")
    if request.htmx:
        return HttpResponse(table_partial(request, table, notice, scene), status=status)
    if notice:
        messages.error(request, notice)
    if table.is_closed and status == 200:
        return redirect("tables:lobby")
    if done_url and status == 200:
        return redirect(done_url)
    return redirect("tables:table", table_id=table.pk)


# Every seat action's name, each posted to /tables/<id>/<name>/ (game/tables/views/actions.py
# has a view for each; a test checks the two lists agree).
TABLE_ACTIONS = (
    "sit",
    "leave",
    "chip",
    "clear",
    "ready",
    "sit-out",
    "offer",
    "side-chip",
    "side-clear",
    "extra-bet-activate",
    "play",
    "difficulty",
    "answer",
    "renew-invite",
    "close",
    "client-seed",
    "shuffle-now",
)
