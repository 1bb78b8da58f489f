"""How every table view answers: the table page, or for htmx the table partial with the
status line out of band; an action run with its refusals worded (422 for a refused action
or bad input, 409 for a stale post or a lost race for the row lock, 404 for another
player's game); the game's URLs, reversed once per game and process.

Why 422 rather than 400: in DEBUG (the default of ``make run``) django-htmx's debug
script replaces the whole page with any 400/403/404/500 answer to an htmx request.
422 is left to htmx, and the pages' htmx-config (``responseHandling``) swaps 409 and
422 like a 200, so a refusal renders in place with DEBUG on and off alike.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string

from game.core.errors import REFUSED, ActionRefused, GameNotFound, StaleVersion, http_status
from game.core.http import AuthenticatedHttpRequest, HtmxHttpRequest
from game.core.sql import read_game
from game.core.url_cache import cached_reverse, game_url, urls_in_use
from game.forms import parse_version
from game.models import Game, TriviaAttempt
from game.presentation import coach
from game.presentation.bet_spots import bet_focus, focus_query, side_spots
from game.presentation.daily import round_standing_text
from game.presentation.fragments import table_fragments
from game.presentation.notices import STALE_NOTICE, refusal_text
from game.presentation.table import TableView, daily_round_shown, table_view
from game.rules.engine import Engine
from game.rules_pages.content import rules_url
from game.selectors import daily_round_standing, table_reads
from game.services import Played

# The actions a table posts, each to /games/<id>/<name>/ (game/views/actions.py has a
# view for each; a test checks the two lists agree).
ACTION_NAMES = (
    "chip",
    "clear-bet",
    "deal",
    "select-box",
    "same-bet",
    "hit",
    "stand",
    "double",
    "split",
    "surrender",
    "insurance",
    "insurance-every-box",
    "insurance-box-by-box",
    "early-surrender",
    "difficulty",
    "answer",
    "fifty-fifty",
    "swap",
    "continue",
    "next-round",
    "rebet",
    "extra-bet",
    "parlay",
    "roll",
    "shuffle-now",
    "side-bets-menu",
    "side-chip",
    "side-clear",
    "side-clear-all",
    "extra-bet-activate",
)

TABLE_TEMPLATE = "game/table.html"
# An htmx answer: the table partial, then the status line out of band, rendered together
# (one context, its processors run once).
HTMX_TABLE_TEMPLATE = f"{TABLE_TEMPLATE}#htmx_answer"


def owned_game(request: AuthenticatedHttpRequest, game_id: int) -> Game:
    # With what the table shows besides the row (its pending question), in the same query.
    read = read_game(game_id=game_id, owner_id=request.user.pk, lock=False)
    if read is None:
        raise Http404("No Game matches the given query.")
    return read.game


def table_urls(game_id: int) -> dict[str, str]:
    """Every URL the game's table links to, by name (an action's ``next-round`` as
    ``next_round``), made once per game and process: a render holds a dozen."""
    return _table_urls(game_id, urls_in_use())


@functools.lru_cache(maxsize=4096)
def _table_urls(game_id: int, where: tuple[object, str]) -> dict[str, str]:
    """``where``: the URLconf and script prefix the URLs are reversed in (a key only)."""
    urls = {name.replace("-", "_"): game_url("game:action", game_id, name) for name in ACTION_NAMES}
    for page in ("table", "end_game", "options", "report_question", "extra_bet_chip", "fairness"):
        urls[page] = game_url(f"game:{page}", game_id)
    urls["new_game"] = cached_reverse("game:new_game")
    urls["rules"] = rules_url("rules", game_id)
    return urls


def render_table(
    request: HtmxHttpRequest,
    game: Game,
    *,
    status: int = 200,
    notice: str = "",
    hint: bool = False,
    view: TableView | None = None,
    engine: Engine | None = None,
    revealed: TriviaAttempt | None = None,
    coach_note: str | None = None,
) -> HttpResponse:
    """The full page, or for htmx the table partial plus the status line out of band.

    ``engine``, ``revealed`` and ``coach_note``: what the action just played handed over
    with the row (services.Played), so that the table neither rebuilds nor reads them.
    What else the table shows is read here (selectors), before the presentation builds."""
    reads = table_reads(game, revealed=revealed, coach_note_known=coach_note)
    view = view or table_view(game, engine, reads=reads)
    # The rack's selected chip and the current spot come back with every answer (page state).
    focus = bet_focus(request.POST if request.method == "POST" else request.GET)
    menu = view.side_bet_menu
    betting = view.panel in ("bet", "outcome")
    spots = side_spots(menu, focus, view.side_circles) if betting and menu.available else None
    urls = table_urls(game.pk)
    coach_context = coach.table_context(game, view, hint=hint, note=reads.coach_note)
    context = {
        "view": view,
        "focus": focus,
        "betting": betting,
        "spots": spots,
        "urls": urls,
        "notice": notice,
        # An htmx answer's forms leave the CSRF field out (htmx sends the page's token in a
        # header); read once here, not by each form.
        "htmx_answer": bool(request.htmx),
        **coach_context,
        # The models of the pieces kept rendered per process ({% cache %}), each keyed by
        # everything it shows.
        **table_fragments(
            view,
            urls=urls,
            focus=focus,
            betting=betting,
            spots=spots,
            hint_available=coach_context["hint_available"],
        ),
    }
    daily_round = daily_round_shown(view)
    if daily_round:
        context["daily_standing"] = round_standing_text(daily_round_standing(game.pk, daily_round))
    if request.htmx:
        html = render_to_string(HTMX_TABLE_TEMPLATE, context, request=request)
        return HttpResponse(html, status=status)
    return render(request, TABLE_TEMPLATE, context, status=status)


def run_action(
    request: AuthenticatedHttpRequest, game_id: int, run: Callable[[int], Played]
) -> HttpResponse:
    """Run one service call with the posted version and answer: the partial for htmx, a
    redirect to the table otherwise, or the table with the refusal worded."""
    try:
        version = parse_version(request.POST.get("version"))
        played = run(version)
    except GameNotFound:
        raise Http404("No such game") from None
    except StaleVersion as error:
        return refused(request, game_id, STALE_NOTICE, status=http_status(error))
    except ActionRefused as error:
        return refused(request, game_id, refusal_text(error), status=http_status(error))
    except ValueError as error:
        return refused(request, game_id, str(error), status=REFUSED)
    if request.htmx:
        return render_table(
            request,
            played.game,
            engine=played.engine,
            revealed=played.revealed,
            coach_note=played.coach_note,
        )
    # Without JavaScript the selected chip and the current spot ride along in the query.
    query = focus_query(bet_focus(request.POST))
    url = game_url("game:table", played.game.pk)
    return redirect(f"{url}?{query}" if query else url)


def refused(
    request: AuthenticatedHttpRequest, game_id: int, notice: str, *, status: int
) -> HttpResponse:
    """The player's table as it stands, with ``notice`` saying why nothing changed."""
    # Ownership first: another player's game is a 404 whatever else is wrong with the post.
    game = owned_game(request, game_id)
    return render_table(request, game, status=status, notice=notice)
