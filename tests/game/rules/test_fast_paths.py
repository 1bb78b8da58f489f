"""The engine's and the simulator's fast paths give exactly what the plain definitions give.

The simulator's speed comes from shortcuts: a memo of strategy decisions on an
int key, actions called by number, a shuffle and a Jackpot-Ace marking without per-card
Python work, the play actions as a bit mask, and an optional mypyc build of the same
sources. Each test here plays or computes the plain way and the fast way and asks for
the same answer, to the cent and to the card.
"""

from __future__ import annotations

import io
import json
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from game.rules import accelerated
from game.rules.cards import standard_deck
from game.rules.engine import (
    PLAY_DOUBLE,
    PLAY_HIT,
    PLAY_SPLIT,
    PLAY_STAND,
    PLAY_SURRENDER,
    Engine,
)
from game.rules.options import Options
from game.rules.public import public_view
from game.rules.records import (
    ALLOWED,
    EARLY_SURRENDER,
    PLAY_ACTIONS,
    PLAYER_TURN,
    PUSH,
    ROUND_OVER,
)
from game.rules.replay import apply_action
from game.rules.rng import SeededRng, seeded_rng
from game.rules.shoe import JACKPOT_ACE, Shoe, mark_jackpot_aces
from game.rules.simulator import (
    REFERENCE_RULES,
    SIMULATION_BANK,
    Tally,
    play_rounds,
    simulation_options,
)
from game.rules.storage import round_to_json
from game.rules.strategy import ACTIONS, SURRENDER, StrategyRules, best_action

ROOT = Path(__file__).resolve().parents[3]

# Rule sets that between them reach every branch of the simulator's loop: splits and
# resplits (aces too), doubles restricted or not, late and early surrender, no peek,
# Charlie 5 and 7, insurance off, payouts 3:2 and 6:5, 1-8 decks.
RULE_SETS: list[dict[str, Any]] = [
    {},
    REFERENCE_RULES,
    {
        "deck_count": 1,
        "dealer_stands_on": "H17",
        "surrender": "late",
        "charlie": 7,
        "double_on": "9-11",
        "split_aces": True,
        "resplit_aces": True,
        "double_after_split_aces": True,
        "blackjack_payout": "6:5",
    },
    {
        "deck_count": 2,
        "dealer_stands_on": "H16",
        "surrender": "early",
        "dealer_peek": False,
        "split_any_ten": True,
        "double_on": "10-11",
    },
    {
        "deck_count": 8,
        "dealer_stands_on": "S16",
        "surrender": "early_non_ace",
        "insurance": False,
        "even_money": False,
        "charlie": 5,
    },
    # RULES.md §10 Extensions: infinite decks, the reshuffle modes, split limits, simple,
    # inverted, and a no-hole-card game with late surrender (R-7.1a).
    {
        "deck_count": "infinite",
        "inverted": True,
        "max_splits": 2,
        "max_ace_splits": 3,
        "double_after_split": True,
    },
    {"deck_count": 1, "reshuffle": "when_empty", "simple": True, "charlie": "off"},
    {"deck_count": 2, "reshuffle": "every_round", "dealer_peek": False, "surrender": "late"},
    # seats (§10 Extensions): boxes played left to right, splits per box, offers per box.
    {"seats": 3, "max_splits": 3, "max_ace_splits": 1, "double_after_split": True},
    {"seats": 2, "deck_count": 1, "surrender": "early", "charlie": 7},
]


