"""The account behind every logged-in request, read from the shared cache.

Django loads the session's user with one query per request (``ModelBackend.get_user``);
:class:`CachedModelBackend` keeps the user in the cache instead, so a request with a cached
session and a cached user reads no table before the view's own queries. The cached copy
is dropped whenever the account is saved or deleted (a new password, deactivation, the
last login), so Django's checks still see the account as it is: a session made before
a password change no longer matches the account's session hash and is logged out, and a
deactivated account is refused. Logging out flushes the session (cached_db: cache and
database), so the user id it held is gone with it.

Only with a cache shared by every worker (``REDIS_URL``) or in development (DEBUG, one
process): a process-local cache would let another worker keep an account it never saw
change. ``USER_CACHE_SECONDS`` (settings) bounds how long a copy may live in any case,
e.g. after a bulk ``queryset.update()`` that sends no signal; 0 turns the cache off.

The cached copy is the account row, password hash included (the session is checked against
it): the cache must be as private as the sessions it already holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save

if TYPE_CHECKING:
    from django.contrib.auth.models import User

KEY_PREFIX = "auth:user:"
# The backend an account made by the site (a guest, a sign-up) is logged in with: it was
# not authenticated, so login() is told which backend loads it on later requests
# (django-axes' backend sits in front of this one).
ACCOUNT_BACKEND = "blackjack_site.auth.CachedModelBackend"


def user_cache_key(user_id: object) -> str:
    return f"{KEY_PREFIX}{user_id}"


class CachedModelBackend(ModelBackend):
    """``ModelBackend`` whose ``get_user`` (each request's user) reads the cache first."""

    def get_user(self, user_id: Any) -> User | None:
        seconds = getattr(settings, "USER_CACHE_SECONDS", 0)
        if not seconds:
            return super().get_user(user_id)
        key = user_cache_key(user_id)
        user: User | None = cache.get(key)  # the cache's values are untyped
        if user is None:
            user = super().get_user(user_id)
            if user is None:
                return None
            cache.set(key, user, seconds)
        return user if self.user_can_authenticate(user) else None


def forget_user(sender: type[User], instance: User, **kwargs: Any) -> None:
    """A saved or deleted account is read afresh on its next request."""
    cache.delete(user_cache_key(instance.pk))


def connect_signals() -> None:
    model = get_user_model()
    post_save.connect(forget_user, sender=model, dispatch_uid="auth-user-cache-save")
    post_delete.connect(forget_user, sender=model, dispatch_uid="auth-user-cache-delete")
