"""Site-wide pages: home, sign up and the player's "My games" list."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page links; send them to the SVG icon.

    Resolved per request: in production the static name comes from collectstatic's
    manifest, which does not exist yet when the URLconf is imported by `check`."""
    return redirect(static("img/favicon.svg"), permanent=True)


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("my_games")
    form: UserCreationForm[User] = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # The account was just created, not authenticated: name the backend that will
        # load it on later requests (django-axes' backend sits in front of it).
        login(request, user, backend="blackjack_site.auth.CachedModelBackend")
        return redirect(_safe_next(request) or "my_games")
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": _safe_next(request)},
        status=status,
    )


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    from game.selectors import games_for_player  # noqa: PLC0415 - game app owns the query

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
