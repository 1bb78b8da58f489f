"""Forms for the bet amount and the options menu (RULES.md §10)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.http import QueryDict

from game.rules.money import (
    AMOUNT_FORMAT_REFUSAL,
    format_cents,
    parse_typed_amount,
    parse_whole_number,
)
from game.rules.options import (
    ACE_SPLIT_LIMITS,
    ANSWER_SECONDS,
    BLACKJACK_PAYOUTS,
    DEALER_RULES,
    DECK_COUNTS,
    DOUBLE_ON_VALUES,
    INACTIVE_WHEN_INFINITE,
    INACTIVE_WHEN_SIMPLE,
    INFINITE_DECKS,
    NEEDS,
    RESHUFFLE_MODES,
    SPLIT_LIMITS,
    SURRENDER_MODES,
    TIMER_OFF,
    TURN_SECONDS,
    Options,
)
from game.rules.sidebets import STAKED_SIDE_BETS
from game.rules_pages.content import OPTION_GROUPS as DOCUMENTED_OPTION_GROUPS
from game.services.trivia import ANY_CATEGORY
from trivia.models import ROW_ID_MAX

PLACE_A_BET_FIRST = "Place a bet first."


def parse_bet(raw: str | None) -> int:
    """A typed dollar amount in cents; raises ValueError for anything else (R-1.4, R-1.4a)."""
    if raw is None or not raw.strip():
        raise ValueError(PLACE_A_BET_FIRST)
    cents = parse_typed_amount(raw)
    if cents <= 0:
        raise ValueError(PLACE_A_BET_FIRST)
    return cents


def parse_chip_dollars(raw: str | None) -> int:
    """A chip button's value in whole dollars (which chips exist is the caller's check)."""
    try:
        return parse_whole_number(raw)
    except ValueError:
        raise ValueError("There is no such chip.") from None


NO_BOX_CHOSEN = "Choose a box."
OUT_OF_DATE = "This page is out of date: the table has been reloaded, please try again."


def parse_version(raw: str | None) -> int:
    """The version a page showed, in plain digits; raises ValueError (OUT_OF_DATE) for
    anything else: a post without one is refused, never applied unchecked."""
    try:
        return parse_whole_number(raw)
    except ValueError:
        raise ValueError(OUT_OF_DATE) from None


class AmountField(forms.Field):
    """Dollars with at most two decimals, kept as integer cents."""

    def to_python(self, value: Any) -> int | None:
        text = "" if value in self.empty_values else str(value).strip()
        if not text:
            return None
        try:
            return parse_typed_amount(text)
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None

    def prepare_value(self, value: Any) -> Any:
        return format_cents(value) if isinstance(value, int) else value


def _choices(
    values: tuple[object, ...], labels: dict[object, str] | None = None
) -> list[tuple[str, str]]:
    labels = labels or {}
    return [(str(value), labels.get(value, str(value))) for value in values]


# What the menu says of an option kept but inactive (RULES.md §10 Extensions).
INACTIVE_SIMPLE_TEXT = "Inactive: the simple game plays Hit and Stand only."
INACTIVE_INFINITE_TEXT = "Inactive: an infinite shoe is never reshuffled."
# A needed number, in words: max_ace_splits is switched on to 1.
_NEEDED_WORDS = {"max_ace_splits": "splitting aces (once)"}

# turn_seconds / answer_seconds in the menu.
_TIMER_WORDS: dict[object, str] = {"off": "No time limit", 10: "10 seconds", 15: "15 seconds"}
_TIMER_WORDS |= {20: "20 seconds", 30: "30 seconds", 60: "60 seconds"}


def timer_choices(seconds: tuple[object, ...]) -> list[tuple[str, str]]:
    """The menu of a time limit (turn_seconds, answer_seconds), in words."""
    return _choices(seconds, _TIMER_WORDS)


# max_splits / max_ace_splits in the menu: N splits make N + 1 hands.
_SPLIT_WORDS: dict[object, str] = {1: "1 (two hands)", 2: "2 (three hands)", 3: "3 (four hands)"}

# The menu's groups are the rules page's (game/rules_pages/content.py), in its order, with
# the Coach (not a rule of §10: a per-game setting saved on the game row) last.
COACH_GROUP = ("Coach", ("coach",))
# Fields of the menu that are not options of RULES.md §10.
NON_RULE_FIELDS = ("coach",)


class OptionsForm(forms.Form):
    trivia_mode = forms.BooleanField(required=False, label="Trivia mode")
    side_bets = forms.BooleanField(required=False, label="Side bets")
    blackjack_payout = forms.ChoiceField(
        choices=_choices(tuple(BLACKJACK_PAYOUTS)), label="Blackjack pays"
    )
    deck_count = forms.ChoiceField(
        choices=_choices(DECK_COUNTS, {INFINITE_DECKS: "Infinite (a fresh deck for every card)"}),
        label="Decks in the shoe",
    )
    reshuffle = forms.ChoiceField(
        choices=_choices(
            RESHUFFLE_MODES,
            {
                "cut_card": "When under 25 % of the shoe is left",
                "every_round": "Before every round",
                "when_empty": "Only when the shoe is empty",
            },
        ),
        label="New shoe",
    )
    min_bet = AmountField(label="Minimum bet ($)")
    max_bet = AmountField(label="Maximum bet ($)")
    starting_bank = AmountField(label="Starting bank for new games ($)")
    dealer_stands_on = forms.ChoiceField(
        choices=_choices(
            DEALER_RULES,
            {
                "S17": "Stands on all 17s (S17)",
                "H17": "Hits soft 17 (H17)",
                "S16": "Stands on all 16s (S16)",
                "H16": "Hits soft 16 (H16)",
            },
        ),
        label="Dealer",
    )
    dealer_peek = forms.BooleanField(required=False, label="Dealer peeks for blackjack")
    charlie = forms.ChoiceField(
        choices=[("5", "Five Card Charlie"), ("7", "Seven Card Charlie"), ("off", "No Charlie")],
        label="Charlie",
    )
    split_any_ten = forms.BooleanField(required=False, label="Split any two ten-cards")
    max_splits = forms.TypedChoiceField(
        choices=_choices(SPLIT_LIMITS, _SPLIT_WORDS), coerce=int, label="Splits of a pair"
    )
    max_ace_splits = forms.TypedChoiceField(
        choices=_choices(ACE_SPLIT_LIMITS, {0: "No splitting aces", **_SPLIT_WORDS}),
        coerce=int,
        label="Splits of aces",
    )
    double_after_split = forms.BooleanField(required=False, label="Double after split")
    double_after_split_aces = forms.BooleanField(
        required=False, label="Double after splitting aces"
    )
    one_card_after_split_aces = forms.BooleanField(
        required=False, label="One card only to each split ace"
    )
    double_on = forms.ChoiceField(
        choices=_choices(
            DOUBLE_ON_VALUES, {"any": "Any two cards", "9-11": "9, 10 or 11", "10-11": "10 or 11"}
        ),
        label="Double down on",
    )
    surrender = forms.ChoiceField(
        choices=_choices(
            SURRENDER_MODES,
            {
                "late": "Late",
                "early": "Early",
                "early_non_ace": "Early against a ten-card, late against an ace",
                "off": "Off",
            },
        ),
        label="Surrender",
    )
    insurance = forms.BooleanField(required=False, label="Insurance offered")
    even_money = forms.BooleanField(required=False, label="Even money offered")
    simple = forms.BooleanField(required=False, label="Simple game: Hit and Stand only")
    inverted = forms.BooleanField(required=False, label="Inverted: every bet's result negated")
    seats = forms.TypedChoiceField(
        choices=[("1", "1 box"), ("2", "2 boxes"), ("3", "3 boxes")],
        coerce=int,
        label="Boxes you play",
        required=False,
        # django-stubs allows only str | None; Django returns any empty_value as it is.
        empty_value=1,  # type: ignore[arg-type]
    )
    # Not required: a form without them (an older page) means no time limit.
    turn_seconds = forms.ChoiceField(
        choices=timer_choices(TURN_SECONDS), label="Time for each decision", required=False
    )
    answer_seconds = forms.ChoiceField(
        choices=timer_choices(ANSWER_SECONDS), label="Time to answer", required=False
    )
    lifelines = forms.BooleanField(required=False, label="Lifelines: 50:50 and Swap")
    coach = forms.BooleanField(
        required=False,
        label="Coach",
        help_text="Marks each move that differs from basic strategy and counts it.",
    )

    def to_options(self) -> dict[str, Any]:
        """Cleaned data in the JSON form of RULES.md §10 (validated again by Options)."""
        data = dict(self.cleaned_data)
        for name in NON_RULE_FIELDS:
            data.pop(name, None)
        charlie = data["charlie"]
        data["charlie"] = charlie if charlie == "off" else int(charlie)
        decks = data["deck_count"]
        data["deck_count"] = decks if decks == INFINITE_DECKS else int(decks)
        for name in ("turn_seconds", "answer_seconds"):
            seconds = data[name] or TIMER_OFF
            data[name] = seconds if seconds == TIMER_OFF else int(seconds)
        for name in ("min_bet", "max_bet", "starting_bank"):
            data[name] = format_cents(data[name])
        return data

    @classmethod
    def initial_from(cls, options: dict[str, Any]) -> dict[str, Any]:
        # Through Options: a stored game's old split keys show as the new fields (§10).
        try:
            initial = Options.from_dict(dict(options)).to_dict()
        except ValueError:
            initial = {**Options().to_dict(), **options}
        for name in (
            "charlie",
            "deck_count",
            "max_splits",
            "max_ace_splits",
            "turn_seconds",
            "answer_seconds",
            "seats",
        ):
            initial[name] = str(initial[name])
        return initial

    def inactive_notes(self) -> dict[str, str]:
        """Options kept but playing no part under the options shown (§10 Extensions), with
        the menu's note saying why."""
        values = self.data if self.is_bound else self.initial
        notes: dict[str, str] = {}
        if values.get("simple") in (True, "on", "true", "True"):
            notes.update(dict.fromkeys(INACTIVE_WHEN_SIMPLE, INACTIVE_SIMPLE_TEXT))
        if str(values.get("deck_count")) == INFINITE_DECKS:
            notes.update(dict.fromkeys(INACTIVE_WHEN_INFINITE, INACTIVE_INFINITE_TEXT))
        return notes

    def inactive_map(self) -> dict[str, list[str]]:
        return inactive_texts()

    def grouped(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(title, [self[name] for name in names]) for title, names in option_groups()]


