"""The house-edge simulator: basic strategy played through the real engine.

Every round goes through :class:`game.rules.engine.Engine` exactly as in play — same
phases, same legality checks, same settlement — with trivia off, no side bets and a
flat bet of the table minimum on every box (``seats``, §10 Extensions: each box plays
basic strategy hand by hand, as one box does, and the edge is per unit staked at the
deal). Decisions come from :mod:`game.rules.strategy` for the active options, choosing
among the actions the engine reports as legal. The inverted game (§10 Extensions) is
played by its own strategy, :func:`~game.rules.strategy.inverted_action` (play to lose),
and the engine negates every result at settlement, so its figure is that game's own
edge, not the normal game's negated. Insurance and even money are declined; an
early-surrender offer is taken only when the chart says surrender. The shoe is rebuilt as
the ``reshuffle`` option says (R-2.2 by default), or never with infinite decks, as in
play; every option of RULES.md §10 plays as in a game.

The bank is set to :data:`SIMULATION_BANK` (half the R-1.4a ceiling, $500 million) before
every round. A round risks at most 8 bets a box (24 with three boxes), so every double
and split is always affordable, the game never ends, no payout reaches the ceiling, and
the bank never influences a decision: it cannot bias the result. The round's own money
(staked and paid) is tallied.

Rounds are cut into chunks of :data:`CHUNK_ROUNDS`; chunk ``i`` plays a fresh game with
its own generator seeded from ``(seed, i)``. The result therefore depends only on the
seed and the number of rounds — not on how many worker processes share the chunks —
and chunk tallies are integers, so they combine exactly.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from game.rules.engine import (
    PLAY_DOUBLE,
    PLAY_HIT,
    PLAY_SPLIT,
    PLAY_STAND,
    PLAY_SURRENDER,
    Engine,
)
from game.rules.money import MAX_AMOUNT_CENTS
from game.rules.options import Options
from game.rules.records import (
    EARLY_SURRENDER,
    EVEN_MONEY,
    INSURANCE,
    PLAY_ACTIONS,
    PLAYER_TURN,
    PUSH,
    ROUND_OVER,
    BoxBet,
)
from game.rules.rng import derive_seed, seeded_rng
from game.rules.shoe import Rng
from game.rules.strategy import ACTIONS, SURRENDER, StrategyRules, best_action

# A rule set whose house edge is published, to check the simulator against: 6 decks, S17,
# double after split, resplit to 4 hands, split aces once with one card each, no
# surrender, peek, 3:2, no Charlie. The benchmark and the tests use this one definition.
REFERENCE_RULES: dict[str, Any] = {
    "deck_count": 6,
    "dealer_stands_on": "S17",
    "double_after_split": True,
    "max_splits": 3,
    "max_ace_splits": 1,
    "one_card_after_split_aces": True,
    "surrender": "off",
    "dealer_peek": True,
    "blackjack_payout": "3:2",
    "charlie": "off",
}
SIMULATION_BANK = MAX_AMOUNT_CENTS // 2  # cents: see the module docstring
CHUNK_ROUNDS = 25_000
# What the simulator always plays, whatever options it is given: the house edge of
# the blackjack alone, without trivia or side bets.
FORCED_OPTIONS: dict[str, Any] = {"trivia_mode": False, "side_bets": False}
# Before the peek the engine cannot say which first actions will be legal; the chart
# only answers "surrender" when surrender is what it wants most, so offer all five.
_EARLY_SURRENDER_CHOICES = frozenset(ACTIONS)
# A play action's index in PLAY_ACTIONS (the engine's PLAY_* numbers), by name.
_PLAY_NUMBER: Final = {name: index for index, name in enumerate(PLAY_ACTIONS)}


@dataclass(frozen=True, slots=True)
class Tally:
    """Integer sums over rounds; adding two tallies is exact (worker results combine)."""

    rounds: int = 0
    bet: int = 0  # cents staked at the deal: the flat bet on every box (equal in every chunk)
    net: int = 0  # sum of (paid - staked) in cents: the player's result
    net_squared: int = 0  # sum of squares, for the standard error
    naturals: int = 0  # rounds where the player (box 1 under seats) was dealt a natural
    dealer_busts: int = 0  # rounds where the dealer drew and busted
    pushes: int = 0  # rounds whose net result was zero: the stake came back

    def __add__(self, other: Tally) -> Tally:
        if self.rounds and other.rounds and self.bet != other.bet:
            raise ValueError("cannot combine tallies of different bets")
        return Tally(
            self.rounds + other.rounds,
            self.bet or other.bet,
            self.net + other.net,
            self.net_squared + other.net_squared,
            self.naturals + other.naturals,
            self.dealer_busts + other.dealer_busts,
            self.pushes + other.pushes,
        )

    def figures(self) -> tuple[int, ...]:
        """The sums as plain integers, field by field (for pickling and comparing)."""
        return (
            self.rounds,
            self.bet,
            self.net,
            self.net_squared,
            self.naturals,
            self.dealer_busts,
            self.pushes,
        )


@dataclass(frozen=True, slots=True)
class SimulationReport:
    """The figures of one simulation run; ``to_json`` has their exact keys."""

    rounds: int
    house_edge_pct: float
    stderr_pct: float
    rounds_per_sec: float
    player_natural_pct: float
    dealer_bust_pct: float
    push_pct: float

    def to_json(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "house_edge_pct": self.house_edge_pct,
            "stderr_pct": self.stderr_pct,
            "rounds_per_sec": self.rounds_per_sec,
            "player_natural_pct": self.player_natural_pct,
            "dealer_bust_pct": self.dealer_bust_pct,
            "push_pct": self.push_pct,
        }


def simulation_options(options: Options | Mapping[str, Any] | None = None) -> Options:
    """The table's options with trivia and side bets switched off."""
    data = options.to_dict() if isinstance(options, Options) else dict(options or {})
    data.update(FORCED_OPTIONS)
    return Options.from_dict(data)


