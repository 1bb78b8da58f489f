"""URLs the table reverses on every render, reversed once per process.

``reverse()`` walks the URL resolver each call (~0.1 ms); the table page and every htmx
answer used to make a dozen such calls for the same few patterns. A game's URLs differ
only in the game's id, so each pattern is reversed once with a stand-in id and the id
of each call put in its place. Keyed by the URLconf and script prefix in use, and
forgotten when a test changes ROOT_URLCONF.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_script_prefix, get_urlconf, reverse

# An id no game has, found once in the reversed URL and replaced by the real one.
_STAND_IN_ID = 987_654_321_987
_STAND_IN = str(_STAND_IN_ID)

_URLS: dict[tuple[object, ...], str] = {}
_GAME_URLS: dict[tuple[object, ...], tuple[str, str]] = {}


def _where() -> tuple[object, str]:
    return (get_urlconf() or settings.ROOT_URLCONF, get_script_prefix())


def urls_in_use() -> tuple[object, str]:
    """The URLconf and script prefix URLs are reversed in now: part of the key of anything
    cached that holds URLs."""
    return _where()


def cached_reverse(viewname: str, *args: Any) -> str:
    """``reverse(viewname, args=args)`` for arguments that repeat (e.g. an action's name)."""
    key = (*_where(), viewname, *args)
    url = _URLS.get(key)
    if url is None:
        url = _URLS[key] = reverse(viewname, args=args)
    return url


def game_url(viewname: str, game_id: int, *args: Any) -> str:
    """``reverse(viewname, args=[game_id, *args])``; the pattern is reversed once."""
    key = (*_where(), viewname, *args)
    parts = _GAME_URLS.get(key)
    if parts is None:
        before, found, after = reverse(viewname, args=[_STAND_IN_ID, *args]).partition(_STAND_IN)
        if not found:  # pragma: no cover - an id that is not a plain path segment
            return reverse(viewname, args=[game_id, *args])
        parts = _GAME_URLS[key] = (before, after)
    return f"{parts[0]}{int(game_id)}{parts[1]}"


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: Any) -> None:
    if setting in ("ROOT_URLCONF", "FORCE_SCRIPT_NAME"):
        _URLS.clear()
        _GAME_URLS.clear()
