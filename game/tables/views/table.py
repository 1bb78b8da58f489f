"""A shared table's page, its invitation page, its options (the host's, T-2) and its
Fairness page (F-7)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from game.core.errors import (
    REFUSED,
    ActionRefused,
    StaleVersion,
    TableNotFound,
    http_status,
)
from game.core.http import AuthenticatedHttpRequest
from game.forms import parse_version
from game.presentation.fairness import TABLE_SEED_HINT, fairness_json, fairness_view
from game.presentation.notices import STALE_NOTICE
from game.tables import clock_runner, live, services
from game.tables.forms import (
    TableOptionsForm,
)
from game.tables.presentation import (
    LIVE_ENDED_NOTICES,
    LIVE_PAUSED_NOTICE,
    refusal_text,
)
from game.tables.scenes import table_by_id, table_shoes
from game.tables.views.rendering import (
    TABLE_TEMPLATE,
    invite_link,
    table_context,
    table_urls,
    visible_table,
)


@login_required
@require_GET
def table_page(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    clock_runner.ensure_in_process_clock()
    table = visible_table(request, table_id)
    if table.deadline_ms is not None and table.deadline_ms <= services.now_ms():
        # A deadline that ran out is applied before the table is shown (T-10: the page
        # shows the table exactly as it stands), as the clock would.
        services.apply_due_deadlines(table_id=table.pk)
        table = table_by_id(table.pk) or table
    context = {
        **table_context(request, table),
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
    table = visible_table(request, table_id)
    if table.host_id != request.user.pk or table.is_closed:
        raise Http404("No such table")
    context = {
        "table": table,
        "invite_url": invite_link(request, table),
        "version": table.version,
        "urls": table_urls(table.pk),
    }
    return render(request, "tables/invite.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def table_options(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """Shows and applies the host's Table Options, between rounds only (T-2)."""
    table = visible_table(request, table_id)
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
    table = visible_table(request, table_id)
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
