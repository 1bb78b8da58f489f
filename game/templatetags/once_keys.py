"""The hidden one-time key of a form that creates something (game/core/once_keys.py).

``{% load once_keys %}{% once_key_field "new_game" %}`` inside the form: a new key each
time the form is rendered (so never inside a ``{% cache %}`` block). Kinds: ``guest``
(Play now, Play as guest), ``new_game``, ``table`` (Create Table), ``sign_up``.
"""

from __future__ import annotations

from django import template

from game.core import once_keys

register = template.Library()


@register.inclusion_tag("partials/once_key_field.html")
def once_key_field(kind: str) -> dict[str, str]:
    if kind not in once_keys.Kind.values:
        raise template.TemplateSyntaxError(f"once_key_field: no form kind {kind!r}")
    return {"name": once_keys.FIELD, "value": once_keys.issue(kind)}
