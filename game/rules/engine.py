"""The round state machine of RULES.md §4–8 (side bets of §9 wired in at their moments).

One :class:`Engine` holds the bank, credits, options, shoe and the current (or last)
:class:`Round`. Every player action is a method that

1. checks legality with the same ``_why_not_*`` function the legal-action query
   uses, raising :class:`IllegalAction` *before* anything changes;
2. mutates the game in place (no copies on the hot path);
3. advances the round through the phases that need no input;
4. returns the list of events it produced (``[]`` when ``record_events`` is off).

Hidden information: the hole card and the shoe order live in the state (the server
keeps them, :mod:`game.rules.storage`) but never appear in the public view
(:mod:`game.rules.public`) or in an event before the hole card is turned over.

Seats (§10 Extensions): with ``seats`` N > 1 the round has N :class:`Box` es, dealt and
played left to right against one dealer hand (:meth:`Game.start_round` with ``boxes``).
Each offer stage goes box by box; hands are listed box by box, so the player's turn
simply runs on across them. Events and records of such a round name their ``box``
(1, 2, 3); the one-box game's events, state and view keep their shape.

Shared rounds (TABLES.md, :meth:`Game.start_shared_round`): 1–7 boxes, each played by its
own player with its own :class:`~game.rules.wallets.Wallet` (bank and trivia credits);
every cent and credit of a box moves in its wallet, never in ``Game.bank``/``Game.credits``.
The offer stages are open to every box concerned at once (T-7): a box may answer ahead of
its turn (:meth:`Game.answer_for_box`), the answer is kept in ``Round.answers_ahead`` and
applied when the stage reaches that box, so the outcome never depends on the order of
answers. Each offer stage that waits gets one deadline; each decision of a turn its own
(T-8).

The class is composed of its phases, one module each, which it inherits as mixins (mypyc
traits): :class:`~game.rules.betting.Betting` (the bets and the deal),
:class:`~game.rules.offers.Offers` (the offers before the player's turn),
:class:`~game.rules.decisions.Decisions` (the player's turn),
:class:`~game.rules.side_bet_phase.SideBetPhase` (the side bets) and
:class:`~game.rules.settlement.Settlement` (the dealer's play and settlement), on
:class:`~game.rules.phase_base.PhaseBase` (the state they share and its mechanics). This
module holds the state's construction, what happens between rounds, the legal-action
queries and the stage driver (``Game._advance``). A round's state (:class:`Hand`,
:class:`Box`, :class:`Round`) is :mod:`game.rules.round_state`'s.

Beside this module, not inside it: :mod:`game.rules.storage` (the state as JSON, the copy
the server stores), :mod:`game.rules.public` (what the page may see of it),
:mod:`game.rules.bets` (the checks of bets before the deal), :mod:`game.rules.wallets`
(a shared round's wallets) and :mod:`game.rules.table_rules` (the options the hot path
reads).
"""

from __future__ import annotations

from typing import Final

from game.rules.betting import Betting
from game.rules.clock import Clock, system_clock
from game.rules.decisions import (
    MAX_HANDS,
    PLAY_DOUBLE,
    PLAY_HIT,
    PLAY_SPLIT,
    PLAY_STAND,
    PLAY_SURRENDER,
    Decisions,
)
from game.rules.fair import CommittedShoes
from game.rules.money import check_amount
from game.rules.offers import DICE, NOT_OFFERED, OFFER_PHASES, SHARED_OFFER_MS, Offers
from game.rules.options import Options
from game.rules.records import (
    ALL_ACTIONS,
    ALLOWED,
    DEALING,
    EARLY_SURRENDER,
    EVEN_MONEY,
    EXTRA_BET,
    HOUSE_MONEY_PARLAY,
    INSURANCE,
    PLAY_ACTIONS,
    PLAYER_TURN,
    ROUND_OVER,
    Event,
    IllegalAction,
)
from game.rules.round_state import (
    BOX_FIELDS,
    CARD_VALUE,
    HAND_FIELDS,
    ROUND_FIELDS,
    STAGE_COUNT,
    STEP_AFTER_DEAL,
    STEP_DEALER_TURN,
    STEP_EARLY_SURRENDER,
    STEP_EXTRA_BET,
    STEP_INSURANCE,
    STEP_NATURAL,
    STEP_PARLAY,
    STEP_PEEK,
    STEP_PLAYER_TURN,
    STEP_SETTLEMENT,
    Box,
    Hand,
    Round,
)
from game.rules.settlement import Settlement
from game.rules.shoe import Rng, SeededShoes, Shoe, ShoeSource, default_rng
from game.rules.side_bet_phase import SideBetPhase
from game.rules.table_rules import TableRules

