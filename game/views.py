"""The table pages: one view shows a game, one view runs any player action.

An htmx post gets the table partial (and the status line out of band); a plain post
is redirected back to the table (post/redirect/get), so everything works without
JavaScript. Errors never change anything and answer with the table and a notice:
422 for a refused action or bad input, 409 for a stale post (or a lost race for the
row lock), 404 for another player's game.

Why 422 rather than 400: in DEBUG (the default of ``make run``) django-htmx's debug
script replaces the whole page with any 400/403/404/500 answer to an htmx request.
422 is left to htmx, and the pages' htmx-config (``responseHandling``) swaps 409 and
422 like a 200, so a refusal renders in place with DEBUG on and off alike.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from game import once_keys, services
from game.errors import (
    REFUSED,
    ActionRefused,
    FormExpired,
    GameNotFound,
    LimitReached,
    StaleVersion,
    http_status,
)
from game.forms import (
    OptionsForm,
    default_options,
    option_needs_text,
    parse_bet,
    parse_chip_dollars,
    parse_extra_bet_activation,
    parse_menu_toggle,
    parse_side_chip,
    parse_side_clear,
    parse_side_clear_all,
    parse_version,
)
from game.house_edge_summary import HouseEdgeSummary, summarise
from game.http import AuthenticatedHttpRequest, HtmxHttpRequest
from game.models import Game
from game.presentation import coach
from game.presentation.bet_spots import bet_focus, focus_query, side_spots
from game.presentation.daily import round_standing_text
from game.presentation.fragments import table_fragments
from game.presentation.notices import REFUSALS, STALE_NOTICE, refusal_text
from game.presentation.table import TableView, daily_round_shown, table_view
from game.rules.money import AMOUNT_FORMAT_REFUSAL, parse_whole_number
from game.rules.options import NEEDS
from game.rules_pages.content import rules_url
from game.selectors import daily_round_standing, next_client_seed
from game.sql import read_game
from game.url_cache import cached_reverse, game_url, urls_in_use

TABLE_TEMPLATE = "game/table.html"
# An htmx answer: the table partial, then the status line out of band, rendered together
# (one context, its processors run once).
HTMX_TABLE_TEMPLATE = f"{TABLE_TEMPLATE}#htmx_answer"


def _owned_game(request: AuthenticatedHttpRequest, game_id: int) -> Game:
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
def _table_urls(game_id: int, where: tuple[Any, str]) -> dict[str, str]:
    """``where``: the URLconf and script prefix the URLs are reversed in (a key only)."""
    urls = {name.replace("-", "_"): game_url("game:action", game_id, name) for name in ACTIONS}
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
) -> HttpResponse:
    """The full page, or for htmx the table partial plus the status line out of band."""
    view = view or table_view(game)
    # The rack's selected chip and the current spot come back with every answer (page state).
    focus = bet_focus(request.POST if request.method == "POST" else request.GET)
    menu = view.side_bet_menu
    betting = view.panel in ("bet", "outcome")
    spots = side_spots(menu, focus, view.side_circles) if betting and menu.available else None
    urls = table_urls(game.pk)
    coach_context = coach.table_context(game, view, hint=hint)
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


@login_required
@require_GET
def table(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    # ?hint=1 (the Hint button, a GET form) adds the coach's hint; it changes nothing.
    hint = request.GET.get("hint") == "1"
    # A deadline that ran out while nobody looked is applied before the table is shown.
    game = services.catch_up_deadlines(game=_owned_game(request, game_id))
    return render_table(request, game, hint=hint)


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


# --------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Action:
    service: Callable[..., Game]
    # Turns the posted form into the service's extra keyword arguments (ValueError: bad input).
    parse: Callable[[QueryDict], dict[str, Any]] = lambda post: {}


def _choice(post: QueryDict) -> dict[str, Any]:
    choice = post.get("choice")
    if choice not in ("accept", "decline"):
        raise ValueError("Choose Accept or Decline.")
    return {"accept": choice == "accept"}


def _chip(post: QueryDict) -> dict[str, Any]:
    dollars = parse_chip_dollars(post.get("chip"))
    # The amount typed in the same form is the base the chip adds to (blank: the bet so far).
    typed = post.get("amount", "").strip()
    return {"chip_cents": dollars * 100, "base_cents": parse_bet(typed) if typed else None}


def _box(post: QueryDict) -> dict[str, Any]:
    """A box's circle (seats > 1), with the amount typed for the box being left, if any,
    and the rack's selected chip, which the box takes."""
    try:
        box = parse_whole_number(post.get("box"))
    except ValueError:
        raise ValueError(REFUSALS["no_box_chosen"]) from None
    typed = (post.get("amount") or "").strip()
    chip = post.get("selected_chip")
    return {
        "box": box,
        "base_cents": parse_bet(typed) if typed else None,
        "chip_cents": parse_chip_dollars(chip) * 100 if chip else None,
    }


def _deal(post: QueryDict) -> dict[str, Any]:
    return {"bet_cents": parse_bet(post.get("amount"))}


def _extra_bet(post: QueryDict) -> dict[str, Any]:
    if post.get("choice") == "decline":
        return {"amount_cents": None}
    typed = post.get("amount") or ""
    if not typed.strip():
        raise ValueError(AMOUNT_FORMAT_REFUSAL)
    return {"amount_cents": parse_bet(typed)}


