"""Sign up: a new account, or a guest's own account given a name and a password; once
per form, however many times it is posted.

The form's one-time key (game/core/once_keys.py) is stored with the account made, in the
transaction that makes it, and looked for before anything else:

- From a guest session, the guest's row is locked first: twenty posts of the form queue
  on it, the first names the guest and hashes the password, and the others find the key
  used and answer as the first did, without hashing again.
- Without a session the key is stored first: parallel posts of the same form wait on it
  (PostgreSQL: the unique key; SQLite: the write lock every transaction takes at BEGIN)
  and then find it used.

A repeat is logged in to the account the first post made (see views.signup): logging in
replaces the session, so a repeat that came with the session cookie of before (a guest's,
now ended) would otherwise answer with an empty session and a cookie deleted, and the
browser, which keeps whichever answer comes last, would end logged out.

Two different forms asking for one name (or names differing only in case) make one
account: the database's unique index on the lower-cased name (migration 0001 of this app)
refuses the second, which is answered as the form's "name taken" error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from blackjack_site.forms import SignUpForm
from blackjack_site.guests import is_guest
from blackjack_site.throttle import within_hourly_limit
from game.core import once_keys
from game.core.errors import FormExpired
from game.models import OnceKey
from game.services.locking import lock_player

if TYPE_CHECKING:
    from django.contrib.auth.models import User

TOO_MANY_SIGN_UPS = (
    "Sign up makes at most {limit} accounts an hour from one address, and this hour's are "
    "used up. Please try again later."
)


# Django's own words for a name already taken (auth's username field).
NAME_TAKEN = "A user with that username already exists."


class SignUpRefused(Exception):
    """The form, with its errors, and the status to answer with (400, or 429 past the
    hour's limit); nothing was made."""

    def __init__(self, form: SignUpForm, status: int) -> None:
        super().__init__(status)
        self.form = form
        self.status = status


def sign_up(*, data: Mapping[str, object], key: str, guest_id: int | None, address: str) -> User:
    """The account ``data`` (the posted form) asks for: a new one, or the guest's
    (``guest_id``) named; made once per ``key``. A repeat answers the account the first
    made. Raises SignUpRefused, or FormExpired for a repeat that cannot be honoured."""
    try:
        with transaction.atomic():
            instance = None
            if guest_id is not None:
                lock_player(guest_id)
                instance = get_user_model().objects.get(pk=guest_id)
            made = once_keys.used(OnceKey.Kind.SIGN_UP, key)
            if made is not None:
                return _repeat(made, data)
            if instance is not None and not is_guest(instance):
                # Named meanwhile by another sign-up form of the same guest (another tab).
                raise FormExpired("the guest has signed up with another form")
            record = OnceKey.objects.create(kind=OnceKey.Kind.SIGN_UP, key=key)
            form = SignUpForm(data, instance=instance)
            if not form.is_valid():
                raise SignUpRefused(form, 400)
            limit = settings.SIGNUPS_PER_ADDRESS_PER_HOUR
            if not within_hourly_limit("sign-ups", address, limit):
                form.add_error(None, TOO_MANY_SIGN_UPS.format(limit=limit))
                raise SignUpRefused(form, 429)
            account = form.save()  # the password hashed, once
            record.user = account
            record.save(update_fields=["user"])
            return account
    except IntegrityError:
        pass
    made = once_keys.used(OnceKey.Kind.SIGN_UP, key)
    if made is not None:
        return _repeat(made, data)
    raise SignUpRefused(_name_taken(data), 400)


def _repeat(made: OnceKey, data: Mapping[str, object]) -> User:
    """The account a first submission made, for a repeat of it: the same name asked for,
    within the repeat window."""
    account = made.user
    asked = get_user_model().normalize_username(str(data.get("username") or "")).strip()
    if (
        account is None
        or account.get_username().casefold() != asked.casefold()
        or not once_keys.within_repeat_window(made)
    ):
        raise FormExpired("a sign-up key used for another name, or too long ago")
    return account


def _name_taken(data: Mapping[str, object]) -> SignUpForm:
    """The form of a sign-up whose name another one took meanwhile (a unique index said
    so): checked again, it says the name is taken."""
    form = SignUpForm(data)
    if form.is_valid():
        # Taken and given up again meanwhile: say so all the same, rather than retry.
        form.add_error("username", NAME_TAKEN)
    return form
