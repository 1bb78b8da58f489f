"""The requests the game's views receive, as type checkers should see them.

django-htmx's HtmxMiddleware (settings.MIDDLEWARE) gives every request ``request.htmx``,
and behind ``@login_required`` ``request.user`` is a signed-in User; Django's HttpRequest
declares neither. A view annotates its request with the class that says what it relies on
(the way django-htmx and django-stubs document).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request that passed ``@login_required``."""

    user: User
