"""What view models share so that templates read them cheaply.

A template resolves ``view.active_hand.total_text`` one dot at a time, trying a dictionary
lookup first and attribute lookup second (Django's documented order). On a plain object
the first try fails with an exception, caught and followed by ``getattr``: a failed
lookup per dot, a hundred or more a table render. A view model that answers the
dictionary lookup by its attributes is read in one step.
"""

from __future__ import annotations

from typing import Any


class TemplateLookup:
    """Mixin: ``view["name"]`` is ``view.name`` (a missing name is a KeyError, as a
    dictionary's, so the template falls back to its usual lookups and its usual blank)."""

    __slots__ = ()

    def __getitem__(self, name: str) -> Any:
        try:
            return getattr(self, name)
        except AttributeError:
            raise KeyError(name) from None
