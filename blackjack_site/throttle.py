"""Hourly limits per client address: guests made by Play now, accounts made by Sign up.

Counted in the cache as django-axes counts logins, the address read the same way
(``AXES_CLIENT_IP_CALLABLE`` when set, else ``REMOTE_ADDR``). The hour starts with the
address's first count. A cache that has lost the count (it expired between the two calls,
or Redis is out of reach) lets the request through: the limits are a brake on scripts, not
a lock on the door.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.module_loading import import_string

WINDOW_SECONDS = 3600


def client_address(request: HttpRequest) -> str:
    """The address requests are counted by: as django-axes counts logins."""
    reader = getattr(settings, "AXES_CLIENT_IP_CALLABLE", None)
    if reader:
        address = (import_string(reader) if isinstance(reader, str) else reader)(request)
    else:
        address = request.META.get("REMOTE_ADDR")
    return str(address or "unknown")


def within_hourly_limit(what: str, address: str, limit: int) -> bool:
    """Count one more ``what`` (e.g. "guests") for ``address``; False past ``limit`` this
    hour."""
    key = f"{what}:made-from:{address}"
    cache.add(key, 0, timeout=WINDOW_SECONDS)
    try:
        made = cache.incr(key)
    except ValueError:
        return True
    return made <= limit
