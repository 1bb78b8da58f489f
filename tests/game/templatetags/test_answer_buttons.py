"""The trivia question's answer buttons, written by a template tag (issue 14, fourth pass):
the same HTML, byte for byte, as the template loop they replace."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from game.templatetags.table_tags import answer_buttons
from tests.game.html_tree import parse

# The loop table.html had, with the whitespace around it.
THE_LOOP = Template(
    "{% for answer in answers %}\n"
    '      <button type="submit" name="answer" value="{{ answer }}" class="answer" '
    "{% if answers|length > 2 %}data-key=\"{% cycle 'a' 'b' 'c' 'd' %}\" "
    "aria-keyshortcuts=\"{% cycle 'A 1' 'B 2' 'C 3' 'D 4' %}\"{% else %}"
    'data-key="{{ answer|first|lower }}" aria-keyshortcuts="{{ answer|first|upper }}"'
    "{% endif %}>{% if answers|length > 2 %}"
    "<span class=\"answer-letter\" aria-hidden=\"true\">{% cycle 'A' 'B' 'C' 'D' %}</span>"
    "{% endif %}<span>{{ answer }}</span></button>\n      {% endfor %}"
)

ANSWER_SETS = [
    ["True", "False"],
    ["Paris", "Rome", "Berlin", "Madrid"],
    ['<b>"Quotes" & tags</b>', "Ångström", "it's", "ßeta"],
    ["&amp;", "ÿes"],
    ["one", "two", "three"],
]


@pytest.mark.parametrize("answers", ANSWER_SETS)
def test_the_tag_writes_what_the_template_loop_wrote(answers: list[str]) -> None:
    expected = "\n      " + THE_LOOP.render(Context({"answers": answers})) + "\n    "
    assert answer_buttons(answers) == expected


def test_each_answer_is_a_button_named_by_its_text_posting_it() -> None:
    buttons = parse(answer_buttons(["A & B", "C", "D", "E"])).select("button")
    assert [button["value"] for button in buttons] == ["A & B", "C", "D", "E"]
    assert [button.text() for button in buttons] == ["A A & B", "B C", "C D", "D E"]
    assert [button["aria-keyshortcuts"] for button in buttons] == ["A 1", "B 2", "C 3", "D 4"]
