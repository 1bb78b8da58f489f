"""The arithmetic of bench/deck_count_bench.py: effects, standard errors, the
published figures and the 3-standard-error verdict. No simulation is run here."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "bench" / "deck_count_bench.py"


@pytest.fixture(scope="module")
def check():
    spec = importlib.util.spec_from_file_location("deck_count_bench", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def test_effect_of_independent_runs(check):
    diff, se = check.effect(0.10, 0.03, 0.50, 0.04)
    assert diff == pytest.approx(-0.40)
    assert se == pytest.approx(0.05)  # sqrt(0.03² + 0.04²)


def test_fit_recovers_an_exact_inverse_law(check):
    rows = {decks: 0.7 - 1.2 / decks for decks in (1, 2, 4, 6, 8)}
    a, b = check.fit_inverse_decks(rows)
    assert a == pytest.approx(0.7)
    assert b == pytest.approx(-1.2)
    with pytest.raises(ValueError):
        check.fit_inverse_decks({6: 0.0})


def test_published_figures(check):
    figures = check.published()
    assert figures[1].effect_pct == -0.48
    # The Wizard of Odds rows are close to a + b/D; the limit lies a little above six decks.
    assert 0.05 < figures["infinite"].effect_pct < 0.15
    a, b = check.fit_inverse_decks(check.WIZARD_DECK_ROWS)
    assert figures["infinite"].effect_pct == pytest.approx(-b / 6, abs=5e-4)
    for decks, value in check.WIZARD_DECK_ROWS.items():
        assert a + b / decks == pytest.approx(value, abs=0.03)


def test_verdict_is_three_standard_errors(check):
    assert check.Effect(1, -0.40, 0.05, -0.48).agrees  # +1.6 s.e.
    assert check.Effect(1, -0.33, 0.05, -0.48).agrees  # +3.0 s.e.
    assert not check.Effect(1, -0.32, 0.05, -0.48).agrees  # +3.2 s.e.
    assert math.isclose(check.Effect("infinite", 0.0, 0.05, 0.1).z, -2.0)


def test_compare_uses_the_six_deck_run_as_base(check):
    measured = {
        "6": {"house_edge_pct": 0.43, "stderr_pct": 0.03},
        "1": {"house_edge_pct": -0.02, "stderr_pct": 0.04},
        "infinite": {"house_edge_pct": 0.55, "stderr_pct": 0.03},
    }
    one, infinite = check.compare(measured)
    assert (one.decks, one.effect_pct, one.stderr_pct) == (1, -0.45, 0.05)
    assert infinite.effect_pct == pytest.approx(0.12)
    assert infinite.stderr_pct == pytest.approx(math.hypot(0.03, 0.03), abs=1e-4)
    assert one.agrees and infinite.agrees
    assert "agrees" in check.summary([one, infinite])


def test_rules_are_the_simulator_reference_rules(check):
    from game.rules.simulator import REFERENCE_RULES

    assert check.options_for(check.BASE_DECKS) == REFERENCE_RULES
    assert check.options_for("infinite")["charlie"] == "off"
