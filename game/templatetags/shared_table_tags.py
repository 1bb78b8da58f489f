"""Template tags of the shared tables' pages: the chip rows, made once per (URL, chips).

A shared table's betting controls hold a row of chips for the bet and one for each side
bet (~50 buttons, each with four values written in): rendered as template nodes for every
viewer at every change, they were most of a live update's cost."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from game.templatetags.table_tags import chip_buttons_html

register = template.Library()


@register.simple_tag
def bet_chip_buttons(url: str, chips: list[int]) -> SafeString:
    """The bet's chips: ``chip=<dollars>`` posted to ``url`` (the chip action), the same
    row as a game's bet panel."""
    return chip_buttons_html(url, tuple(chips))


@register.simple_tag
def side_chip_buttons(url: str, bet: str, chips: list[int]) -> SafeString:
    """One side bet's chips: ``side_chip=<bet>:<dollars>`` posted to ``url``."""
    return _side_chip_buttons(url, bet, tuple(chips))


@lru_cache(maxsize=4096)
def _side_chip_buttons(url: str, bet: str, chips: tuple[int, ...]) -> SafeString:
    return format_html_join(
        "",
        '<button type="submit" class="chip chip--{}" name="side_chip" value="{}:{}" '
        'formaction="{}">${}</button>',
        ((chip, bet, chip, url, chip) for chip in chips),
    )
