"""Side bets never change the base game's outcome, except through parlay and the extra bet.

The same shoe is played twice with the same base decisions: once with every staked side
bet on the table, once with none. Hands, dealer and base-bet winnings must be identical.
House Money is collected (a parlay would move money onto hand 1 by design) and Extra Bet
Blackjack is not activated, so the two exceptions the rules allow are kept out.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules import sidebets as sb
from game.rules.engine import Engine
from game.rules.options import Options
from game.rules.records import ALLOWED, TriviaOutcome
from game.rules.replay import apply_action, round_record
from game.rules.shoe import Shoe
from tests.game.rules.test_properties import options_strategy, start

# Only the actions the base game has; side-bet prompts are answered separately.
SIDE_BET_PROMPTS = {"roll", "parlay:collect", "parlay:bet", "parlay:winnings", "parlay:all"}
BIG_BANK = {"starting_bank": "1000000.00"}  # never the reason an action is refused


def _base_outcome(game: Engine) -> dict:
    record = round_record(game.round)
    return {
        "dealer": record["dealer"],
        "hands": record["hands"],
        "insurance": record["insurance"],
        "credits_change": record["credits_change"],
    }


def _play(game: Engine, decisions: list[str], *, choose: random.Random | None) -> list[str]:
    """Play the round; pick base actions with `choose`, or replay `decisions` in order."""
    made: list[str] = []
    pending = iter(decisions)
    while game.round_in_progress:
        allowed = [name for name, why in game.legal_actions().items() if why == ALLOWED]
        prompts = [name for name in allowed if name in SIDE_BET_PROMPTS]
        if "roll" in prompts:
            game.roll()
            continue
        if prompts:
            game.parlay("collect")
            continue
        action = choose.choice(allowed) if choose else next(pending)
        made.append(action)
        if action in ("hit", "double"):
            trivia = TriviaOutcome("medium", True) if game.options.trivia_mode else None
            getattr(game, action)(trivia)
        else:
            apply_action(game, action)
    return made


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=options_strategy,
    seed=st.integers(0, 2**32 - 1),
    stake=st.sampled_from([100, 500, 2500]),
)
def test_side_bets_never_change_the_base_game(options: dict, seed: int, stake: int) -> None:
    # The simple game has no side bets at all (RULES.md §10 Extensions).
    parsed = Options.from_dict({**options, **BIG_BANK, "side_bets": True, "simple": False})
    cards = Shoe.build(8, random.Random(seed)).cards
    with_side_bets = Engine(parsed, rng=random.Random(seed), shoe=Shoe(list(cards), 8))
    without = Engine(parsed, rng=random.Random(seed), shoe=Shoe(list(cards), 8))

    # Every box (seats) with every staked side bet, against the same boxes with none.
    start(with_side_bets, [(1000, dict.fromkeys(sb.STAKED_SIDE_BETS, stake), False)] * parsed.seats)
    decisions = _play(with_side_bets, [], choose=random.Random(seed))
    start(without, [(1000, {}, False)] * parsed.seats)
    _play(without, decisions, choose=None)

    assert _base_outcome(with_side_bets) == _base_outcome(without)
    assert round_record(with_side_bets.round)["side_bets"], "side bets were placed and reported"
