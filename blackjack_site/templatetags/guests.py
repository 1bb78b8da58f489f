"""``{% load guests %}{% if user|is_guest %}``: whether the page's user is a guest
(blackjack_site/guests.py), from the user row the request already holds."""

from __future__ import annotations

from typing import Any

from django import template

from blackjack_site.guests import is_guest as _is_guest

register = template.Library()


@register.filter
def is_guest(user: Any) -> bool:
    return _is_guest(user)
