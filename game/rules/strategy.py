"""Basic strategy for the active rules: the coach's hint and the simulator's player.

The module takes plain values only (card code strings, the option mapping of
RULES.md §10, the set of legal actions) so that it never depends on the rules
engine's classes.

Source of every chart below: Michael Shackleford, "The Wizard of Odds",
basic-strategy charts (dealer peeks, double any two cards, late surrender codes):

- 4 to 8 decks: https://wizardofodds.com/games/blackjack/strategy/4-decks/
  (images bj_4d_s17.gif "Dealer Stands on Soft 17", bj_4d_h17.gif "Dealer Hits Soft 17")
- 2 decks:      https://wizardofodds.com/games/blackjack/strategy/2-decks/
  (bj_2d_s17.gif, bj_2d_h17.gif)
- 1 deck:       https://wizardofodds.com/games/blackjack/strategy/1-deck/
  (bj_1d_s17.gif, bj_1d_h17.gif)

Chart codes, as on the published charts (the dealer's upcard is the column, 2 … T, A):

    H  hit                          S  stand
    D  double, else hit             Ds double, else stand
    P  split (else play the total)
    Ph split if double after split is allowed, else play the total (which hits)
    Pd split if double after split is allowed, else play the total (which doubles)
    Ps split if double after split is allowed, else play the total (which stands)
    Rh surrender, else hit          Rs surrender, else stand
    Rp surrender, else split (else play the total)

Decisions where the published charts are silent (documented here, binding for the coach):

- ``deck_count`` 1 uses the single-deck chart, 2 the double-deck chart, 3–8 the
  4-to-8-deck chart (three decks is far closer to four than to two).
- ``S16`` / ``H16``: no published chart exists. S16 uses the S17 chart and H16 the
  H17 chart: what separates the two chart families is whether the dealer draws to a
  soft total (which makes the dealer's ace stronger), and H16 shares that with H17.
  This is an approximation, not a derivation.
- Early surrender (``early`` / ``early_non_ace``): the offer before the peek is answered
  from the published early-surrender table (``recommend_early_surrender``, source there);
  once it is declined the player's turn has no surrender left, and the hand is played
  by the chart as usual. ``early_non_ace`` uses the table's ten-card column only (against
  an ace its surrender is late, after the peek, and follows the late-surrender chart).
- ``dealer_peek`` off (no hole card): the usual no-hole-card adjustments are applied —
  never double against a ten or an ace, never split against an ace, never split 8s
  against a ten (the extra money would be lost to a dealer blackjack) — and the hand is
  played by its total instead.
- ``charlie`` (5 or 7 cards): the charts assume no Charlie. When the hand is one card
  short of a Charlie, hitting and standing are compared exactly (infinite deck): a hit
  that does not bust makes a Charlie, which wins.
- Insurance and even money: never (``recommend_insurance``).
- ``simple`` (Hit and Stand only): the engine offers only Hit and Stand, and each chart
  cell falls back to its own second choice (D → hit, Ds → stand, P → the total, R → hit or
  stand), which is the published chart's own reading for "double / split / surrender not
  allowed".
- ``inverted`` (every bet's result negated): no published chart; the move with the worst
  ordinary expected result is worked out exactly for an infinite deck
  (:func:`inverted_action`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from game.rules import cards
from game.rules.hands import hand_total, soften
from game.rules.strategy_charts import (
    DOUBLE_H17,
    DOUBLE_S17,
    MULTI_H17,
    MULTI_S17,
    SINGLE_H17,
    SINGLE_S17,
)

HIT, STAND, DOUBLE, SPLIT, SURRENDER = "hit", "stand", "double", "split", "surrender"
ACTIONS = (HIT, STAND, DOUBLE, SPLIT, SURRENDER)
# The answer to an offer (insurance, even money, early surrender) that basic strategy refuses.
DECLINE = "decline"
# Actions that only exist as a hand's first action on its first two cards (R-5.3/5.4/5.7).
FIRST_ACTIONS = frozenset({DOUBLE, SPLIT, SURRENDER})

COLUMNS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
_COLUMN_INDEX = {label: index for index, label in enumerate(COLUMNS)}
CODES = frozenset({"H", "S", "D", "Ds", "P", "Ph", "Pd", "Ps", "Rh", "Rs", "Rp"})

DEALER_RULES = ("S17", "H17", "S16", "H16")
SURRENDER_MODES = ("late", "early", "early_non_ace", "off")
DOUBLE_ON = ("any", "9-11", "10-11")
_DOUBLE_ON_TOTALS = {"any": range(2, 22), "9-11": range(9, 12), "10-11": range(10, 12)}


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class StrategyRules:
    """The options that change basic strategy (RULES.md §10), as plain values."""

    deck_count: int = 6
    dealer_stands_on: str = "S17"
    double_after_split: bool = False
    surrender: str = "late"
    double_on: str = "any"
    split_aces: bool = False
    resplit: bool = False
    resplit_aces: bool = False
    split_any_ten: bool = False
    charlie: int | None = 5
    dealer_peek: bool = True
    # §10 Extensions, inverted: every bet's result is negated, so the best play is the one
    # with the worst ordinary result (see inverted_action).
    inverted: bool = False
    # best_action's memo lives on the rules it depends on, so looking it up costs no
    # hashing of the rules; it takes no part in equality, hashing or repr.
    memo: dict[tuple[object, ...], str] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        if not 1 <= self.deck_count <= 8:
            raise ValueError(f"deck_count must be 1-8, got {self.deck_count!r}")
        _check_choice("dealer_stands_on", self.dealer_stands_on, DEALER_RULES)
        _check_choice("surrender", self.surrender, SURRENDER_MODES)
        _check_choice("double_on", self.double_on, DOUBLE_ON)
        if self.charlie not in (None, 5, 7):
            raise ValueError(f"charlie must be 5, 7 or off, got {self.charlie!r}")

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> StrategyRules:
        """Build from the game's option dict (its JSON form, ``Options.to_dict``); missing
        keys take the RULES.md defaults."""
        charlie = options.get("charlie", 5)
        splits = _split_limits(options)
        decks = options.get("deck_count", 6)
        return cls(
            # An infinite shoe plays as the many-deck chart (as 8 decks, the nearest).
            deck_count=8 if decks == "infinite" else int(decks),
            dealer_stands_on=str(options.get("dealer_stands_on", "S17")),
            double_after_split=bool(options.get("double_after_split", False)),
            surrender=str(options.get("surrender", "late")),
            double_on=str(options.get("double_on", "any")),
            split_aces=splits["split_aces"],
            resplit=splits["resplit"],
            resplit_aces=splits["resplit_aces"],
            split_any_ten=bool(options.get("split_any_ten", False)),
            charlie=None if charlie in (None, "off") else int(charlie),
            dealer_peek=bool(options.get("dealer_peek", True)),
            inverted=bool(options.get("inverted", False)),
        )

    @property
    def dealer_hits_soft(self) -> bool:
        return self.dealer_stands_on.startswith("H")

    @property
    def chart_name(self) -> str:
        """Which published chart applies, e.g. ``"4-8 decks, H17"``."""
        decks = {1: "1 deck", 2: "2 decks"}.get(self.deck_count, "4-8 decks")
        return f"{decks}, {'H17' if self.dealer_hits_soft else 'S17'}"

    def may_double_on(self, total: int) -> bool:
        return total in _DOUBLE_ON_TOTALS[self.double_on]


def _split_limits(options: Mapping[str, Any]) -> dict[str, bool]:
    """The chart's split switches from ``max_splits`` / ``max_ace_splits`` (§10), or from
    the old keys a stored option dict may still hold (§10 Decision)."""
    if "max_splits" not in options and "max_ace_splits" not in options:
        return {
            name: bool(options.get(name, False))
            for name in ("split_aces", "resplit", "resplit_aces")
        }
    splits = int(options.get("max_splits", 1))
    ace_splits = int(options.get("max_ace_splits", 0))
    return {"split_aces": ace_splits >= 1, "resplit": splits >= 2, "resplit_aces": ace_splits >= 2}


def _check_choice(name: str, value: object, choices: Sequence[str]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, got {value!r}")


# --------------------------------------------------------------------------- charts
# One grid per published chart, in game/rules/strategy_charts.py.


@dataclass(frozen=True)
class Chart:
    """One published chart: ``hard[total]``, ``soft[total]``, ``pairs[rank]`` → 10 codes."""

    name: str
    hard: Mapping[int, tuple[str, ...]]
    soft: Mapping[int, tuple[str, ...]]
    pairs: Mapping[str, tuple[str, ...]]


def parse_chart(name: str, text: str) -> Chart:
    """Parse a grid of the form above; raises ValueError on a malformed chart."""
    sections: dict[str, dict[str, tuple[str, ...]]] = {}
    current: dict[str, tuple[str, ...]] | None = None
    for line in text.strip().splitlines():
        label, *codes = line.split()
        if tuple(codes) == COLUMNS:
            current = sections.setdefault(label, {})
            continue
        if current is None or len(codes) != len(COLUMNS) or not CODES.issuperset(codes):
            raise ValueError(f"{name}: malformed chart row {line!r}")
        current[label] = tuple(codes)
    hard = {int(k): v for k, v in sections["hard"].items()}
    soft = {int(k): v for k, v in sections["soft"].items()}
    if set(hard) != set(range(4, 22)) or set(soft) != set(range(12, 22)):
        raise ValueError(f"{name}: chart must cover hard 4-21 and soft 12-21")
    if set(sections["pair"]) != set("23456789TA"):
        raise ValueError(f"{name}: chart must cover pairs 2-9, T, A")
    return Chart(name=name, hard=hard, soft=soft, pairs=sections["pair"])


CHARTS: dict[tuple[str, bool], Chart] = {
    ("multi", False): parse_chart("4-8 decks, S17", MULTI_S17),
    ("multi", True): parse_chart("4-8 decks, H17", MULTI_H17),
    ("double", False): parse_chart("2 decks, S17", DOUBLE_S17),
    ("double", True): parse_chart("2 decks, H17", DOUBLE_H17),
    ("single", False): parse_chart("1 deck, S17", SINGLE_S17),
    ("single", True): parse_chart("1 deck, H17", SINGLE_H17),
}


def chart_for(rules: StrategyRules) -> Chart:
    size = {1: "single", 2: "double"}.get(rules.deck_count, "multi")
    return CHARTS[(size, rules.dealer_hits_soft)]


# --------------------------------------------------------------------------- hands


def _column(upcard: str) -> str:
    if cards.is_ten_card(upcard):
        return "T"
    return "A" if cards.is_ace(upcard) else cards.rank(upcard)


def _pair_key(hand: Sequence[str], rules: StrategyRules) -> str | None:
    """The pair row for a two-card hand the rules let split, else None."""
    if len(hand) != 2:
        return None
    first, second = hand
    if cards.rank(first) == cards.rank(second):
        return _column(first)
    if rules.split_any_ten and cards.is_ten_card(first) and cards.is_ten_card(second):
        return "T"
    return None


# --------------------------------------------------------------------------- advice


@dataclass(frozen=True)
class Advice:
    action: str  # one of ACTIONS
    reason: str  # one line for the player
    code: str = ""  # the chart cell that decided it, e.g. "Ds" (empty for overrides)


@dataclass(frozen=True)
class _Hand:
    """Everything the decision and its explanation need about the hand in play."""

    total: int
    soft: bool
    pair: str | None
    column: str
    n_cards: int


def recommend(
    cards: Sequence[str],
    upcard: str,
    *,
    rules: StrategyRules,
    allowed: Collection[str],
    is_split_hand: bool = False,
) -> Advice:
    """The basic-strategy move for ``cards`` against ``upcard``, always one of ``allowed``."""
    hand = _describe(cards, upcard, rules)
    legal = _legal(hand, rules, allowed, is_split_hand)
    if not legal:
        raise ValueError(f"no playable action among {sorted(allowed)!r}")
    if rules.inverted:
        action = inverted_action(hand, rules, legal)
        return Advice(action, _inverted_reason(action, hand), "")
    code = _cell(hand, rules)
    action, wanted = _resolve(code, hand, rules, legal)
    if action == STAND and _charlie_hit(hand, rules, legal):
        return Advice(HIT, _charlie_reason(hand, rules), "")
    return Advice(action, _reason(action, hand, wanted, rules), code)


def best_action(
    cards: Sequence[str],
    upcard: str,
    *,
    rules: StrategyRules,
    allowed: Collection[str],
    is_split_hand: bool = False,
) -> str:
    """``recommend(...).action`` without the reason, memoised (for the simulator).

    The answer depends only on the hand's total, softness, card count and (for two
    cards) ranks, so those key the memo; pass ``allowed`` as a frozenset to skip a copy.
    """
    total = 0
    has_ace = False
    for card in cards:
        value = _RANK_VALUE[card[0]]
        total += value
        has_ace = has_ace or value == 1
    soft = soften(total, has_ace)[1]
    # Two-card hands are keyed by both ranks: pairs, ten-pairs and doubles differ there.
    ranks = cards[0][0] + cards[1][0] if len(cards) == 2 else ""
    if not isinstance(allowed, frozenset):
        allowed = frozenset(allowed)
    key = (total, soft, ranks, len(cards), upcard[0], allowed, is_split_hand)
    memo = rules.memo
    action = memo.get(key)
    if action is None:
        if len(memo) > _MEMO_LIMIT:
            memo.clear()  # a crude bound: the working set is small, this never thrashes
        action = memo[key] = _best_action(cards, upcard, rules, allowed, is_split_hand)
    return action


_RANK_VALUE = {rank[0]: value for rank, value in cards.RANK_VALUE.items()}
_MEMO_LIMIT = 100_000


def _best_action(
    hand_cards: Sequence[str],
    upcard: str,
    rules: StrategyRules,
    allowed: frozenset[str],
    is_split_hand: bool,
) -> str:
    hand = _describe(hand_cards, upcard, rules)
    legal = _legal(hand, rules, allowed, is_split_hand)
    if not legal:
        raise ValueError(f"no playable action among {sorted(allowed)!r}")
    if rules.inverted:
        return inverted_action(hand, rules, legal)
    action, _ = _resolve(_cell(hand, rules), hand, rules, legal)
    if action == STAND and _charlie_hit(hand, rules, legal):
        return HIT
    return action


# --------------------------------------------------------------------------- inverted
# §10 Extensions, inverted: a bet that would win N loses N and one that would lose S wins
# S, so the player's best move is the one whose *ordinary* expected result is lowest. No
# published chart exists for this game; the coach works it out exactly for an infinite
# deck (the same dealer model as the Charlie check): stand, hit (every later decision also
# playing to lose), double (one card, twice the stake) and surrender (half the stake).
# Splitting is never advised: it only puts more money on the table for the dealer's hand
# to decide, and the coach has no exact figure for it.


def inverted_action(hand: _Hand, rules: StrategyRules, legal: frozenset[str]) -> str:
    results = _ordinary_results(hand, rules, legal)
    if not results:
        return _last_resort(legal)
    return min(results, key=lambda action: (results[action], ACTIONS.index(action)))


def _ordinary_results(hand: _Hand, rules: StrategyRules, legal: frozenset[str]) -> dict[str, float]:
    hard, has_ace = (hand.total - 10, True) if hand.soft else (hand.total, False)
    results: dict[str, float] = {}
    if STAND in legal:
        results[STAND] = _stand_ev(hand.total, hand.column, rules)
    if HIT in legal:
        results[HIT] = _hit_ev_playing_to_lose(hard, has_ace, hand.n_cards, hand.column, rules)
    if DOUBLE in legal:
        results[DOUBLE] = 2 * _one_card_ev(hard, has_ace, hand.column, rules)
    if SURRENDER in legal:
        results[SURRENDER] = -0.5
    return results


def _one_card_ev(hard: int, has_ace: bool, column: str, rules: StrategyRules) -> float:
    ev = 0.0
    for value, p in _CARD_PROBABILITY.items():
        total, _ = soften(hard + value, has_ace or value == 1)
        ev += p * (-1.0 if total > 21 else _stand_ev(total, column, rules))
    return ev


@lru_cache(maxsize=4096)
def _hit_ev_playing_to_lose(
    hard: int, has_ace: bool, n_cards: int, column: str, rules: StrategyRules
) -> float:
    """Ordinary expected result of hitting, every later decision taken to lose most."""
    ev = 0.0
    for value, p in _CARD_PROBABILITY.items():
        new_hard, new_ace = hard + value, has_ace or value == 1
        total, _ = soften(new_hard, new_ace)
        if total > 21:
            ev -= p
        elif rules.charlie is not None and n_cards + 1 >= rules.charlie:
            ev += p  # a Charlie wins: the worst thing for an inverted player
        elif total == 21:
            ev += p * _stand_ev(21, column, rules)  # 21 stands by itself
        else:
            stand = _stand_ev(total, column, rules)
            hit = _hit_ev_playing_to_lose(new_hard, new_ace, n_cards + 1, column, rules)
            ev += p * min(stand, hit)
    return ev


def _inverted_reason(action: str, hand: _Hand) -> str:
    what = {
        HIT: "hitting",
        STAND: "standing",
        DOUBLE: "doubling",
        SURRENDER: "surrendering",
        SPLIT: "splitting",
    }[action]
    return (
        f"Inverted game: every result is turned round, so play to lose — with "
        f"{_hand_name(hand)} against {_upcard_name(hand.column)}, {what} does worst "
        "by the ordinary rules, which pays you most here."
    )


def recommend_insurance() -> Advice:
    """Insurance and even money are never basic strategy."""
    return Advice(
        DECLINE,
        "Never take insurance or even money: it pays 2 to 1 on a bet that wins less than "
        "one time in three.",
    )


# Early surrender, before the dealer checks for blackjack. Source: Michael Shackleford,
# "The Wizard of Odds", blackjack surrender page, "Early surrender" strategy (any number
# of decks, S17 and H17 alike): against an ace surrender hard 5-7, hard 12-17 and pairs of
# 3s, 6s, 7s and 8s; against a ten-card surrender hard 14-16 and pairs of 7s and 8s.
# Every other hand declines and is played by the chart after the peek.
EARLY_SURRENDER_HARD: dict[str, frozenset[int]] = {
    "A": frozenset({5, 6, 7, 12, 13, 14, 15, 16, 17}),
    "T": frozenset({14, 15, 16}),
}
EARLY_SURRENDER_PAIRS: dict[str, frozenset[str]] = {
    "A": frozenset({"3", "6", "7", "8"}),
    "T": frozenset({"7", "8"}),
}


def recommend_early_surrender(
    hand_cards: Sequence[str], upcard: str, *, rules: StrategyRules
) -> Advice:
    """Accept (SURRENDER) or DECLINE the early-surrender offer (R-4.6) for a two-card hand."""
    hand = _describe(hand_cards, upcard, rules)
    pair = (
        cards.rank(hand_cards[0])
        if cards.rank(hand_cards[0]) == cards.rank(hand_cards[1])
        else None
    )
    against = _upcard_name(hand.column)
    if pair is not None:
        surrender = pair in EARLY_SURRENDER_PAIRS.get(hand.column, ())
        what = f"a pair of {_column(hand_cards[0])}s"
    else:
        surrender = not hand.soft and hand.total in EARLY_SURRENDER_HARD.get(hand.column, ())
        what = _hand_name(hand)
    if surrender:
        return Advice(
            SURRENDER,
            f"Surrender {what} against {against} early: before the peek you keep half your "
            "bet even when the dealer has blackjack, more than this hand wins on average.",
        )
    return Advice(
        DECLINE,
        f"Keep {what} against {against}: it wins back more than half the bet on average.",
    )


def _describe(hand: Sequence[str], upcard: str, rules: StrategyRules) -> _Hand:
    if len(hand) < 2:
        raise ValueError("a hand in play has at least two cards")
    total, soft = hand_total(hand)
    return _Hand(total, soft, _pair_key(hand, rules), _column(upcard), len(hand))


def _legal(
    hand: _Hand, rules: StrategyRules, allowed: Collection[str], is_split_hand: bool
) -> frozenset[str]:
    """The engine's legal actions, narrowed to what basic strategy may use here."""
    legal = set(allowed).intersection(ACTIONS)
    if hand.total >= 21:
        # 21 stands automatically; a bust hand has nothing left to decide.
        legal &= {STAND}
    if hand.n_cards != 2:
        legal -= FIRST_ACTIONS
    if rules.surrender == "off":
        legal.discard(SURRENDER)
    if not rules.may_double_on(hand.total) or (is_split_hand and not rules.double_after_split):
        legal.discard(DOUBLE)
    return frozenset(legal)


