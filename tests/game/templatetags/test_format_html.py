"""The table tags' format_html and format_html_join (game/templatetags/table_tags.py, issue
14): the same result as Django's for every kind of value — text with HTML's special
characters, safe strings (kept), lazy strings, numbers, None, objects with ``__html__``."""

from __future__ import annotations

from typing import Any

from django.utils import html as django_html
from django.utils.functional import lazy
from django.utils.safestring import SafeString, mark_safe
from hypothesis import given
from hypothesis import strategies as st

from game.templatetags.table_tags import format_html, format_html_join


class Marked:
    def __init__(self, text: str) -> None:
        self.text = text

    def __html__(self) -> str:
        return f"<m>{self.text}</m>"


lazy_text = lazy(lambda text: text, str)
lazy_safe = lazy(lambda text: mark_safe(text), str, SafeString)  # noqa: S308 - a test value

values = st.one_of(
    st.text(),
    st.sampled_from(['<script>alert("x")</script>', "a & b", "it's", "&amp;", "", "\x00"]),
    st.text().map(mark_safe),
    st.text().map(lazy_text),
    st.text().map(lazy_safe),
    st.integers(),
    st.decimals(allow_nan=False),
    st.none(),
    st.booleans(),
    st.text().map(Marked),
)


@given(st.lists(values, min_size=1, max_size=6), st.text(max_size=5))
def test_format_html_is_djangos(args: list[Any], prefix: str) -> None:
    format_string = prefix.replace("{", "{{").replace("}", "}}") + "<p>{}</p>" * len(args)
    ours = format_html(format_string, *args)
    assert ours == django_html.format_html(format_string, *args)
    assert isinstance(ours, SafeString)


@given(st.lists(st.tuples(values, values), max_size=4), values)
def test_format_html_join_is_djangos(rows: list[tuple[Any, Any]], sep: Any) -> None:
    ours = format_html_join(sep, '<li title="{}">{}</li>', rows)
    assert ours == django_html.format_html_join(sep, '<li title="{}">{}</li>', rows)
    assert isinstance(ours, SafeString)
