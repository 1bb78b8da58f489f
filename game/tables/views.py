"""The shared tables' pages: the lobby, a table, its actions and its live event stream.

As the single-player table: an htmx post gets the viewer's table partial (409/422 with
a notice for a stale or refused post), a plain post is redirected back, so every action
works without JavaScript. Another player's seat cannot be acted for (T-12): actions name
no seat, they act for the requesting player's own. Every post names the version its page
showed (the player's seat's; the table's for the host's controls): without one it is
refused, as in the single-player game.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from game.core import once_keys
from game.core.errors import (
    REFUSED,
    ActionRefused,
    FormExpired,
    StaleVersion,
    TableNotFound,
    http_status,
)
from game.core.http import AuthenticatedHttpRequest
from game.forms import parse_version
from game.presentation.fairness import TABLE_SEED_HINT, fairness_json, fairness_view
from game.presentation.notices import STALE_NOTICE
from game.tables import clock_runner, invitations, live, services, stream_limits
from game.tables.forms import (
    CreateTableForm,
    TableOptionsForm,
)
from game.tables.models import Seat, SharedTable, TableEvent
from game.tables.presentation import (
    LIVE_ENDED_NOTICES,
    LIVE_PAUSED_NOTICE,
    TableScene,
    event_text,
    in_log,
    invitation_line,
    refusal_text,
    rules_text,
    view_for,
)
from game.tables.scenes import current_scene, scene_of, table_by_id, table_shoes
from game.tables.sse import (
    END_EVENT,
    ENDED_CLOSED,
    SseMessage,
    StreamEnded,
    busy_stream_response,
    ended_stream_response,
    event_stream_response,
    last_event_id,
    release_connections,
)

TABLE_TEMPLATE = "tables/table.html"
TABLE_PARTIAL = f"{TABLE_TEMPLATE}#shared_table"
LOG_BATCH = 200  # log lines a stream sends at once when catching up


# --------------------------------------------------------------------- who may see a table


def _may_see(
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


def _visible_table(request: AuthenticatedHttpRequest, table_id: int) -> SharedTable:
    table = table_by_id(table_id)
    if table is None or not _may_see(request, table):
        raise Http404("No such table")
    return table


# --------------------------------------------------------------------- lobby


@login_required
@require_GET
def lobby(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The lobby (/tables/): public tables with seats taken, main rules, trivia on/off."""
    return _render_lobby(request, CreateTableForm(initial=_create_initial()))


def _create_initial() -> dict[str, Any]:
    return {
        **TableOptionsForm.initial_for({}),
        "public": "1",
        "seat_count": "5",
        "intermission_seconds": "30",
    }


def _render_lobby(
    request: AuthenticatedHttpRequest, form: CreateTableForm, status: int = 200
) -> HttpResponse:
    tables = (
        SharedTable.objects.filter(public=True)
        .exclude(phase=SharedTable.Phase.CLOSED)
        .annotate(taken=Count("seats", filter=Q(seats__number__isnull=False)))
        .order_by("-created")[:50]
    )
    rows = [
        {"table": table, "rules": rules_text(services.table_options(table.options))}
        for table in tables
    ]
    context = {"rows": rows, "form": form, "usual_rules": rules_text(services.table_options({}))}
    return render(request, "tables/lobby.html", context, status=status)


