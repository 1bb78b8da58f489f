"""The Fairness page of a game (FAIRNESS.md F-7), its client seed form, and the verifier
script anyone may download."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from game import services
from game.core.errors import ActionRefused, GameNotFound, StaleVersion, http_status
from game.core.http import AuthenticatedHttpRequest
from game.forms import parse_version
from game.models import Game
from game.presentation.fairness import GAME_SEED_HINT, FairnessView, fairness_json, fairness_view
from game.presentation.notices import STALE_NOTICE, refusal_text
from game.selectors import game_shoes, next_client_seed
from game.views.rendering import owned_game

VERIFIER = Path(settings.BASE_DIR) / "tools" / "verify_shoe.py"
# Where the client seed form sends the player back to (a whitelist: never a posted URL).
SEED_FORM_PAGES = {"fairness": "game:fairness", "options": "game:options"}


def _game_fairness(game: Game) -> FairnessView:
    return fairness_view(
        game_shoes(game),
        title=f"Fairness of game {game.pk}",
        back_url=reverse("game:table", kwargs={"game_id": game.pk}),
        back_label="Back to the table",
        client_seed=next_client_seed(game),
        hint=GAME_SEED_HINT,
    )


@login_required
@require_GET
def game_fairness(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Every shoe of the player's game; ``?format=json`` for F-7's JSON."""
    game = owned_game(request, game_id)
    view = _game_fairness(game)
    if request.GET.get("format") == "json":
        return JsonResponse(fairness_json(view.shoes), json_dumps_params={"ensure_ascii": False})
    return _page(request, game, view)


def _page(
    request: HttpRequest, game: Game, view: FairnessView, *, notice: str = "", status: int = 200
) -> HttpResponse:
    seed_form = None
    if view.client_seed is not None and not game.is_over:
        seed_form = {
            "url": reverse("game:client_seed", kwargs={"game_id": game.pk}),
            "hidden": {"version": game.version, "back": "fairness"},
            "value": view.client_seed,
            "hint": view.hint,
        }
    context = {
        "view": view,
        "seed_form": seed_form,
        "json_url": reverse("game:fairness", kwargs={"game_id": game.pk}) + "?format=json",
        "notice": notice,
    }
    return render(request, "fairness/page.html", context, status=status)


@login_required
@require_POST
def game_client_seed(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Set the game's client seed (F-2): back to the page the form was on."""
    game = owned_game(request, game_id)
    page = SEED_FORM_PAGES.get(request.POST.get("back", ""), "game:fairness")
    try:
        version = parse_version(request.POST.get("version"))
        services.change_client_seed(
            game_id=game.pk,
            user=request.user,
            version=version,
            client_seed=request.POST.get("client_seed", ""),
        )
    except GameNotFound:
        raise Http404("No such game") from None
    except StaleVersion as error:
        status = http_status(error)
        return _page(request, game, _game_fairness(game), notice=STALE_NOTICE, status=status)
    except ActionRefused as error:
        notice = refusal_text(error)
        return _page(request, game, _game_fairness(game), notice=notice, status=http_status(error))
    except ValueError as error:
        return _page(request, game, _game_fairness(game), notice=str(error), status=400)
    messages.success(request, "Client seed set: the next shoe is shuffled with it.")
    return redirect(page, game_id=game.pk)


@require_GET
def verifier_script(request: HttpRequest) -> FileResponse:
    """tools/verify_shoe.py, the standard-library verifier (F-7), to download."""
    return FileResponse(
        VERIFIER.open("rb"),
        as_attachment=True,
        filename="verify_shoe.py",
        content_type="text/x-python; charset=utf-8",
    )
