"""The 6-deck charts, cell by cell, against an independent transcription of the published ones.

Reference: The Wizard of Odds, "4-Deck to 8-Deck Blackjack Strategy"
(https://wizardofodds.com/games/blackjack/strategy/4-decks/), the charts
"Dealer Stands on Soft 17" and "Dealer Hits Soft 17". Transcribed here separately
from game/rules/strategy.py, in the chart's own legend:

    H hit, S stand, Dh double else hit, Ds double else stand, P split,
    Ph split if DAS else hit, Rh surrender else hit, Rs surrender else stand,
    Rp surrender else split.

Rules checked: 6 decks, double after split, late surrender, double any two cards.
"""

from __future__ import annotations

import itertools

import pytest

from game.rules.strategy import (
    ACTIONS,
    DOUBLE,
    HIT,
    SPLIT,
    STAND,
    SURRENDER,
    StrategyRules,
    best_action,
    recommend,
)

UPCARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
UPCARD_CODES = {"2": "2S", "3": "3S", "4": "4S", "5": "5S", "6": "6S", "7": "7S",
                "8": "8S", "9": "9S", "T": "KS", "A": "AS"}  # fmt: skip

# ---- 4-8 decks, dealer stands on soft 17 ---------------------------------------------
S17_HARD = {
    #     2     3     4     5     6     7     8     9     T     A
    5:  ["H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H"],
    6:  ["H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H"],
    7:  ["H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H"],
    8:  ["H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H"],
    9:  ["H",  "Dh", "Dh", "Dh", "Dh", "H",  "H",  "H",  "H",  "H"],
    10: ["Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "H",  "H"],
    11: ["Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "H"],
    12: ["H",  "H",  "S",  "S",  "S",  "H",  "H",  "H",  "H",  "H"],
    13: ["S",  "S",  "S",  "S",  "S",  "H",  "H",  "H",  "H",  "H"],
    14: ["S",  "S",  "S",  "S",  "S",  "H",  "H",  "H",  "H",  "H"],
    15: ["S",  "S",  "S",  "S",  "S",  "H",  "H",  "H",  "Rh", "H"],
    16: ["S",  "S",  "S",  "S",  "S",  "H",  "H",  "Rh", "Rh", "Rh"],
    17: ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],
    18: ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],
    19: ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],
    20: ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],
    21: ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],
}  # fmt: skip
S17_SOFT = {
    #     2     3     4     5     6     7     8     9     T     A
    13: ["H",  "H",  "H",  "Dh", "Dh", "H",  "H",  "H",  "H",  "H"],   # A,2
    14: ["H",  "H",  "H",  "Dh", "Dh", "H",  "H",  "H",  "H",  "H"],   # A,3
    15: ["H",  "H",  "Dh", "Dh", "Dh", "H",  "H",  "H",  "H",  "H"],   # A,4
    16: ["H",  "H",  "Dh", "Dh", "Dh", "H",  "H",  "H",  "H",  "H"],   # A,5
    17: ["H",  "Dh", "Dh", "Dh", "Dh", "H",  "H",  "H",  "H",  "H"],   # A,6
    18: ["S",  "Ds", "Ds", "Ds", "Ds", "S",  "S",  "H",  "H",  "H"],   # A,7
    19: ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],   # A,8
    20: ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],   # A,9
    21: ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],
}  # fmt: skip
S17_PAIRS = {
    #      2     3     4     5     6     7     8     9     T     A
    "2": ["Ph", "Ph", "P",  "P",  "P",  "P",  "H",  "H",  "H",  "H"],
    "3": ["Ph", "Ph", "P",  "P",  "P",  "P",  "H",  "H",  "H",  "H"],
    "4": ["H",  "H",  "H",  "Ph", "Ph", "H",  "H",  "H",  "H",  "H"],
    "5": ["Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "H",  "H"],   # as hard 10
    "6": ["Ph", "P",  "P",  "P",  "P",  "H",  "H",  "H",  "H",  "H"],
    "7": ["P",  "P",  "P",  "P",  "P",  "P",  "H",  "H",  "H",  "H"],
    "8": ["P",  "P",  "P",  "P",  "P",  "P",  "P",  "P",  "P",  "P"],
    "9": ["P",  "P",  "P",  "P",  "P",  "S",  "P",  "P",  "S",  "S"],
    "T": ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],   # as hard 20
    "A": ["P",  "P",  "P",  "P",  "P",  "P",  "P",  "P",  "P",  "P"],
}  # fmt: skip

