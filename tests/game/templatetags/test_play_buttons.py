"""The turn's buttons are made once per game and set of buttons (game/templatetags/
table_tags.py, issue 14): what they show follows every field of every button and the
game, never a stale copy."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from django.template import Context

from game.presentation.table import table_view
from game.templatetags.table_tags import play_buttons
from tests.game import scenarios
from tests.game.html_tree import parse

pytestmark = pytest.mark.django_db


def _buttons(view: Any) -> str:
    return play_buttons(Context({"view": view}))


def test_each_field_of_a_button_shows_and_a_change_is_not_served_from_the_cache(
    player: Any,
) -> None:
    view = table_view(scenarios.dealt(player))
    first = _buttons(view)
    hit = next(action for action in view.actions if action.name == "hit")
    assert hit.allowed

    view.actions = [
        replace(action, allowed=False, reason='No <b>"hits"</b> & more', label="Hit & run")
        if action is hit
        else action
        for action in view.actions
    ]
    changed = parse(_buttons(view)).select_one('button[data-key="h"]')
    assert changed["disabled"] == "" and changed["title"] == 'No <b>"hits"</b> & more'
    assert changed["aria-describedby"] == "why-not-hit" and changed.text() == "Hit & run"

    view.panel = "trivia_difficulty"  # elsewhere a reason is not pointed at
    assert "aria-describedby" not in parse(_buttons(view)).select_one('button[data-key="h"]').attrs

    assert _buttons(table_view(view.game)) == first  # as it was
    assert _buttons(table_view(scenarios.dealt(player))) != first  # another game's URLs