def _cell(hand: _Hand, rules: StrategyRules) -> str:
    chart = chart_for(rules)
    column = _COLUMN_INDEX[hand.column]
    if hand.pair is not None:
        code = chart.pairs[hand.pair][column]
    else:
        code = (chart.soft if hand.soft else chart.hard)[min(hand.total, 21)][column]
    return _no_hole_card(code, hand) if not rules.dealer_peek else code


def _total_cell(hand: _Hand, rules: StrategyRules) -> str:
    """The chart cell for the hand played by its total, ignoring that it is a pair."""
    return _cell(_Hand(hand.total, hand.soft, None, hand.column, hand.n_cards), rules)


def _no_hole_card(code: str, hand: _Hand) -> str:
    # Without a peek a dealer blackjack takes doubled and split money too, so the
    # extra bet is not put out against a ten or an ace (see the module docstring).
    if hand.column not in ("T", "A"):
        return code
    if code == "D":
        return "H"
    if code == "Ds":
        return "S"
    if code.startswith("P") and (hand.column == "A" or hand.pair == "8"):
        return BY_TOTAL
    return code


# Preferences per code, best first; BY_TOTAL means "play the hand by its total instead".
BY_TOTAL = "by_total"
_PREFERENCES: dict[str, tuple[str, ...]] = {
    "H": (HIT,),
    "S": (STAND,),
    "D": (DOUBLE, HIT),
    "Ds": (DOUBLE, STAND),
    "P": (SPLIT, BY_TOTAL),
    "Ph": (SPLIT, BY_TOTAL),
    "Pd": (SPLIT, BY_TOTAL),
    "Ps": (SPLIT, BY_TOTAL),
    "Rh": (SURRENDER, HIT),
    "Rs": (SURRENDER, STAND),
    "Rp": (SURRENDER, SPLIT, BY_TOTAL),
    BY_TOTAL: (BY_TOTAL,),
}
_NEEDS_DAS = frozenset({"Ph", "Pd", "Ps"})


