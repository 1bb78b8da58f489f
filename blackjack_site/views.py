"""Site-wide pages: home and Play now, sign up, log in, and the player's "My games" list.

Every page answers only the methods it has a use for (405 otherwise). Play now and Sign up
carry a one-time key (game/core/once_keys.py): a double click makes one guest, one game, one
account; a form without a valid key is answered 400 with the form again."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from blackjack_site import accounts, guests
from blackjack_site.auth import ACCOUNT_BACKEND
from blackjack_site.forms import LoginForm, SignUpForm
from blackjack_site.throttle import client_address
from game import services
from game.core import once_keys
from game.core.clock import now_ms
from game.core.errors import FormExpired, LimitReached, http_status
from game.core.http import AuthenticatedHttpRequest
from game.presentation.daily import daily_status, home_daily, time_left_text
from game.presentation.notices import refusal_text
from game.selectors import daily_attempt_of, daily_rank, daily_shoe_on, games_for_player
from game.services import daily
from game.tables import invitations

if TYPE_CHECKING:
    from django.contrib.auth.forms import AuthenticationForm
    from django.contrib.auth.models import User

# The guest a login came from, while the offer to move its game is open.
GUEST_TO_MOVE_SESSION_KEY = "guest_to_move"


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page links; send them to the SVG icon.

    Resolved per request: in production the static name comes from collectstatic's
    manifest, which does not exist yet when the URLconf is imported by `check`."""
    return redirect(static("img/favicon.svg"), permanent=True)


@require_safe
@never_cache
def home(request: HttpRequest) -> HttpResponse:
    """The front door, with the player's Daily Shoe today (D-4…D-7) and the time left."""
    # never_cache: Play now's one-time key is the visitor's own (a repeat of it logs in
    # as the guest it made), never one a shared cache hands to the next visitor.
    today = daily.utc_today()
    # Read only: the front door makes no day (the Daily page and Play Daily Shoe do, D-4).
    day = daily_shoe_on(today)
    attempt = daily_attempt_of(request.user, day) if day is not None else None
    rank = daily_rank(today, request.user) if attempt is not None and attempt.finished else None
    status = daily_status(
        signed_in=request.user.is_authenticated, attempt=attempt, day=today, rank=rank
    )
    now = datetime.fromtimestamp(now_ms() / 1000, tz=UTC)
    card = home_daily(status, time_left=time_left_text(now, today))
    return render(request, "home.html", {"daily": card})


def form_expired(request: HttpRequest, kind: str) -> HttpResponse:
    """A form that creates something came without a valid one-time key (or as a repeat
    that cannot be answered as the first): the page says so and offers the form again."""
    return render(request, "form_expired.html", {"kind": kind}, status=400)


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """Straight to a table: a visitor becomes a guest (once per form: its one-time key)
    with a new game; a player (guest or not) resumes their newest game in progress, or
    starts one (under their row's lock: twenty presses make one game)."""
    user = request.user
    if not user.is_authenticated:
        try:
            user = guests.enter_as_guest(request, request.POST.get(once_keys.FIELD))
        except guests.TooManyGuests:
            context = {"limit": settings.GUESTS_PER_ADDRESS_PER_HOUR}
            return render(request, "registration/too_many_guests.html", context, status=429)
        except FormExpired:
            return form_expired(request, once_keys.Kind.GUEST)
    game = services.resume_or_new_game(user=user)
    return redirect("game:table", game_id=game.pk)


