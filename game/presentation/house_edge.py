"""The house edge shown in the Options menu, in words for the player.

The figure is ``game.rules.house_edge.estimated_house_edge``: the simulator's table for
the options that move the edge most. This module turns it into the menu's lines — the
figure, what the change costs against the game's current rules, how it was estimated —
and says plainly when the table has no entry for the rules chosen. The inverted game's
figure is its own simulated edge (a large one for the player), and the menu says why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.forms import OptionsForm
from game.rules.house_edge import (
    KEY_OPTIONS,
    HouseEdgeEstimate,
    estimated_house_edge,
    load_table,
    untabled_options,
)
from game.rules.options import Options


@dataclass(frozen=True)
class HouseEdgeSummary:
    available: bool
    house_edge_pct: float | None = None
    figure: str = ""  # "about 0.55 %"
    comparison: str = ""  # "+0.22 % vs your current rules"
    detail: str = ""  # how the figure was estimated
    meaning: str = ""  # what the figure means, when it is not the plain house edge
    inverted: bool = False  # the inverted game's own figure: played to lose
    unavailable_reason: str = ""


def summarise(chosen: Mapping[str, Any], current: Mapping[str, Any]) -> HouseEdgeSummary:
    """The menu's lines for the ``chosen`` options against the game's ``current`` ones.

    Both are option dicts of RULES.md §10; raises ValueError when ``chosen`` is invalid.
    """
    chosen_options = Options.from_dict(dict(chosen))
    estimate = estimated_house_edge(chosen_options)
    if estimate is None:
        return HouseEdgeSummary(
            available=False, unavailable_reason=_why_unavailable(chosen_options)
        )
    edge = estimate.house_edge_pct
    figure = f"about {edge:.2f} %"
    if edge < 0:
        figure += " (in the player's favour)"
    return HouseEdgeSummary(
        available=True,
        house_edge_pct=edge,
        figure=figure,
        comparison=_comparison(estimate, current),
        detail=_detail(estimate),
        meaning=_inverted_meaning(edge) if estimate.inverted else "",
        inverted=estimate.inverted,
    )


# Below this player advantage (in %) "large" would overstate it; every simulated inverted
# game with trivia off is far beyond it (about 60 to 85 %).
_LARGE_ADVANTAGE_PCT = 10.0


def _inverted_meaning(edge: float) -> str:
    """The inverted game's figure in plain words: whose favour it is in, and why."""
    why = (
        "Inverted game: every bet's result is turned round, so the best play is to play "
        "to lose, as the Hint advises. "
    )
    if edge >= 0:
        return why + "Played that way, these rules still favour the house."
    size = "a large advantage" if -edge >= _LARGE_ADVANTAGE_PCT else "an advantage"
    return (
        why + f"Played that way, you win about {-edge:.2f} % of each bet on average: "
        f"{size} to you. This is the inverted game's own figure, not the normal game's "
        "house edge turned round."
    )


def _comparison(estimate: HouseEdgeEstimate, current: Mapping[str, Any]) -> str:
    try:
        baseline = estimated_house_edge(Options.from_dict(dict(current)))
    except ValueError:
        baseline = None
    if baseline is None:
        return "Your current rules have no estimate to compare with."
    # Compare the rounded figures the player sees, so the difference adds up on screen.
    delta = round(estimate.house_edge_pct, 2) - round(baseline.house_edge_pct, 2)
    if abs(delta) < 0.005:
        return "No change vs your current rules."
    return f"{delta:+.2f} % vs your current rules"


def _detail(estimate: HouseEdgeEstimate) -> str:
    parts = [f"Simulated with {estimate.rounds:,} rounds, ±{estimate.stderr_pct:.2f} % (1 s.e.)"]
    if estimate.approximated:
        parts.append("nearest table entry: " + ", ".join(map(_humanise, estimate.approximated)))
    if estimate.not_covered:
        parts.append("not taken into account: " + ", ".join(map(label, estimate.not_covered)))
    return "; ".join(parts) + "."


def _why_unavailable(chosen: Options) -> str:
    key_values = load_table()["key_values"]
    missing = [
        f"{label(name)}: {choice_label(name, getattr(chosen, name))}"
        for name in KEY_OPTIONS
        # Deck counts go to the nearest entry; a seven-card Charlie counts as none.
        if name not in ("deck_count", "charlie") and getattr(chosen, name) not in key_values[name]
    ]
    # Options no table covers at all (UNTABLED_OPTIONS; none at present).
    missing += [f"{label(name)}: On" for name in untabled_options(chosen)]
    what = ", ".join(missing) if missing else "this combination"
    return f"No estimate for these rules: the simulated table has no entry for {what}."


def label(name: str) -> str:
    """The menu's label of an option (its name in words when the menu has none)."""
    field = OptionsForm.base_fields.get(name)
    return str(field.label) if field is not None and field.label else name.replace("_", " ")


def choice_label(name: str, value: Any) -> str:
    field = OptionsForm.base_fields.get(name)
    choices = dict(getattr(field, "choices", ()) or ())
    return str(choices.get(str(value), value))


def _humanise(approximation: str) -> str:
    # "deck_count 4 → 6" → "Decks in the shoe 4 → 6"
    name, _, rest = approximation.partition(" ")
    return f"{label(name)} {rest}"