def _plain_play(options: Options, rounds: int, rng: SeededRng) -> Tally:
    """The simulator's rules of play, written the plain way: best_action asked at every
    decision with the legal actions as a set, the action called by its name."""
    game = Engine(options, rng=rng, bank=SIMULATION_BANK, record_events=False)
    rules = StrategyRules.from_options(options.to_dict())
    net_sum = net_squared = naturals = dealer_busts = pushes = 0
    for _ in range(rounds):
        game.bank = SIMULATION_BANK
        game.start_round(boxes=[(options.min_bet, {})] * options.seats)
        round_ = game.round
        while round_.phase != ROUND_OVER:
            if round_.phase == PLAYER_TURN:
                hand = round_.hands[round_.current]
                legal = {name for name, why in game.legal_actions().items() if why == ALLOWED}
                action = best_action(
                    hand.cards,
                    round_.upcard,
                    rules=rules,
                    allowed=legal & set(PLAY_ACTIONS),
                    is_split_hand=hand.split,
                )
                getattr(game, action)()
            elif round_.phase == EARLY_SURRENDER:
                shown = public_view(game).round
                box = (shown.current_box if shown is not None else None) or 0
                wanted = best_action(
                    round_.hands[box].cards, round_.upcard, rules=rules, allowed=set(ACTIONS)
                )
                game.answer_offer("early_surrender", wanted == SURRENDER)
            else:
                game.answer_offer(round_.phase, False)
        net = round_.paid - round_.staked
        net_sum += net
        net_squared += net * net
        pushes += net == 0
        first = round_.hands[0]
        naturals += first.how == "natural" or (
            first.result == PUSH and first.how == "dealer_natural"
        )
        dealer_busts += round_.dealer_result == "bust"
    stake = options.min_bet * options.seats
    return Tally(rounds, stake, net_sum, net_squared, naturals, dealer_busts, pushes)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: str(len(rules)))
def test_simulator_plays_as_the_plain_loop(rules: dict[str, Any]) -> None:
    options = simulation_options(rules)
    fast = play_rounds(options, 1200, seeded_rng(31))
    plain = _plain_play(options, 1200, seeded_rng(31))
    assert fast == plain
    assert fast.rounds == 1200 and fast.net != 0


def test_play_numbers_follow_play_actions() -> None:
    numbers = (PLAY_HIT, PLAY_STAND, PLAY_DOUBLE, PLAY_SPLIT, PLAY_SURRENDER)
    assert [PLAY_ACTIONS[number] for number in numbers] == [
        "hit",
        "stand",
        "double",
        "split",
        "surrender",
    ]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: str(len(rules)))
def test_play_mask_is_the_legal_play_actions(rules: dict[str, Any]) -> None:
    chooser = random.Random(5)  # picks among legal actions: reaches splits, doubles, …
    game = Engine(simulation_options(rules), rng=seeded_rng(6), bank=10**9)
    checked = 0
    for _ in range(300):
        game.start_round(boxes=[(100, {})] * game.options.seats)
        while not game.round.over:
            legal = {name for name, why in game.legal_actions().items() if why == ALLOWED}
            mask = game.play_mask()
            plays = {name for index, name in enumerate(PLAY_ACTIONS) if mask >> index & 1}
            assert plays == legal & set(PLAY_ACTIONS) == game.play_actions()
            checked += 1
            apply_action(game, chooser.choice(sorted(legal)))
        # Between rounds nothing is playable.
        assert game.play_mask() == 0 and game.play_actions() == frozenset()
    assert checked > 300


def test_seeded_shuffle_is_a_sort_by_random_keys() -> None:
    for seed in range(40):
        for count in (0, 1, 2, 52, 312, 416):
            fast, plain = list(range(count)), list(range(count))
            fast_rng, plain_rng = SeededRng(seed), SeededRng(seed)
            fast_rng.shuffle(fast)
            draw = plain_rng.random
            plain.sort(key=lambda _item: draw())
            assert fast == plain
            assert fast_rng.random() == plain_rng.random()  # the same draws were made


def test_shoe_build_marks_jackpot_aces_as_mark_jackpot_aces() -> None:
    for seed in range(25):
        for decks in range(1, 9):
            fast_rng, plain_rng = SeededRng(seed), SeededRng(seed)
            fast = Shoe.build(decks, fast_rng).cards
            plain = mark_jackpot_aces(standard_deck() * decks, plain_rng)
            plain_rng.shuffle(plain)
            assert fast == plain
            assert fast_rng.random() == plain_rng.random()


def test_mark_jackpot_aces_draws_once_per_ace_of_spades_in_order() -> None:
    source = random.Random(2)
    for seed in range(60):
        cards = standard_deck() * source.randint(1, 8) + [JACKPOT_ACE]
        source.shuffle(cards)
        cards = cards[: source.randint(0, len(cards))]
        fast_rng, plain_rng = SeededRng(seed), SeededRng(seed)
        plain = [
            JACKPOT_ACE if card == "AS" and plain_rng.randrange(6) == 0 else card for card in cards
        ]
        assert mark_jackpot_aces(cards, fast_rng) == plain
        assert fast_rng.random() == plain_rng.random()