def play_rounds(options: Options, rounds: int, rng: Rng) -> Tally:
    """Play ``rounds`` rounds of a fresh game with ``rng``; the hot loop of the simulator."""
    game = Engine(options, rng=rng, bank=SIMULATION_BANK, record_events=False)
    rules, decisions = _strategy(options)
    bet = options.min_bet
    seats = options.seats
    # Several boxes (§10 Extensions): the same flat bet on each, no side bets.
    boxes = [BoxBet(bet) for _ in range(seats)]
    net_sum = net_squared = naturals = dealer_busts = pushes = 0
    # A round leaves no reference cycle behind (reference counting frees it), so the
    # cyclic collector would only scan the live objects again and again; it is back on
    # when the chunk is done.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for _ in range(rounds):
            game.bank = SIMULATION_BANK
            if seats == 1:
                game.start_round(bet)
            else:
                game.start_round(boxes=boxes)
            round_ = game.round
            assert round_ is not None
            while True:
                phase = round_.phase
                if phase == PLAYER_TURN:
                    hand = round_.hands[round_.current]
                    cards = hand.cards
                    mask = game.play_mask()
                    # The memo's key: both ranks of a two-card hand, else its total,
                    # softness and card count; the upcard's rank, the legal actions and
                    # whether the hand is a split hand: as fine as best_action's own key
                    # (so the answers are the same), and a plain int, quick to hash.
                    if len(cards) == 2:
                        key = ord(cards[0][0]) << 7 | ord(cards[1][0])
                    else:
                        total, soft = hand.total()
                        key = (total << 1 | soft) << 5 | len(cards) | 1 << 20
                    key = ((key << 7 | ord(round_.dealer[1][0])) << 5 | mask) << 1 | hand.split
                    play = decisions.get(key, -1)
                    if play < 0:
                        action = best_action(
                            cards,
                            round_.dealer[1],
                            rules=rules,
                            allowed=game.play_actions(),
                            is_split_hand=hand.split,
                        )
                        play = decisions[key] = _PLAY_NUMBER[action]
                    # Called directly, not through a table: see Game._advance.
                    if play == PLAY_STAND:
                        game.stand()
                    elif play == PLAY_HIT:
                        game.hit()
                    elif play == PLAY_DOUBLE:
                        game.double()
                    elif play == PLAY_SPLIT:
                        game.split()
                    else:
                        assert play == PLAY_SURRENDER
                        game.surrender()
                elif phase == ROUND_OVER:
                    break
                else:
                    _answer_offer(game, phase, rules)
            net = round_.paid - round_.staked
            net_sum += net
            net_squared += net * net
            if net == 0:
                pushes += 1
            # Box 1's hand 1 (every box is dealt alike, so box 1 stands for them all).
            first = round_.hands[0]
            if first.how == "natural" or (first.result == PUSH and first.how == "dealer_natural"):
                naturals += 1
            if round_.dealer_result == "bust":
                dealer_busts += 1
    finally:
        if collecting:
            gc.enable()
    # The house edge is per unit staked at the deal: the bets of every box.
    return Tally(rounds, bet * seats, net_sum, net_squared, naturals, dealer_busts, pushes)


Decisions = dict[int, int]  # play_rounds' memo key -> PLAY_* number
_STRATEGIES: dict[Options, tuple[StrategyRules, Decisions]] = {}