def _resolve(
    code: str, hand: _Hand, rules: StrategyRules, legal: frozenset[str]
) -> tuple[str, str | None]:
    """(action, the better action that was not available or None)."""
    wanted: str | None = None
    for choice in _PREFERENCES[code]:
        if choice == BY_TOTAL:
            action, deeper = _resolve(_total_cell(hand, rules), hand, rules, legal)
            return action, wanted or deeper
        if choice == SPLIT and code in _NEEDS_DAS and not rules.double_after_split:
            continue  # the chart splits here only because of doubling after the split
        if choice in legal:
            return choice, wanted
        wanted = wanted or choice
    return _last_resort(legal), wanted


def _last_resort(legal: frozenset[str]) -> str:
    # Only reached when the engine offers none of the chart's choices (e.g. hit is
    # unavailable); standing is always the safe default, then any legal action.
    for action in (STAND, HIT, SURRENDER, DOUBLE, SPLIT):
        if action in legal:
            return action
    raise AssertionError("unreachable: legal is never empty here")


# --------------------------------------------------------------------------- Charlie
# Infinite-deck dealer outcomes: exact enough to compare hit and stand one card short
# of a Charlie, where the charts (which assume no Charlie) are wrong.

_CARD_PROBABILITY = {value: (4 if value == 10 else 1) / 13 for value in range(1, 11)}
_UPCARD_VALUE = {label: {"T": 10, "A": 1}.get(label) or int(label) for label in COLUMNS}


