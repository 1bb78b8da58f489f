"""Basic strategy: options, chart choice, rule restrictions, fallbacks, Charlie, reasons."""

from __future__ import annotations

import itertools

import pytest

from game.rules import cards
from game.rules.hands import hand_total
from game.rules.strategy import (
    ACTIONS,
    CHARTS,
    DOUBLE,
    HIT,
    SPLIT,
    STAND,
    SURRENDER,
    StrategyRules,
    _stand_ev,
    best_action,
    chart_for,
    dealer_outcomes,
    recommend,
    recommend_insurance,
)

ALL = frozenset(ACTIONS)


def rules(**options: object) -> StrategyRules:
    return StrategyRules.from_options(options)


def act(hand: list[str], upcard: str, r: StrategyRules, allowed=ALL, **kw: bool) -> str:
    return recommend(hand, upcard, rules=r, allowed=allowed, **kw).action


# --------------------------------------------------------------------------- options


def test_defaults_follow_rules_md() -> None:
    r = StrategyRules.from_options({})
    assert r == StrategyRules()
    assert (r.deck_count, r.dealer_stands_on, r.surrender, r.double_on) == (6, "S17", "late", "any")
    assert not r.double_after_split and not r.split_aces and r.charlie == 5 and r.dealer_peek


def test_from_options_reads_every_key() -> None:
    r = rules(
        deck_count=2,
        dealer_stands_on="H17",
        double_after_split=True,
        surrender="early_non_ace",
        double_on="10-11",
        split_aces=True,
        resplit=True,
        resplit_aces=True,
        split_any_ten=True,
        charlie="off",
        dealer_peek=False,
        trivia_mode=False,  # unrelated keys are ignored
    )
    assert r.deck_count == 2 and r.dealer_hits_soft and r.charlie is None
    assert r.double_after_split and r.split_any_ten and not r.dealer_peek
    assert r.surrender == "early_non_ace" and r.double_on == "10-11"
    assert rules(charlie=7).charlie == 7


@pytest.mark.parametrize(
    "bad",
    [
        {"deck_count": 0},
        {"deck_count": 9},
        {"dealer_stands_on": "S18"},
        {"surrender": "sometimes"},
        {"double_on": "8-11"},
        {"charlie": 6},
    ],
)
def test_invalid_options_are_rejected(bad: dict) -> None:
    with pytest.raises(ValueError):
        StrategyRules.from_options(bad)


def test_rules_are_hashable_values() -> None:
    assert rules(deck_count=2) == rules(deck_count=2)
    assert len({rules(), rules(), rules(deck_count=1)}) == 2


@pytest.mark.parametrize(
    ("decks", "dealer", "name"),
    [
        (1, "S17", "1 deck, S17"),
        (1, "H17", "1 deck, H17"),
        (2, "S17", "2 decks, S17"),
        (2, "H16", "2 decks, H17"),
        (3, "S16", "4-8 decks, S17"),
        (6, "S17", "4-8 decks, S17"),
        (8, "H17", "4-8 decks, H17"),
        (6, "H16", "4-8 decks, H17"),
    ],
)
def test_chart_choice(decks: int, dealer: str, name: str) -> None:
    r = rules(deck_count=decks, dealer_stands_on=dealer)
    assert chart_for(r).name == name == r.chart_name


def test_every_chart_is_complete() -> None:
    for chart in CHARTS.values():
        assert set(chart.hard) == set(range(4, 22))
        assert set(chart.soft) == set(range(12, 22))
        assert set(chart.pairs) == set("23456789TA")


# --------------------------------------------------------------------------- hands


@pytest.mark.parametrize(
    ("hand", "total", "soft"),
    [
        (["AS", "AH"], 12, True),
        (["AS*", "KH"], 21, True),
        (["AS", "6H", "9D"], 16, False),
        (["0S", "6H", "9D"], 25, False),
        (["AS", "AH", "AD", "8C"], 21, True),
    ],
)
def test_hand_total(hand: list[str], total: int, soft: bool) -> None:
    assert hand_total(hand) == (total, soft)


def test_jackpot_ace_is_an_ace() -> None:
    assert act(["AS*", "AH"], "6D", rules(split_aces=True)) == SPLIT
    assert act(["5S", "6H"], "AS*", rules()) == HIT


def test_twenty_one_and_bust_stand() -> None:
    assert act(["AS", "5D", "5H"], "0S", rules()) == STAND
    assert act(["0S", "5D", "9H"], "0S", rules(), allowed={STAND}) == STAND


def test_nothing_legal_is_an_error() -> None:
    with pytest.raises(ValueError):
        recommend(["0S", "6D"], "0H", rules=rules(), allowed={"insurance"})
    with pytest.raises(ValueError):
        recommend(["0S"], "0H", rules=rules(), allowed=ALL)


