"""The player's decisions (RULES.md R-4.9–R-4.13, R-5, R-8).

The phase of :class:`game.rules.engine.Engine` in which the player plays the hands left to
right: hit, stand, double, split and surrender, the checks that allow each (the same
ones the legal-action query answers with), the trivia answer that Hit and Double Down
need in trivia mode, and the clock of each decision.
"""

from __future__ import annotations

from typing import Final

from game.rules.cards import is_ace, is_ten_card
from game.rules.money import display_cents
from game.rules.phase_base import PhaseBase, trait
from game.rules.records import (
    LIFELINE_COST,
    LIFELINES,
    PLAY_ACTIONS,
    PLAYER_TURN,
    Event,
    IllegalAction,
    TriviaOutcome,
)
from game.rules.round_state import (
    Hand,
    Round,
)

MAX_HANDS: Final = 4

# The play actions by their index in PLAY_ACTIONS (play_mask sets bit 1 << index).
PLAY_HIT: Final = 0
PLAY_STAND: Final = 1
PLAY_DOUBLE: Final = 2
PLAY_SPLIT: Final = 3
PLAY_SURRENDER: Final = 4


@trait
class Decisions(PhaseBase):
    """The player's turn: hit, stand, double, split and surrender, the checks that allow
    each, the trivia that gates Hit and Double Down, the turn's clock (R-4.9–R-4.13, R-5,
    R-8)."""

    # The state is PhaseBase's.
    __slots__ = ()

    def play_actions(self) -> frozenset[str]:
        """The play actions (hit, stand, double, split, surrender) allowed now.

        The same checks as :meth:`legal_actions`, for the five actions of the player's
        turn only. The answer is one of a few shared frozensets (their hashes are cached).
        """
        return _PLAY_SETS[self.play_mask()]

    def play_mask(self) -> int:
        """:meth:`play_actions` as bits: ``1 << i`` when ``PLAY_ACTIONS[i]`` is allowed.

        The cheapest legality query (no set, no strings): the simulator's hot loop.
        """
        round_ = self.round
        if self.game_over or round_ is None or round_.phase != PLAYER_TURN:
            return 0
        hand = round_.hands[round_.current]
        mask = 0
        # Each check called directly (not from a table): see _advance.
        if self._why_not_hit(round_, hand) is None:
            mask |= 1 << PLAY_HIT
        mask |= 1 << PLAY_STAND  # a hand in play may always stand
        if self._why_not_double(round_, hand) is None:
            mask |= 1 << PLAY_DOUBLE
        if self._why_not_split(round_, hand) is None:
            mask |= 1 << PLAY_SPLIT
        if self._why_not_surrender(round_, hand) is None:
            mask |= 1 << PLAY_SURRENDER
        return mask

    def hit(self, trivia: TriviaOutcome | None = None) -> list[Event]:
        """Hit: one more card to the hand in play, which ends on a bust, a Charlie or 21
        (R-5.1). In trivia mode the card comes only after a right answer (R-8.2)."""
        self._require("hit")
        self._check_trivia(trivia, "Hit")
        self._begin()
        round_, hand = self._record_action("hit", trivia)
        index = round_.current
        if trivia is None or self._answer_trivia(trivia, hand, index):
            hand.acted = True
            self._deal_to_hand(hand, index)
            self._auto_end(hand, index)  # bust, Charlie or 21 ends it
        self._advance()
        return self._finish()

    def stand(self) -> list[Event]:
        """Stand: the hand in play ends with its total and play moves on (R-5.2)."""
        self._require("stand")
        self._begin()
        round_, hand = self._record_action("stand")
        self._stand(hand, round_.current, "stand")
        self._advance()
        return self._finish()

    def double(self, trivia: TriviaOutcome | None = None) -> list[Event]:
        """Double Down: the bet doubled first, exactly one card, then the hand stands (R-5.3)."""
        self._require("double")
        self._check_trivia(trivia, "Double Down")
        self._begin()
        round_, hand = self._record_action("double", trivia)
        index = round_.current
        if trivia is None or self._answer_trivia(trivia, hand, index):
            hand.acted = True
            self._take(hand.bet, hand.box)
            hand.bet *= 2
            hand.doubled = True
            if self._events is not None:
                self._emit("hand_doubled", hand=index, bet=hand.bet)
            self._deal_to_hand(hand, index)
            self._auto_end(hand, index)  # bust, Charlie or 21 ends it
            if hand.status == "open":
                self._stand(hand, index, "doubled")
        self._advance()
        return self._finish()

    def split(self) -> list[Event]:
        """Split the pair into two hands (R-5.4, R-5.5): hand A keeps the first card, hand B
        (inserted right after) the second; A gets a card, then B, and play goes on with A.
        No trivia for split cards."""
        self._require("split")
        self._begin()
        round_, hand = self._record_action("split")
        index = round_.current
        aces = is_ace(hand.cards[0])
        self._take(hand.bet, hand.box)
        new_hand = Hand([hand.cards.pop()], hand.bet, split=True, box=hand.box)
        hand.recount()
        hand.split = True
        hand.acted = False
        hand.split_aces = new_hand.split_aces = aces
        round_.hands.insert(index + 1, new_hand)
        self._emit("hand_split", hand=index, new_hand=index + 1, bet=hand.bet)
        self._deal_to_hand(hand, index)
        self._deal_to_hand(new_hand, index + 1)
        self._advance()
        return self._finish()

    def surrender(self) -> list[Event]:
        """Surrender: the hand ends and half its bet comes back at settlement (R-5.7)."""
        self._require("surrender")
        self._begin()
        round_, hand = self._record_action("surrender")
        self._surrender(hand, round_.current)
        self._advance()
        return self._finish()

    def timeout(self) -> list[Event]:
        """The pending decision's time ran out, so the hand stands (R-4.13; replay ``timeout``).

        In a shared round's open offer stage (T-7): every box still awaited gets the
        default answer — decline, collect, an automatic roll — each with an
        ``offer_timed_out`` event, and the stage ends.

        The deadline itself is the clock's business (:meth:`run_clock`); a replay file
        says when it ran out, so this does not read the clock."""
        round_ = self.round
        if round_ is None or round_.deadline is None or self.game_over:
            raise IllegalAction("No decision is timed now")
        if round_.phase != PLAYER_TURN:
            if round_.wallets is None or round_.open_stage != round_.step:
                raise IllegalAction("No decision is timed now")
            return self._time_out_stage(round_)
        self._begin()
        round_, hand = self._record_action("timeout")
        self._emit("timed_out", hand=round_.current)
        self._decision_start = round_.deadline
        round_.deadline = None
        self._stand(hand, round_.current, "timeout")
        self._advance()
        return self._finish()

    def deadline_passed(self) -> bool:
        """Whether the pending decision's deadline has run out by the clock (a shared
        round's offer stage included)."""
        round_ = self.round
        if round_ is None or round_.deadline is None or self.game_over:
            return False
        if round_.phase != PLAYER_TURN and (
            round_.wallets is None or round_.open_stage != round_.step
        ):
            return False
        return self.clock() >= round_.deadline

    def run_clock(self) -> list[Event]:
        """Apply every turn deadline that has run out by now (R-4.13), in order; [] if none."""
        events: list[Event] = []
        while self.deadline_passed():
            events.extend(self.timeout())
        return events

    def pause_turn_clock(self) -> None:
        """Hit or Double was chosen and its question is shown: the decision is made, so the
        turn's clock stops (the answer has its own, R-8.9). The answer restarts it."""
        if self.round is not None:
            self.round.deadline = None

    def start_next_decision_at(self, ms: int) -> None:
        """The next decision's clock starts at ``ms`` instead of now: an answer whose own
        deadline ran out is applied late, as if at that deadline (R-8.9, R-4.13)."""
        self._decision_start = ms

    def _why_not_play(self, play: int, round_: Round, hand: Hand) -> str | None:
        """The check of play action ``PLAY_ACTIONS[play]`` (called directly: see _advance)."""
        if play == PLAY_HIT:
            return self._why_not_hit(round_, hand)
        if play == PLAY_STAND:
            return None  # a hand in play may always stand
        if play == PLAY_DOUBLE:
            return self._why_not_double(round_, hand)
        if play == PLAY_SPLIT:
            return self._why_not_split(round_, hand)
        return self._why_not_surrender(round_, hand)

    def _why_not_hit(self, round_: Round, hand: Hand) -> str | None:
        if hand.split_aces and self._table.one_card_after_split_aces:
            return "Only one card is dealt to each split ace"
        if hand.best_total() >= 21:
            return "The hand already has 21"
        return None

    def _why_not_double(self, round_: Round, hand: Hand) -> str | None:
        options = self._table
        if options.simple:
            return _SIMPLE_GAME
        if hand.acted or len(hand.cards) != 2:
            return "Double Down only as the first action on a hand"
        if hand.split_aces and options.one_card_after_split_aces:
            return "Only one card is dealt to each split ace"
        if hand.split_aces and not options.double_after_split_aces:
            return "Double Down after splitting aces is not allowed at this table"
        if hand.split and not options.double_after_split:
            return "Double Down after a split is not allowed at this table"
        total = hand.best_total()
        if options.double_on == "9-11" and not 9 <= total <= 11:
            return "Double Down only on a total of 9, 10 or 11"
        if options.double_on == "10-11" and not 10 <= total <= 11:
            return "Double Down only on a total of 10 or 11"
        if hand.bet > self._bank_of(hand.box):
            return f"Your bank does not cover another bet of {display_cents(hand.bet)}"
        return None

    def _why_not_split(self, round_: Round, hand: Hand) -> str | None:
        options = self._table
        if options.simple:
            return _SIMPLE_GAME
        if hand.acted or len(hand.cards) != 2:
            return "Split only as the first action on a hand"
        first, second = hand.cards
        same_rank = first[0] == second[0]
        if not same_rank and not (
            options.split_any_ten and is_ten_card(first) and is_ten_card(second)
        ):
            if options.split_any_ten:
                return "Split needs two cards of the same rank or two ten-cards"
            return "Split needs two cards of the same rank"
        # max_splits / max_ace_splits (R-5.4, R-5.5, §10 Extensions): every hand of the
        # box holds the rank of the first pair, so the splits made are hands - 1.
        aces = is_ace(first)
        limit = options.max_ace_splits if aces else options.max_splits
        if aces and limit == 0:
            return "Splitting aces is not allowed at this table"
        hands = _hands_in_box(round_, hand.box)  # each box's splits are its own
        if hands >= MAX_HANDS:
            return f"No more than {MAX_HANDS} hands"
        if hands > limit:
            if limit == 1:
                if aces:
                    return "Resplitting aces is not allowed at this table"
                return "Resplitting is not allowed at this table"
            pairs = "aces" if aces else "a pair"
            return f"No more than {limit} splits of {pairs} at this table"
        if hand.bet > self._bank_of(hand.box):
            return f"Your bank does not cover another bet of {display_cents(hand.bet)}"
        return None

    def _why_not_surrender(self, round_: Round, hand: Hand) -> str | None:
        if self._table.simple:
            return _SIMPLE_GAME
        if self._table.surrender == "off":
            return "Surrender is not offered at this table"
        if hand.acted or len(hand.cards) != 2:
            return "Surrender only as the first action on a hand"
        if hand.split_aces and self._table.one_card_after_split_aces:
            return "Only one card is dealt to each split ace"
        return None

    def use_lifeline(self, kind: str) -> list[Event]:
        """R-8.11: pay for a lifeline (50:50 or Swap) on the question the hand in play
        waits on: one credit, taken at once from the credits of the hand's player.
        Refused while paying would leave no credit, so R-8.7 is never reached by a
        lifeline alone. The question itself is the caller's: the engine keeps the money."""
        if kind not in LIFELINES:
            raise IllegalAction(f"A lifeline is fifty_fifty or swap, not {kind!r}")
        if not self._table.trivia_mode:
            raise IllegalAction("Trivia mode is off: there is no question to help with")
        if not self.options.lifelines:
            raise IllegalAction("Lifelines are off at this table")
        round_ = self.round
        if self.game_over or round_ is None or round_.phase != PLAYER_TURN:
            raise IllegalAction("A lifeline is used on a question of the player's turn")
        hand = round_.hands[round_.current]
        wallets = round_.wallets
        wallet = None if wallets is None else wallets[hand.box]
        credits = self.credits if wallet is None else wallet.credits
        if credits - LIFELINE_COST < 1:
            raise IllegalAction("A lifeline is not offered with one credit left")
        self._begin()
        round_.credits_change -= LIFELINE_COST
        if wallet is None:
            self.credits -= LIFELINE_COST
            credits = self.credits
        else:
            wallet.credits -= LIFELINE_COST
            wallet.credits_change -= LIFELINE_COST
            credits = wallet.credits
        self._emit(
            "lifeline_used",
            kind=kind,
            credits_change=-LIFELINE_COST,
            credits=credits,
            **self._box_key(hand.box),
        )
        return self._finish()

    def _check_trivia(self, trivia: TriviaOutcome | None, label: str) -> None:
        trivia_mode = self._table.trivia_mode
        if trivia_mode and trivia is None:
            raise IllegalAction(f"{label} needs a trivia answer first (trivia mode)")
        if not trivia_mode and trivia is not None:
            raise IllegalAction(f"Trivia mode is off: {label} needs no trivia answer")
        if trivia is not None and trivia.timed_out and self.options.answer_ms is None:
            raise IllegalAction("No question is timed at this table (answer_seconds is off)")

    def _stage_player_turn(self, round_: Round) -> bool:
        """Play the hands left to right; True while one waits for the player (R-4.9, R-4.10)."""
        round_.phase = PLAYER_TURN
        hands = round_.hands
        while round_.current < len(hands):
            hand = hands[round_.current]
            if hand.status == "open":
                if round_.out_of_credits:
                    self._stand(hand, round_.current, "out_of_credits")
                elif not self._auto_end(hand, round_.current):
                    self._start_turn_clock(round_)
                    return True
            round_.current += 1
        round_.current = len(hands) - 1
        round_.deadline = None
        return False

    def _start_turn_clock(self, round_: Round) -> None:
        """Start the clock of the decision now pending (R-4.13): each decision of the
        player's turn gets ``turn_seconds`` from when it became pending — now, or the
        deadline a timeout just applied (so a game resumed late finds every hand whose time
        ran out stood, one after another)."""
        turn_ms = self._table.turn_ms
        if turn_ms is None:
            return
        start = self._decision_start
        self._decision_start = None
        round_.deadline = (self.clock() if start is None else start) + turn_ms

    def _auto_end(self, hand: Hand, index: int) -> bool:
        """End ``hand`` if the rules end it without a decision; True if it ended."""
        total = hand.best_total()
        if total > 21:
            hand.status = "bust"
            if self._events is not None:
                self._emit("hand_bust", hand=index, total=total)
            return True
        limit = self._table.charlie_limit
        if limit is not None and len(hand.cards) >= limit:
            # the Charlie number of cards without busting (not bust, see above).
            hand.status = "charlie"
            if self._events is not None:
                self._emit("hand_charlie", hand=index, cards=len(hand.cards))
            return True
        if total == 21:
            self._stand(hand, index, "twenty_one")
            return True
        if (
            hand.split_aces
            and self._table.one_card_after_split_aces
            and self.round is not None
            and self._why_not_split(self.round, hand) is not None
        ):
            # one card to each split ace, unless it can (and may) resplit aces.
            self._stand(hand, index, "one_card_after_split_aces")
            return True
        return False

    def _stand(self, hand: Hand, index: int, reason: str) -> None:
        hand.status = "stood"
        hand.acted = True
        hand.stand_reason = reason
        if self._events is not None:
            self._emit("hand_stood", hand=index, reason=reason, total=hand.best_total())

    def _surrender(self, hand: Hand, index: int) -> None:
        hand.status = "surrendered"
        hand.acted = True
        if self._events is not None:
            self._emit("hand_surrendered", hand=index)

    def _answer_trivia(self, trivia: TriviaOutcome | None, hand: Hand, index: int) -> bool:
        """Apply the trivia answer; True when the action goes ahead (R-8.2, R-8.3, R-8.7)."""
        if trivia is None:
            return True
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        change = trivia.credit_change
        round_.credits_change += change
        wallets = round_.wallets
        if wallets is None:
            self.credits += change
            credits = self.credits
        else:  # a shared round: the credits of the hand's box (its player's)
            wallet = wallets[hand.box]
            wallet.credits += change
            wallet.credits_change += change
            credits = wallet.credits
        self._emit(
            "trivia_answered",
            difficulty=trivia.difficulty,
            correct=trivia.correct,
            timed_out=trivia.timed_out,
            credits_change=change,
            credits=credits,
            **self._box_key(hand.box),
        )
        if trivia.correct:
            return True
        self._stand(hand, index, "trivia_wrong")
        if credits <= 0:
            self._emit("credits_exhausted", **self._box_key(hand.box))
            if wallets is None:
                round_.out_of_credits = True
            else:
                # for this box alone: its remaining hands stand now (they follow
                # this one), the other boxes play on.
                wallets[hand.box].out_of_credits = True
                for later in range(index + 1, len(round_.hands)):
                    other = round_.hands[later]
                    if other.box == hand.box and other.status == "open":
                        self._stand(other, later, "out_of_credits")
        return False

    def _record_action(self, name: str, trivia: TriviaOutcome | None = None) -> tuple[Round, Hand]:
        round_ = self.round
        assert round_ is not None  # only called while a round exists
        round_.actions.append(name if trivia is None else f"{name}:{trivia.code()}")
        return round_, round_.hands[round_.current]


def _hands_in_box(round_: Round, box: int) -> int:
    hands = round_.hands
    if len(round_.boxes) == 1:
        return len(hands)
    count = 0
    for hand in hands:
        if hand.box == box:
            count += 1
    return count


# Every answer of play_actions(), indexed by play_mask().
_PLAY_SETS: Final = tuple(
    frozenset(name for index, name in enumerate(PLAY_ACTIONS) if mask >> index & 1)
    for mask in range(1 << len(PLAY_ACTIONS))
)

_SIMPLE_GAME: Final = "Only Hit and Stand in the simple game"