def _dealer_stands(hard: int, has_ace: bool, rule: str) -> bool:
    best, soft = soften(hard, has_ace)
    line = 17 if rule.endswith("17") else 16
    if best > line:
        return True
    if best == line:
        return not (soft and rule.startswith("H"))
    return False


@lru_cache(maxsize=256)
def dealer_outcomes(
    upcard: str, rule: str, charlie: int | None, peek: bool
) -> tuple[tuple[str, float], ...]:
    """Probabilities of the dealer's final hand: "16".."21", "bust", "charlie", "natural".

    ``upcard`` is a chart column ("2".."9", "T", "A"); ``rule`` a ``dealer_stands_on`` value.

    With ``peek`` the dealer is known not to hold a natural (R-4.7), so hole cards
    that would make one are excluded and the rest renormalised.
    """
    up = _UPCARD_VALUE[upcard]
    result: dict[str, float] = {}
    for hole, p_hole in _CARD_PROBABILITY.items():
        if {up, hole} == {1, 10}:
            if not peek:
                result["natural"] = result.get("natural", 0.0) + p_hole
            continue
        _dealer_draw(up + hole, 1 in (up, hole), 2, p_hole, rule, charlie, result)
    norm = sum(result.values())
    return tuple(sorted((k, v / norm) for k, v in result.items()))


