"""Guest players: **Play now** starts a game before any sign-up (UI.md "The front door").

A guest is an ordinary ``User`` marked two ways at once: a username in the reserved
``guest-`` namespace (which the sign-up form refuses to anyone else) and an unusable
password (nobody can ever log in as a guest: the account lives only in the session that
made it). The marker costs no query: a page tells a guest from a player by the user row it
already holds (the cached user, auth.py), which a profile table would not allow. Signing up
from a guest session gives that same row a chosen username and a password, so the marker
is gone and the games, which point at the row, stay with it.

Guests are made at most ``GUESTS_PER_ADDRESS_PER_HOUR`` times per client address and
hour, counted in the cache as logins are in django-axes (the address read the same way:
``AXES_CLIENT_IP_CALLABLE`` when set, else ``REMOTE_ADDR``). A guest idle for 30 days is
removed, with its games, by ``manage.py remove_idle_guests``.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.core.cache import cache
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.module_loading import import_string

from game.models import Game
from game.tables.models import Seat, SharedTable

if TYPE_CHECKING:
    from django.contrib.auth.models import User

GUEST_PREFIX = "guest-"
THROTTLE_WINDOW_SECONDS = 3600
THROTTLE_KEY_PREFIX = "guests:made-from:"
IDLE_DAYS = 30


def is_guest(user: Any) -> bool:
    """A guest's account: the reserved name and no password (an anonymous user is not)."""
    return (
        bool(getattr(user, "is_authenticated", False))
        and user.get_username().startswith(GUEST_PREFIX)
        and not user.has_usable_password()
    )


def create_guest() -> User:
    """A new guest account: a random reserved name, no password."""
    model = get_user_model()
    return model.objects.create_user(username=f"{GUEST_PREFIX}{secrets.token_hex(6)}")


def client_address(request: HttpRequest) -> str:
    """The address guests are counted by: as django-axes counts logins."""
    reader = getattr(settings, "AXES_CLIENT_IP_CALLABLE", None)
    if reader:
        address = (import_string(reader) if isinstance(reader, str) else reader)(request)
    else:
        address = request.META.get("REMOTE_ADDR")
    return str(address or "unknown")


def may_make_guest(address: str) -> bool:
    """Count one more guest for ``address``; False past the hour's limit.

    The hour starts with the address's first guest. A cache that has lost the count (it
    expired between the two calls, or Redis is out of reach) lets the guest through: the
    limit is a brake on scripts, not a lock on the door."""
    key = f"{THROTTLE_KEY_PREFIX}{address}"
    cache.add(key, 0, timeout=THROTTLE_WINDOW_SECONDS)
    try:
        made = cache.incr(key)
    except ValueError:
        return True
    return made <= settings.GUESTS_PER_ADDRESS_PER_HOUR


def idle_guests(*, days: int = IDLE_DAYS, now: datetime | None = None) -> QuerySet[User]:
    """Guests with no play for ``days``: made, last logged in and last played at a game
    before then. Never a staff account, nor a guest seated at a shared table or hosting
    one (removing the host would close the table on its other players)."""
    cutoff = (now or timezone.now()) - timedelta(days=days)
    model = get_user_model()
    return (
        model.objects.filter(
            username__startswith=GUEST_PREFIX,
            password__startswith=UNUSABLE_PASSWORD_PREFIX,
            is_staff=False,
            is_superuser=False,
            date_joined__lt=cutoff,
        )
        .exclude(last_login__gte=cutoff)
        .exclude(pk__in=Game.objects.filter(last_played__gte=cutoff).values("owner"))
        .exclude(pk__in=Seat.objects.filter(number__isnull=False).values("player"))
        .exclude(pk__in=Seat.objects.filter(joined__gte=cutoff).values("player"))
        .exclude(pk__in=SharedTable.objects.values("host"))
    )


def remove_idle_guests(*, days: int = IDLE_DAYS, now: datetime | None = None) -> tuple[int, int]:
    """Delete the idle guests and everything theirs; how many guests and games went."""
    _, removed = idle_guests(days=days, now=now).delete()
    return removed.get(get_user_model()._meta.label, 0), removed.get(Game._meta.label, 0)