# --------------------------------------------------------------------------- restrictions


def test_double_on_9_11() -> None:
    r = rules(double_on="9-11")
    assert act(["AS", "7D"], "4H", r) == STAND  # soft 18: Ds → stand
    assert act(["AS", "6D"], "4H", r) == HIT  # soft 17: D → hit
    assert act(["4S", "5D"], "4H", r) == DOUBLE  # hard 9
    assert act(["5S", "6D"], "4H", r) == DOUBLE  # hard 11
    single = rules(double_on="9-11", deck_count=1)
    assert act(["3S", "5D"], "5H", single) == HIT  # single-deck 8 v 5 is D
    assert act(["3S", "5D"], "5H", rules(deck_count=1)) == DOUBLE


def test_double_on_10_11() -> None:
    r = rules(double_on="10-11")
    assert act(["4S", "5D"], "4H", r) == HIT
    assert act(["4S", "6D"], "4H", r) == DOUBLE
    assert act(["5S", "5D"], "4H", r) == DOUBLE  # 5,5 is a hard 10
    reason = recommend(["AS", "7D"], "4H", rules=r, allowed=ALL).reason
    assert "not allowed" in reason


def test_split_hand_without_das_does_not_double() -> None:
    r = rules(double_after_split=False)
    assert act(["5S", "6D"], "6H", r, is_split_hand=True) == HIT
    assert act(["5S", "6D"], "6H", rules(double_after_split=True), is_split_hand=True) == DOUBLE


def test_split_hand_may_surrender_when_the_engine_allows_it() -> None:
    # offers surrender on a split hand; the chart's answer does not change.
    assert act(["0S", "6D"], "0H", rules(), is_split_hand=True) == SURRENDER


def test_surrender_off_falls_back() -> None:
    r = rules(surrender="off", dealer_stands_on="H17")
    assert act(["0S", "6D"], "0H", r) == HIT
    assert act(["0S", "7D"], "AH", r) == STAND
    assert act(["8S", "8D"], "AH", r) == SPLIT


def test_early_surrender_uses_the_late_chart() -> None:
    for mode in ("early", "early_non_ace"):
        r = rules(surrender=mode)
        assert act(["0S", "6D"], "0H", r) == SURRENDER
        assert act(["0S", "5D"], "0H", r) == SURRENDER
        assert act(["0S", "4D"], "0H", r) == HIT


def test_split_not_allowed_plays_the_total() -> None:
    no_split = ALL - {SPLIT}
    assert act(["AS", "AD"], "6H", rules(), no_split) == HIT  # soft 12
    assert act(["5S", "5D"], "6H", rules(), no_split) == DOUBLE  # hard 10
    assert act(["8S", "8D"], "0H", rules(), no_split) == SURRENDER  # hard 16 v 10
    assert act(["8S", "8D"], "0H", rules(), no_split - {SURRENDER}) == HIT
    assert act(["9S", "9D"], "6H", rules(), no_split) == STAND
    assert act(["2S", "2D"], "6H", rules(), no_split) == HIT
    assert act(["6S", "6D"], "6H", rules(), no_split) == STAND  # hard 12 v 6


def test_split_any_ten_still_stands() -> None:
    assert act(["QS", "KD"], "6H", rules(split_any_ten=True)) == STAND


@pytest.mark.parametrize("decks", [1, 2, 6])
@pytest.mark.parametrize("dealer", ["S17", "H17"])
@pytest.mark.parametrize("das", [True, False])
def test_advice_is_always_allowed(decks: int, dealer: str, das: bool) -> None:
    r = rules(deck_count=decks, dealer_stands_on=dealer, double_after_split=das, charlie=5)
    subsets = [
        frozenset(c) for n in range(1, 6) for c in itertools.combinations(ACTIONS, n) if STAND in c
    ]
    ranks = "234567890A"
    for a, b in itertools.combinations_with_replacement(ranks, 2):
        hand = [a + "S", b + "H"]
        for up in "2580A":
            for allowed in subsets:
                advice = recommend(hand, up + "D", rules=r, allowed=allowed)
                assert advice.action in allowed
                assert advice.reason and "\n" not in advice.reason


# --------------------------------------------------------------------------- other charts