@login_required
@require_POST
def play_daily(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Play Daily Shoe (FAIRNESS.md D-5): an account's one attempt at today's, made or
    resumed; a guest is sent to sign up (and keeps the guest game)."""
    if guests.is_guest(request.user):
        messages.info(request, "Sign up to play the Daily Shoe: your guest game comes with you.")
        return redirect("signup")
    day = daily.daily_shoe_for(daily.utc_today())
    attempt = daily.start_attempt(user=request.user, day=day)
    return redirect("game:table", game_id=attempt.game_id)


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache  # the form's one-time key is this browser's own (see home)
def signup(request: HttpRequest) -> HttpResponse:
    """A new account; from a guest session, the guest's own account given a name and a
    password, so that its games stay in My games. Once per form (blackjack_site/accounts.py):
    a repeat of the same form is logged in to the account the first one made."""
    user = request.user
    guest = guests.is_guest(user)
    if user.is_authenticated and not guest:
        return redirect("my_games")
    if request.method != "POST":
        return _signup_page(request, SignUpForm(), guest=guest)
    try:
        account = accounts.sign_up(
            data=request.POST,
            key=once_keys.read(once_keys.Kind.SIGN_UP, request.POST.get(once_keys.FIELD)),
            guest_id=user.pk if guest else None,
            address=client_address(request),
        )
    except accounts.SignUpRefused as refused:
        return _signup_page(request, refused.form, guest=guest, status=refused.status)
    except FormExpired:
        # The form again, with the name typed: a page kept too long, or its key already
        # used for something else.
        form = SignUpForm(initial={"username": str(request.POST.get("username", ""))[:150]})
        return _signup_page(request, form, guest=guest, status=400, expired=True)
    log_in_keeping_invitations(request, account)
    return redirect(_safe_next(request) or "my_games")


def _signup_page(
    request: HttpRequest,
    form: SignUpForm,
    *,
    guest: bool,
    status: int = 200,
    expired: bool = False,
) -> HttpResponse:
    context = {"form": form, "next": _safe_next(request), "guest": guest, "expired": expired}
    return render(request, "registration/signup.html", context, status=status)


def log_in_keeping_invitations(request: HttpRequest, account: User) -> None:
    """Log ``request`` in to ``account``. Logging in to another account (or with a new
    password) starts a new session: the private tables' invitations the browser opened
    are carried into it, so a guest invited to a table still reaches it."""
    with invitations.kept_through_login(request.session):
        login(request, account, backend=ACCOUNT_BACKEND)


class SiteLoginView(LoginView):
    """Django's login with the bounded form (forms.py), GET and POST only. Logging in from
    a guest session that has a game in progress goes on to the offer to move it into the
    account (``move_guest_games``); the private tables' invitations are kept either way."""

    authentication_form = LoginForm
    http_method_names = ["get", "head", "post"]

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        request = self.request
        guest_id = request.user.pk if guests.is_guest(request.user) else None
        with invitations.kept_through_login(request.session):
            response = super().form_valid(form)
        if guest_id is None or not guests.games_to_offer(guest_id):
            return response
        request.session[GUEST_TO_MOVE_SESSION_KEY] = guest_id
        query = urlencode({"next": self.get_success_url()})
        return redirect(f"{reverse('move_guest_games')}?{query}")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def move_guest_games(request: AuthenticatedHttpRequest) -> HttpResponse:
    """After logging in from a guest session: "Move your guest game into <account>?"
    Move gives the account the guest's games; Leave it leaves them (the guest, whose session
    is over, goes with the idle-guest clean-up). Either way, on to where the login was
    going (Move: the moved game, unless the login named a page)."""
    stored = request.session.get(GUEST_TO_MOVE_SESSION_KEY)
    guest_id = stored if isinstance(stored, int) else 0
    onward = _safe_next(request)
    offered = guests.games_to_offer(guest_id) if guest_id else []
    if not offered:
        request.session.pop(GUEST_TO_MOVE_SESSION_KEY, None)
        return redirect(onward or "my_games")
    if request.method != "POST":
        context = {"game": offered[0], "more": len(offered) - 1, "next": onward}
        return render(request, "registration/move_guest_games.html", context)
    if request.POST.get("choice") == "move":
        try:
            moved = guests.move_guest_games(guest_id=guest_id, account=request.user)
        except LimitReached as error:
            context = {"notice": refusal_text(error)}
            return render(request, "too_many_games.html", context, status=http_status(error))
        request.session.pop(GUEST_TO_MOVE_SESSION_KEY, None)
        if moved and onward is None:
            return redirect("game:table", game_id=moved[0].pk)
    else:
        request.session.pop(GUEST_TO_MOVE_SESSION_KEY, None)
    return redirect(onward or "my_games")


@require_safe
@login_required
def my_games(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(request, "my_games.html", {"games": games_for_player(request.user)})


def locked_out(
    request: HttpRequest,
    response: HttpResponse | None = None,
    credentials: Mapping[str, object] | None = None,
) -> HttpResponse:
    """django-axes' answer to a login while the account or address is locked out (429)."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "wait": "1 minute" if minutes == 1 else f"{minutes} minutes",
    }
    return render(request, "registration/locked_out.html", context, status=429)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A request Django refused before any view (handler400): a body over
    DATA_UPLOAD_MAX_MEMORY_SIZE is 413 with a page that says so, the rest a plain 400 page
    (rather than Django's bare "Bad Request (400)")."""
    if isinstance(exception, RequestDataTooBig):
        return render(request, "413.html", status=413)
    return render(request, "400.html", status=400)
