"""Template tags of the shared tables' pages: the chip rows, made once per (URL, chips).

A shared table's betting controls hold a row of chips for the bet and one for each side
bet (~50 buttons, each with four values written in): rendered as template nodes for every
viewer at every change, they were most of a live update's cost."""

from __future__ import annotations

from django import template

from game.templatetags.table_tags import chip_buttons_html

register = template.Library()


@register.simple_tag
def bet_chip_buttons(url: str, chips: list[int]) -> str:
    """The bet's chips: ``chip=<dollars>`` posted to ``url`` (the chip action), the same
    row as a game's bet panel."""
    return chip_buttons_html(url, tuple(chips))


@register.simple_tag
def side_chip_buttons(url: str, bet: str, chips: list[int]) -> str:
    """One side bet's chips: ``side_chip=<bet>:<dollars>`` posted to ``url``."""
    return chip_buttons_html(url, tuple(chips), name="side_chip", value_prefix=f"{bet}:")
