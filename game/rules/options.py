"""The game options of RULES.md §10, validated, with the options they imply ("needs")."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Any

from game.rules.money import check_amount, format_cents, parse_amount

BLACKJACK_PAYOUTS = {"3:2": (3, 2), "2:1": (2, 1), "6:5": (6, 5)}
DEALER_RULES = ("S17", "H17", "S16", "H16")
CHARLIE_VALUES = (5, 7, "off")
SURRENDER_MODES = ("late", "early", "early_non_ace", "off")
DOUBLE_ON_VALUES = ("any", "9-11", "10-11")
INFINITE_DECKS = "infinite"  # §10 Extensions: every card from a fresh, full 52-card deck
DECK_COUNTS: tuple[int | str, ...] = (1, 2, 3, 4, 5, 6, 7, 8, INFINITE_DECKS)
RESHUFFLE_MODES = ("cut_card", "every_round", "when_empty")
SPLIT_LIMITS = (1, 2, 3)  # max_splits
ACE_SPLIT_LIMITS = (0, 1, 2, 3)  # max_ace_splits
TIMER_OFF = "off"
TURN_SECONDS: tuple[int | str, ...] = (TIMER_OFF, 10, 20, 30, 60)
ANSWER_SECONDS: tuple[int | str, ...] = (TIMER_OFF, 10, 15, 30)

# RULES.md §10 "needs": switching the key on switches these on too. A needed number
# (max_ace_splits) is "on" from 1: one ace split.
NEEDS: dict[str, tuple[str, ...]] = {
    "double_after_split_aces": ("double_after_split", "max_ace_splits"),
    "one_card_after_split_aces": ("max_ace_splits",),
}
_NEEDED_NUMBER = {"max_ace_splits": 1}

# §10 Extensions, `simple`: the options of everything but Hit and Stand are kept (and
# stored) but play no part while it is on; the menu says so.
INACTIVE_WHEN_SIMPLE = (
    "side_bets",
    "split_any_ten",
    "max_splits",
    "max_ace_splits",
    "double_after_split",
    "double_after_split_aces",
    "one_card_after_split_aces",
    "double_on",
    "surrender",
    "insurance",
    "even_money",
)
# §10 Extensions, `deck_count: "infinite"`: no shoe to reshuffle.
INACTIVE_WHEN_INFINITE = ("reshuffle",)

# The Decision of §10: the old split keys of saved games and replay files, read as the
# new ones (resplit false = 1, true = 3; split_aces / resplit_aces 0, 1 or 3).
LEGACY_SPLIT_KEYS = ("split_aces", "resplit", "resplit_aces")
_LEGACY_IMPLIED = {"resplit": "max_splits", "split_aces": "max_ace_splits"}

_BOOL_OPTIONS = (
    "trivia_mode",
    "side_bets",
    "split_any_ten",
    "double_after_split",
    "double_after_split_aces",
    "one_card_after_split_aces",
    "insurance",
    "even_money",
    "dealer_peek",
    "simple",
    "inverted",
    "lifelines",
)
_CHOICE_OPTIONS: dict[str, tuple[Any, ...]] = {
    "blackjack_payout": tuple(BLACKJACK_PAYOUTS),
    "dealer_stands_on": DEALER_RULES,
    "charlie": CHARLIE_VALUES,
    "surrender": SURRENDER_MODES,
    "double_on": DOUBLE_ON_VALUES,
    "deck_count": DECK_COUNTS,
    "reshuffle": RESHUFFLE_MODES,
    "max_splits": SPLIT_LIMITS,
    "max_ace_splits": ACE_SPLIT_LIMITS,
    "turn_seconds": TURN_SECONDS,
    "answer_seconds": ANSWER_SECONDS,
}
_MONEY_OPTIONS = ("min_bet", "max_bet", "starting_bank")
_INT_RANGES = {"seats": (1, 3)}


@dataclass(frozen=True, slots=True)
class Options:
    """Every option of RULES.md §10 incl. extensions; money options in cents."""

    trivia_mode: bool = True
    side_bets: bool = True
    blackjack_payout: str = "3:2"
    dealer_stands_on: str = "S17"
    deck_count: int | str = 6
    charlie: int | str = 5
    split_any_ten: bool = False
    double_after_split: bool = False
    double_after_split_aces: bool = False
    one_card_after_split_aces: bool = False
    surrender: str = "late"
    insurance: bool = True
    even_money: bool = True
    dealer_peek: bool = True
    double_on: str = "any"
    min_bet: int = 100
    max_bet: int = 1_000_000
    starting_bank: int = 100_000
    seats: int = 1
    reshuffle: str = "cut_card"
    max_splits: int = 1
    max_ace_splits: int = 0
    simple: bool = False
    inverted: bool = False
    turn_seconds: int | str = TIMER_OFF
    answer_seconds: int | str = TIMER_OFF
    lifelines: bool = True  # 50:50 and Swap, one credit each
    # Options switched on only because another option needs them (the menu says so).
    implied: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Options:
        """Validate JSON-style options (RULES.md §10 names and values); apply the "needs".

        The options are immutable: the same stored values give the same Options, read once
        (every web action reads its game's options)."""
        data = dict(data or {})
        if cls is Options:
            # Typed: True and 1 are equal keys, and not the same option value.
            key = tuple((name, type(value), value) for name, value in sorted(data.items()))
            try:
                return _options_read(key)
            except TypeError:  # a value that cannot be a key (not an option's): read below
                pass
        return cls._read(data)

    @classmethod
    def _read(cls, data: dict[str, Any]) -> Options:
        data = _read_legacy_split_keys(data)
        known = {f.name for f in fields(cls)} - {"implied"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(unknown)}")
        values: dict[str, Any] = {}
        for name, raw in data.items():
            values[name] = _validate(name, raw)
        options = cls(**values)
        _check_limits(options)
        return options.with_needs()

    @classmethod
    def from_stored(cls, data: dict[str, Any], implied: list[str] | tuple[str, ...]) -> Options:
        """A game's stored options and the names it stored as implied (old names read as
        the new ones, §10 Decision)."""
        names = tuple(dict.fromkeys(_LEGACY_IMPLIED.get(name, name) for name in implied))
        options = cls.from_dict(data)
        # Usually the names the needs imply again: the options read (and kept) as they are.
        return options if options.implied == names else replace(options, implied=names)

    def with_needs(self) -> Options:
        """Return these options with every needed option on, remembering which were implied."""
        switched: list[str] = list(self.implied)
        changes: dict[str, Any] = {}  # option name -> its value: a bool, or a count
        for option, needed in NEEDS.items():
            if not getattr(self, option):
                continue
            for name in needed:
                if not getattr(self, name) and name not in changes:
                    changes[name] = _NEEDED_NUMBER.get(name, True)
                    switched.append(name)
        if not changes:
            return self
        return replace(self, **changes, implied=tuple(switched))

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form with the names and values of RULES.md §10 (amounts as strings);
        a dict of the caller's own, made once per set of values (every web action writes
        its game's options)."""
        # Typed: True and 1 are equal keys, and not the same option value.
        values = tuple((type(value), value) for value in map(self.__getattribute__, _DICT_FIELDS))
        return dict(_options_dict(values))

    @property
    def blackjack_ratio(self) -> tuple[int, int]:
        return BLACKJACK_PAYOUTS[self.blackjack_payout]

    @property
    def charlie_limit(self) -> int | None:
        """Number of cards that makes a Charlie, or None when Charlies are off."""
        return None if self.charlie == "off" else int(self.charlie)

    @property
    def turn_ms(self) -> int | None:
        """R-4.13: milliseconds for each decision of the player's turn, or None (no timer)."""
        return None if self.turn_seconds == TIMER_OFF else int(self.turn_seconds) * 1000

    @property
    def answer_ms(self) -> int | None:
        """R-8.9: milliseconds to answer a question once shown, or None (no timer)."""
        return None if self.answer_seconds == TIMER_OFF else int(self.answer_seconds) * 1000

    @property
    def infinite_decks(self) -> bool:
        return self.deck_count == INFINITE_DECKS

    @property
    def shoe_decks(self) -> int:
        """The decks a shoe is built of; 0 for an infinite shoe (game.rules.shoe)."""
        return 0 if self.deck_count == INFINITE_DECKS else int(self.deck_count)

    @property
    def inactive(self) -> tuple[str, ...]:
        """Options kept but playing no part under these options (the menu says so)."""
        names: list[str] = []
        if self.simple:
            names.extend(INACTIVE_WHEN_SIMPLE)
        if self.infinite_decks:
            names.extend(INACTIVE_WHEN_INFINITE)
        if not self.trivia_mode:
            names.append("answer_seconds")  # no questions, nothing to time
            names.append("lifelines")  # no questions, nothing to help with
        return tuple(names)


@lru_cache(maxsize=512)
def _options_read(items: tuple[tuple[str, type, Any], ...]) -> Options:
    return Options._read({name: value for name, _, value in items})


# The fields to_dict writes (``implied`` is not one of them).
_DICT_FIELDS = tuple(f.name for f in fields(Options) if f.name != "implied")


@lru_cache(maxsize=512)
def _options_dict(values: tuple[tuple[type, Any], ...]) -> dict[str, Any]:
    return {
        name: format_cents(value) if name in _MONEY_OPTIONS else value
        for name, (_, value) in zip(_DICT_FIELDS, values, strict=True)
    }


def _read_legacy_split_keys(data: dict[str, Any]) -> dict[str, Any]:
    """§10 Decision: ``resplit`` / ``split_aces`` / ``resplit_aces`` read as ``max_splits`` /
    ``max_ace_splits``; refused beside the new key they stand for (which would win?)."""
    old = {name: data.pop(name) for name in LEGACY_SPLIT_KEYS if name in data}
    if not old:
        return data
    for name, value in old.items():
        if not isinstance(value, bool):
            raise ValueError(f"option {name} must be true or false, not {value!r}")
    if "resplit" in old and "max_splits" in data:
        raise ValueError("options resplit and max_splits: give only max_splits")
    if {"split_aces", "resplit_aces"} & set(old) and "max_ace_splits" in data:
        raise ValueError("options split_aces / resplit_aces and max_ace_splits: give only one")
    if old.get("resplit_aces"):
        # The old "needs": resplitting aces switched resplitting on, so it plays as it did.
        old["resplit"] = True
    if "resplit" in old and "max_splits" not in data:
        data["max_splits"] = 3 if old["resplit"] else 1
    if {"split_aces", "resplit_aces"} & set(old) and "max_ace_splits" not in data:
        if old.get("resplit_aces"):
            data["max_ace_splits"] = 3
        else:
            data["max_ace_splits"] = 1 if old.get("split_aces") else 0
    return data


def _validate(name: str, raw: Any) -> Any:
    if name in _BOOL_OPTIONS:
        if not isinstance(raw, bool):
            raise ValueError(f"option {name} must be true or false, not {raw!r}")
        return raw
    if name == "deck_count" and not any(type(raw) is type(n) and raw == n for n in DECK_COUNTS):
        raise ValueError(
            f"option deck_count must be a whole number from 1 to 8 or 'infinite', not {raw!r}"
        )
    if name in _CHOICE_OPTIONS:
        allowed = _CHOICE_OPTIONS[name]
        # Exactly a listed value: True is not 1 deck and 6.0 is not 6 decks.
        if not any(type(raw) is type(value) and raw == value for value in allowed):
            shown = ", ".join(repr(v) if isinstance(v, str) else str(v) for v in allowed)
            raise ValueError(f"option {name} must be one of {shown}, not {raw!r}")
        return raw
    if name in _INT_RANGES:
        low, high = _INT_RANGES[name]
        if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
            raise ValueError(
                f"option {name} must be a whole number from {low} to {high}, not {raw!r}"
            )
        return raw
    if name in _MONEY_OPTIONS:
        try:
            return parse_amount(raw)
        except ValueError as error:
            raise ValueError(f"option {name}: {error}") from None
    raise ValueError(f"unknown option: {name}")  # pragma: no cover - guarded by from_dict


def _check_limits(options: Options) -> None:
    # Written for the player: the Options menu shows these refusals as they are.
    for amount in (options.min_bet, options.max_bet, options.starting_bank):
        check_amount(amount)
    if options.min_bet < 1:
        raise ValueError("The minimum bet must be at least $0.01.")
    if options.max_bet < options.min_bet:
        raise ValueError("The maximum bet cannot be below the minimum bet.")
    if options.starting_bank < 1:
        raise ValueError("The starting bank must be at least $0.01.")
