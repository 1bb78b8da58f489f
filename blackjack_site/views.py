"""Site-wide pages: home and Play now, sign up and the player's "My games" list."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from blackjack_site import guests
from blackjack_site.forms import SignUpForm
from game import services
from game.selectors import games_for_player, latest_game_in_progress

# The account just made (sign-up, a guest) was not authenticated: name the backend that
# will load it on later requests (django-axes' backend sits in front of it).
ACCOUNT_BACKEND = "blackjack_site.auth.CachedModelBackend"


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page links; send them to the SVG icon.

    Resolved per request: in production the static name comes from collectstatic's
    manifest, which does not exist yet when the URLconf is imported by `check`."""
    return redirect(static("img/favicon.svg"), permanent=True)


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """Straight to a table: a visitor becomes a guest with a new game; a player (guest or
    not) resumes their newest game in progress, or starts one."""
    user = request.user
    if not user.is_authenticated:
        if not guests.may_make_guest(guests.client_address(request)):
            context = {"limit": settings.GUESTS_PER_ADDRESS_PER_HOUR}
            return render(request, "registration/too_many_guests.html", context, status=429)
        user = guests.create_guest()
        login(request, user, backend=ACCOUNT_BACKEND)
    game = latest_game_in_progress(user) or services.new_game(user=user)
    return redirect("game:table", game_id=game.pk)


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


def signup(request: HttpRequest) -> HttpResponse:
    """A new account; from a guest session, the guest's own account given a name and a
    password, so that its games stay in My games."""
    user, instance = request.user, None
    if user.is_authenticated:
        if not guests.is_guest(user):
            return redirect("my_games")
        # A fresh copy of the guest's row: a refused form must not rename the session's user.
        instance = get_user_model().objects.get(pk=user.pk)
    form = SignUpForm(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # A new password no longer matches the session's: log in again either way.
        login(request, user, backend=ACCOUNT_BACKEND)
        return redirect(_safe_next(request) or "my_games")
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": _safe_next(request), "guest": instance is not None},
        status=status,
    )


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    return render(request, "my_games.html", {"games": games_for_player(request.user)})


def locked_out(
    request: HttpRequest, response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' answer to a login while the account or address is locked out (429)."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "wait": "1 minute" if minutes == 1 else f"{minutes} minutes",
    }
    return render(request, "registration/locked_out.html", context, status=429)
