"""The seat actions of a shared table, a view each: a logged-in post for the requesting
player's own seat that calls one service with the table, the player, the posted version
and what the form adds (game/tables/forms.py; a ValueError is bad input, 422), and answers
as game/tables/views/rendering.py's ``answer_post`` does (the table partial for htmx, a redirect
otherwise; a refused or late action changes nothing, T-12). Each is reached at
/tables/<id>/<name>/ (``ACTIONS``, read by game/tables/urls.py); any other name is a 404.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.views.decorators.http import require_POST

from game.core.http import AuthenticatedHttpRequest
from game.forms import parse_version
from game.tables import services
from game.tables.forms import (
    parse_chip,
    parse_extra_bet_activation,
    parse_offer,
    parse_seat,
    parse_side_chip,
    text,
)
from game.tables.views.rendering import answer_post, table_urls

SeatActionBody = Callable[[AuthenticatedHttpRequest, int, int], Any]
SeatActionView = Callable[[AuthenticatedHttpRequest, int], HttpResponse]


def seat_action(act: SeatActionBody, *, back_to: str | None = None) -> SeatActionView:
    """The view of one seat action: logged-in posts only; ``act(request, table_id,
    version)`` calls the action's service. ``back_to``: where a plain post goes when it
    went through (a name of the table's URLs; None: the table)."""

    @functools.wraps(act)
    def view(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
        def run() -> Any:
            # Every action names the version its page showed: a post without one is
            # refused, never applied unchecked.
            version = parse_version(request.POST.get("version"))
            return act(request, table_id, version)

        done_url = table_urls(table_id)[back_to] if back_to else None
        return answer_post(request, table_id, run, done_url)

    return login_required(require_POST(view))


@seat_action
def sit(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """Sit down in the seat posted (T-3)."""
    return services.sit(
        table_id=table_id,
        user=request.user,
        version=version,
        **parse_seat(request.POST),
    )


@seat_action
def leave(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """Leave the seat (T-3)."""
    return services.leave(table_id=table_id, user=request.user, version=version)


@seat_action
def add_chip(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """A chip onto the seat's bet for the next deal (T-5)."""
    return services.add_chip(
        table_id=table_id,
        user=request.user,
        version=version,
        **parse_chip(request.POST),
    )


@seat_action
def clear_bet(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """Clear the seat's bet (T-5)."""
    return services.clear_bet(table_id=table_id, user=request.user, version=version)


@seat_action
def ready(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """Ready: the seat's bet stands for the next deal (T-5, T-6)."""
    return services.ready(table_id=table_id, user=request.user, version=version)


@seat_action
def sit_out(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """Sit Out: the seat sits the next round out, keeping its bank and credits (T-5)."""
    return services.sit_out(table_id=table_id, user=request.user, version=version)


@seat_action
def offer(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """An answer to the offer open to the seat's box: insurance, even money, early
    surrender, an extra bet (T-7)."""
    return services.answer_offer(
        table_id=table_id,
        user=request.user,
        version=version,
        **parse_offer(request.POST),
    )


@seat_action
def side_chip(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """A chip onto one of the seat's side bets for the next deal (T-5, RULES.md §9)."""
    return services.add_side_chip(
        table_id=table_id,
        user=request.user,
        version=version,
        **parse_side_chip(request.POST),
    )


@seat_action
def side_clear(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """One of the seat's side bets cleared (T-5)."""
    return services.clear_side_bet(
        table_id=table_id,
        user=request.user,
        version=version,
        **text("bet")(request.POST),
    )


@seat_action
def extra_bet_activate(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """The Extra Bet switched on or off for the seat's next deals."""
    return services.activate_extra_bet(
        table_id=table_id,
        user=request.user,
        version=version,
        **parse_extra_bet_activation(request.POST),
    )


@seat_action
def play(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """A decision on the hand in turn: hit, stand, double, split or surrender (T-8)."""
    return services.play(
        table_id=table_id,
        user=request.user,
        version=version,
        **text("play", "action")(request.POST),
    )


@seat_action
def difficulty(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """The difficulty of the question the seat's Hit or Double Down asks (T-8)."""
    return services.choose_difficulty(
        table_id=table_id,
        user=request.user,
        version=version,
        **text("difficulty")(request.POST),
    )


@seat_action
def answer(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """An answer to the question the seat was asked (T-8)."""
    return services.answer_question(
        table_id=table_id,
        user=request.user,
        version=version,
        **text("answer")(request.POST),
    )


def _renew_invite(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """The host's new invitation link; the old one stops working (T-1)."""
    return services.renew_invite(table_id=table_id, user=request.user, version=version)


# A new link posted from the invitation's own page (no JavaScript) goes back to it.
renew_invite = seat_action(_renew_invite, back_to="invite")


@seat_action
def close(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """The host closes the table (T-2)."""
    return services.close_table(table_id=table_id, user=request.user, version=version)


@seat_action
def client_seed(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """The player's own client seed, joined with the others' in the next shoe (F-2; taken
    as typed: a space is one of its characters)."""
    return services.set_seat_client_seed(
        table_id=table_id,
        user=request.user,
        version=version,
        **text("client_seed")(request.POST),
    )


@seat_action
def shuffle_now(request: AuthenticatedHttpRequest, table_id: int, version: int) -> Any:
    """The host's Shuffle now, between rounds (F-6)."""
    return services.shuffle_now(table_id=table_id, user=request.user, version=version)


@login_required
@require_POST
def no_such_action(request: AuthenticatedHttpRequest, table_id: int, action: str) -> HttpResponse:
    """A post to /tables/<id>/<name>/ for a name no seat action has."""
    raise Http404("No such action")


# Each seat action's view by the name in its address (game.tables.views.rendering.TABLE_ACTIONS).
ACTIONS: dict[str, SeatActionView] = {
    "sit": sit,
    "leave": leave,
    "chip": add_chip,
    "clear": clear_bet,
    "ready": ready,
    "sit-out": sit_out,
    "offer": offer,
    "side-chip": side_chip,
    "side-clear": side_clear,
    "extra-bet-activate": extra_bet_activate,
    "play": play,
    "difficulty": difficulty,
    "answer": answer,
    "renew-invite": renew_invite,
    "close": close,
    "client-seed": client_seed,
    "shuffle-now": shuffle_now,
}
