"""The house edge of a rule set, for the Options menu.

The figures come from ``house_edge_table.json``, computed by the simulator (basic
strategy through the rules engine, flat bet) and shipped with the project; see
``bench/house_edge_table.py`` for how it was made. The table varies the options that
move the house edge most — :data:`KEY_OPTIONS` — and plays every other option at its
RULES.md default. :func:`estimated_house_edge` picks the entry for the chosen key
options (the nearest deck count when that one is not in the table) and says what it
matched, what it approximated, and which other options it could not take into account.

The simple game (Hit and Stand only) and the inverted game (every result negated, played
by its own best strategy: play to lose, ``strategy.inverted_action``) have tables of
their own, made the same way (§10 Extensions). The inverted game's figure is that
simulation, not the normal game's figure negated: played to lose, it is a large edge for
the player.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from game.rules.options import Options

TABLE_PATH = Path(__file__).with_name("house_edge_table.json")
# The simple game's own table (bench/house_edge_table.py --simple): Hit and Stand only, so
# doubling, splitting and surrender are no key of it.
SIMPLE_TABLE_PATH = Path(__file__).with_name("house_edge_simple.json")
SIMPLE_KEY_OPTIONS = ("deck_count", "dealer_stands_on", "blackjack_payout", "charlie")
# The inverted game's tables (bench/house_edge_table.py --inverted [--simple]), keyed as
# the tables of the game they invert.
INVERTED_TABLE_PATH = Path(__file__).with_name("house_edge_inverted.json")
SIMPLE_INVERTED_TABLE_PATH = Path(__file__).with_name("house_edge_simple_inverted.json")
KEY_OPTIONS = (
    "deck_count",
    "dealer_stands_on",
    "blackjack_payout",
    "double_after_split",
    "surrender",
    "charlie",
)
# Options that never change the edge of the main bet under basic strategy (insurance is
# never taken; trivia and side bets are not part of the base game; money limits).
_NEUTRAL_OPTIONS = frozenset(
    {
        "trivia_mode",
        "side_bets",
        "insurance",
        "even_money",
        "min_bet",
        "max_bet",
        "starting_bank",
        "seats",
        # Timers change nothing for a player who decides in time.
        "turn_seconds",
        "answer_seconds",
        # lifelines cost trivia credits, never a cent of a bet.
        "lifelines",
    }
)
# Options whose effect no table covers: no estimate at all while they are on. (None now:
# the simple game has a table of its own.)
UNTABLED_OPTIONS: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HouseEdgeEstimate:
    """A table entry for the chosen options, with what it does and does not cover."""

    house_edge_pct: float
    stderr_pct: float
    rounds: int
    matched: dict[str, Any]  # the key options of the entry used
    approximated: tuple[str, ...]  # e.g. "deck_count 4 → 6"
    not_covered: tuple[str, ...]  # options set away from the table's defaults, ignored
    inverted: bool = False  # the inverted game's own figure, from its own table

    @property
    def note(self) -> str:
        """One line for the Options page."""
        parts = [f"simulated, ±{self.stderr_pct:.2f}% (1 s.e.)"]
        if self.approximated:
            parts.append("nearest entry: " + ", ".join(self.approximated))
        if self.not_covered:
            parts.append("not included: " + ", ".join(self.not_covered))
        return "; ".join(parts)


def estimated_house_edge(options: Options | Mapping[str, Any]) -> HouseEdgeEstimate | None:
    """The table's house edge for ``options``, or None when they fall outside the table
    (a key option with a value the table does not have, e.g. a 2:1 payout)."""
    chosen = options if isinstance(options, Options) else Options.from_dict(dict(options))
    if untabled_options(chosen):
        return None
    path, keys = table_for(chosen)
    table = load_table(path)
    wanted = {name: getattr(chosen, name) for name in keys}
    approximated: list[str] = []
    decks = nearest_deck_count(wanted["deck_count"], table["key_values"]["deck_count"])
    if decks != wanted["deck_count"]:
        approximated.append(f"deck_count {wanted['deck_count']} → {decks}")
        wanted["deck_count"] = decks
    if wanted["charlie"] == 7 and 7 not in table["key_values"]["charlie"]:
        # A hand reaches seven cards unbusted too rarely to move the edge measurably.
        approximated.append("charlie 7 → off")
        wanted["charlie"] = "off"
    entry = _entries(path, keys).get(_key(wanted, keys))
    if entry is None:
        return None
    return HouseEdgeEstimate(
        house_edge_pct=entry["house_edge_pct"],
        stderr_pct=entry["stderr_pct"],
        rounds=entry["rounds"],
        matched=dict(entry["options"]),
        approximated=tuple(approximated),
        not_covered=_not_covered(chosen, table["base_options"], keys),
        inverted=chosen.inverted,
    )


def table_for(chosen: Options) -> tuple[Path, tuple[str, ...]]:
    """The table that holds ``chosen``'s game, and the key options it is keyed by."""
    if chosen.simple:
        path = SIMPLE_INVERTED_TABLE_PATH if chosen.inverted else SIMPLE_TABLE_PATH
        return path, SIMPLE_KEY_OPTIONS
    return (INVERTED_TABLE_PATH if chosen.inverted else TABLE_PATH), KEY_OPTIONS


def untabled_options(chosen: Options) -> tuple[str, ...]:
    """The options set that leave the table without an estimate (see UNTABLED_OPTIONS)."""
    return tuple(name for name in UNTABLED_OPTIONS if getattr(chosen, name))


def nearest_deck_count(decks: int | str, available: list[int]) -> int:
    """The closest deck count in the table; on a tie the larger (the edge rises with the
    number of decks ever more slowly, so the larger is the nearer in edge). An infinite
    shoe is nearest the most decks the table has."""
    if not isinstance(decks, int):
        return max(available)
    return min(available, key=lambda candidate: (abs(candidate - decks), -candidate))


def _not_covered(
    chosen: Options, base: Mapping[str, Any], keys: tuple[str, ...] = KEY_OPTIONS
) -> tuple[str, ...]:
    # The table's base options may use the old split keys (§10 Decision): read them anew.
    base = Options.from_dict(dict(base)).to_dict()
    values = chosen.to_dict()
    # Options kept but inactive (e.g. surrender in the simple game) change nothing.
    ignored = set(keys) | _NEUTRAL_OPTIONS | set(chosen.inactive)
    return tuple(
        name
        for name, value in sorted(values.items())
        if name not in ignored and base.get(name) != value
    )


def _key(options: Mapping[str, Any], keys: tuple[str, ...] = KEY_OPTIONS) -> tuple[Any, ...]:
    return tuple(options[name] for name in keys)


def load_table(path: Path | None = None) -> dict[str, Any]:
    """The shipped table (read once)."""
    return _load(path or TABLE_PATH)


@lru_cache(maxsize=8)
def _load(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


@lru_cache(maxsize=8)
def _entries(
    path: Path, keys: tuple[str, ...] = KEY_OPTIONS
) -> dict[tuple[Any, ...], dict[str, Any]]:
    return {_key(entry["options"], keys): entry for entry in _load(path)["entries"]}