# What other modules import from here: the game, a round's state and the constants of
# its stages and play actions (defined in the modules the game is composed of).
__all__ = [
    "BOX_FIELDS",
    "CARD_VALUE",
    "DICE",
    "HAND_FIELDS",
    "MAX_HANDS",
    "PLAY_DOUBLE",
    "PLAY_HIT",
    "PLAY_SPLIT",
    "PLAY_STAND",
    "PLAY_SURRENDER",
    "ROUND_FIELDS",
    "SHARED_OFFER_MS",
    "STEP_AFTER_DEAL",
    "STEP_DEALER_TURN",
    "STEP_EARLY_SURRENDER",
    "STEP_EXTRA_BET",
    "STEP_INSURANCE",
    "STEP_NATURAL",
    "STEP_PARLAY",
    "STEP_PEEK",
    "STEP_PLAYER_TURN",
    "STEP_SETTLEMENT",
    "Box",
    "Engine",
    "Hand",
    "IllegalAction",
    "Round",
    "answer_deadline",
]


class Engine(Betting, Offers, Decisions, SideBetPhase, Settlement):
    """A game (R-1.1): bank, credits, options, shoe, round number and the current round."""

    # The state is PhaseBase's (its __slots__ and their types); __init__ builds it.
    __slots__ = ()

    STARTING_CREDITS = 10

    def __init__(
        self,
        options: Options | None = None,
        *,
        rng: Rng | None = None,
        source: ShoeSource | None = None,
        bank: int | None = None,
        credits: int | None = None,
        shoe: Shoe | None = None,
        record_events: bool = True,
        clock: Clock | None = None,
    ) -> None:
        self._use_options(options or Options())
        # Every shoe and die comes from one source: a committed stream in play (FAIRNESS.md),
        # ``rng``'s draws for the simulator, the engine's tests and replays.
        self.source = (
            source if source is not None else SeededShoes(rng if rng is not None else default_rng())
        )
        self.bank = check_amount(self.options.starting_bank if bank is None else bank)
        self.credits = self.STARTING_CREDITS if credits is None else credits
        self.round_number = 0
        self.game_over = False
        self.game_over_reason = None
        self.shoe = shoe if shoe is not None else self.source.new_shoe(self._table.deck_count, None)
        self.round = None
        self.record_events = record_events
        # Dice faces to use before asking the rng (replay files give them, REPLAY.md).
        self.dice_queue = None
        self._events = None
        self.clock = clock if clock is not None else system_clock
        # When the next decision's clock starts, if not now (a timeout's cascade, R-4.13).
        self._decision_start = None
        self._check_game_over()

    def _use_options(self, options: Options) -> None:
        """Set the options and what the hot path derives from them once per change."""
        self.options = options
        # Every round's record of its options (shared, never mutated: storage.round_to_json
        # and round_replay copy it). A new dict per change, so older rounds keep theirs.
        self._options_json = options.to_dict()
        self._table = TableRules(options)
        self._active_stages = _stage_plan(options)

    # ------------------------------------------------------------------ queries

    def legal_actions(self) -> dict[str, str]:
        """Every player action with ``"allowed"`` or a reason a person can read."""
        return {name: self._why_not(name) or ALLOWED for name in ALL_ACTIONS}

    def allowed_actions(self) -> list[str]:
        return [name for name in ALL_ACTIONS if self._why_not(name) is None]

    def box_wallet(self, index: int) -> tuple[int, int]:
        """(bank, credits) of box ``index`` (0-based) of the current shared round, as they
        stand now: what the caller writes back to that box's seat after any action."""
        round_ = self.round
        wallets = None if round_ is None else round_.wallets
        if wallets is None:
            raise IllegalAction("No shared round: the game has one bank")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(wallets):
            raise IllegalAction(f"No box {index!r} in this round")
        wallet = wallets[index]
        return wallet.bank, wallet.credits

    def box_in_turn(self) -> int | None:
        """The box (0-based) whose hand is being played in the player's turn, else None."""
        round_ = self.round
        if self.game_over or round_ is None or round_.phase != PLAYER_TURN:
            return None
        return round_.hands[round_.current].box

    # ------------------------------------------------------------------ between rounds

    def set_options(self, options: Options) -> list[Event]:
        """Options change only between rounds (§10); a new deck count rebuilds the shoe."""
        if self.round_in_progress:
            raise IllegalAction("Options can be changed only between rounds")
        self._begin()
        rebuild = options.deck_count != self.options.deck_count
        self._use_options(options)
        if rebuild:
            self.shoe = self.source.new_shoe(self._table.deck_count, self.shoe)
            self._emit("shoe_shuffled", reason="deck_count", message="Shuffling a new shoe")
        self._check_game_over()
        return self._finish()

    def shuffle_now(self) -> list[Event]:
        """Finish the shoe and deal on from a new one (F-6), between rounds only.

        A shoe nothing was dealt from stays: it is already the newest shoe, committed.
        """
        if self.round_in_progress:
            raise IllegalAction("The shoe can be changed only between rounds")
        if self.shoe.fixed:
            raise IllegalAction("A replay's shoe cannot be shuffled")
        if self.shoe.duplicate:
            # Each round of a Daily Shoe has its own shoe (D-2): a new one now would deal
            # the next round's cards to this one.
            raise IllegalAction("A Daily Shoe's rounds each have their own shoe")
        self._begin()
        if self.shoe.remaining() != self.shoe.size:
            self.shoe = self.source.new_shoe(self._table.deck_count, self.shoe)
            self._emit("shoe_shuffled", reason="player", message="Shuffling a new shoe")
        return self._finish()

    def set_client_seed(self, client_seed: str) -> list[Event]:
        """Use ``client_seed`` (F-2) for the shoe not yet dealt from and every shoe after.

        Refused mid-round and once a card of the shoe has been dealt: the client seed of a
        shoe that is dealing is part of what it was committed to.
        """
        source = self.source
        if not isinstance(source, CommittedShoes):
            raise IllegalAction("This game's shoes have no client seed")
        if self.round_in_progress:
            raise IllegalAction("The client seed can be changed only between rounds")
        if self.shoe.remaining() != self.shoe.size:
            raise IllegalAction("The client seed can be changed only between shoes")
        self._begin()
        self.shoe = source.reseed(client_seed, self.shoe)
        return self._finish()

    def finish_shoe(self) -> None:
        """Reveal the shoe in play (F-6: the game ended or the table closed)."""
        source = self.source
        if isinstance(source, CommittedShoes):
            source.finish(self.shoe)

    # ------------------------------------------------------------------ legality

    def _require(self, name: str) -> None:
        reason = self._why_not(name)
        if reason is not None:
            raise IllegalAction(reason)

    def _why_not(self, name: str) -> str | None:
        """None when ``name`` is allowed now, else the reason a person can read."""
        if self.game_over:
            return "The game is over; start a new game"
        round_ = self.round
        if round_ is None or round_.phase == ROUND_OVER:
            return "No round in progress: place a bet and deal"
        play = _PLAY_INDEX.get(name, -1)  # the common case, without parsing the name
        kind, answer = name, ""
        if play < 0:
            kind, _, answer = name.partition(":")
            play = _PLAY_INDEX.get(kind, -1)
        if play >= 0:
            if round_.phase != PLAYER_TURN:
                return _waiting_message(round_.phase)
            return self._why_not_play(play, round_, round_.hands[round_.current])
        expected_phase = OFFER_PHASES[kind]
        if round_.phase != expected_phase or (kind == "roll" and not self._roll_pending()):
            return NOT_OFFERED[kind]
        if answer == "accept" and kind in ("insurance", "even_money"):
            return self._why_not_insure(kind, round_.offer_box)
        if kind == "extra_bet" and answer != "decline":
            low, high = self.extra_bet_limits()
            if high < low:
                return "Your bank does not cover the smallest extra bet and its fee"
        return None

    # ------------------------------------------------------------------ the stages

    def _advance(self) -> None:
        """Run the round forward until it needs the player (or is over)."""
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        active = self._active_stages  # False where these options make a stage a no-op
        while (step := round_.step) < STAGE_COUNT:
            # A chain of ifs, not a table of methods: the compiled build then calls each
            # stage directly (a method taken from a table is called through Python).
            if active[step]:
                if step == STEP_PLAYER_TURN:
                    waits = self._stage_player_turn(round_)
                elif step == STEP_DEALER_TURN:
                    waits = self._stage_dealer_turn(round_)
                elif step == STEP_SETTLEMENT:
                    waits = self._stage_settlement(round_)
                elif step == STEP_NATURAL:
                    waits = self._stage_natural(round_)
                elif step == STEP_PEEK:
                    waits = self._stage_peek(round_)
                elif step == STEP_INSURANCE:
                    waits = self._stage_insurance(round_)
                elif step == STEP_EARLY_SURRENDER:
                    waits = self._stage_early_surrender(round_)
                elif step == STEP_AFTER_DEAL:
                    waits = self._stage_after_deal(round_)
                elif step == STEP_EXTRA_BET:
                    waits = self._stage_extra_bet(round_)
                else:
                    waits = self._stage_parlay(round_)
                if waits:
                    if (
                        step < STEP_PLAYER_TURN
                        and round_.wallets is not None
                        and self._shared_stage_waits(round_, step)
                    ):
                        continue  # an answer given ahead was applied: the stage goes on
                    return
            round_.step += 1


