"""What the phases of a :class:`game.rules.engine.Engine` share.

:class:`PhaseBase` declares the game's state (``Engine`` builds and holds it) and holds the
mechanics every phase uses: the events an action produces, money moving in and out of
the bank (a shared round's wallets), cards dealt from the shoe, and R-1.5's end of the
game. The few methods one phase calls of another are declared here as well, so each
phase module is typed on its own and imports no other phase.

The phases are mypyc traits: the compiled build (:mod:`game.rules.accelerated`) allows a
class one non-trait base only, and a trait's methods compile like any other method.
"""

from __future__ import annotations

from typing import Any, TypeVar

from game.rules import sidebets as sb
from game.rules.clock import Clock
from game.rules.money import MAX_AMOUNT_CENTS
from game.rules.options import Options
from game.rules.records import Event
from game.rules.round_state import Box, Hand, Round
from game.rules.shoe import Shoe, ShoeSource
from game.rules.table_rules import TableRules

_Class = TypeVar("_Class")

try:
    from mypy_extensions import trait as trait
except ImportError:  # pragma: no cover - the game itself runs without the development tools

    def trait(cls: _Class) -> _Class:
        """mypyc's trait marker (mypy_extensions comes with mypy): a plain class decorator
        where it is not installed, the game's own install."""
        return cls