def test_rounds_share_the_options_record_until_the_options_change() -> None:
    game = Engine(Options(trivia_mode=False, side_bets=False), rng=seeded_rng(1))
    game.start_round(100)
    first = game.round
    while not first.over:
        game.stand() if first.phase == PLAYER_TURN else game.answer_offer(first.phase, False)
    stored = round_to_json(first)["options"]
    assert stored == first.options and stored is not first.options  # stored as a copy
    game.set_options(Options(trivia_mode=False, side_bets=False, deck_count=2))
    game.start_round(100)
    assert first.options["deck_count"] == 6 and game.round.options["deck_count"] == 2


_COMPILED_TALLIES = """
import json, sys
sys.path.insert(0, {root!r})
from game.rules import accelerated
reason = accelerated.enable()
if reason is not None:
    sys.exit(reason)
from game.rules.rng import seeded_rng
from game.rules.simulator import play_rounds, simulation_options
assert accelerated.is_active()
tallies = []
for rules in json.loads(sys.argv[1]):
    t = play_rounds(simulation_options(rules), 1500, seeded_rng(17))
    tallies.append(list(t.figures()))
print(json.dumps(tallies))
"""


@pytest.mark.slow
def test_compiled_engine_plays_exactly_as_the_python_engine() -> None:
    """The mypyc build of the same sources, in a fresh interpreter, gives the same tallies.

    Builds it first (into the virtualenv, as ``make accelerated`` does) when no build
    matches the sources; skipped only where mypyc, a C compiler or the Python headers
    are missing.
    """
    if accelerated.why_unusable() is not None:
        try:
            import mypyc  # noqa: F401
        except ImportError:
            pytest.skip("mypyc is not installed (it comes with the dev extra's mypy)")
        if shutil.which("cc") is None and shutil.which("gcc") is None:
            pytest.skip("no C compiler to build the accelerated engine")
        if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
            pytest.skip("no Python headers (python3-dev) to build the accelerated engine")
        built = subprocess.run(
            [sys.executable, "bench/build_accelerated.py", "--if-needed"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    assert accelerated.why_unusable() is None
    compiled = subprocess.run(
        [sys.executable, "-c", _COMPILED_TALLIES.format(root=str(ROOT)), json.dumps(RULE_SETS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    python = []
    for rules in RULE_SETS:
        tally = play_rounds(simulation_options(rules), 1500, seeded_rng(17))
        python.append(list(tally.figures()))
    assert json.loads(compiled.stdout) == python
    # The simulate command picks the current compiled build by default; --python opts out.
    outputs = {}
    for flag in ("--accelerated", "--python", None):
        command = [sys.executable, "manage.py", "simulate", "--rounds", "3000", "--seed", "4"]
        result = subprocess.run(
            command + ([flag] if flag else []), cwd=ROOT, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stderr[-2000:]
        lines = result.stdout.splitlines()
        outputs[flag] = ([line for line in lines if not line.startswith("Speed:")], lines[-1])
    assert outputs["--python"][0] == outputs["--accelerated"][0] == outputs[None][0]
    assert "python engine" in outputs["--python"][1]
    assert "compiled (mypyc) engine" in outputs["--accelerated"][1]
    assert "compiled (mypyc) engine" in outputs[None][1]


def test_simulate_command_can_insist_on_python() -> None:
    from django.core.management import call_command

    plain, auto = io.StringIO(), io.StringIO()
    call_command("simulate", "--rounds", "400", "--seed", "3", "--json", "--python", stdout=plain)
    # In this process the engine is already imported as Python: the default falls back.
    call_command("simulate", "--rounds", "400", "--seed", "3", "--json", stdout=auto)
    figures = [json.loads(out.getvalue()) for out in (plain, auto)]
    for result in figures:
        result.pop("rounds_per_sec")
    assert figures[0] == figures[1] and figures[0]["rounds"] == 400
    assert not accelerated.is_active()