def test_single_deck_cells() -> None:
    s17 = rules(deck_count=1, dealer_stands_on="S17", double_after_split=True)
    h17 = rules(deck_count=1, dealer_stands_on="H17", double_after_split=True)
    assert act(["3S", "5D"], "6H", s17) == DOUBLE  # hard 8 v 6
    assert act(["AS", "6D"], "2H", s17) == DOUBLE  # soft 17 v 2
    assert act(["AS", "7D"], "AH", s17) == STAND  # soft 18 v A, S17
    assert act(["AS", "7D"], "AH", h17) == HIT  # soft 18 v A, H17
    assert act(["AS", "8D"], "6H", s17) == DOUBLE  # soft 19 v 6
    assert act(["7S", "7D"], "0H", s17) == SURRENDER
    assert act(["7S", "7D"], "0H", s17, ALL - {SURRENDER}) == STAND  # Rs
    assert act(["3S", "3D"], "8H", s17) == SPLIT  # Ph with DAS
    assert act(["3S", "3D"], "8H", rules(deck_count=1)) == HIT  # no DAS
    assert act(["4S", "4D"], "5H", rules(deck_count=1)) == DOUBLE  # Pd without DAS
    assert act(["9S", "9D"], "AH", h17) == SPLIT  # Ps with DAS
    assert act(["9S", "9D"], "AH", rules(deck_count=1, dealer_stands_on="H17")) == STAND
    assert act(["8S", "8D"], "AH", h17) == SPLIT


def test_double_deck_cells() -> None:
    s17 = rules(deck_count=2, double_after_split=True)
    assert act(["5S", "6D"], "AH", s17) == DOUBLE  # 11 v A
    assert act(["4S", "5D"], "2H", s17) == DOUBLE  # 9 v 2
    assert act(["AS", "3D"], "4H", s17) == DOUBLE  # soft 14 v 4
    assert act(["0S", "6D"], "9H", s17) == HIT  # no surrender 16 v 9
    assert act(["6S", "6D"], "7H", s17) == SPLIT
    assert act(["8S", "8D"], "AH", rules(deck_count=2, dealer_stands_on="H17")) == SURRENDER


def test_s16_and_h16_use_the_s17_and_h17_charts() -> None:
    assert act(["5S", "6D"], "AH", rules(dealer_stands_on="S16")) == HIT
    assert act(["5S", "6D"], "AH", rules(dealer_stands_on="H16")) == DOUBLE


def test_no_hole_card_keeps_money_off_tens_and_aces() -> None:
    r = rules(dealer_peek=False, split_aces=True)
    assert act(["5S", "6D"], "0H", r) == HIT
    assert act(["5S", "6D"], "AH", r) == HIT
    assert act(["5S", "6D"], "9H", r) == DOUBLE
    assert act(["8S", "8D"], "0H", r) == SURRENDER  # 16 v 10
    assert act(["8S", "8D"], "0H", r, ALL - {SURRENDER}) == HIT
    assert act(["AS", "AD"], "AH", r) == HIT
    assert act(["AS", "AD"], "0H", r) == SPLIT
    assert "No hole card" in recommend(["5S", "6D"], "0H", rules=r, allowed=ALL).reason


# --------------------------------------------------------------------------- Charlie


def test_dealer_outcomes_match_published_bust_rates() -> None:
    # Infinite-deck S17 dealer bust rates given no blackjack (Wizard of Odds, dealer
    # probability tables): 2 → 35.4%, 6 → 42.3%, 10 → 23.0%, A → 16.7%.
    for up, bust in (("2", 0.3536), ("6", 0.4232), ("T", 0.2298), ("A", 0.1665)):
        got = dict(dealer_outcomes(up, "S17", None, True))["bust"]
        assert got == pytest.approx(bust, abs=5e-4)
        assert sum(p for _, p in dealer_outcomes(up, "H17", 5, False)) == pytest.approx(1)
    assert _stand_ev(20, "6", rules()) > _stand_ev(16, "6", rules())


def test_charlie_one_card_short() -> None:
    r5 = rules(charlie=5)
    four_card_14 = ["2S", "3H", "4D", "5C"]
    assert act(four_card_14, "6D", r5, {HIT, STAND}) == HIT
    assert act(four_card_14, "6D", rules(charlie="off"), {HIT, STAND}) == STAND
    soft_20 = ["2S", "3H", "AD", "4C"]
    assert act(soft_20, "6D", r5, {HIT, STAND}) == HIT
    assert act(soft_20, "6D", rules(charlie=7), {HIT, STAND}) == STAND
    six_card_12 = ["2S", "2H", "2D", "2C", "3S", "AH"]
    assert act(six_card_12, "6D", rules(charlie=7), {HIT, STAND}) == HIT
    six_card_16 = ["2S", "3H", "AD", "4C", "AH", "5S"]  # only A-5 are safe: stand beats hit
    assert act(six_card_16, "6D", rules(charlie=7), {HIT, STAND}) == STAND
    four_card_19 = ["2S", "3H", "4D", "0C"]
    assert act(four_card_19, "6D", r5, {HIT, STAND}) == STAND
    advice = recommend(four_card_14, "6D", rules=r5, allowed={HIT, STAND})
    assert "Charlie" in advice.reason


# --------------------------------------------------------------------------- reasons


