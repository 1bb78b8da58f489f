"""The request the game's views receive, as type checkers should see it.

django-htmx's HtmxMiddleware (settings.MIDDLEWARE) gives every request ``request.htmx``;
Django's HttpRequest does not declare it, so a view that reads it annotates its request
with ``HtmxHttpRequest`` (django-htmx's documented way to type it).
"""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
