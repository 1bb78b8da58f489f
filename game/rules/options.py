"""The game options of RULES.md §10, validated, with the options they imply ("needs")."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from game.rules.money import check_amount, format_cents, parse_amount

BLACKJACK_PAYOUTS = {"3:2": (3, 2), "2:1": (2, 1), "6:5": (6, 5)}
DEALER_RULES = ("S17", "H17", "S16", "H16")
CHARLIE_VALUES = (5, 7, "off")
SURRENDER_MODES = ("late", "early", "early_non_ace", "off")
DOUBLE_ON_VALUES = ("any", "9-11", "10-11")

# RULES.md §10 "needs": switching the key on switches these on too.
NEEDS: dict[str, tuple[str, ...]] = {
    "double_after_split_aces": ("double_after_split", "split_aces"),
    "one_card_after_split_aces": ("split_aces",),
    "resplit_aces": ("resplit", "split_aces"),
}

_BOOL_OPTIONS = (
    "trivia_mode",
    "side_bets",
    "split_any_ten",
    "double_after_split",
    "split_aces",
    "double_after_split_aces",
    "one_card_after_split_aces",
    "resplit",
    "resplit_aces",
    "insurance",
    "even_money",
    "dealer_peek",
)
_CHOICE_OPTIONS: dict[str, tuple[Any, ...]] = {
    "blackjack_payout": tuple(BLACKJACK_PAYOUTS),
    "dealer_stands_on": DEALER_RULES,
    "charlie": CHARLIE_VALUES,
    "surrender": SURRENDER_MODES,
    "double_on": DOUBLE_ON_VALUES,
}
_MONEY_OPTIONS = ("min_bet", "max_bet", "starting_bank")
_INT_RANGES = {"deck_count": (1, 8), "seats": (1, 3)}


@dataclass(frozen=True, slots=True)
class Options:
    """Every option of RULES.md §10 incl. extensions; money options in cents."""

    trivia_mode: bool = True
    side_bets: bool = True
    blackjack_payout: str = "3:2"
    dealer_stands_on: str = "S17"
    deck_count: int = 6
    charlie: int | str = 5
    split_any_ten: bool = False
    double_after_split: bool = False
    split_aces: bool = False
    double_after_split_aces: bool = False
    one_card_after_split_aces: bool = False
    resplit: bool = False
    resplit_aces: bool = False
    surrender: str = "late"
    insurance: bool = True
    even_money: bool = True
    dealer_peek: bool = True
    double_on: str = "any"
    min_bet: int = 100
    max_bet: int = 1_000_000
    starting_bank: int = 100_000
    seats: int = 1
    # Options switched on only because another option needs them (the menu says so).
    implied: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Options:
        """Validate JSON-style options (RULES.md §10 names and values); apply the "needs"."""
        data = dict(data or {})
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

    def with_needs(self) -> Options:
        """Return these options with every needed option on, remembering which were implied."""
        switched: list[str] = list(self.implied)
        changes: dict[str, bool] = {}
        for option, needed in NEEDS.items():
            if not getattr(self, option):
                continue
            for name in needed:
                if not getattr(self, name) and name not in changes:
                    changes[name] = True
                    switched.append(name)
        if not changes:
            return self
        return replace(self, **changes, implied=tuple(switched))

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form with the names and values of RULES.md §10 (amounts as strings)."""
        result: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "implied":
                continue
            value = getattr(self, f.name)
            result[f.name] = format_cents(value) if f.name in _MONEY_OPTIONS else value
        return result

    @property
    def blackjack_ratio(self) -> tuple[int, int]:
        return BLACKJACK_PAYOUTS[self.blackjack_payout]

    @property
    def charlie_limit(self) -> int | None:
        """Number of cards that makes a Charlie, or None when Charlies are off."""
        return None if self.charlie == "off" else int(self.charlie)


def _validate(name: str, raw: Any) -> Any:
    if name in _BOOL_OPTIONS:
        if not isinstance(raw, bool):
            raise ValueError(f"option {name} must be true or false, not {raw!r}")
        return raw
    if name in _CHOICE_OPTIONS:
        allowed = _CHOICE_OPTIONS[name]
        # bool is an int in Python; never accept true for charlie 5/7.
        if isinstance(raw, bool) or raw not in allowed:
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