def _waiting_message(phase: str) -> str:
    return {
        DEALING: "Roll the Perfect 11s dice first",
        EXTRA_BET: "Answer the extra bet offer first",
        INSURANCE: "Answer the insurance offer first",
        EVEN_MONEY: "Answer the even money offer first",
        EARLY_SURRENDER: "Answer the early surrender offer first",
        HOUSE_MONEY_PARLAY: "Make the House Money parlay choice first",
    }.get(phase, "It is not the player's turn")


_PLAY_INDEX: Final = {name: index for index, name in enumerate(PLAY_ACTIONS)}


_EARLY_SURRENDER_MODES = ("early", "early_non_ace")


def answer_deadline(shown_at_ms: int, options: Options) -> int | None:
    """When a question shown at ``shown_at_ms`` must be answered by, or None (no answer
    clock), R-8.9. The clock starts when the question is first sent."""
    answer_ms = options.answer_ms
    return None if answer_ms is None or not options.trivia_mode else shown_at_ms + answer_ms


def _stage_plan(options: Options) -> tuple[bool, ...]:
    """Per STEP_* stage: False for each stage that can never act under ``options``.

    Skipping such a stage is exactly what calling it would do (return False, change
    nothing); it only saves the call on every round.
    """
    idle: set[int] = set()
    simple = options.simple  # Hit and Stand only: no side bets, offers or surrender
    if not options.side_bets or simple:
        # No side stakes and no extra bet can be placed, so none is pending.
        idle |= {STEP_AFTER_DEAL, STEP_EXTRA_BET, STEP_PARLAY}
    if options.surrender not in _EARLY_SURRENDER_MODES or simple:
        idle.add(STEP_EARLY_SURRENDER)
    if (not options.insurance and not options.even_money) or simple:
        idle.add(STEP_INSURANCE)
    if not options.dealer_peek:
        idle.add(STEP_PEEK)
    return tuple(step not in idle for step in range(STAGE_COUNT))
