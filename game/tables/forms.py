"""The Create Table form (TABLES.md "Pages and names"), the host's Table Options form (the
single-player options of RULES.md §10, less what a shared table decides itself), and the
parsers of the seat actions' posts.

The parsers follow game/forms.py's convention: each turns a post into its service's
keyword arguments, or raises ValueError with the sentence the player reads, which the
view answers with 422 (as the single-player views do).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django import forms
from django.http import QueryDict

from game.forms import (
    OptionsForm,
    default_options,
    parse_activation,
    parse_bet,
    parse_chip_dollars,
    timer_choices,
)
from game.rules.money import AMOUNT_FORMAT_REFUSAL, parse_whole_number
from game.rules.options import ANSWER_SECONDS, TIMER_OFF, TURN_SECONDS, Options
from game.tables.models import SEATS_MAX, SEATS_MIN
from game.tables.presentation import TABLE_REFUSALS
from game.tables.services import EXTRA_BET_ANSWER, table_options

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


# --------------------------------------------------------------------- seat action posts

Parse = Callable[[QueryDict], dict[str, Any]]


def no_fields(post: QueryDict) -> dict[str, Any]:
    """An action that posts nothing but its version (Leave, Ready, Clear…)."""
    return {}


def text(field: str, keyword: str | None = None) -> Parse:
    """A text field passed on as posted ("" when absent): which values exist is the
    service's check, worded with its refusal (an unknown play, answer, offer…)."""

    def parse(post: QueryDict) -> dict[str, Any]:
        return {keyword or field: post.get(field, "")}

    return parse


def parse_seat(post: QueryDict) -> dict[str, Any]:
    """Sit Here's seat number, in plain ASCII digits (``int()`` would also take "٤", "+4",
    " 4"); whether the table has that seat is the service's check."""
    try:
        return {"number": parse_whole_number(post.get("seat"))}
    except ValueError:
        raise ValueError(TABLE_REFUSALS["no_such_seat"]) from None


def parse_chip(post: QueryDict) -> dict[str, Any]:
    """A chip of the rack, in whole dollars (which chips exist is the service's check)."""
    return {"chip_cents": parse_chip_dollars(post.get("chip")) * 100}


def parse_side_chip(post: QueryDict) -> dict[str, Any]:
    """``side_chip=<bet>:<dollars>``, e.g. ``21+3:5`` (one button carries both, as in the
    single-player menu); which bets exist is the service's check."""
    bet, _, dollars = post.get("side_chip", "").rpartition(":")
    return {"bet": bet, "chip_cents": parse_chip_dollars(dollars) * 100}


def parse_extra_bet_activation(post: QueryDict) -> dict[str, Any]:
    """Activate or Deactivate of the Extra Bet Blackjack for the next deal (T-6)."""
    return {"active": parse_activation(post.get("active"))}


def parse_offer(post: QueryDict) -> dict[str, Any]:
    """An offer's answer (T-7), with the extra bet's amount typed in dollars when the
    answer places it (R-1.4a): any amount that does not read as one is refused alike."""
    answer = post.get("answer", "")
    if answer != EXTRA_BET_ANSWER:
        return {"answer": answer, "amount_cents": None}
    try:
        return {"answer": answer, "amount_cents": parse_bet(post.get("amount"))}
    except ValueError:
        raise ValueError(AMOUNT_FORMAT_REFUSAL) from None
