"""Template helpers for the "Report question" form on the trivia reveal panel."""

from __future__ import annotations

from django import template

from game.question_reports import NOTE_MAX_LENGTH
from trivia.models import QuestionReport

register = template.Library()


@register.simple_tag
def report_reasons() -> list[tuple[str, str]]:
    """The reasons a player may give, as (value, label), from the report model itself."""
    return list(QuestionReport.Reason.choices)


@register.simple_tag
def report_note_max_length() -> int:
    return NOTE_MAX_LENGTH
