"""The coach: the basic-strategy hint for the hand in play, and the check of
a move against basic strategy when the game's Coach setting is on.

Everything here is worked out from the engine's public view
(``game.rules.public.public_view``): the player's cards, the dealer's upcard, the legal
actions and the options. The hole card and the shoe are never looked at, so a hint
cannot give away what the player may not see. The strategy itself is
``game.rules.strategy``; this module only asks it.

Decisions (the issue is silent on them):

- Deviations are judged and recorded only while Coach is on: the count on the
  statistics page is then the number of moves the coach marked, which is what the
  player saw, and a game without the coach does no extra work per move.
- A move is judged when it is chosen: Hit in trivia mode counts at the click, before
  the question. Insurance or even money taken is a deviation (basic strategy never
  takes it); declining is never one. The early-surrender offer is judged both ways
  against the published early-surrender table (``strategy.recommend_early_surrender``).
  The side-bet offers are not judged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from game.models import CoachDeviation, Game
from game.rules import cards
from game.rules.engine import Engine
from game.rules.hands import hand_total
from game.rules.no_random import NoRandom
from game.rules.public import PublicGame, PublicHand, PublicRound, public_view
from game.rules.records import ALLOWED, PLAY_ACTIONS
from game.rules.storage import game_from_json
from game.rules.strategy import (
    StrategyRules,
    recommend,
    recommend_early_surrender,
    recommend_insurance,
)
from game.services.results import Played

MOVE_LABELS = {
    "hit": "Hit",
    "stand": "Stand",
    "double": "Double Down",
    "split": "Split",
    "surrender": "Surrender",
    "decline": "Decline",
}
OFFER_PHASES = ("insurance", "even_money")
EARLY_SURRENDER_PHASE = "early_surrender"
# Panels where a decision the coach can advise on is waiting for the player.
HINT_PANELS = frozenset({"player_turn", EARLY_SURRENDER_PHASE, *OFFER_PHASES})


@dataclass(frozen=True)
class CoachAdvice:
    """The basic-strategy move for the decision in front of the player."""

    action: str  # a play action, or "decline" for an offer (insurance, early surrender …)
    reason: str  # the strategy's one-line reason
    situation: str  # e.g. "hard 17 against 10"

    @property
    def label(self) -> str:
        return MOVE_LABELS[self.action]

    @property
    def hint_text(self) -> str:
        return f"Basic strategy: {self.label} — {self.reason}"

    @property
    def deviation_note(self) -> str:
        return f"Coach: basic strategy was {self.label} ({self.situation})."


@dataclass(frozen=True)
class Deviation:
    """A move that differed from the advice, with where in the game it was made."""

    move: str
    advice: CoachAdvice
    round_number: int
    hand_index: int


def advice_for(public: PublicGame) -> CoachAdvice | None:
    """Basic strategy for the decision pending in ``public`` (an engine public view),
    or None when no play decision or insurance offer is pending."""
    round_ = public.round
    if round_ is None or public.game_over:
        return None
    phase = round_.phase
    if phase in OFFER_PHASES:
        offer = "insurance" if phase == "insurance" else "even money"
        advice = recommend_insurance()
        return CoachAdvice(advice.action, advice.reason, f"never take {offer}")
    upcard = round_.dealer.cards[1]
    if phase == EARLY_SURRENDER_PHASE and upcard is not None:
        first = _offered_hand(round_).cards
        rules = StrategyRules.from_options(public.options)
        advice = recommend_early_surrender(first, upcard, rules=rules)
        return CoachAdvice(advice.action, advice.reason, situation(first, upcard))
    if phase != "player_turn":
        return None
    hand = round_.hands[round_.current_hand]
    legal = public.legal_actions
    allowed = frozenset(name for name in PLAY_ACTIONS if legal.get(name) == ALLOWED)
    if not allowed or upcard is None:
        return None
    rules = StrategyRules.from_options(public.options)
    cards_ = hand.cards
    try:
        advice = recommend(cards_, upcard, rules=rules, allowed=allowed, is_split_hand=hand.split)
    except ValueError:
        return None  # nothing basic strategy may choose among (never on a live hand)
    return CoachAdvice(advice.action, advice.reason, situation(cards_, upcard))


def _offered_hand(round_: PublicRound) -> PublicHand:
    """The hand an offer is made for: hand 1, or with several boxes the first hand of the
    box the offer is made to (§10 seats: offers go box by box)."""
    boxes = round_.boxes
    if boxes and round_.current_box is not None:
        return boxes[round_.current_box].hands[0]
    return round_.hands[0]


def situation(hand_cards: Sequence[str], upcard: str) -> str:
    """The hand against the upcard in a few words: "soft 17 against 6", "pair of 8s …"."""
    total, soft = hand_total(hand_cards)
    if len(hand_cards) == 2 and cards.rank(hand_cards[0]) == cards.rank(hand_cards[1]):
        what = f"pair of {_rank_name(hand_cards[0])}s"
    else:
        what = f"soft {total}" if soft else f"hard {total}"
    return f"{what} against {_upcard_name(upcard)}"


def _rank_name(card: str) -> str:
    if cards.is_ace(card):
        return "ace"
    return "10" if cards.is_ten_card(card) else cards.rank(card)


def _upcard_name(card: str) -> str:
    return "an ace" if cards.is_ace(card) else _rank_name(card)


def hint_for_game(game: Game) -> CoachAdvice | None:
    """The hint for the saved game (loaded without randomness; nothing is changed)."""
    if not game.state:
        return None
    engine = game_from_json(game.state, rng=NoRandom("working out a hint"), record_events=False)
    return advice_for(public_view(engine))


def judge(game: Game, engine: Engine, move: str) -> Deviation | None:
    """Call before the move is applied: the deviation it makes, if Coach is on.

    ``move`` is a play action, "insurance" / "even_money" for an offer accepted
    (declining those follows basic strategy and is never passed here), or "surrender" /
    "decline" for the answer to the early-surrender offer.
    """
    if not game.coach:
        return None
    public = public_view(engine)
    advice = advice_for(public)
    if advice is None:
        return None
    chosen = "accept" if move in OFFER_PHASES else move
    if chosen == advice.action:
        return None
    round_ = public.round
    assert round_ is not None  # advice is given only in a round
    return Deviation(move, advice, round_.number, round_.current_hand)


def record(played: Played, deviation: Deviation | None) -> Played:
    """Store the deviation against the game's version after the move (call after saving);
    the action's result with the coach's note on the move, when there is one."""
    if deviation is None:
        return played
    game = played.game
    note = deviation.advice.deviation_note[:200]
    CoachDeviation.objects.create(
        game=game,
        round_number=deviation.round_number,
        hand_index=deviation.hand_index,
        move=deviation.move,
        advised=deviation.advice.action,
        note=note,
        game_version=game.version,
    )
    # The table shown after this move says it without reading it back.
    return replace(played, coach_note=note)
