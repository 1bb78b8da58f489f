"""Template helpers for the table: money in dollars, cards drawn in HTML with accessible names."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from game.rules.cards import RANK_NAMES, SUIT_SYMBOLS, card_name, is_jackpot_ace, is_red
from game.rules.money import display_cents, format_cents

register = template.Library()

# The face shows "10", not the code's "0".
_RANK_FACES = {**{rank: rank for rank in RANK_NAMES}, "0": "10"}


@register.filter
def dollars(cents: int | None) -> str:
    """Cents as the page shows them: ``$1,234.50``."""
    return display_cents(int(cents or 0))


@register.filter
def plain_dollars(cents: int | None) -> str:
    """Cents as a plain amount for fields and data attributes: ``1234.50``."""
    return format_cents(int(cents or 0))


@register.simple_tag
def playing_card(code: str | None, size: str = "") -> str:
    """One card; ``None`` is the face-down hole card."""
    size_class = f" playing-card--{size}" if size else ""
    if not code:
        return format_html(
            '<span class="playing-card playing-card--back{}" role="img" '
            'aria-label="Face-down card"></span>',
            size_class,
        )
    colour = "red" if is_red(code) else "black"
    jackpot = is_jackpot_ace(code)
    return format_html(
        '<span class="playing-card playing-card--{}{}{}" role="img" aria-label="{}" '
        'data-card="{}"><span class="playing-card__rank" aria-hidden="true">{}</span>'
        '<span class="playing-card__suit" aria-hidden="true">{}</span>{}</span>',
        colour,
        " playing-card--jackpot" if jackpot else "",
        size_class,
        card_name(code),
        code,
        _RANK_FACES[code[0]],
        SUIT_SYMBOLS[code[1]],
        format_html('<span class="playing-card__jackpot" aria-hidden="true">JACKPOT</span>')
        if jackpot
        else "",
    )


@register.filter
def card_short(code: str) -> str:
    """Compact text for the split-hands strip: ``10♥``."""
    return f"{_RANK_FACES[code[0]]}{SUIT_SYMBOLS[code[1]]}{'*' if is_jackpot_ace(code) else ''}"


@register.filter(name="card_name")
def card_name_filter(code: str) -> str:
    """The accessible name of a card, e.g. "Queen of Hearts"."""
    return card_name(code)


@register.filter
def negate(value: int) -> int:
    return -int(value)
