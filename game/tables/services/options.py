"""A shared table's rules: the options it plays (one box per seat, a turn timer always
on: T-8), the intermission's bounds (T-5) and whether its side-bet menu is on (§9).
"""

from __future__ import annotations

from typing import Any

from game.core.errors import ActionRefused
from game.rules.options import Options

INTERMISSION_SECONDS = (10, 60)  # T-5


DEFAULT_TURN_SECONDS = 20  # T-7, T-8


ANSWER_FOR_TURN = {10: 10, 20: 15, 30: 30, 60: 30}


def table_options(raw: dict[str, Any] | None) -> Options:
    """The table's options (RULES.md §10) as a shared table plays them: one box per seat,
    and a turn timer always on (T-8: 20 s unless chosen, "off" not allowed)."""
    data = dict(raw or {})
    data["seats"] = 1
    if data.get("turn_seconds", "off") == "off":
        data["turn_seconds"] = DEFAULT_TURN_SECONDS
    if data.get("answer_seconds", "off") == "off":
        # T-8: the question's own clock runs inside the turn, so a shared table always has
        # one: the longest choice that fits the turn.
        data["answer_seconds"] = ANSWER_FOR_TURN.get(int(data["turn_seconds"]), 30)
    try:
        return Options.from_dict(data)
    except ValueError as error:
        raise ActionRefused("rule", text=str(error)) from None


def side_bets_offered(options: Options) -> bool:
    """Whether the side-bet menu is on (the simple game keeps the option but plays none,
    §9)."""
    return options.side_bets and not options.simple