def _dealer_draw(
    hard: int,
    has_ace: bool,
    n: int,
    p: float,
    rule: str,
    charlie: int | None,
    out: dict[str, float],
) -> None:
    if hard > 21:
        key = "bust"
    elif charlie is not None and n >= charlie:
        key = "charlie"
    elif _dealer_stands(hard, has_ace, rule):
        key = str(soften(hard, has_ace)[0])
    else:
        for value, p_card in _CARD_PROBABILITY.items():
            _dealer_draw(hard + value, has_ace or value == 1, n + 1, p * p_card, rule, charlie, out)
        return
    out[key] = out.get(key, 0.0) + p


def _stand_ev(total: int, column: str, rules: StrategyRules) -> float:
    """Expected result of standing on ``total`` against an upcard column (infinite deck)."""
    ev = 0.0
    outcomes = dealer_outcomes(column, rules.dealer_stands_on, rules.charlie, rules.dealer_peek)
    for outcome, p in outcomes:
        if outcome == "bust":
            ev += p
        elif outcome in ("charlie", "natural"):
            ev -= p
        else:
            dealer = int(outcome)
            ev += p * ((total > dealer) - (total < dealer))
    return ev


def _charlie_hit(hand: _Hand, rules: StrategyRules, legal: frozenset[str]) -> bool:
    """One card short of a Charlie, is hitting (win unless bust) worth more than standing?"""
    if rules.charlie is None or hand.n_cards != rules.charlie - 1 or HIT not in legal:
        return False
    if hand.soft:
        return True  # no card busts a soft hand: the Charlie is certain
    p_safe = sum(p for value, p in _CARD_PROBABILITY.items() if hand.total + value <= 21)
    return 2 * p_safe - 1 > _stand_ev(hand.total, hand.column, rules)