# ---- 4-8 decks, dealer hits soft 17 --------------------------------------------------
H17_HARD = {
    #     2     3     4     5     6     7     8     9     T     A
    5:  ["H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H"],
    6:  ["H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H"],
    7:  ["H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H"],
    8:  ["H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H",  "H"],
    9:  ["H",  "Dh", "Dh", "Dh", "Dh", "H",  "H",  "H",  "H",  "H"],
    10: ["Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "H",  "H"],
    11: ["Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "Dh"],
    12: ["H",  "H",  "S",  "S",  "S",  "H",  "H",  "H",  "H",  "H"],
    13: ["S",  "S",  "S",  "S",  "S",  "H",  "H",  "H",  "H",  "H"],
    14: ["S",  "S",  "S",  "S",  "S",  "H",  "H",  "H",  "H",  "H"],
    15: ["S",  "S",  "S",  "S",  "S",  "H",  "H",  "H",  "Rh", "Rh"],
    16: ["S",  "S",  "S",  "S",  "S",  "H",  "H",  "Rh", "Rh", "Rh"],
    17: ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "Rs"],
    18: ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],
    19: ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],
    20: ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],
    21: ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],
}  # fmt: skip
H17_SOFT = {
    #     2     3     4     5     6     7     8     9     T     A
    13: ["H",  "H",  "H",  "Dh", "Dh", "H",  "H",  "H",  "H",  "H"],
    14: ["H",  "H",  "H",  "Dh", "Dh", "H",  "H",  "H",  "H",  "H"],
    15: ["H",  "H",  "Dh", "Dh", "Dh", "H",  "H",  "H",  "H",  "H"],
    16: ["H",  "H",  "Dh", "Dh", "Dh", "H",  "H",  "H",  "H",  "H"],
    17: ["H",  "Dh", "Dh", "Dh", "Dh", "H",  "H",  "H",  "H",  "H"],
    18: ["Ds", "Ds", "Ds", "Ds", "Ds", "S",  "S",  "H",  "H",  "H"],
    19: ["S",  "S",  "S",  "S",  "Ds", "S",  "S",  "S",  "S",  "S"],
    20: ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],
    21: ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],
}  # fmt: skip
H17_PAIRS = {
    #      2     3     4     5     6     7     8     9     T     A
    "2": ["Ph", "Ph", "P",  "P",  "P",  "P",  "H",  "H",  "H",  "H"],
    "3": ["Ph", "Ph", "P",  "P",  "P",  "P",  "H",  "H",  "H",  "H"],
    "4": ["H",  "H",  "H",  "Ph", "Ph", "H",  "H",  "H",  "H",  "H"],
    "5": ["Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "Dh", "H",  "H"],
    "6": ["Ph", "P",  "P",  "P",  "P",  "H",  "H",  "H",  "H",  "H"],
    "7": ["P",  "P",  "P",  "P",  "P",  "P",  "H",  "H",  "H",  "H"],
    "8": ["P",  "P",  "P",  "P",  "P",  "P",  "P",  "P",  "P",  "Rp"],
    "9": ["P",  "P",  "P",  "P",  "P",  "S",  "P",  "P",  "S",  "S"],
    "T": ["S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S",  "S"],
    "A": ["P",  "P",  "P",  "P",  "P",  "P",  "P",  "P",  "P",  "P"],
}  # fmt: skip

CHARTS = {
    "S17": (S17_HARD, S17_SOFT, S17_PAIRS),
    "H17": (H17_HARD, H17_SOFT, H17_PAIRS),
}

# Two-card hard hands (no pair, no ace) for each total; 20 and 21 need a third card
# for 21, and Q+K is not a pair without split_any_ten.
HARD_HANDS = {
    5: ["2C", "3D"], 6: ["2C", "4D"], 7: ["2C", "5D"], 8: ["3C", "5D"], 9: ["4C", "5D"],
    10: ["4C", "6D"], 11: ["5C", "6D"], 12: ["0C", "2D"], 13: ["0C", "3D"],
    14: ["JC", "4D"], 15: ["QC", "5D"], 16: ["KC", "6D"], 17: ["0C", "7D"],
    18: ["0C", "8D"], 19: ["0C", "9D"], 20: ["QC", "KD"], 21: ["0C", "5D", "6H"],
}  # fmt: skip
# Other compositions of the same totals: basic strategy goes by the total only.
HARD_HANDS_ALT = {
    12: ["7C", "5D"], 13: ["9C", "4D"], 14: ["8C", "6D"], 15: ["9C", "6D"],
    16: ["9C", "7D"], 17: ["8C", "9D"], 10: ["3C", "7D"], 11: ["2C", "9D"],
}  # fmt: skip
SOFT_HANDS = {t: ["AC", f"{t - 11}D"] for t in range(13, 21)} | {21: ["AC", "5D", "5H"]}
PAIR_HANDS = {r: [f"{'0' if r == 'T' else r}C", f"{'0' if r == 'T' else r}D"] for r in S17_PAIRS}

ALL = frozenset(ACTIONS)
NO_DOUBLE = ALL - {DOUBLE}
NO_SURRENDER = ALL - {SURRENDER}
NO_SPLIT = ALL - {SPLIT}
ALLOWED_SETS = {
    "all": ALL,
    "no double": NO_DOUBLE,
    "no surrender": NO_SURRENDER,
    "no double or surrender": ALL - {DOUBLE, SURRENDER},
    "hit or stand only": frozenset({HIT, STAND}),
}


def rules_for(dealer: str, **extra: object) -> StrategyRules:
    options = {
        "deck_count": 6,
        "dealer_stands_on": dealer,
        "double_after_split": True,
        "surrender": "late",
        "split_aces": True,
        "resplit": True,
    }
    return StrategyRules.from_options(options | extra)


def expected(code: str, allowed: frozenset[str]) -> str:
    """What the chart's legend says for a code, given the legal actions (DAS on)."""
    preferences = {
        "H": [HIT],
        "S": [STAND],
        "Dh": [DOUBLE, HIT],
        "Ds": [DOUBLE, STAND],
        "P": [SPLIT],
        "Ph": [SPLIT],
        "Rh": [SURRENDER, HIT],
        "Rs": [SURRENDER, STAND],
        "Rp": [SURRENDER, SPLIT],
    }[code]
    return next(action for action in preferences if action in allowed)


def cells(table: dict) -> list[tuple[object, int]]:
    return [(row, col) for row in table for col in range(len(UPCARDS))]


@pytest.mark.parametrize("dealer", ["S17", "H17"])
@pytest.mark.parametrize("allowed_name", list(ALLOWED_SETS))
def test_hard_totals_cell_by_cell(dealer: str, allowed_name: str) -> None:
    hard, _, _ = CHARTS[dealer]
    rules = rules_for(dealer)
    allowed = ALLOWED_SETS[allowed_name]
    mismatches = []
    for total, col in cells(hard):
        for hand in filter(None, (HARD_HANDS[total], HARD_HANDS_ALT.get(total))):
            upcard = UPCARD_CODES[UPCARDS[col]]
            want = expected(hard[total][col], allowed)
            if len(hand) > 2:  # three cards: no double, no surrender
                want = expected(hard[total][col], allowed - {DOUBLE, SURRENDER})
            got = recommend(hand, upcard, rules=rules, allowed=allowed).action
            if got != want:
                mismatches.append(f"hard {total} {hand} v {UPCARDS[col]}: {got} != {want}")
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize("dealer", ["S17", "H17"])
@pytest.mark.parametrize("allowed_name", list(ALLOWED_SETS))
def test_soft_totals_cell_by_cell(dealer: str, allowed_name: str) -> None:
    _, soft, _ = CHARTS[dealer]
    rules = rules_for(dealer)
    allowed = ALLOWED_SETS[allowed_name]
    mismatches = []
    for total, col in cells(soft):
        hand = SOFT_HANDS[total]
        legal = allowed if len(hand) == 2 else allowed - {DOUBLE, SURRENDER}
        want = expected(soft[total][col], legal)
        got = recommend(hand, UPCARD_CODES[UPCARDS[col]], rules=rules, allowed=allowed).action
        if got != want:
            mismatches.append(f"soft {total} v {UPCARDS[col]}: {got} != {want}")
    assert not mismatches, "\n".join(mismatches)


def _by_total(dealer: str, rank: str, col: int, allowed: frozenset[str]) -> str:
    """A pair that is not split is played as its total: A,A is soft 12 (always hit)."""
    hard, soft, _ = CHARTS[dealer]
    if rank == "A":
        return HIT
    total = 20 if rank == "T" else 2 * int(rank)
    code = hard[total][col] if total >= 5 else "H"  # 2,2 is hard 4: hit
    return expected(code, allowed)


@pytest.mark.parametrize("dealer", ["S17", "H17"])
@pytest.mark.parametrize("allowed_name", list(ALLOWED_SETS))
def test_pairs_cell_by_cell(dealer: str, allowed_name: str) -> None:
    _, _, pairs = CHARTS[dealer]
    rules = rules_for(dealer)
    allowed = ALLOWED_SETS[allowed_name]
    mismatches = []
    for rank, col in cells(pairs):
        code = pairs[rank][col]
        if code in ("P", "Ph", "Rp") and SPLIT not in allowed and SURRENDER not in allowed:
            want = _by_total(dealer, rank, col, allowed)
        else:
            want = expected(code, allowed)
        got = recommend(PAIR_HANDS[rank], UPCARD_CODES[UPCARDS[col]], rules=rules, allowed=allowed)
        if got.action != want:
            mismatches.append(f"pair {rank} v {UPCARDS[col]}: {got.action} != {want}")
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize("dealer", ["S17", "H17"])
def test_pairs_when_split_not_allowed_play_the_total(dealer: str) -> None:
    _, _, pairs = CHARTS[dealer]
    rules = rules_for(dealer)
    for allowed in (NO_SPLIT, NO_SPLIT - {SURRENDER}, NO_SPLIT - {DOUBLE}):
        for rank, col in cells(pairs):
            code = pairs[rank][col]
            if code == "Rp" and SURRENDER in allowed:
                want = SURRENDER
            elif code.startswith("P") or code == "Rp":
                want = _by_total(dealer, rank, col, allowed)
            else:
                want = expected(code, allowed)
            got = recommend(
                PAIR_HANDS[rank], UPCARD_CODES[UPCARDS[col]], rules=rules, allowed=allowed
            )
            assert got.action == want, (rank, UPCARDS[col], sorted(allowed), got)


@pytest.mark.parametrize("dealer", ["S17", "H17"])
def test_no_das_turns_ph_into_the_total(dealer: str) -> None:
    _, _, pairs = CHARTS[dealer]
    rules = rules_for(dealer, double_after_split=False)
    for rank, col in cells(pairs):
        code = pairs[rank][col]
        got = recommend(PAIR_HANDS[rank], UPCARD_CODES[UPCARDS[col]], rules=rules, allowed=ALL)
        want = _by_total(dealer, rank, col, ALL) if code == "Ph" else expected(code, ALL)
        assert got.action == want, (rank, UPCARDS[col], got)


@pytest.mark.parametrize("dealer", ["S17", "H17"])
def test_no_surrender_option_never_surrenders(dealer: str) -> None:
    hard, _, pairs = CHARTS[dealer]
    rules = rules_for(dealer, surrender="off")
    for total, col in cells(hard):
        got = recommend(HARD_HANDS[total], UPCARD_CODES[UPCARDS[col]], rules=rules, allowed=ALL)
        assert got.action == expected(hard[total][col], NO_SURRENDER), (total, UPCARDS[col])
    for rank, col in cells(pairs):
        got = recommend(PAIR_HANDS[rank], UPCARD_CODES[UPCARDS[col]], rules=rules, allowed=ALL)
        assert got.action == expected(pairs[rank][col], NO_SURRENDER), (rank, UPCARDS[col])


@pytest.mark.parametrize("dealer", ["S17", "H17"])
def test_three_card_hands_never_double_split_or_surrender(dealer: str) -> None:
    rules = rules_for(dealer)
    three_card = [
        [a, b, c]
        for a, b, c in itertools.combinations_with_replacement(
            ["AC", "2C", "3D", "4H", "5S", "6C", "7D", "8H", "9S", "0C"], 3
        )
    ]
    for hand in three_card:
        for upcard in UPCARD_CODES.values():
            got = recommend(hand, upcard, rules=rules, allowed=ALL).action
            assert got in (HIT, STAND), (hand, upcard, got)


def test_charts_differ_exactly_where_the_published_h17_chart_differs() -> None:
    # The published H17 chart changes these cells (and only these) from S17:
    # double 11 v A, surrender 15 v A, surrender 17 v A, double soft 18 v 2,
    # double soft 19 v 6, surrender 8,8 v A.
    s17, h17 = rules_for("S17"), rules_for("H17")
    hands = (
        [("hard", t, h) for t, h in HARD_HANDS.items()]
        + [("soft", t, h) for t, h in SOFT_HANDS.items()]
        + [("pair", r, h) for r, h in PAIR_HANDS.items()]
    )
    changed = set()
    for kind, label, hand in hands:
        for up, upcard in UPCARD_CODES.items():
            a = recommend(hand, upcard, rules=s17, allowed=ALL).action
            b = recommend(hand, upcard, rules=h17, allowed=ALL).action
            if a != b:
                changed.add((kind, label, up, b))
    assert changed == {
        ("hard", 11, "A", DOUBLE),
        ("hard", 15, "A", SURRENDER),
        ("hard", 17, "A", SURRENDER),
        ("soft", 18, "2", DOUBLE),
        ("soft", 19, "6", DOUBLE),
        ("pair", "8", "A", SURRENDER),
    }


@pytest.mark.parametrize("dealer", ["S17", "H17"])
def test_best_action_matches_recommend(dealer: str) -> None:
    rules = rules_for(dealer)
    for hand in [*HARD_HANDS.values(), *SOFT_HANDS.values(), *PAIR_HANDS.values()]:
        for upcard in UPCARD_CODES.values():
            for allowed in ALLOWED_SETS.values():
                advice = recommend(hand, upcard, rules=rules, allowed=allowed)
                assert best_action(hand, upcard, rules=rules, allowed=allowed) == advice.action
