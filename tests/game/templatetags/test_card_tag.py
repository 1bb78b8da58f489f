"""{% card %}: a card drawn by the card partial, once per code, size and process."""

from __future__ import annotations

from typing import Any

from django.template import engines
from django.template.loader import get_template

from game.templatetags import table_tags


def _render(source: str, **context: object) -> str:
    return engines["django"].from_string("{% load table_tags %}" + source).render(context)


def test_a_card_is_drawn_by_its_partial_with_its_name() -> None:
    html = _render("{% card code '' %}", code="QH")
    assert 'aria-label="Queen of Hearts"' in html and 'data-card="QH"' in html
    assert 'aria-label="Face-down card"' in _render("{% card code '' %}", code=None)


def test_each_code_and_size_is_rendered_once_per_process(monkeypatch) -> None:
    drawn: list[str] = []

    def counting_get_template(name: str) -> Any:
        drawn.append(name)
        return get_template(name)

    monkeypatch.setattr(table_tags, "get_template", counting_get_template)
    # A size no page uses: nothing rendered it before this test.
    html = _render("{% card 'AS' 'test-probe' %}{% card 'AS' 'test-probe' %}")
    html += _render("{% card 'KD' 'test-probe' %}{% card 'AS' 'test-probe' %}")
    assert drawn == ["game/_cards.html#card"] * 2
    assert html.count('aria-label="Ace of Spades"') == 3