@trait
class PhaseBase:
    """The state every phase of a Game reads and writes, and the mechanics they share."""

    # The game's state, built by Game.__init__; the phases add none.
    __slots__ = (
        "options",
        "bank",
        "credits",
        "round_number",
        "game_over",
        "game_over_reason",
        "shoe",
        "round",
        "source",
        "record_events",
        "dice_queue",
        "_events",
        "_options_json",
        "_table",
        "_active_stages",
        "clock",
        "_decision_start",
    )

    options: Options
    bank: int
    credits: int
    round_number: int
    game_over: bool
    game_over_reason: str | None
    shoe: Shoe
    round: Round | None
    source: ShoeSource
    record_events: bool
    dice_queue: list[int] | None
    clock: Clock
    _events: list[Event] | None
    _options_json: dict[str, Any]
    _table: TableRules
    _active_stages: tuple[bool, ...]
    _decision_start: int | None

    @property
    def round_in_progress(self) -> bool:
        return self.round is not None and not self.round.over

    def _box_index(self, box: int | None) -> int:
        """``box``, or the box in play when None."""
        if box is not None:
            return box
        round_ = self.round
        return round_.box_in_play() if round_ is not None else 0

    def _box_bet_in_play(self, box: int | None = None) -> int:
        round_ = self.round
        return round_.boxes[self._box_index(box)].bet if round_ is not None else 0

    def _bank_of(self, box: int) -> int:
        """The bank that pays for box index ``box``: its wallet's in a shared round, else
        the game's."""
        round_ = self.round
        wallets = None if round_ is None else round_.wallets
        return self.bank if wallets is None else wallets[box].bank

    def _deal_to_hand(self, hand: Hand, index: int) -> None:
        card = self._draw()
        hand.add(card)
        if self._events is not None:
            self._emit("card_dealt", to="player", hand=index, card=card)

    def _deal_to_dealer(self, *, face_down: bool) -> None:
        card = self._draw_for_dealer()
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        round_.dealer.append(card)
        if self._events is not None:
            if face_down:
                self._emit("card_dealt", to="dealer", face_down=True)
            else:
                self._emit("card_dealt", to="dealer", card=card)

    def _draw(self) -> str:
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        shoe = self.shoe
        position = shoe.position
        if position >= len(shoe.cards):
            shoe = self._refill(round_)
            position = shoe.position
        # Shoe.draw inlined: the refill above guarantees a card (this is the hottest call).
        card = shoe.cards[position]
        shoe.position = position + 1
        round_.dealt.append(card)
        return card

    def _draw_for_dealer(self) -> str:
        """Draw the dealer's next card: the shoe's next, as for the player, except from a
        duplicate shoe, which deals the dealer from its bottom (D-2: the hole card second
        to last, the upcard last, each draw the next one up)."""
        shoe = self.shoe
        if not shoe.duplicate:
            return self._draw()
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        hole = not round_.dealer
        if len(shoe.cards) - shoe.position < (2 if hole else 1):
            shoe = self._refill(round_)
            if not shoe.duplicate:
                return self._draw()
        card = shoe.draw_bottom(hole)
        round_.dealt.append(card)
        return card

    def _refill(self, round_: Round) -> Shoe:
        """Refill the shoe mid-round from the cards not on the table (R-2.2; a fixed shoe
        raises). Returns the shoe now in play."""
        shoe, reshuffled = self.source.refill(self.shoe, round_.table_cards())
        self.shoe = shoe
        if reshuffled:
            self._emit("shoe_shuffled", reason="refill", message="Shuffling a new shoe")
        return shoe

    def _check_game_over(self) -> None:
        """End the game when the bank is below the minimum or, in trivia mode, no credits are
        left (R-1.5, between rounds)."""
        if self.game_over:
            return
        if self.bank < self._table.min_bet:
            self._set_game_over("bank")
        elif self._table.trivia_mode and self.credits <= 0:
            self._set_game_over("credits")

    def _set_game_over(self, reason: str) -> None:
        self.game_over = True
        self.game_over_reason = reason
        self._emit("game_over", reason=reason)

    def _take(self, cents: int, box: int = 0) -> None:
        """Take ``cents`` from the bank: box index ``box``'s wallet in a shared round."""
        round_ = self.round
        assert round_ is not None  # money moves only within a round
        wallets = round_.wallets
        if wallets is None:
            # Legality checks ran first, so this can never take the bank below zero.
            assert cents <= self.bank, "bank would go negative"
            self.bank -= cents
        else:
            wallet = wallets[box]
            assert cents <= wallet.bank, "bank would go negative"
            wallet.bank -= cents
            wallet.staked += cents
        round_.staked += cents

    def _pay(self, cents: int, box: int = 0) -> int:
        """Pay ``cents`` into the bank (negative: take them, §10 inverted); returns what
        moved. R-1.4a: a bank that would pass the ceiling stops there; inverted: a bank
        stops at zero. In a shared round the bank is box index ``box``'s wallet."""
        round_ = self.round
        assert round_ is not None  # money moves only within a round
        wallets = round_.wallets
        if wallets is None:
            paid = min(cents, MAX_AMOUNT_CENTS - self.bank)
            if paid < 0:
                paid = max(paid, -self.bank)
            self.bank += paid
        else:
            wallet = wallets[box]
            paid = min(cents, MAX_AMOUNT_CENTS - wallet.bank)
            if paid < 0:
                paid = max(paid, -wallet.bank)
            wallet.bank += paid
            wallet.paid += paid
        round_.paid += paid
        return paid

    def _pay_settled(self, stake: int, winnings: int, box: int = 0) -> int:
        """Pay a settled bet its winnings (R-PAY-1); returns what the bank received.

        §10 Extensions, inverted: the bet's net result is negated first — a profit of N
        becomes a loss of N, a lost stake S comes back with a profit of S, a push stays a
        push. A loss beyond the stake is taken from the bank, which stops at zero. Under
        R-1.4a's ceiling (or that floor) what moved is recorded, not what was due.
        """
        if self._table.inverted:
            winnings = stake + stake - winnings
        return self._pay(winnings, box)

    def _begin(self) -> None:
        self._events = [] if self.record_events else None

    def _finish(self) -> list[Event]:
        events = self._events
        self._events = None
        return events if events is not None else []

    def _emit(self, type_: str, **data: Any) -> None:
        events = self._events
        if events is not None:
            data["type"] = type_
            events.append(data)

    def _box_key(self, index: int) -> dict[str, int]:
        """``{"box": n}`` (1, 2, 3) for an event or record of a round of several boxes;
        nothing in the one-box game, whose events keep their shape."""
        round_ = self.round
        if round_ is None or not round_.several:
            return {}
        return {"box": index + 1}

    # ------------------------------------------------------------------ across phases
    # Methods one phase calls and another defines (Game, Offers, Decisions, SideBetPhase,
    # Settlement). Every phase comes before PhaseBase in Game's method order, so these
    # bodies are never the ones called.

    def _require(self, name: str) -> None:
        """Raise IllegalAction unless player action ``name`` is allowed now (Game)."""
        raise NotImplementedError

    def _advance(self) -> None:
        """Run the round forward until it needs the player, or is over (Game)."""
        raise NotImplementedError

    def _time_out_stage(self, round_: Round) -> list[Event]:
        """Apply the defaults of an offer stage whose time ran out (Offers, T-7)."""
        raise NotImplementedError

    def _end_offer_stage(self, round_: Round) -> None:
        """Close an offer stage every box has had (Offers)."""
        raise NotImplementedError

    def _surrender(self, hand: Hand, index: int) -> None:
        """End ``hand`` surrendered (Decisions, R-5.7)."""
        raise NotImplementedError

    def _settle_side_bet(
        self,
        name: str,
        stake: int,
        win: sb.SideBetWin | None,
        box: int = 0,
    ) -> None:
        """Pay and record one side bet (SideBetPhase)."""
        raise NotImplementedError

    def _settle_house_money(self, choice: str, index: int) -> None:
        """Pay House Money, collected or parlayed (SideBetPhase, R-SB-31)."""
        raise NotImplementedError

    def _settle_side_bets_at_end(self, index: int) -> None:
        """Settle box ``index``'s side bets left at the end of the round (SideBetPhase)."""
        raise NotImplementedError

    def _forfeit_box(self, box: Box, index: int, settled: set[tuple[int, str]]) -> None:
        """Lose box ``index``'s insurance and side bets still in play (SideBetPhase, R-1.6)."""
        raise NotImplementedError

    def _dealer_natural_ruled_out(self) -> bool:
        """Whether the dealer is known to have no natural (Settlement)."""
        raise NotImplementedError
