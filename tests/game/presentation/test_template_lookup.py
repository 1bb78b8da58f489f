"""View models answer the dictionary lookup Django's templates try first, as their
attributes would; a missing name falls back to the template's usual blank."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.template import engines

from game.presentation.lookup import TemplateLookup


@dataclass
class _Hand(TemplateLookup):
    label: str

    @property
    def shout(self) -> str:
        return self.label.upper()


def test_a_view_model_is_read_by_name_as_by_attribute() -> None:
    hand = _Hand("Hand 2 of 3")
    assert hand["label"] == hand.label and hand["shout"] == "HAND 2 OF 3"
    with pytest.raises(KeyError):
        hand["missing"]


def test_templates_read_view_models_and_leave_a_missing_name_blank() -> None:
    template = engines["django"].from_string("{{ hand.label }}|{{ hand.shout }}|{{ hand.nope }}")
    assert template.render({"hand": _Hand("Player")}) == "Player|PLAYER|"