def option_needs_text() -> dict[str, str]:
    """For each option that needs others, the sentence the menu shows."""
    return {
        option: "Switches on "
        + " and ".join(_NEEDED_WORDS.get(n, n.replace("_", " ")) for n in needed)
        + "."
        for option, needed in NEEDS.items()
    }


def inactive_texts() -> dict[str, list[str]]:
    """For options.js: the note and the options it marks inactive, by the option that
    makes them so (``simple`` on, ``deck_count`` infinite)."""
    return {
        "simple": [INACTIVE_SIMPLE_TEXT, *INACTIVE_WHEN_SIMPLE],
        "deck_count": [INACTIVE_INFINITE_TEXT, *INACTIVE_WHEN_INFINITE],
    }


def default_options() -> dict[str, Any]:
    return Options().to_dict()


def option_groups() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The Options menu's groups of fields: the rules page's groups, for the menu's fields."""
    fields = set(OptionsForm.base_fields)
    groups = tuple(
        (title, tuple(key for key, *_ in options if key in fields))
        for title, options in DOCUMENTED_OPTION_GROUPS
    )
    return (*groups, COACH_GROUP)


# --------------------------------------------------------------------- side-bet menu posts


def _typed_base(post: QueryDict) -> dict[str, Any]:
    """The base-bet amount typed in the same form travels along, so a side-bet click keeps it."""
    typed = post.get("amount", "").strip()
    return {"base_cents": parse_bet(typed) if typed else None}


