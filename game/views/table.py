"""The table's pages: a game's table, New Game, and the Options menu with its house-edge
figure. The actions posted from the table are game/views/actions.py's; how each answers
(the partial for htmx, a redirect otherwise, a refusal's notice and status) is
game/views/rendering.py's.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from game import services
from game.core import once_keys
from game.core.errors import (
    REFUSED,
    ActionRefused,
    FormExpired,
    GameNotFound,
    LimitReached,
    StaleVersion,
    http_status,
)
from game.core.http import AuthenticatedHttpRequest
from game.forms import (
    OptionsForm,
    default_options,
    option_needs_text,
    parse_version,
)
from game.presentation.house_edge import HouseEdgeSummary, summarise
from game.presentation.notices import STALE_NOTICE, refusal_text
from game.presentation.table import table_view
from game.rules.options import NEEDS
from game.selectors import next_client_seed, table_reads
from game.views.rendering import owned_game, render_table


@login_required
@require_GET
def table(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    # ?hint=1 (the Hint button, a GET form) adds the coach's hint; it changes nothing.
    hint = request.GET.get("hint") == "1"
    game = owned_game(request, game_id)
    # A deadline that ran out while nobody looked is applied before the table is shown.
    played = services.catch_up_deadlines(game=game)
    if played is None:
        return render_table(request, game, hint=hint)
    return render_table(
        request, played.game, hint=hint, engine=played.engine, coach_note=played.coach_note
    )


@login_required
@require_POST
def new_game(request: AuthenticatedHttpRequest) -> HttpResponse:
    """New Game (My games, the game-over moment): once per form, by its one-time key."""
    try:
        key = once_keys.read(once_keys.Kind.NEW_GAME, request.POST.get(once_keys.FIELD))
        game = services.start_new_game(user=request.user, once_key=key)
    except FormExpired as error:
        context = {"kind": str(once_keys.Kind.NEW_GAME)}
        return render(request, "form_expired.html", context, status=http_status(error))
    except LimitReached as error:
        context = {"notice": refusal_text(error)}
        return render(request, "too_many_games.html", context, status=http_status(error))
    return redirect("game:table", game_id=game.pk)


@login_required
@require_http_methods(["GET", "POST"])
def options(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """The options menu (§10): only between rounds; Apply, Reset to Default, Close."""
    game = owned_game(request, game_id)
    view = table_view(game, reads=table_reads(game))
    if not view.between_rounds:
        messages.error(request, "Options can be changed only between rounds.")
        return redirect("game:table", game_id=game.pk)
    status = 200
    # The options the house-edge estimate is for (None: the form has errors).
    chosen: dict[str, Any] | None = game.options
    if request.method == "POST" and "reset" in request.POST:
        # Reset restores the rules of §10; the Coach setting is not one, so it stays.
        form = OptionsForm(
            initial={**OptionsForm.initial_from(default_options()), "coach": game.coach}
        )
        notice = "Defaults restored: press Apply to use them."
        chosen = default_options()
    elif request.method == "POST" and "estimate" in request.POST:
        # "Update estimate" (the menu without JavaScript): show the figure, save nothing.
        form = OptionsForm(request.POST)
        chosen = form.to_options() if form.is_valid() else None
        notice = "" if chosen is not None else "Please correct the options marked below."
        status = 200 if chosen is not None else REFUSED
    elif request.method == "POST":
        form = OptionsForm(request.POST)
        notice = ""
        chosen = form.to_options() if form.is_valid() else None
        if form.is_valid():
            try:
                version = parse_version(request.POST.get("version"))
                game = services.apply_options(
                    game_id=game.pk,
                    user=request.user,
                    version=version,
                    options=form.to_options(),
                    coach=form.cleaned_data["coach"],
                ).game
            except GameNotFound:
                raise Http404("No such game") from None
            except StaleVersion as error:
                notice, status = STALE_NOTICE, http_status(error)
            except ActionRefused as error:
                notice, status = refusal_text(error), http_status(error)
            except ValueError as error:
                notice, status = str(error), REFUSED
            else:
                # The table's status line says "Options applied." (the game's status note).
                return redirect("game:table", game_id=game.pk)
        else:
            notice, status = "Please correct the options marked below.", REFUSED
    else:
        form = OptionsForm(initial={**OptionsForm.initial_from(game.options), "coach": game.coach})
        notice = ""
    implied = game.state.get("implied", []) if game.state else []
    return render(
        request,
        "game/options.html",
        {
            "game": game,
            "form": form,
            "notice": notice,
            "needs": option_needs_text(),
            "needs_map": {name: list(needed) for name, needed in NEEDS.items()},
            "implied": implied,
            "table_url": reverse("game:table", args=[game.pk]),
            "house_edge": _house_edge_or_none(chosen, game.options),
            "client_seed": next_client_seed(game),
        },
        status=status,
    )


def _house_edge_or_none(
    chosen: dict[str, Any] | None, current: dict[str, Any]
) -> HouseEdgeSummary | None:
    if chosen is None:
        return None
    try:
        return summarise(chosen, current)
    except ValueError:
        return None  # options the engine refuses (e.g. max bet below min bet): no figure


@login_required
@require_GET
def options_house_edge(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """The Options menu's house-edge figure for the options in the query (htmx, on change).

    Read-only; bad options answer 422 with a short message in the fragment, never a 500.
    """
    game = owned_game(request, game_id)
    form = OptionsForm(request.GET)
    summary = _house_edge_or_none(form.to_options(), game.options) if form.is_valid() else None
    context = {"house_edge": summary}
    return render(
        request, "game/_house_edge.html", context, status=200 if summary is not None else REFUSED
    )
