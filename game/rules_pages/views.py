"""The rules pages: public, no login; opened from a game, they link back to it."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from game.models import Game
from game.rules.money import display_cents, parse_whole_number
from game.rules.options import NEEDS, Options
from game.rules.sidebet_edges import DEFAULT_DECK_COUNT
from game.rules.sidebets import (
    HOUSE_MONEY,
    PAY_TABLES,
    PERFECT_11S,
    PERFECT_PAIR,
    TWENTY_ONE_PLUS_THREE,
)
from game.rules_pages.content import (
    GAME_PARAMETER,
    INDEX,
    OPTIONS,
    PLAY,
    SIDE_BET_ANCHORS,
    SIDE_BETS,
    TERM_LIST,
    TERMS,
    TRIVIA,
    PayLine,
    SideBetEdge,
    option_groups,
    option_label,
    pay_lines,
    side_bet_edge,
    with_game,
)


def _game_opened_from(request: HttpRequest) -> int | None:
    """The game whose table opened this page, if it is one of this player's own games.

    Only an id is read, never a URL, so the link back cannot point anywhere else."""
    raw = request.GET.get(GAME_PARAMETER)
    if raw is None or not request.user.is_authenticated:
        return None
    try:
        game_id = parse_whole_number(raw)
    except ValueError:
        return None
    owned = Game.objects.filter(pk=game_id, owner=request.user).exists()
    return game_id if owned else None


class _PageLink(TypedDict):
    url: str
    title: str
    current: bool


class _PagesContext(TypedDict):
    """What every rules page's template gets for the shared navigation."""

    rules_pages: list[_PageLink]
    back_to_game: str | None
    rules_game_id: int | None


class _SideBetTable(TypedDict):
    lines: tuple[PayLine, ...]
    edge: NotRequired[SideBetEdge]


def _pages_context(current: str, request: HttpRequest) -> _PagesContext:
    """The list of rules pages for the shared navigation; ``current`` is marked. Opened
    from a game, every page links back to it and the navigation keeps that link."""
    game_id = _game_opened_from(request)
    pages = (
        (INDEX, "The basics"),
        (PLAY, "Playing a round"),
        (TRIVIA, "Trivia mode"),
        (SIDE_BETS, "Side bets"),
        (OPTIONS, "Options"),
        (TERMS, "Terminology"),
    )
    return {
        "rules_pages": [
            {"url": with_game(reverse(name), game_id), "title": title, "current": name == current}
            for name, title in pages
        ],
        "back_to_game": reverse("game:table", args=[game_id]) if game_id is not None else None,
        # {% term %} links keep the way back to the game, as the navigation does.
        "rules_game_id": game_id,
    }


def rules_index(request: HttpRequest) -> HttpResponse:
    defaults = Options()
    context = {
        **_pages_context(INDEX, request),
        "starting_bank": display_cents(defaults.starting_bank),
        "min_bet": display_cents(defaults.min_bet),
        "max_bet": display_cents(defaults.max_bet),
    }
    return render(request, "rules/index.html", context)


def rules_play(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/play.html", _pages_context(PLAY, request))


def rules_trivia(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/trivia.html", _pages_context(TRIVIA, request))


# Context keys must be template-friendly, so "21+3" becomes its anchor's spelling.
def _context_key(bet: str) -> str:
    return SIDE_BET_ANCHORS[bet].replace("-", "_")


def rules_side_bets(request: HttpRequest) -> HttpResponse:
    bets: dict[str, _SideBetTable] = {
        _context_key(bet): {"lines": pay_lines(bet)} for bet in PAY_TABLES
    }
    for bet in (PERFECT_PAIR, TWENTY_ONE_PLUS_THREE, PERFECT_11S, HOUSE_MONEY):
        bets[_context_key(bet)]["edge"] = side_bet_edge(bet)
    context = {
        **_pages_context(SIDE_BETS, request),
        "bets": bets,
        "deck_count": DEFAULT_DECK_COUNT,
        "anchors": {_context_key(bet): anchor for bet, anchor in SIDE_BET_ANCHORS.items()},
    }
    return render(request, "rules/side_bets.html", context)


def rules_options(request: HttpRequest) -> HttpResponse:
    implied = [
        (option_label(key), [option_label(n) for n in needed]) for key, needed in NEEDS.items()
    ]
    context = {**_pages_context(OPTIONS, request), "groups": option_groups(), "implied": implied}
    return render(request, "rules/options.html", context)


def rules_terms(request: HttpRequest) -> HttpResponse:
    context = {**_pages_context(TERMS, request), "terms": TERM_LIST}
    return render(request, "rules/terms.html", context)