def _bet_name(raw: str | None) -> str:
    if raw not in STAKED_SIDE_BETS:
        raise ValueError("There is no such side bet.")
    return raw


def parse_side_chip(post: QueryDict) -> dict[str, Any]:
    """``side_chip=<bet>:<dollars>``, e.g. ``21+3:5`` (one button carries both)."""
    bet, _, dollars = post.get("side_chip", "").rpartition(":")
    chip_cents = parse_chip_dollars(dollars) * 100
    return {"bet": _bet_name(bet), "chip_cents": chip_cents, **_typed_base(post)}


def parse_side_clear(post: QueryDict) -> dict[str, Any]:
    return {"bet": _bet_name(post.get("bet")), **_typed_base(post)}


def parse_side_clear_all(post: QueryDict) -> dict[str, Any]:
    return _typed_base(post)


CHOOSE_ACTIVATION = "Choose Activate or Deactivate."


def parse_activation(raw: str | None) -> bool:
    """Activate (``on``) or Deactivate (``off``) of the Extra Bet Blackjack; raises
    ValueError for anything else."""
    if raw not in ("on", "off"):
        raise ValueError(CHOOSE_ACTIVATION)
    return raw == "on"


def parse_extra_bet_activation(post: QueryDict) -> dict[str, Any]:
    return {"active": parse_activation(post.get("active")), **_typed_base(post)}


