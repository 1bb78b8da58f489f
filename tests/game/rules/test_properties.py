"""Hypothesis properties over random option sets, bets and action sequences."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules import sidebets as sb
from game.rules.engine import Engine
from game.rules.hands import dealer_must_hit
from game.rules.options import Options
from game.rules.public import HiddenDealer, PublicGame, RevealedDealer, public_view
from game.rules.records import ALL_ACTIONS, ALLOWED, IllegalAction, TriviaOutcome
from game.rules.replay import apply_action
from game.rules.shoe import Shoe
from game.rules.storage import game_from_json, game_to_json

OPTION_VALUES = {
    "trivia_mode": st.booleans(),
    "side_bets": st.booleans(),
    "blackjack_payout": st.sampled_from(["3:2", "2:1", "6:5"]),
    "dealer_stands_on": st.sampled_from(["S17", "H17", "S16", "H16"]),
    "deck_count": st.one_of(st.integers(1, 8), st.just("infinite")),
    "reshuffle": st.sampled_from(["cut_card", "every_round", "when_empty"]),
    "charlie": st.sampled_from([5, 7, "off"]),
    "split_any_ten": st.booleans(),
    "double_after_split": st.booleans(),
    "max_splits": st.integers(1, 3),
    "max_ace_splits": st.integers(0, 3),
    "double_after_split_aces": st.booleans(),
    "one_card_after_split_aces": st.booleans(),
    "simple": st.booleans(),
    "inverted": st.booleans(),
    "surrender": st.sampled_from(["late", "early", "early_non_ace", "off"]),
    "insurance": st.booleans(),
    "even_money": st.booleans(),
    "dealer_peek": st.booleans(),
    "double_on": st.sampled_from(["any", "9-11", "10-11"]),
    "seats": st.integers(1, 3),  # §10 Extensions: up to three boxes
}
# The old split keys of saved games (RULES.md §10 Decision), drawn instead of the new ones.
LEGACY_SPLIT_VALUES = {
    "split_aces": st.booleans(),
    "resplit": st.booleans(),
    "resplit_aces": st.booleans(),
}
_NEW_SPLIT_KEYS = ("max_splits", "max_ace_splits")
options_strategy = st.one_of(
    st.fixed_dictionaries({}, optional=OPTION_VALUES),
    st.fixed_dictionaries(
        {},
        optional={
            **{k: v for k, v in OPTION_VALUES.items() if k not in _NEW_SPLIT_KEYS},
            **LEGACY_SPLIT_VALUES,
        },
    ),
)


def _do(game: Engine, action: str, rng: random.Random) -> list[dict]:
    if action in ("hit", "double"):
        trivia = None
        if game.options.trivia_mode:
            trivia = TriviaOutcome(rng.choice(["easy", "medium", "hard"]), rng.random() < 0.7)
        return getattr(game, action)(trivia)
    if action == "extra_bet":
        low, high = game.extra_bet_limits()
        return game.place_extra_bet(rng.randint(low, high))
    return apply_action(game, action)


def _side_bets(rng: random.Random, options: Options) -> tuple[dict[str, int], bool]:
    if not options.side_bets or options.simple:  # simple: no side bets (§10 Extensions)
        return {}, False
    stakes = {name: rng.choice([0, 100, 250]) for name in sb.STAKED_SIDE_BETS}
    return stakes, rng.random() < 0.5


def start(game: Engine, bets: list[tuple[int, dict[str, int], bool]]) -> list[dict]:
    """Deal with one (bet, side stakes, extra bet) per box: the one-box call for one seat
    (as the web layer makes it), start_round(boxes=...) for several."""
    if len(bets) == 1:
        bet, stakes, extra = bets[0]
        return game.start_round(bet, stakes, extra_bet=extra)
    return game.start_round(boxes=bets)


def _insurances(round_) -> list[dict]:
    return [box.insurance for box in round_.boxes if box.insurance is not None]


def _check_round_ledger(game: Engine) -> None:
    round_ = game.round
    hands_staked = sum(hand.bet for hand in round_.hands)
    parlayed = sum(r["parlayed"] for r in round_.side_bets)
    insurance = sum(taken["stake"] for taken in _insurances(round_))
    side_staked = sum(r["stake"] + r["fee"] for r in round_.side_bets)
    assert round_.staked == hands_staked - parlayed + insurance + side_staked
    paid = sum(hand.winnings for hand in round_.hands)
    paid += sum(taken["winnings"] for taken in _insurances(round_))
    paid += sum(r["winnings"] for r in round_.side_bets)
    assert round_.paid == paid
    assert game.bank == round_.bank_before - round_.staked + round_.paid
    assert round_.money_in_play() == 0


def _check_dealer(game: Engine) -> None:
    round_ = game.round
    dealer = round_.dealer
    limit = game.options.charlie_limit
    if len(dealer) > 2:
        # The dealer drew: every card but the last was drawn by rule, and it stopped by rule.
        assert all(
            dealer_must_hit(dealer[:n], game.options.dealer_stands_on, limit)
            for n in range(2, len(dealer))
        )
        assert not dealer_must_hit(dealer, game.options.dealer_stands_on, limit)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=options_strategy, seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(options: dict, seed: int) -> None:
    rng = random.Random(seed)
    parsed = Options.from_dict(options)
    game = Engine(parsed, rng=random.Random(seed + 1))
    limit = parsed.charlie_limit
    for _ in range(6):
        if game.game_over:
            break
        bets = []
        for _box in range(parsed.seats):
            stakes, extra = _side_bets(rng, parsed)
            bets.append((rng.choice([100, 500, 1000, 5000]), stakes, extra))
        try:
            start(game, bets)
        except IllegalAction:
            # Refused (the bank, R-1.4): nothing changed; the minimum on every box.
            assert game.round is None or game.round.over
            start(game, [(parsed.min_bet, {}, False)] * parsed.seats)
        steps = 0
        while game.round_in_progress:
            steps += 1
            assert steps < 200
            legal = game.legal_actions()
            assert set(legal) == set(ALL_ACTIONS)
            allowed = [name for name, why in legal.items() if why == ALLOWED]
            assert allowed, game.round.phase
            refused = [name for name, why in legal.items() if why != ALLOWED]
            if refused and rng.random() < 0.2:
                # A refused action raises and changes nothing.
                before = game_to_json(game)
                name = rng.choice(refused)
                try:
                    _do(game, name, rng)
                except IllegalAction:
                    pass
                else:  # pragma: no cover - would be a bug
                    raise AssertionError(f"{name} was refused but went ahead")
                assert game_to_json(game) == before
            _do(game, rng.choice(allowed), rng)  # an offered action never fails
            round_ = game.round
            assert game.bank >= 0  # inverted too: the bank stops at zero
            assert game.bank == round_.bank_before - round_.staked + round_.paid
            if parsed.simple:  # Hit and Stand only, no offers (RULES.md §10 Extensions)
                assert set(allowed) <= {"hit", "stand", "roll"}
            for hand in round_.hands:
                if limit is not None:
                    assert len(hand.cards) <= limit
            # Hands box by box, left to right; each box's splits its own.
            boxes = [hand.box for hand in round_.hands]
            assert boxes == sorted(boxes) and set(boxes) == set(range(parsed.seats))
            for box in range(parsed.seats):
                hands = [hand for hand in round_.hands if hand.box == box]
                assert len(hands) <= 4
                first = hands[0].cards[0] if hands[0].cards else ""
                splits = parsed.max_ace_splits if first.startswith("A") else parsed.max_splits
                assert len(hands) <= 1 + (0 if parsed.simple else splits)
            if parsed.infinite_decks:
                assert public_view(game).cards_in_shoe is None
            # The stored state round-trips exactly through JSON at every step.
            data = json.loads(json.dumps(game_to_json(game)))
            assert game_to_json(game_from_json(data)) == game_to_json(game)
        _check_round_ledger(game)
        _check_dealer(game)
        if limit is not None:
            assert len(game.round.dealer) <= limit


@settings(max_examples=100, deadline=None)
@given(options=options_strategy, seed=st.integers(0, 2**32 - 1))
def test_nothing_visible_depends_on_the_hole_card(options: dict, seed: int) -> None:
    """Two games identical but for the hole card look the same until it is revealed."""
    rng = random.Random(seed)
    parsed = Options.from_dict({**options, "dealer_peek": False})
    deck = Shoe.build(8, random.Random(seed)).cards
    seats = parsed.seats
    # per box: box 1 … box N, the hole card, box 1 … box N, the upcard.
    firsts, seconds = deck[:seats], deck[seats : 2 * seats]
    upcard, rest = deck[2 * seats], deck[2 * seats + 1 :]
    # Two games identical but for the hole card; neither hole card can make a natural.
    games = [
        Engine(
            parsed,
            rng=random.Random(seed),
            shoe=Shoe([*firsts, hole, *seconds, upcard, *rest], 8),
        )
        for hole in ("4H", "9C")
    ]
    bets = []
    for _box in range(seats):
        stakes, extra = _side_bets(rng, parsed)
        bets.append((1000, stakes, extra))
    views = []
    for game in games:
        events = start(game, bets)
        views.append((events, public_view(game)))
    assert games[0].round.dealer[0] != games[1].round.dealer[0]
    while all(g.round_in_progress and not g.round.hole_revealed for g in games):
        assert _scrub(views[0]) == _scrub(views[1])
        allowed = games[0].allowed_actions()
        assert allowed == games[1].allowed_actions()
        action = rng.choice(allowed)
        state = rng.getstate()
        views = []
        for game in games:
            rng.setstate(state)
            events = _do(game, action, rng)
            if game.round.hole_revealed:
                break
            views.append((events, public_view(game)))
        if len(views) < 2:
            break


def _scrub(view: tuple[list[dict], PublicGame]) -> str:
    events, public = view
    public = public.to_dict()
    public.pop("cards_in_shoe")
    return json.dumps([events, public], sort_keys=True)


def test_public_dealer_hides_hole_card_until_reveal() -> None:
    game = Engine(Options.from_dict({"trivia_mode": False}), rng=random.Random(3))
    for _ in range(200):
        if game.game_over:
            break
        events = game.start_round(100)
        while True:
            shown = public_view(game).round
            assert shown is not None
            dealer = shown.dealer
            if not game.round.hole_revealed:
                assert isinstance(dealer, HiddenDealer) and not dealer.hole_revealed
                assert dealer.cards[0] is None and "total" not in dealer.to_dict()
                hole_events = [e for e in events if e.get("to") == "dealer" and "card" not in e]
                assert all(e["face_down"] for e in hole_events)
                assert "hole_card_revealed" not in [e["type"] for e in events]
            else:
                assert isinstance(dealer, RevealedDealer) and dealer.hole_revealed
                assert list(dealer.cards) == game.round.dealer
            if not game.round_in_progress:
                break
            events = apply_action(game, game.allowed_actions()[0])
