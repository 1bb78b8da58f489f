"""Exact money: integer cents everywhere (R-1.2), payouts rounded down to the cent (R-PAY-1)."""

from __future__ import annotations

import re

# R-1.4a: the largest amount the game accepts anywhere, and the most a bank can hold.
MAX_AMOUNT_CENTS = 100_000_000_000  # $1,000,000,000.00

# Dollars with at most two decimals: ASCII digits only (re.ASCII: no "²", no "𝟙𝟘"), no sign,
# no exponent, no separators. What a player types may also carry a "$" and thousands
# separators where they belong ("$1,250.50").
_AMOUNT = re.compile(r"([0-9]+)(?:\.([0-9]{1,2}))?", re.ASCII)
_TYPED_AMOUNT = re.compile(r"\$?([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]{1,2}))?", re.ASCII)
# Longer than "$1,000,000,000.00" with a few leading zeros is never an amount: refusing it
# before the regex and int() keeps a 5,000-digit post cheap.
_LONGEST_AMOUNT_TEXT = 24
_NUMERIC_TEXT = re.compile(r"\$?[0-9,]+(?:\.[0-9]*)?", re.ASCII)
_WHOLE_NUMBER = re.compile(r"[0-9]{1,18}", re.ASCII)

# the chip buttons, in whole dollars and in cents; every chip view and panel uses these.
CHIP_DOLLARS: tuple[int, ...] = (1, 5, 10, 25, 100, 500)
CHIP_CENTS: tuple[int, ...] = tuple(dollars * 100 for dollars in CHIP_DOLLARS)

AMOUNT_FORMAT_REFUSAL = "Enter an amount in dollars, like 25 or 12.50."


def parse_amount(text: object) -> int:
    """Parse a dollar string such as ``"10.00"`` or ``"7.5"`` into cents (options, replays).

    The one grammar for money (R-1.4a), with :func:`parse_typed_amount` for what a player
    types. Strict on purpose: floats, negative amounts and a third decimal are refused,
    because a fraction of a cent can never be a stake. The ValueError says what to type.
    """
    return _parse(text, _AMOUNT)


def parse_typed_amount(text: object) -> int:
    """An amount typed in a form or posted by a chip: as :func:`parse_amount`, and a leading
    ``"$"`` and thousands separators are allowed (``"$1,250.50"``)."""
    return _parse(text, _TYPED_AMOUNT)


def _parse(text: object, grammar: re.Pattern[str]) -> int:
    if not isinstance(text, str):
        raise ValueError(AMOUNT_FORMAT_REFUSAL)
    stripped = text.strip()
    if len(stripped) > _LONGEST_AMOUNT_TEXT and _NUMERIC_TEXT.fullmatch(stripped):
        raise ValueError(_too_large())
    match = grammar.fullmatch(stripped) if len(stripped) <= _LONGEST_AMOUNT_TEXT else None
    if match is None:
        raise ValueError(AMOUNT_FORMAT_REFUSAL)
    dollars, fraction = match.groups()
    cents = int(dollars.replace(",", "")) * 100 + int((fraction or "").ljust(2, "0"))
    check_amount(cents)
    return cents


def check_amount(cents: int) -> int:
    """Refuse an amount in cents outside 0 … $1,000,000,000.00 (R-1.4a), whatever its path."""
    if isinstance(cents, bool) or not isinstance(cents, int) or cents < 0:
        raise ValueError(AMOUNT_FORMAT_REFUSAL)
    if cents > MAX_AMOUNT_CENTS:
        raise ValueError(_too_large())
    return cents


def _too_large() -> str:
    return f"The most the table accepts is {display_cents(MAX_AMOUNT_CENTS)}."


def parse_whole_number(text: object) -> int:
    """ASCII digits only, at most 18 of them (fits a 64-bit column); ValueError otherwise."""
    if not isinstance(text, str) or _WHOLE_NUMBER.fullmatch(text) is None:
        raise ValueError("not a whole number")
    return int(text)


def format_cents(cents: int) -> str:
    """Cents as a plain dollar string with two decimals, e.g. 101500 -> ``"1015.00"``."""
    sign = "-" if cents < 0 else ""
    whole, fraction = divmod(abs(cents), 100)
    return f"{sign}{whole}.{fraction:02d}"


def display_cents(cents: int) -> str:
    """Cents as the page shows them (R-1.2), e.g. 123450 -> ``"$1,234.50"``."""
    sign = "-" if cents < 0 else ""
    whole, fraction = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{fraction:02d}"


def payout_profit(bet: int, a: int, b: int) -> int:
    """Profit of an ``a:b`` payout on ``bet`` cents, rounded down to the cent (R-PAY-1)."""
    return bet * a // b


def half_down(cents: int) -> int:
    """Half an amount rounded down to the cent (insurance cost, surrender refund)."""
    return cents // 2
