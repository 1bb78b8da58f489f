"""The lobby (public tables, New table) and an invitation link's landing page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from game.core import once_keys
from game.core.errors import (
    REFUSED,
    ActionRefused,
    FormExpired,
    http_status,
)
from game.core.http import AuthenticatedHttpRequest
from game.tables import invitations, services
from game.tables.forms import (
    CreateTableForm,
    TableOptionsForm,
)
from game.tables.models import SharedTable
from game.tables.presentation import (
    invitation_line,
    refusal_text,
    rules_text,
    view_for,
)
from game.tables.scenes import scene_of
from game.tables.views.rendering import (
    table_urls,
)


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