# --------------------------------------------------------------------------- reasons

_UNAVAILABLE = {
    DOUBLE: "Doubling would be better, but it is not allowed here.",
    SPLIT: "Splitting would be better, but it is not allowed here.",
    SURRENDER: "Surrendering would be better, but it is not allowed here.",
    HIT: "Hitting would be better, but it is not allowed here.",
    STAND: "Standing would be better, but it is not allowed here.",
}
_WEAK = frozenset("23456")


def _upcard_name(column: str) -> str:
    if column == "T":
        return "a 10"
    if column == "A":
        return "an ace"
    return f"an {column}" if column == "8" else f"a {column}"


def _hand_name(hand: _Hand) -> str:
    return f"soft {hand.total}" if hand.soft else str(hand.total)


def _reason(action: str, hand: _Hand, wanted: str | None, rules: StrategyRules) -> str:
    base = _REASONS[action](hand, rules)
    if not rules.dealer_peek and hand.column in ("T", "A") and action in (HIT, STAND):
        base += " (No hole card: extra money against a 10 or an ace is lost to a blackjack.)"
    return f"{base} {_UNAVAILABLE[wanted]}" if wanted else base


def _split_reason(hand: _Hand, rules: StrategyRules) -> str:
    up = _upcard_name(hand.column)
    if hand.pair == "A":
        return "Always split aces: two hands starting at 11 are far better than one soft 12."
    if hand.pair == "8":
        return "Always split 8s: 16 is the worst hand, two hands starting at 8 do better."
    if hand.pair == "9":
        return f"Split 9s against {up}: two hands starting at 9 win more than standing on 18."
    start = hand.pair or ""
    das = ", with doubling after the split," if rules.double_after_split and start in "2346" else ""
    return (
        f"Split {start}s against {up}: here{das} two hands starting at {start} "
        f"do better than one {hand.total}."
    )