def parse_menu_toggle(post: QueryDict) -> dict[str, Any]:
    choice = post.get("menu")
    if choice not in ("open", "close"):
        raise ValueError("Open or close the side-bet menu.")
    return {"menu_open": choice == "open", **_typed_base(post)}


# The single-player table's posts, each turned into its service's extra keyword arguments
# (ValueError: bad input, worded for the player), as game/tables/forms.py does for a seat.


def parse_choice(post: QueryDict) -> dict[str, Any]:
    choice = post.get("choice")
    if choice not in ("accept", "decline"):
        raise ValueError("Choose Accept or Decline.")
    return {"accept": choice == "accept"}


def parse_chip_post(post: QueryDict) -> dict[str, Any]:
    dollars = parse_chip_dollars(post.get("chip"))
    # The amount typed in the same form is the base the chip adds to (blank: the bet so far).
    typed = post.get("amount", "").strip()
    return {"chip_cents": dollars * 100, "base_cents": parse_bet(typed) if typed else None}


def parse_box(post: QueryDict) -> dict[str, Any]:
    """A box's circle (seats > 1), with the amount typed for the box being left, if any,
    and the rack's selected chip, which the box takes."""
    try:
        box = parse_whole_number(post.get("box"))
    except ValueError:
        raise ValueError(NO_BOX_CHOSEN) from None
    typed = (post.get("amount") or "").strip()
    chip = post.get("selected_chip")
    return {
        "box": box,
        "base_cents": parse_bet(typed) if typed else None,
        "chip_cents": parse_chip_dollars(chip) * 100 if chip else None,
    }


def parse_deal(post: QueryDict) -> dict[str, Any]:
    return {"bet_cents": parse_bet(post.get("amount"))}


def parse_extra_bet(post: QueryDict) -> dict[str, Any]:
    if post.get("choice") == "decline":
        return {"amount_cents": None}
    typed = post.get("amount") or ""
    if not typed.strip():
        raise ValueError(AMOUNT_FORMAT_REFUSAL)
    return {"amount_cents": parse_bet(typed)}


def text_field(name: str, missing: str) -> Callable[[QueryDict], dict[str, Any]]:
    """A required text field; ``missing`` tells the player what to do when it is absent."""

    def parse(post: QueryDict) -> dict[str, Any]:
        value = post.get(name)
        if not value:
            raise ValueError(missing)
        return {name: value}

    return parse


def category_field(bad: str) -> Callable[[QueryDict], dict[str, Any]]:
    """The category chosen with the difficulty (absent: the game's remembered one): "any"
    (or empty), or a category's id; ``bad`` tells the player what to do with anything else
    (an id of no category is refused by the service)."""

    def parse(post: QueryDict) -> dict[str, Any]:
        value = post.get("category")
        if value is None:
            return {}
        value = value.strip()
        if value in ("", ANY_CATEGORY):
            return {"category": ANY_CATEGORY}
        if not value.isascii() or not value.isdigit() or not 0 < int(value) <= ROW_ID_MAX:
            raise ValueError(bad)
        return {"category": int(value)}

    return parse


def parse_optional_difficulty(post: QueryDict) -> dict[str, Any]:
    """Hit / Double Down posted with the difficulty chosen beside them (absent: ask which)."""
    difficulty = post.get("difficulty")
    return {"difficulty": difficulty} if difficulty else {}
