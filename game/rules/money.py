"""Exact money: integer cents everywhere (R-1.2), payouts rounded down to the cent (R-PAY-1)."""

from __future__ import annotations

import re

# Dollars with at most two decimals, no sign, no exponent, no thousands separators.
_AMOUNT = re.compile(r"^(\d+)(?:\.(\d{1,2}))?$")


def parse_amount(text: str) -> int:
    """Parse a dollar string such as ``"10.00"`` or ``"7.5"`` into cents.

    Strict on purpose: floats, negative amounts and a third decimal are refused,
    because a fraction of a cent can never be a stake.
    """
    if not isinstance(text, str):
        raise ValueError(f'an amount must be a string of dollars such as "10.00", not {text!r}')
    match = _AMOUNT.match(text.strip())
    if match is None:
        raise ValueError(f"not an amount of dollars with at most two decimals: {text!r}")
    dollars, fraction = match.groups()
    cents = int((fraction or "").ljust(2, "0"))
    return int(dollars) * 100 + cents


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