def _strategy(options: Options) -> tuple[StrategyRules, Decisions]:
    """The strategy rules for ``options`` and the simulator's memo of decisions, kept for
    the process: every chunk of a run would otherwise fill both again from cold.

    The memo holds best_action's answers on a key cheaper to build than its own (see
    play_rounds): at least as fine as best_action's key, so the answers are the same.
    """
    found = _STRATEGIES.get(options)
    if found is None:
        if len(_STRATEGIES) >= 256:
            _STRATEGIES.clear()  # a table run visits 128 rule sets; never thrashes
        found = _STRATEGIES[options] = (StrategyRules.from_options(options.to_dict()), {})
    return found


def _answer_offer(game: Engine, phase: str, rules: StrategyRules) -> None:
    """Insurance and even money: never. Early surrender: when the chart surrenders."""
    if phase in (INSURANCE, EVEN_MONEY):
        game.answer_offer(phase, False)
        return
    if phase == EARLY_SURRENDER:
        round_ = game.round
        assert round_ is not None
        wanted = best_action(
            # The box the offer is made to; before any split its hand is hand offer_box.
            round_.hands[round_.offer_box].cards,
            round_.dealer[1],
            rules=rules,
            allowed=_EARLY_SURRENDER_CHOICES,
        )
        game.answer_offer("early_surrender", wanted == SURRENDER)
        return
    raise RuntimeError(f"the simulator cannot play phase {phase!r}")  # pragma: no cover


def chunk_plan(rounds: int, chunk_rounds: int = CHUNK_ROUNDS) -> list[tuple[int, int]]:
    """[(chunk number, rounds in it)] covering ``rounds``."""
    if rounds < 1 or chunk_rounds < 1:
        raise ValueError("rounds and chunk_rounds must be at least 1")
    return [
        (index, min(chunk_rounds, rounds - start))
        for index, start in enumerate(range(0, rounds, chunk_rounds))
    ]


def play_chunk(task: tuple[dict[str, Any], int, int, int]) -> Tally:
    """One chunk: (options as JSON, seed, chunk number, rounds)."""
    options_json, seed, index, rounds = task
    options = Options.from_dict(options_json)
    return play_rounds(options, rounds, seeded_rng(derive_seed(seed, index)))


def _play_chunk_in_worker(task: tuple[dict[str, Any], int, int, int]) -> tuple[int, ...]:
    # A worker sends plain integers back: a compiled (mypyc) Tally does not unpickle.
    return play_chunk(task).figures()


def simulate(
    rounds: int,
    options: Options | Mapping[str, Any] | None = None,
    *,
    seed: int = 0,
    workers: int = 1,
    chunk_rounds: int = CHUNK_ROUNDS,
) -> SimulationReport:
    """Play ``rounds`` rounds (trivia off, no side bets) and report the house edge.

    The figures depend on ``seed``, ``rounds`` and ``chunk_rounds`` only; ``workers``
    changes the speed, never the result.
    """
    if workers < 1:
        raise ValueError("workers must be at least 1")
    chosen = simulation_options(options)
    options_json = chosen.to_dict()
    plan = chunk_plan(rounds, chunk_rounds)
    tasks = [(options_json, seed, index, size) for index, size in plan]
    started = time.perf_counter()
    tallies = _run(tasks, workers)
    elapsed = time.perf_counter() - started
    total = sum(tallies, Tally())
    return report(total, elapsed)


def _run(tasks: list[tuple[dict[str, Any], int, int, int]], workers: int) -> Iterable[Tally]:
    workers = min(workers, len(tasks))
    if workers == 1:
        return [play_chunk(task) for task in tasks]
    import multiprocessing  # only a run with workers needs it

    # fork: workers inherit the imported engine (and Django's settings under manage.py).
    context = multiprocessing.get_context("fork")
    with context.Pool(workers) as pool:
        return [Tally(*sums) for sums in pool.map(_play_chunk_in_worker, tasks, chunksize=1)]


def report(tally: Tally, elapsed: float) -> SimulationReport:
    """Percentages from a tally: the house edge is the mean loss per initial bet."""
    n = tally.rounds
    unit = tally.bet
    mean = tally.net / n
    # Sample variance from the integer sums: the numerator is exact.
    variance = (n * tally.net_squared - tally.net * tally.net) / (n * max(n - 1, 1))
    return SimulationReport(
        rounds=n,
        house_edge_pct=round(-100 * mean / unit, 4),
        stderr_pct=round(100 * math.sqrt(variance / n) / unit, 4),
        rounds_per_sec=round(n / elapsed, 1) if elapsed > 0 else 0.0,
        player_natural_pct=round(100 * tally.naturals / n, 4),
        dealer_bust_pct=round(100 * tally.dealer_busts / n, 4),
        push_pct=round(100 * tally.pushes / n, 4),
    )
