"""Which views answer with a long-lived stream (a shared table's live events).

The ASGI application (blackjack_site/asgi.py) serves such a view through Django's ASGI
handler, where an async stream holds no thread while it waits, and every other request
through Django's WSGI handler in a thread: a view marked here is the only one that needs
the event loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

View = TypeVar("View", bound=Callable[..., object])

_MARK = "streams_on_the_event_loop"


def streams_on_the_event_loop(view: View) -> View:
    """Marks ``view`` as one whose response is a stream best served under ASGI (the mark
    survives decorators that copy the wrapped view's attributes, as Django's do)."""
    setattr(view, _MARK, True)
    return view


def is_marked_to_stream(view: Callable[..., object]) -> bool:
    """Whether ``view`` was marked by :func:`streams_on_the_event_loop`."""
    return bool(getattr(view, _MARK, False))