def test_reasons_read_well() -> None:
    r = rules(double_after_split=True)
    assert recommend(["8S", "8D"], "0H", rules=r, allowed=ALL).reason == (
        "Always split 8s: 16 is the worst hand, two hands starting at 8 do better."
    )
    assert recommend(["5S", "6D"], "6H", rules=r, allowed=ALL).reason == (
        "Double 11 against a 6: the dealer is likely to bust and you likely draw a ten."
    )
    assert "an 8" in recommend(["0S", "6D"], "8H", rules=r, allowed=ALL).reason
    assert "an ace" in recommend(["0S", "6D"], "AH", rules=r, allowed=ALL).reason
    fallback = recommend(["0S", "6D"], "0H", rules=r, allowed={HIT, STAND}).reason
    assert fallback.startswith("Hit 16 against a 10") and "Surrendering" in fallback


def test_insurance_never() -> None:
    advice = recommend_insurance()
    assert advice.action == "decline" and "Never" in advice.reason


def test_best_action_agrees_with_recommend_everywhere() -> None:
    r = rules(double_after_split=True, dealer_stands_on="H17")
    deck = [rank + "S" for rank in cards.RANKS]
    for hand in itertools.combinations_with_replacement(deck, 2):
        for up in deck:
            for allowed in (ALL, {HIT, STAND}, ALL - {DOUBLE}):
                a = best_action(list(hand), up, rules=r, allowed=allowed)
                assert a == recommend(list(hand), up, rules=r, allowed=allowed).action


# The Wizard of Odds' early-surrender table, transcribed by hand (not read from the
# module): against an ace surrender hard 5-7, hard 12-17, 3-3, 6-6, 7-7, 8-8; against a
# ten-card hard 14-16, 7-7, 8-8. Everything else declines.
PUBLISHED_EARLY_SURRENDER = {
    "A": ({5, 6, 7, 12, 13, 14, 15, 16, 17}, {"3", "6", "7", "8"}),
    "T": ({14, 15, 16}, {"7", "8"}),
}
TWO_CARD_HARD = {
    5: ["2S", "3D"],
    6: ["2S", "4D"],
    7: ["2S", "5D"],
    8: ["2S", "6D"],
    9: ["2S", "7D"],
    10: ["2S", "8D"],
    11: ["2S", "9D"],
    12: ["3S", "9D"],
    13: ["4S", "9D"],
    14: ["5S", "9D"],
    15: ["6S", "9D"],
    16: ["7S", "9D"],
    17: ["8S", "9D"],
    18: ["9S", "KD"],
    19: ["9S", "QD"],
    20: ["KS", "QD"],
}


@pytest.mark.parametrize(("column", "upcard"), [("A", "AH"), ("T", "KH")])
def test_early_surrender_follows_the_published_table(column: str, upcard: str) -> None:
    from game.rules.strategy import DECLINE, recommend_early_surrender

    hard, pairs = PUBLISHED_EARLY_SURRENDER[column]
    r = rules(surrender="early")
    for total, hand in TWO_CARD_HARD.items():
        wanted = SURRENDER if total in hard else DECLINE
        assert recommend_early_surrender(hand, upcard, rules=r).action == wanted, (total, column)
    for rank in "23456789TA":
        code = "0" if rank == "T" else rank
        hand = [f"{code}S", f"{code}D"]
        wanted = SURRENDER if rank in pairs else DECLINE
        assert recommend_early_surrender(hand, upcard, rules=r).action == wanted, (rank, column)
    soft = recommend_early_surrender(["AS", "6D"], upcard, rules=r)  # soft 17 keeps
    assert soft.action == DECLINE


def test_inverted_plays_to_lose_what_the_ordinary_rules_would_pay() -> None:
    """§10 inverted: results are negated, so the coach picks the worst ordinary move."""
    r = rules(inverted=True)
    assert act(["KS", "QD"], "6C", r) == DOUBLE  # 20 doubled busts 12 times in 13
    assert act(["5S", "6D"], "6C", r) == SURRENDER  # half a stake is the surest loss
    hit_or_stand = frozenset({HIT, STAND})
    assert act(["KS", "QD"], "6C", r, allowed=hit_or_stand) == HIT  # bust rather than win
    # Soft 18 cannot bust on one card, yet hitting it does worse than standing on 18.
    assert act(["AS", "7D"], "9C", r, allowed=hit_or_stand) == HIT
    # Ordinary basic strategy would stand on all three of these.
    assert act(["KS", "QD"], "6C", rules(), allowed=hit_or_stand) == STAND


def test_inverted_advice_says_why() -> None:
    advice = recommend(["KS", "QD"], "6C", rules=rules(inverted=True), allowed=ALL)
    assert advice.action == DOUBLE and advice.reason.startswith("Inverted game: ")
