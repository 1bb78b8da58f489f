"""Small values for the tables' templates: money as the page shows it, what a card shows,
an action's URL. The markup is the templates' own."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TypedDict

from django import template
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

from game.presentation.cards import CardFace, card_face, card_short
from game.rules.cards import card_name
from game.rules.money import display_cents, format_cents
from game.services.question_reports import NOTE_MAX_LENGTH
from trivia.models import QuestionReport

register = template.Library()


@register.filter
def dollars(cents: int | None) -> str:
    """Cents as the page shows them: ``$1,234.50``."""
    return display_cents(int(cents or 0))


@register.filter
def signed_dollars(cents: int | None) -> str:
    """A win or loss: ``+$10.00``, ``−$10.00`` (a true minus sign), ``$0.00``."""
    cents = int(cents or 0)
    if cents > 0:
        return f"+{display_cents(cents)}"
    return f"−{display_cents(-cents)}" if cents < 0 else display_cents(0)


@register.filter
def plain_dollars(cents: int | None) -> str:
    """Cents as a plain amount for fields and data attributes: ``1234.50``."""
    return format_cents(int(cents or 0))


@register.filter
def negate(value: int) -> int:
    return -int(value)


@register.filter(name="card_face")
def card_face_filter(code: str | None) -> CardFace | None:
    """What a card shows (templates/game/_cards.html draws it); None: face down."""
    return card_face(code) if code else None


@register.simple_tag(name="card")
def card_tag(code: str | None, size: str = "") -> SafeString:
    """``{% card code size %}``: one card, drawn by the ``card`` partial of
    templates/game/_cards.html (``code`` None: face down; ``size`` "" or "small")."""
    return _rendered_card(code, size)


@lru_cache(maxsize=256)
def _rendered_card(code: str | None, size: str) -> SafeString:
    # Some forty template nodes a card and a dozen cards a table, each the same every time
    # it comes back: rendered once per code, size and process (the output is escaped by
    # the template itself, so it is safe as it stands).
    html = get_template("game/_cards.html#card").render({"code": code, "size": size})
    return mark_safe(html)  # noqa: S308


@register.simple_tag(name="card_row")
def card_row_tag(cards: Sequence[str | None], size: str = "") -> SafeString:
    """``{% card_row cards size %}``: a hand's cards side by side, each the ``card`` partial
    of templates/game/_cards.html as :func:`card_tag` keeps it (one tag a hand instead of an
    include and a loop)."""
    # The cards' own output is safe (see _rendered_card); joined, it stays so.
    return mark_safe("".join(_rendered_card(code, size) for code in cards))  # noqa: S308


# A card as text: compact for a strip of won cards (``10♥``), or its accessible name.
register.filter("card_short", card_short)
register.filter("card_name", card_name)


class ReportFormOptions(TypedDict):
    reasons: list[tuple[str, str]]
    note_max_length: int


@register.simple_tag
def question_report_form() -> ReportFormOptions:
    """What the "Report this question" form offers: the reasons (value, label) from the
    report model itself, and the longest note."""
    return {"reasons": QuestionReport.Reason.choices, "note_max_length": NOTE_MAX_LENGTH}
