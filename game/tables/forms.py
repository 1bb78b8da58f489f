"""The Create Table form (TABLES.md "Pages and names") and the host's Table Options form:
the single-player options of RULES.md §10, less what a shared table decides itself."""

from __future__ import annotations

from typing import Any, cast

from django import forms

from game.forms import OptionsForm, default_options, timer_choices
from game.rules.options import ANSWER_SECONDS, TIMER_OFF, TURN_SECONDS, Options
from game.tables.models import SEATS_MAX, SEATS_MIN
from game.tables.services import table_options

# A shared table plays one box per seat (T-3), times every turn (T-8) and buys every seat in
# with the same bank. It has no coach: the coach is a setting of one player's own game (saved
# on its Game row), not a rule of the table, and marking one player's moves on a
# felt everyone watches is no part of TABLES.md. Side bets are the host's choice (T-6, T-7).
NOT_AT_SHARED_TABLES = ("seats", "coach", "starting_bank")
# The Create Table form's own fields (the table, not its rules).
TABLE_FIELDS = ("name", "public", "seat_count", "intermission_seconds")


class TableOptionsForm(OptionsForm):
    """The host's Table Options form, changed between rounds only (T-2): the single-player
    options less those a shared table decides itself, with its turn and answer timers
    required (never "off", T-8)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in NOT_AT_SHARED_TABLES:
            self.fields.pop(name, None)
        for name, seconds in (("turn_seconds", TURN_SECONDS), ("answer_seconds", ANSWER_SECONDS)):
            timer = cast(forms.ChoiceField, self.fields[name])  # as OptionsForm declares it
            timer.choices = [(v, label) for v, label in timer_choices(seconds) if v != TIMER_OFF]
            timer.required = True

    @classmethod
    def initial_for(cls, options: dict[str, Any]) -> dict[str, Any]:
        initial = cls.initial_from({**default_options(), **options, "seats": 1})
        shared = table_options(options)
        initial["turn_seconds"] = str(shared.turn_seconds)
        initial["answer_seconds"] = str(shared.answer_seconds)
        return initial

    def to_options(self) -> dict[str, Any]:
        """The rules chosen, in the JSON form of §10, with what a shared table fixes."""
        chosen = self.cleaned_data
        self.cleaned_data = {
            **{name: value for name, value in chosen.items() if name not in TABLE_FIELDS},
            "seats": 1,
            "coach": False,
            "starting_bank": Options().starting_bank,
        }
        try:
            options = super().to_options()
        finally:
            self.cleaned_data = chosen
        options.pop("seats", None)
        return options


class CreateTableForm(TableOptionsForm):
    name = forms.CharField(label="Table name", max_length=60)
    public = forms.TypedChoiceField(
        label="Who can find it",
        choices=[("1", "Public: listed in the lobby"), ("0", "Private: by invitation link only")],
        coerce=lambda value: value == "1",
        initial="1",
    )
    seat_count = forms.TypedChoiceField(
        label="Seats",
        choices=[(str(n), str(n)) for n in range(SEATS_MIN, SEATS_MAX + 1)],
        coerce=int,
        initial="5",
    )
    intermission_seconds = forms.TypedChoiceField(
        label="Betting time between rounds",
        choices=[(str(s), f"{s} seconds") for s in (10, 15, 20, 30, 45, 60)],
        coerce=int,
        initial="30",
    )

    field_order = ["name", "public", "seat_count", "intermission_seconds"]

    def table_fields(self) -> list[Any]:
        """The table itself (name, who finds it, seats, betting time): always shown."""
        return [self[name] for name in TABLE_FIELDS]

    def rule_fields(self) -> list[Any]:
        """The house rules, set to the usual ones: folded away until wanted."""
        return [field for field in self if field.name not in TABLE_FIELDS]
