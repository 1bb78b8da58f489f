"""Guest players: **Play now** starts a game before any sign-up (UI.md "The front door").

A guest is an ordinary ``User`` marked two ways at once: a username in the reserved
``guest-`` namespace (which the sign-up form refuses to anyone else) and an unusable
password (nobody can ever log in as a guest: the account lives only in the session that
made it). The marker costs no query: a page tells a guest from a player by the user row it
already holds (the cached user, auth.py), which a profile table would not allow. Signing up
from a guest session gives that same row a chosen username and a password, so the marker
is gone and the games, which point at the row, stay with it.

**Play now** (and **Play as guest** on an invitation) makes the guest with
:func:`enter_as_guest`, once per form: the form's one-time key (game/core/once_keys.py) is
stored with the guest made, so twenty parallel posts of one form, each perhaps without the
session cookie the first answer set, all end logged in as that one guest.

Guests are made at most ``GUESTS_PER_ADDRESS_PER_HOUR`` times per client address and
hour (throttle.py; repeats of one form count once). A guest idle for 30 days is removed,
with its games and the tables it hosted that nobody uses, by ``manage.py
remove_idle_guests`` (:func:`idle_guests` says which).
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from blackjack_site.auth import ACCOUNT_BACKEND
from blackjack_site.throttle import client_address, within_hourly_limit
from game.core import once_keys
from game.core.errors import FormExpired, LimitReached
from game.models import Game, OnceKey
from game.services.locking import lock_player
from game.services.starting import games_in_progress_limit
from game.tables.models import Seat, SharedTable

if TYPE_CHECKING:
    from django.contrib.auth.models import User

GUEST_PREFIX = "guest-"
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


class TooManyGuests(Exception):
    """The client address has made this hour's guests (GUESTS_PER_ADDRESS_PER_HOUR)."""


def enter_as_guest(request: HttpRequest, posted_key: str | None) -> User:
    """Log ``request`` in as a new guest, made once per form; the guest.

    ``posted_key`` is the form's one-time key (``{% once_key_field "guest" %}``). A repeat
    of a submission already made (a double click, parallel posts) is logged in as the guest
    the first one made, within once_keys.REPEAT_WINDOW and while that guest has not
    signed up. Raises FormExpired (no valid key, or a repeat that cannot be honoured) or
    TooManyGuests; nothing is made then."""
    key = once_keys.read(OnceKey.Kind.GUEST, posted_key)
    guest = _guest_for(key, client_address(request))
    login(request, guest, backend=ACCOUNT_BACKEND)
    return guest


def _guest_for(key: str, address: str) -> User:
    try:
        with transaction.atomic():
            # The key is stored first: a parallel post of the same form waits here
            # (PostgreSQL: on the unique key; SQLite: for the write lock at BEGIN) until this
            # transaction ends, then finds the key taken and the guest made with it.
            record = OnceKey.objects.create(kind=OnceKey.Kind.GUEST, key=key)
            limit = settings.GUESTS_PER_ADDRESS_PER_HOUR
            if not within_hourly_limit("guests", address, limit):
                raise TooManyGuests(address)
            guest = create_guest()
            record.user = guest
            record.save(update_fields=["user"])
            return guest
    except IntegrityError:
        pass
    made = once_keys.used(OnceKey.Kind.GUEST, key)
    known = made.user if made is not None else None
    if made is None or known is None or not is_guest(known):
        raise FormExpired("a guest key whose guest is gone or has signed up")
    if not once_keys.within_repeat_window(made):
        raise FormExpired("a guest key used too long ago")
    return known


def games_to_offer(guest_id: int) -> list[Game]:
    """A guest's games in progress, newest first: what logging in to an account from the
    guest's session offers to move into it (none: nothing to offer, or no guest)."""
    guest = get_user_model().objects.filter(pk=guest_id).first()
    if guest is None or not is_guest(guest):
        return []
    return list(Game.objects.filter(owner=guest, status=Game.Status.IN_PROGRESS))


def move_guest_games(*, guest_id: int, account: User) -> list[Game]:
    """Give ``account`` the guest's games (in progress and ended, as signing up would keep
    them); the games in progress moved, newest first. Under both rows' locks, so a second
    press finds nothing left to move. The guest, whose session ended with the login, is
    then deleted, unless it sits at or hosts a shared table (the idle-guest clean-up will
    see to it): never a table another player sits at. LimitReached when the account would
    hold more games in progress than GAMES_IN_PROGRESS_PER_PLAYER."""
    with transaction.atomic():
        lock_player(account)
        lock_player(guest_id)
        guest = get_user_model().objects.filter(pk=guest_id).first()
        if guest is None or not is_guest(guest) or guest.pk == account.pk:
            return []
        in_progress = Game.objects.filter(status=Game.Status.IN_PROGRESS)
        moving = list(in_progress.filter(owner=guest))
        limit = games_in_progress_limit()
        if moving and in_progress.filter(owner=account).count() + len(moving) > limit:
            raise LimitReached("too_many_games", limit=limit)
        Game.objects.filter(owner=guest).update(owner=account)
        if not (
            Seat.objects.filter(player=guest).exists()
            or SharedTable.objects.filter(host=guest).exists()
        ):
            guest.delete()
        return moving


def idle_guests(*, days: int = IDLE_DAYS, now: datetime | None = None) -> QuerySet[User]:
    """Guests with no play for ``days``: made, last logged in, last played at a game and
    last sat down at a table before then. Never a staff account, nor a guest seated at a
    shared table, nor the host of a table in use: removing a host deletes its tables, so a
    guest hosting an open table with anyone seated, or empty for less than ``days``, stays.
    Its closed tables (nobody can sit at one) and an open one empty for longer (the table
    clock closes an empty table within 30 minutes; only a site without one keeps it open)
    go with it."""
    cutoff = (now or timezone.now()) - timedelta(days=days)
    model = get_user_model()
    tables_in_use = SharedTable.objects.exclude(phase=SharedTable.Phase.CLOSED).filter(
        Q(empty_since__isnull=True) | Q(empty_since__gte=cutoff) | Q(seats__number__isnull=False)
    )
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
        .exclude(pk__in=tables_in_use.values("host"))
    )


def remove_idle_guests(*, days: int = IDLE_DAYS, now: datetime | None = None) -> tuple[int, int]:
    """Delete the idle guests and everything theirs (games, the tables they hosted that
    were not in use); how many guests and games went."""
    _, removed = idle_guests(days=days, now=now).delete()
    return removed.get(get_user_model()._meta.label, 0), removed.get(Game._meta.label, 0)