def _text(name: str, missing: str) -> Callable[[QueryDict], dict[str, Any]]:
    """A required text field; ``missing`` tells the player what to do when it is absent."""

    def parse(post: QueryDict) -> dict[str, Any]:
        value = post.get(name)
        if not value:
            raise ValueError(missing)
        return {name: value}

    return parse


def _optional_difficulty(post: QueryDict) -> dict[str, Any]:
    """Hit / Double Down posted with the difficulty chosen beside them (absent: ask which)."""
    difficulty = post.get("difficulty")
    return {"difficulty": difficulty} if difficulty else {}


ACTIONS: dict[str, Action] = {
    "chip": Action(services.add_chip, _chip),
    "clear-bet": Action(services.clear_bet),
    "deal": Action(services.place_bet_and_deal, _deal),
    # §10 seats > 1: which box the chips go to, and one bet on every box.
    "select-box": Action(services.select_box, _box),
    "same-bet": Action(services.same_bet_on_every_box),
    "hit": Action(services.hit, _optional_difficulty),
    "stand": Action(services.stand),
    "double": Action(services.double, _optional_difficulty),
    "split": Action(services.split),
    "surrender": Action(services.surrender),
    "insurance": Action(services.answer_insurance, _choice),
    # §10 seats > 1: insurance and even money for every box waiting at once, or box by box.
    "insurance-every-box": Action(services.answer_insurance_for_every_box, _choice),
    "insurance-box-by-box": Action(services.choose_insurance_box_by_box),
    "early-surrender": Action(services.answer_early_surrender, _choice),
    "difficulty": Action(
        services.choose_difficulty, _text("difficulty", REFUSALS["no_such_difficulty"])
    ),
    "answer": Action(services.answer_question, _text("answer", REFUSALS["not_an_answer_shown"])),
    # A page shown before answers were carried into the round at once, or before Rebet.
    "continue": Action(services.continue_after_reveal),
    "next-round": Action(services.next_round),
    "rebet": Action(services.rebet),
    "extra-bet": Action(services.place_extra_bet, _extra_bet),
    "parlay": Action(services.parlay, _text("choice", "Choose one of the offers shown.")),
    "roll": Action(services.roll),
    # F-6: finish the shoe between rounds (its seed revealed) and deal from a new one.
    "shuffle-now": Action(services.shuffle_now),
    # The side-bet menu of the bet panel (its parsers in game/forms.py).
    "side-bets-menu": Action(services.toggle_side_bet_menu, parse_menu_toggle),
    "side-chip": Action(services.add_side_chip, parse_side_chip),
    "side-clear": Action(services.clear_side_bet, parse_side_clear),
    "side-clear-all": Action(services.clear_side_bets, parse_side_clear_all),
    "extra-bet-activate": Action(services.activate_extra_bet, parse_extra_bet_activation),
}


def _run_action(
    request: AuthenticatedHttpRequest, game_id: int, run: Callable[[int], Game]
) -> HttpResponse:
    """Run one service call and answer: partial / redirect, or the table with an error."""
    try:
        version = parse_version(request.POST.get("version"))
        game = run(version)
    except GameNotFound:
        raise Http404("No such game") from None
    except StaleVersion as error:
        return _refused(request, game_id, STALE_NOTICE, status=http_status(error))
    except ActionRefused as error:
        return _refused(request, game_id, refusal_text(error), status=http_status(error))
    except ValueError as error:
        return _refused(request, game_id, str(error), status=REFUSED)
    if request.htmx:
        return render_table(request, game)
    # Without JavaScript the selected chip and the current spot ride along in the query.
    query = focus_query(bet_focus(request.POST))
    url = game_url("game:table", game.pk)
    return redirect(f"{url}?{query}" if query else url)


def _refused(
    request: AuthenticatedHttpRequest, game_id: int, notice: str, *, status: int
) -> HttpResponse:
    # Ownership first: another player's game is a 404 whatever else is wrong with the post.
    game = _owned_game(request, game_id)
    return render_table(request, game, status=status, notice=notice)


@login_required
@require_POST
def game_action(request: AuthenticatedHttpRequest, game_id: int, action: str) -> HttpResponse:
    spec = ACTIONS.get(action)
    if spec is None:
        _owned_game(request, game_id)
        return _refused(request, game_id, "There is no such action.", status=404)

    def run(version: int) -> Game:
        extra = spec.parse(request.POST)
        return spec.service(game_id=game_id, user=request.user, version=version, **extra)

    return _run_action(request, game_id, run)


@login_required
@require_http_methods(["GET", "POST"])
def end_game(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """GET: the confirmation (R-1.6); POST: end the game."""
    game = _owned_game(request, game_id)
    if request.method == "GET":
        return render(request, "game/end_confirm.html", {"game": game})

    def run(version: int) -> Game:
        return services.end_game(game_id=game_id, user=request.user, version=version)

    return _run_action(request, game_id, run)


@login_required
@require_http_methods(["GET", "POST"])
def options(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """The options menu (§10): only between rounds; Apply, Reset to Default, Close."""
    game = _owned_game(request, game_id)
    view = table_view(game)
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
                )
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
    game = _owned_game(request, game_id)
    form = OptionsForm(request.GET)
    summary = _house_edge_or_none(form.to_options(), game.options) if form.is_valid() else None
    context = {"house_edge": summary}
    return render(
        request, "game/_house_edge.html", context, status=200 if summary is not None else REFUSED
    )