@login_required
@require_POST
def create_table(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Create Table: once per form (its one-time key), at most TABLES_HOSTED_PER_PLAYER
    open tables a host (429 with the form and the reason)."""
    try:
        key = once_keys.read(once_keys.Kind.TABLE, request.POST.get(once_keys.FIELD))
    except FormExpired as error:
        context = {"kind": once_keys.Kind.TABLE}
        return render(request, "form_expired.html", context, status=http_status(error))
    form = CreateTableForm(request.POST)
    if not form.is_valid():
        return _render_lobby(request, form, status=REFUSED)
    try:
        table = services.create_table(
            host=request.user,
            name=form.cleaned_data["name"],
            public=form.cleaned_data["public"],
            seat_count=form.cleaned_data["seat_count"],
            intermission_seconds=form.cleaned_data["intermission_seconds"],
            options=form.to_options(),
            once_key=key,
        )
    except FormExpired as error:
        context = {"kind": once_keys.Kind.TABLE}
        return render(request, "form_expired.html", context, status=http_status(error))
    except ActionRefused as error:
        form.add_error(None, refusal_text(error))
        return _render_lobby(request, form, status=http_status(error))
    return redirect("tables:table", table_id=table.pk)


@never_cache
@require_GET
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """Opens the table an invitation link names (T-1), remembering its token in the
    browser's session. A player goes to it, told who invited them; anyone else sees it
    there as a watcher does, who invited them, and Play as guest, Log in and Sign up, each
    of which comes back to the table (UI.md "Shared tables")."""
    table = _invited_table(token)
    invitations.remember(request.session, token)
    if request.user.is_authenticated:
        if table.host_id != request.user.pk:
            messages.info(request, invitation_line(table.host.get_username()))
        return redirect("tables:table", table_id=table.pk)
    scene = scene_of(table)
    context = {
        "view": view_for(scene, None, may_sit=False),
        "table": scene.table,
        "notice": "",
        "invite_url": "",
        "urls": table_urls(table.pk),
        "invitation": {
            "token": token,
            "line": invitation_line(table.host.get_username()),
            "url": reverse("tables:invitation", args=[token]),
        },
    }
    return render(request, "tables/invitation.html", context)


def _invited_table(token: str) -> SharedTable:
    table = SharedTable.objects.select_related("host").filter(invite_token=token).first()
    if table is None or table.is_closed:
        raise Http404("This invitation link is no longer valid")
    return table


# --------------------------------------------------------------------- the table


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


def _context(
    request: AuthenticatedHttpRequest,
    table: SharedTable,
    notice: str = "",
    scene: TableScene | None = None,
) -> dict[str, Any]:
    scene = scene or scene_of(table)
    view = view_for(scene, request.user)
    invite_url = _invite_url(request, scene.table) if view.is_host else ""
    return {
        "view": view,
        "table": scene.table,
        "notice": notice,
        "invite_url": invite_url,
        "urls": table_urls(table.pk),
    }


@login_required
@require_GET
def table_page(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    clock_runner.ensure_in_process_clock()
    table = _visible_table(request, table_id)
    if table.deadline_ms is not None and table.deadline_ms <= services.now_ms():
        # A deadline that ran out is applied before the table is shown (T-10: the page
        # shows the table exactly as it stands), as the clock would.
        services.apply_due_deadlines(table_id=table.pk)
        table = table_by_id(table.pk) or table
    context = {
        **_context(request, table),
        "live_paused": live.news_paused(),
        "live_paused_notice": LIVE_PAUSED_NOTICE,
        "live_ended_notices": LIVE_ENDED_NOTICES,
    }
    return render(request, TABLE_TEMPLATE, context)


@login_required
@require_GET
def invite_page(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """Shows the host the table's invitation link, Copy and a new link (T-1): what Invite
    Link opens without JavaScript (with it, the same panel in a dialog over the table)."""
    table = _visible_table(request, table_id)
    if table.host_id != request.user.pk or table.is_closed:
        raise Http404("No such table")
    context = {
        "table": table,
        "invite_url": _invite_url(request, table),
        "version": table.version,
        "urls": table_urls(table.pk),
    }
    return render(request, "tables/invite.html", context)


def _invite_url(request: AuthenticatedHttpRequest, table: SharedTable) -> str:
    return request.build_absolute_uri(reverse("tables:invitation", args=[table.invite_token]))


def _table_partial(
    request: AuthenticatedHttpRequest,
    table: SharedTable,
    notice: str = "",
    scene: TableScene | None = None,
) -> str:
    return render_to_string(TABLE_PARTIAL, _context(request, table, notice, scene), request=request)


def answer_post(
    request: AuthenticatedHttpRequest,
    table_id: int,
    run: Callable[[], Any],
    done_url: str | None = None,
) -> HttpResponse:
    """Run one service; answer htmx with the partial, a plain post with a redirect (to
    ``done_url`` when given and the action went through, else the table)."""
    table = _visible_table(request, table_id)
    status, notice = 200, ""
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
    table = table_by_id(table.pk) or table
    if request.htmx:
        return HttpResponse(_table_partial(request, table, notice), status=status)
    if notice:
        messages.error(request, notice)
    if table.is_closed and status == 200:
        return redirect("tables:lobby")
    if done_url and status == 200:
        return redirect(done_url)
    return redirect("tables:table", table_id=table.pk)


# Every seat action's name, each posted to /tables/<id>/<name>/ (game/tables/actions.py
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


@login_required
@require_http_methods(["GET", "POST"])
def table_options(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """Shows and applies the host's Table Options, between rounds only (T-2)."""
    table = _visible_table(request, table_id)
    if table.host_id != request.user.pk:
        raise Http404("No such table")
    status = 200
    if request.method == "POST":
        form = TableOptionsForm(request.POST)
        if form.is_valid():
            try:
                services.change_options(
                    table_id=table.pk,
                    user=request.user,
                    version=parse_version(request.POST.get("version")),
                    options=form.to_options(),
                )
            except TableNotFound:
                raise Http404("No such table") from None
            except StaleVersion as error:
                form.add_error(None, STALE_NOTICE)
                status = http_status(error)
            except ActionRefused as error:
                form.add_error(None, refusal_text(error))
                status = http_status(error)
            except ValueError as error:  # a post without the version its page showed
                form.add_error(None, str(error))
                status = REFUSED
            else:
                messages.success(request, "Options changed: everyone at the table sees them.")
                return redirect("tables:table", table_id=table.pk)
            # The form again with the host's choices, and the table's version as it is now.
            table = table_by_id(table.pk) or table
        else:
            status = REFUSED
    else:
        form = TableOptionsForm(initial=TableOptionsForm.initial_for(table.options))
    return render(request, "tables/options.html", {"form": form, "table": table}, status=status)


@login_required
@require_GET
def table_fairness(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """The table's Fairness page (FAIRNESS.md F-7), linked from the felt as Fairness: every
    shoe's commitment, its seats' joined client seed and, once finished, its seed and cards;
    ``?format=json`` for F-7's JSON. Whoever may see the table may see its shoes."""
    table = _visible_table(request, table_id)
    view = fairness_view(
        table_shoes(table.pk),
        title=f"Fairness of the table {table.name}",
        back_url=reverse("tables:table", args=[table.pk]),
        back_label="Back to the table",
        hint=TABLE_SEED_HINT,
    )
    json_url = reverse("tables:fairness", args=[table.pk]) + "?format=json"
    if request.GET.get("format") == "json":
        return JsonResponse(fairness_json(view.shoes), json_dumps_params={"ensure_ascii": False})
    context = {"view": view, "seed_form": None, "json_url": json_url, "notice": ""}
    return render(request, "fairness/page.html", context)


# --------------------------------------------------------------------- the live stream (T-10)


@require_GET
def table_events(
    request: AuthenticatedHttpRequest, table_id: int
) -> HttpResponse | StreamingHttpResponse:
    """Server-Sent Events: each new event as a ``log`` line, then the table as this viewer
    may see it (T-11). The id is the table's version: a reconnecting browser catches up
    from where it got to (T-14). A stream that ends for good says so with an ``end``
    event: the table closed, the viewer no longer let in, or logged out (an EventSource
    cannot follow a redirect to the login page: told, the page says so and offers Reload)."""
    if not request.user.is_authenticated:
        return ended_stream_response()
    places = stream_limits.admit(request.user.pk, asgi=isinstance(request, ASGIRequest))
    if places is None:
        return busy_stream_response()
    try:
        return _event_stream(request, table_id, places)
    except BaseException:
        places.give_back()
        raise


def _event_stream(
    request: AuthenticatedHttpRequest, table_id: int, places: stream_limits.StreamPlaces
) -> StreamingHttpResponse:
    clock_runner.ensure_in_process_clock()
    table = _visible_table(request, table_id)

    def messages_after(seq: int | None) -> tuple[list[SseMessage], int]:
        scene = current_scene(table.pk)
        if scene is None:
            raise Http404("No such table")
        current = scene.table
        # On every wake: a renewed invitation link ends the access the old one gave now,
        # not when the stream would have ended anyway (the scene has the token and seats).
        if not _may_see(request, current, scene.seats):
            raise StreamEnded
        # A closed table changes no more: once the page has it all, the stream ends for good.
        ended = [SseMessage(END_EVENT, ENDED_CLOSED)] if current.is_closed else []
        if seq is not None and seq >= current.version:
            return ended, current.version
        found: list[SseMessage] = []
        last = current.version
        if seq is not None:
            # Only up to the scene's version (an action committed since comes next time),
            # at most LOG_BATCH at once: the id sent is the last event sent, never beyond it.
            events = _events_between(scene, seq, LOG_BATCH)
            found = [
                SseMessage("log", _log_item(scene, event), str(event.seq))
                for event in events
                if in_log(event)
            ]
            if len(events) == LOG_BATCH:
                last = events[-1].seq
        html = _table_partial(request, current, scene=scene)
        found.append(SseMessage("table", html, str(last)))
        if last == current.version:
            found += ended
        return found, last

    # The stream lives a minute: the connection the checks above used goes back now (to the
    # pool, or closed), not when the response ends; each of the stream's reads takes one.
    release_connections()
    return event_stream_response(
        request,
        table_id=table.pk,
        after_seq=last_event_id(request),
        messages_after=messages_after,
        on_end=places.give_back,
    )


def _events_between(scene: TableScene, after: int, count: int) -> list[TableEvent]:
    """The events after seq ``after`` up to the scene's version, oldest first, at most
    ``count``: from the scene when it holds them all (a stream that keeps up), else read."""
    last = scene.table.version
    held = scene.events  # newest first
    if held and held[-1].seq <= after + 1 and last - after <= count:
        return [event for event in reversed(held) if after < event.seq <= last]
    return list(
        TableEvent.objects.filter(table_id=scene.table.pk, seq__gt=after, seq__lte=last).order_by(
            "seq"
        )[:count]
    )


def _log_item(scene: TableScene, event: TableEvent) -> str:
    key = ("log", event.seq)
    html = scene.fragments.get(key)
    if html is None:
        html = render_to_string(
            "tables/_log_item.html", {"event": event, "text": event_text(event)}
        )
        scene.fragments[key] = html
    return html