def _double_reason(hand: _Hand, rules: StrategyRules) -> str:
    up = _upcard_name(hand.column)
    if hand.soft:
        return (
            f"Double soft {hand.total} against {up}: the dealer is likely to bust, "
            "and one card cannot bust you."
        )
    if hand.column in _WEAK:
        return (
            f"Double {hand.total} against {up}: the dealer is likely to bust "
            "and you likely draw a ten."
        )
    return (
        f"Double {hand.total} against {up}: you are the favourite, "
        "and one card often makes 19 to 21."
    )


def _hit_reason(hand: _Hand, rules: StrategyRules) -> str:
    up = _upcard_name(hand.column)
    if hand.soft:
        return (
            f"Hit soft {hand.total} against {up}: it is too weak to stand on, "
            "and one card cannot bust you."
        )
    if hand.total <= 11:
        return f"Hit {hand.total}: no card can bust you."
    if hand.total == 12 and hand.column in _WEAK:
        return (
            f"Hit 12 against {up}: only a ten busts you, and the dealer busts too rarely to stand."
        )
    return (
        f"Hit {hand.total} against {up}: the dealer will likely make 17 or more, "
        "so standing usually loses."
    )


def _stand_reason(hand: _Hand, rules: StrategyRules) -> str:
    up = _upcard_name(hand.column)
    if hand.pair == "T" or (hand.pair is None and not hand.soft and hand.total == 20):
        return "Stand on 20: it wins most of the time, never break it up."
    if hand.pair == "9":
        return f"Stand on 18 against {up}: splitting 9s here costs more than it wins."
    if hand.soft:
        return f"Stand on soft {hand.total} against {up}: it is already a strong hand."
    if hand.total >= 17:
        return f"Stand on {hand.total}: the risk of busting outweighs what a card could gain."
    return f"Stand on {hand.total} against {up}: let the dealer take the risk of busting."


def _surrender_reason(hand: _Hand, rules: StrategyRules) -> str:
    up = _upcard_name(hand.column)
    what = "a pair of 8s" if hand.pair == "8" else _hand_name(hand)
    return (
        f"Surrender {what} against {up}: this hand loses more than half the bet on "
        "average, so take half back."
    )


def _charlie_reason(hand: _Hand, rules: StrategyRules) -> str:
    return (
        f"Hit {_hand_name(hand)}: one more card without busting makes a "
        f"{rules.charlie}-card Charlie, which wins."
    )


_REASONS = {
    HIT: _hit_reason,
    STAND: _stand_reason,
    DOUBLE: _double_reason,
    SPLIT: _split_reason,
    SURRENDER: _surrender_reason,
}
