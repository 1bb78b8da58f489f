"""The table's view model: what the table template shows, built from the engine's public
view only (nothing the player may not see yet), and the words it shows them with."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from game.core.clock import now_ms, pending_answer_deadline
from game.models import Game, TriviaAttempt
from game.presentation.felt_rules import FeltRule, house_rules, usual_rules_expected
from game.presentation.game_over import GameOverView, game_over_view
from game.presentation.insurance import OFFER_NAMES, EveryBoxQuestion, every_box_question
from game.presentation.lookup import TemplateLookup
from game.presentation.notices import REFUSALS, status_line
from game.presentation.side_bet_menu import (
    SIDE_BET_LABELS,
    SIDE_BET_SLUGS,
    SideBetMenu,
    side_bet_menu,
)
from game.presentation.side_bet_panels import (
    Die,
    SideBetPanels,
    build_side_bet_panels,
    dice_of,
)
from game.rules import sidebets as sb
from game.rules.bets import BANK_SHORT, bet_refusal
from game.rules.daily import DAILY_ROUNDS, is_daily
from game.rules.engine import Engine
from game.rules.lifelines import (
    FIFTY_FIFTY,
    LIFELINE_COST,
    NOT_FOUR_ANSWERS,
    SWAP,
    lifeline_kinds,
    lifeline_refusal,
)
from game.rules.money import CHIP_DOLLARS, display_cents
from game.rules.no_random import NoRandom
from game.rules.options import BLACKJACK_PAYOUTS
from game.rules.public import (
    PublicBox,
    PublicRound,
    RevealedDealer,
    ShoeCommitment,
    SideBetRecord,
    public_view,
)
from game.rules.records import ALLOWED, CREDITS_FOR_CORRECT, CREDITS_FOR_WRONG, PLAY_ACTIONS
from game.rules.storage import game_from_json
from game.rules_pages.content import ratio_text
from game.selectors import (
    TableReads,
    pending_attempt,
    pending_box_entries,
    pending_side_stakes,
    rebet_total,
    selected_box_index,
)

ACTION_LABELS = {
    "hit": "Hit",
    "stand": "Stand",
    "double": "Double Down",
    "split": "Split",
    "surrender": "Surrender",
}
ACTION_KEYS = {"hit": "h", "stand": "s", "double": "d", "split": "p", "surrender": "r"}
# The turn's two main choices, drawn with equal weight.
MAIN_CHOICES = frozenset({"hit", "stand"})
# Why Deal waits (its title, and the line under it) while nothing is bet.
DEAL_NEEDS_A_BET = "Deal: place a bet first (a chip, or an amount)."
RESULT_LABELS = {
    "win": "Win",
    "natural": "Blackjack!",
    "push": "Push",
    "lose": "Lose",
    "surrender": "Surrender",
}
HOW_LABELS = {
    "higher_total": "higher total",
    "lower_total": "lower total",
    "equal_total": "equal totals",
    "bust": "bust",
    "dealer_bust": "dealer bust",
    "charlie": "Charlie",
    "dealer_charlie": "dealer Charlie",
    "natural": "natural",
    "dealer_natural": "dealer blackjack",
    "surrender": "surrendered",
    "forfeit": "forfeited (game ended)",
}
STATUS_MESSAGES = {
    "bust": "Bust",
    "charlie": "Charlie",
    "surrendered": "Surrender",
    "natural": "Blackjack!",
}
# The hand's result as the badge on the felt says it (UI.md "The look of the table").
BADGES = {
    "win": "WIN",
    "natural": "BLACKJACK",
    "push": "PUSH",
    "lose": "LOSE",
    "surrender": "SURRENDER",
}
# A win or a loss whose "how" has a badge of its own.
HOW_BADGES = {"charlie": "CHARLIE", "bust": "BUST"}
DEALER_RULE_LINES = {
    "S17": "Dealer stands on all 17s",
    "H17": "Dealer hits soft 17",
    "S16": "Dealer stands on all 16s",
    "H16": "Dealer hits soft 16",
}
DEALER_MESSAGES = {"bust": "Bust", "charlie": "Charlie", "natural": "Blackjack!", "stand": "Stand"}
# Said on the felt before the first deal of a trivia game (UI.md "The front door").
CREDITS_INTRO = (
    "Credits pay for questions: a wrong answer costs {wrong}, a right one earns {earns}."
)


def describe(total: int, soft: bool) -> str:
    """ "Soft 17" where an ace counts 11, else the plain total (R-3.3)."""
    if total > 21:
        return f"Bust {total}"
    return f"Soft {total}" if soft else str(total)


@dataclass
class ActionButton(TemplateLookup):
    name: str
    label: str
    key: str
    allowed: bool
    reason: str
    # Drawn as one of the turn's two main choices. Hit and Stand, never one of them alone:
    # highlighting never advises (the coach's Hint is the only advice).
    primary: bool = False


# A question's answer buttons: four answers or more are keyed A-D (and 1-4) by position,
# two (True / False) by their first letter.
ANSWER_KEYS = (("a", "A 1", "A"), ("b", "B 2", "B"), ("c", "C 3", "C"), ("d", "D 4", "D"))


@dataclass(frozen=True)
class AnswerButton(TemplateLookup):
    text: str
    key: str  # the data-key table.js presses it by
    shortcut: str  # aria-keyshortcuts
    letter: str = ""  # shown before the text when the answers are lettered


def answer_buttons(answers: list[str], *, lettered: bool = False) -> list[AnswerButton]:
    """The trivia question's answers as buttons, in the order shown, with their keys
    (``lettered``: A, B… even for two, as the two a 50:50 left of four are)."""
    if len(answers) > 2 or lettered:
        return [
            AnswerButton(answer, *ANSWER_KEYS[position % len(ANSWER_KEYS)])
            for position, answer in enumerate(answers)
        ]
    return [AnswerButton(answer, answer[:1].lower(), answer[:1].upper()) for answer in answers]


# R-8.11: the lifelines' buttons, by kind: the accessible name (UI.md) and the action.
LIFELINE_NAMES = {FIFTY_FIFTY: "50:50", SWAP: "Swap"}
LIFELINE_ACTIONS = {FIFTY_FIFTY: "fifty_fifty", SWAP: "swap"}
LIFELINE_COST_TEXT = f"{LIFELINE_COST} credit" + ("" if LIFELINE_COST == 1 else "s")
LIFELINE_HINTS = {
    FIFTY_FIFTY: "Takes away two wrong answers.",
    SWAP: "Another question of the same difficulty.",
}


@dataclass(frozen=True)
class LifelineButton(TemplateLookup):
    """A lifeline on the question shown: usable, or shown disabled with the reason."""

    kind: str
    name: str  # "50:50" or "Swap"
    url_name: str  # its key in the table's urls
    hint: str
    cost: str = LIFELINE_COST_TEXT
    reason: str = ""  # why it cannot be used now ("": it can)

    @property
    def usable(self) -> bool:
        return not self.reason


def lifeline_buttons(
    attempt: TriviaAttempt | None, engine: Engine, deadline: int | None
) -> list[LifelineButton]:
    """The lifelines of the question shown (R-8.11): none when they are off or no question
    waits; 50:50 left out on a two-answer question (there is nothing to halve)."""
    options = engine.options
    if attempt is None or attempt.is_answered or not (options.lifelines and options.trivia_mode):
        return []
    used = lifeline_kinds(attempt.lifelines)
    buttons = []
    for kind in (FIFTY_FIFTY, SWAP):
        code = lifeline_refusal(
            kind,
            enabled=True,
            pending=True,
            used=used,
            answer_count=len(attempt.answers_shown),
            credits=engine.credits,
            time_left_ms=None if deadline is None else deadline - now_ms(),
        )
        if code == NOT_FOUR_ANSWERS and kind not in used:
            continue
        buttons.append(
            LifelineButton(
                kind=kind,
                name=LIFELINE_NAMES[kind],
                url_name=LIFELINE_ACTIONS[kind],
                hint=LIFELINE_HINTS[kind],
                reason="Used." if kind in used else REFUSALS.get(code or "", ""),
            )
        )
    return buttons


@dataclass
class HandView(TemplateLookup):
    number: int
    label: str
    cards: list[str]
    bet: int
    doubled: bool
    total_text: str
    message: str
    active: bool
    result: str | None
    result_label: str
    how_label: str
    winnings: int
    # WIN, BLACKJACK, PUSH, LOSE, BUST, SURRENDER or CHARLIE once the hand is settled.
    badge: str = ""

    @property
    def net(self) -> int:
        """What the hand won or lost, in cents (its winnings less its stake)."""
        return self.winnings - self.bet


# A settled side bet on its circle: its state (the circle's look) and its word.
SIDE_RESULTS = {"win": "won", "lose": "lost", "push": "push"}
SIDE_RESULT_LABELS = {"won": "WON", "lost": "LOST", "push": "PUSH"}
# The dealer's ace offers, settled, as their badge by the betting circle says them.
OFFER_BADGES = {"insurance": "INSURANCE", "even_money": "EVEN MONEY"}


@dataclass(frozen=True)
class SideCircle(TemplateLookup):
    """A side bet's circle beside the betting circle: what rides on it, and how it ended."""

    slug: str
    label: str
    stake: int
    result: str = ""  # "won" / "lost" / "push" once settled
    winnings: int = 0  # paid into the bank
    # What the bet won or lost, in cents: what it paid, and moved onto hand 1's bet (House
    # Money parlayed), less its stake and any fee (the extra bet's).
    net: int = 0
    dice: list[Die] = field(default_factory=list)  # Perfect 11s: the dice it was paid by

    @property
    def result_label(self) -> str:
        return SIDE_RESULT_LABELS.get(self.result, "")


@dataclass(frozen=True)
class OfferBadge(TemplateLookup):
    """Insurance or even money once settled, as a badge by the betting circle."""

    kind: str  # "insurance" or "even_money"
    result: str  # "win" or "lose"
    net: int  # what it won or lost, in cents (its winnings less its stake)

    @property
    def label(self) -> str:
        return OFFER_BADGES[self.kind]

    @property
    def slug(self) -> str:
        return self.kind.replace("_", "-")


def offer_badge(insurance: Mapping[str, Any] | None) -> OfferBadge | None:
    """The badge of a box's insurance or even money; None until it is settled."""
    if not insurance or not insurance["result"]:
        return None
    net = insurance["winnings"] - insurance["stake"]
    return OfferBadge(kind=insurance["kind"], result=insurance["result"], net=net)


@dataclass
class BoxView(TemplateLookup):
    """One box of a table of several (§10 Extensions, seats): its bet and its hands, and
    in a round the results of its own offer and side bets."""

    number: int
    bet: int
    hands: list[HandView] = field(default_factory=list)
    side_circles: list[SideCircle] = field(default_factory=list)
    offer_badge: OfferBadge | None = None
    # Between rounds: the box the chips, the amount and the side-bet menu work on.
    selected: bool = False
    # In a round: the box whose decision is waiting.
    in_play: bool = False

    @property
    def label(self) -> str:
        return f"Box {self.number}"


@dataclass(frozen=True)
class Timer(TemplateLookup):
    """A running deadline as the page shows it: whole seconds left, counted down."""

    kind: str  # "turn" or "answer"
    seconds_left: int

    @property
    def label(self) -> str:
        return "Time to answer" if self.kind == "answer" else "Time to decide"


def _timer(game: Game, engine: Engine, attempt: TriviaAttempt | None) -> Timer | None:
    """The deadline running now, if any: the question's while one is shown, else the
    turn's (choosing a difficulty is still part of the turn's decision)."""
    if attempt is not None:
        kind, deadline = "answer", pending_answer_deadline(game, engine.options)
    else:
        round_ = engine.round
        kind, deadline = "turn", None if round_ is None else round_.deadline
    if deadline is None:
        return None
    # Whole seconds, rounded up: the page never says 0 while a moment is left.
    return Timer(kind=kind, seconds_left=max(0, -((now_ms() - deadline) // 1000)))


@dataclass
class TableView(TemplateLookup):
    game: Game
    phase: str
    panel: str
    bank: int
    credits: int | None
    trivia_mode: bool
    round_number: int
    cards_in_shoe: int | None  # None: an infinite shoe (∞)
    # The open shoe's nonce, commitment and client seed (F-1), None for an older game's shoe.
    shoe_commitment: ShoeCommitment | None
    message: str
    options: dict[str, Any]
    dealer_cards: list[str | None] = field(default_factory=list)
    dealer_total_text: str = ""
    dealer_message: str = ""
    hands: list[HandView] = field(default_factory=list)
    active_hand: HandView | None = None
    other_hands: list[HandView] = field(default_factory=list)
    bet: int = 0
    actions: list[ActionButton] = field(default_factory=list)
    legal: dict[str, str] = field(default_factory=dict)
    attempt: TriviaAttempt | None = None
    # A question answered right: the card is dealt and its reveal shows on the felt.
    revealed: TriviaAttempt | None = None
    # The difficulty Hit and Double Down ask at (remembered per game; Medium at first).
    trivia_difficulty: str = "medium"
    # The category choice beside the difficulty (none on the Daily Shoe, whose questions
    # are the day's): (id, name) of each category with questions, and the game's own.
    trivia_categories: tuple[tuple[int, str], ...] = ()
    trivia_category_id: int | None = None
    # The credits before the answer on screen was counted (the bar shows them after).
    credits_before: int | None = None
    trivia_choice_for: str = ""
    # A Daily Shoe attempt's game: its round's outcome says how others did on the deal (D-6).
    daily: bool = False
    # What every round stakes, in cents, when the table's limits leave no choice (the Daily
    # Shoe's $100, D-5): the bet panel is then Deal alone. 0: the player builds the bet.
    fixed_stake: int = 0
    difficulty_hints: dict[str, int] = field(default_factory=lambda: dict(CREDITS_FOR_CORRECT))
    insurance_cost: int = 0
    round_paid: int = 0
    round_staked: int = 0
    side_bets: Sequence[SideBetRecord] = ()
    insurance: Mapping[str, Any] | None = None
    # The end of the game, once it is over: why, and its figures.
    game_over: GameOverView | None = None
    round_in_progress: bool = False
    accept_reason: str = ""
    # Seats > 1: insurance or even money asked once for every box waiting, or None (the
    # box the offer stage has reached is asked on its own).
    every_box_question: EveryBoxQuestion | None = None
    chips: tuple[int, ...] = CHIP_DOLLARS
    side_panels: SideBetPanels = field(default_factory=SideBetPanels)
    side_circles: list[SideCircle] = field(default_factory=list)
    # Insurance or even money, settled: its badge by the betting circle (one box).
    offer_badge: OfferBadge | None = None
    # the clock of the decision or answer on screen, if one runs.
    timer: Timer | None = None
    # §10 Extensions, seats > 1: every box, left to right (empty for one box).
    boxes: list[BoxView] = field(default_factory=list)
    # The table's surprising rules, printed on the felt after the usual line, each a link.
    house_rules: list[FeltRule] = field(default_factory=list)
    # The usual line says only what players expect (3 to 2, stands on soft 17).
    usual_rules_expected: bool = True
    # On a round's outcome: what Rebet stakes again (0: nothing to repeat), and why it
    # cannot when the bank no longer covers it.
    rebet_stakes: int = 0
    rebet_refusal: str = ""
    # 50:50 and Swap beside the question shown (empty: none offered).
    lifelines: list[LifelineButton] = field(default_factory=list)

    @property
    def offer_name(self) -> str:
        """The dealer's ace offer on the panel: "Insurance" or "Even money"."""
        return OFFER_NAMES.get(self.panel, "")

    @property
    def insurance_label(self) -> str:
        """The round's insurance (or even money) row of the outcome."""
        if not self.insurance:
            return ""
        return OFFER_NAMES["even_money" if self.insurance["kind"] == "even_money" else "insurance"]

    @property
    def trivia_action_label(self) -> str:
        """The play a difficulty is being chosen for: Hit or Double Down."""
        return ACTION_LABELS["double" if self.trivia_choice_for == "double" else "hit"]

    @property
    def trivia_stake_line(self) -> str:
        """What the question on screen (or the difficulty chosen for it) is for: a double
        says what is at stake."""
        action = self.attempt.action if self.attempt else self.trivia_choice_for
        if action == "double" and self.active_hand is not None:
            doubled = display_cents(2 * self.active_hand.bet)
            return f"Double to {doubled}: answer to draw one card."
        return "Hit: answer to draw a card."

    @property
    def answer_buttons(self) -> list[AnswerButton]:
        if self.attempt is None:
            return []
        halved = FIFTY_FIFTY in lifeline_kinds(self.attempt.lifelines)
        return answer_buttons(self.attempt.answers_shown, lettered=halved)

    @cached_property
    def side_bet_menu(self) -> SideBetMenu:
        """The bet panel's side-bet menu, from the Game row alone (no queries)."""
        return side_bet_menu(self.game)

    @property
    def credits_intro(self) -> str:
        """What credits are for, in one line on the felt of a trivia game's first round,
        before its deal (the felt's hands are empty then); "" at any other time."""
        if not self.trivia_mode or self.round_number or self.game.is_over or self.boxes:
            return ""
        earns = ", ".join(f"{level.title()} +{n}" for level, n in CREDITS_FOR_CORRECT.items())
        return CREDITS_INTRO.format(wrong=-CREDITS_FOR_WRONG, earns=earns)

    @property
    def felt_rules(self) -> str:
        """The table's rules printed on the felt, the way casinos do."""
        options = self.options
        payout = ratio_text(BLACKJACK_PAYOUTS[options["blackjack_payout"]])
        lines = [f"Blackjack pays {payout}", DEALER_RULE_LINES[options["dealer_stands_on"]]]
        if options.get("insurance"):
            lines.append("Insurance pays 2 to 1")
        return " · ".join(lines)

    @property
    def side_bet_spots(self) -> bool:
        """Whether the felt rings the main circle with side-bet spots in this game (one box,
        side bets on): the circles' row keeps their height all game long."""
        options = self.options
        return bool(options.get("side_bets")) and not options.get("simple") and not self.boxes

    @property
    def stake_total(self) -> int:
        """What is bet, in cents, for the status bar: every cent the round on the felt took
        from the bank (bets, side bets, fees), or between rounds the bet being built."""
        if self.hands:
            return self.round_staked
        return rebet_total(self.game, int(self.options.get("seats", 1)))

    @property
    def fixed_stake_text(self) -> str:
        """The bet panel's line at a fixed stake: what each round stakes, and on the Daily
        Shoe which of its rounds comes next."""
        stake = display_cents(self.fixed_stake)
        if self.daily:
            upcoming = min(self.round_number + 1, DAILY_ROUNDS)
            return (
                f"Round {upcoming} of {DAILY_ROUNDS} · every round stakes {stake}, "
                "the same for everyone."
            )
        return f"Every round stakes {stake}: the table's limits allow no other bet."

    @property
    def deal_refusal(self) -> str:
        """Why Deal is disabled, or "" when it is not: nothing is bet yet. On a round's
        outcome the next bet starts from zero (Rebet repeats the last one)."""
        if self.panel == "outcome":
            return DEAL_NEEDS_A_BET
        bets = [box.bet for box in self.boxes] if self.boxes else [self.bet]
        return "" if any(bets) else DEAL_NEEDS_A_BET

    @property
    def stake_chips(self) -> list[int]:
        """The stake in the betting circle as a stack of chips (dollar values, biggest first)."""
        return chip_stack(self.active_hand.bet if self.active_hand else self.bet)

    @property
    def discard_level(self) -> int:
        """How full the discard tray is drawn: 0 (empty) to DISCARD_LEVELS (all dealt)."""
        return discard_level(self.cards_in_shoe, self.options.get("deck_count"))

    @property
    def hands_before(self) -> list[HandView]:
        """Split hands left of the one in play (played already), as at the table."""
        active = self.active_hand
        return [hand for hand in self.other_hands if active and hand.number < active.number]

    @property
    def hands_after(self) -> list[HandView]:
        active = self.active_hand
        return [hand for hand in self.other_hands if active and hand.number > active.number]

    @property
    def paid_chips(self) -> list[int]:
        """At the round's end, the chips the dealer pays into the circle (the net win)."""
        return chip_stack(self.net) if self.panel == "outcome" and self.net > 0 else []

    @property
    def round_won(self) -> bool:
        """The round on the felt is over and came out in the player's favour (the table's
        data-round-won, which the win sound of static/js/sound.js waits for)."""
        over = self.panel == "outcome" or (self.panel == "game_over" and bool(self.hands))
        return over and self.net > 0

    @property
    def stake_taken(self) -> bool:
        """At the round's end, the dealer takes the stake (a net loss)."""
        return self.panel == "outcome" and self.net < 0

    @property
    def between_rounds(self) -> bool:
        return not self.round_in_progress and not self.game.is_over

    @property
    def can_shuffle_now(self) -> bool:
        """Shuffle now (F-6): between rounds of a game that goes on, no question open."""
        return self.between_rounds and self.attempt is None

    @property
    def version(self) -> int:
        """The game's version the page is rendered from (every action form sends it back):
        read by the templates from here, in one lookup rather than through the model."""
        return self.game.version

    @property
    def net(self) -> int:
        return self.round_paid - self.round_staked

    @property
    def felt_amounts(self) -> list[int]:
        """Every result amount the felt shows, in cents: the hands' badges, the offers'
        badges and the settled side bets' circles, of every box. The round's total (``net``)
        is their sum."""
        offers = [self.offer_badge, *(box.offer_badge for box in self.boxes)]
        circles = [
            *self.side_circles,
            *(circle for box in self.boxes for circle in box.side_circles),
        ]
        return [
            *(hand.net for hand in self.hands if hand.badge),
            *(badge.net for badge in offers if badge is not None),
            *(circle.net for circle in circles if circle.result),
        ]

    @property
    def unavailable_actions(self) -> list[ActionButton]:
        """The disabled play buttons and why, listed on the player's turn only.

        Elsewhere every play button is off for the same plain reason (another decision comes
        first), so a list there would only repeat it.
        """
        if self.panel != "player_turn":
            return []
        return [action for action in self.actions if not action.allowed and action.reason]


def hand_badge(result: str | None, how: str | None) -> str:
    if not result:
        return ""
    return HOW_BADGES.get(how or "") or BADGES.get(result, "")


MAX_STACK = 8
# The discard tray is drawn at one of a few heights (CSS classes, not inline styles: the
# CSP forbids them): a quarter of the shoe dealt more each step.
DISCARD_LEVELS = 4
CARDS_IN_A_DECK = 52


def discard_level(cards_in_shoe: int | None, deck_count: object) -> int:
    """The tray's fill, from the cards left of a shoe of ``deck_count`` decks: the first
    card dealt shows in the tray; an infinite shoe (nothing left over to discard) none."""
    if cards_in_shoe is None or not isinstance(deck_count, int) or deck_count < 1:
        return 0
    shoe = deck_count * CARDS_IN_A_DECK
    dealt = min(max(shoe - cards_in_shoe, 0), shoe)
    return -(-dealt * DISCARD_LEVELS // shoe)  # rounded up


def chip_stack(cents: int) -> list[int]:
    """Fewest chips that make the amount (whole dollars; cents are not chips), at most
    MAX_STACK of them drawn: the amount is printed beside the stack anyway."""
    dollars, chips = cents // 100, []
    for chip in sorted(CHIP_DOLLARS, reverse=True):
        count, dollars = divmod(dollars, chip)
        chips += [chip] * count
    return chips[:MAX_STACK]


def table_view(game: Game, engine: Engine | None = None, *, reads: TableReads) -> TableView:
    """Everything the table template shows; nothing the player may not see yet. Built
    from the row, its engine and what the view read beside them (``reads``): no query.

    ``engine``: the one the action just ran on the row (None: rebuilt from the stored
    state)."""
    if engine is None:
        engine = game_from_json(game.state, rng=NoRandom("rendering the table"))
    public = public_view(engine)
    round_ = public.round
    attempt = pending_attempt(game) if round_ and engine.round_in_progress else None
    view = TableView(
        game=game,
        phase="betting",
        panel="bet",
        bank=public.bank,
        credits=public.credits,
        trivia_mode=engine.options.trivia_mode,
        round_number=public.round_number,
        cards_in_shoe=public.cards_in_shoe,
        shoe_commitment=public.shoe_commitment,
        message=status_line(game, engine),
        options=public.options,
        legal=public.legal_actions,
        attempt=attempt,
        trivia_choice_for=game.trivia_choice_for,
        trivia_difficulty=game.trivia_difficulty or "medium",
        trivia_categories=() if is_daily(engine) else reads.categories,
        trivia_category_id=game.trivia_category_id,
        bet=game.pending_bet_cents,
        round_in_progress=engine.round_in_progress,
        house_rules=house_rules(engine.options),
        usual_rules_expected=usual_rules_expected(engine.options),
        daily=is_daily(engine),
        fixed_stake=fixed_stake(engine),
    )
    show_round = round_ is not None and (engine.round_in_progress or game.showing_outcome)
    if show_round:
        assert round_ is not None
        _fill_round(view, round_, engine)
        view.side_panels = build_side_bet_panels(round_, engine, view.legal)
    if attempt is not None and attempt.is_answered and view.credits is not None:
        # The credits counter moves when the reveal appears, not at Continue.
        view.credits_before = view.credits
        view.credits = max(0, view.credits + (attempt.credits_change or 0))
    if view.trivia_mode and attempt is None:
        view.revealed = reads.revealed
    if not show_round:
        view.side_circles = _pending_side_circles(game)
    if engine.round_in_progress:
        view.timer = _timer(game, engine, attempt)
        view.lifelines = lifeline_buttons(
            attempt, engine, pending_answer_deadline(game, engine.options)
        )
    if engine.options.seats > 1:
        view.boxes = _boxes(game, engine, round_ if show_round else None, view.hands)
        if view.every_box_question is not None:
            for box in view.boxes:  # asked of every box at once: none is singled out
                box.in_play = False
    if game.is_over:
        view.phase, view.panel = "game_over", "game_over"
        view.game_over = game_over_view(
            game, trivia_mode=view.trivia_mode, best_hand=reads.best_hand, answers=reads.answers
        )
    elif view.panel == "outcome":
        _offer_rebet(view, game, engine)
    return view


def fixed_stake(engine: Engine) -> int:
    """The one stake a single box without side bets can take when the minimum and maximum
    bets are equal, in cents; 0 when the player chooses the bet."""
    options = engine.options
    if options.min_bet != options.max_bet or options.seats > 1 or options.side_bets:
        return 0
    return options.min_bet


def daily_round_shown(view: TableView) -> int | None:
    """The Daily Shoe round whose outcome the table shows (D-6), None for any other view."""
    shown = view.panel == "outcome" or (view.panel == "game_over" and bool(view.hands))
    return view.round_number if view.daily and shown and view.round_number else None


def _offer_rebet(view: TableView, game: Game, engine: Engine) -> None:
    """Rebet on a round's outcome: the last round's stakes, if the bank still covers them."""
    if game.pending_bet_cents <= 0:
        return
    view.rebet_stakes = rebet_total(game, engine.options.seats)
    if bet_refusal(view.rebet_stakes, bank=engine.bank) == BANK_SHORT:
        view.rebet_refusal = REFUSALS[BANK_SHORT].format(bank=display_cents(engine.bank))


def _boxes(
    game: Game, engine: Engine, round_: PublicRound | None, hands: list[HandView]
) -> list[BoxView]:
    """The boxes side by side: between rounds their pending bets (the selected one taking
    the chips), in a round their hands, the box in play marked."""
    seats = engine.options.seats
    if round_ is None or round_.boxes is None:
        selected = selected_box_index(game, seats)
        return [
            BoxView(number=index + 1, bet=entry["bet"], selected=index == selected)
            for index, entry in enumerate(pending_box_entries(game, seats))
        ]
    in_play = round_.current_box if engine.round_in_progress else None
    dice = _dice_by_box(round_)
    boxes = []
    for index, box in enumerate(round_.boxes):
        box_hands = [hands[i] for i in box.hand_indices]
        for position, hand in enumerate(box_hands, start=1):
            hand.label = f"Box {index + 1}" + (
                f", hand {position} of {len(box_hands)}" if len(box_hands) > 1 else ""
            )
        boxes.append(
            BoxView(
                number=index + 1,
                bet=box.bet,
                hands=box_hands,
                side_circles=_round_side_circles(box, dice.get(index + 1, [])),
                offer_badge=offer_badge(box.insurance),
                in_play=index == in_play,
            )
        )
    return boxes


def _pending_side_circles(game: Game) -> list[SideCircle]:
    """Between rounds: the stakes being built in the drawer (chips put in the drawer land
    in these circles)."""
    stakes = pending_side_stakes(game) if game.options.get("side_bets") else {}
    return [
        SideCircle(slug=SIDE_BET_SLUGS[name], label=SIDE_BET_LABELS[name], stake=stake)
        for name, stake in stakes.items()
    ]


def _round_side_circles(box: PublicRound | PublicBox, dice: Sequence[int]) -> list[SideCircle]:
    """A box's side bets in a round, the extra bet too once placed, each with its result
    once settled; ``box`` is the round's public view (one box) or one of its ``boxes``,
    ``dice`` the Perfect 11s dice rolled for it."""
    settled = {record["name"]: record for record in box.side_bets}
    stakes = dict(box.side_stakes)
    if box.extra_bet is not None:
        stakes[sb.EXTRA_BET_BLACKJACK] = box.extra_bet["stake"]
    return [_side_circle(name, stake, settled.get(name), dice) for name, stake in stakes.items()]


def _side_circle(
    name: str, stake: int, record: SideBetRecord | None, dice: Sequence[int]
) -> SideCircle:
    circle = SideCircle(slug=SIDE_BET_SLUGS[name], label=SIDE_BET_LABELS[name], stake=stake)
    if record is None or not record["result"]:
        return circle
    return replace(
        circle,
        result=SIDE_RESULTS[record["result"]],
        winnings=record["winnings"],
        net=record["winnings"] + record["parlayed"] - record["stake"] - record["fee"],
        dice=dice_of(dice) if name == sb.PERFECT_11S else [],
    )


def _dice_by_box(round_: PublicRound) -> dict[int, tuple[int, ...]]:
    """The round's Perfect 11s dice by box number. The dice are rolled box by box, left to
    right, each roll settling that box's bet at once (R-SB-12): the n-th bet settled on a
    suited 11 was paid by the n-th three dice."""
    rolled = [
        record.get("box", 1)
        for record in round_.side_bets
        if record["name"] == sb.PERFECT_11S and (record["condition"] or "").startswith("suited_11")
    ]
    dice = round_.dice
    return {box: dice[n * sb.DICE_COUNT : (n + 1) * sb.DICE_COUNT] for n, box in enumerate(rolled)}


def _fill_round(view: TableView, round_: PublicRound, engine: Engine) -> None:
    view.phase = round_.phase
    view.bet = round_.bet
    dealer = round_.dealer
    view.dealer_cards = list(dealer.cards)
    if isinstance(dealer, RevealedDealer):
        view.dealer_total_text = describe(dealer.total, dealer.soft)
        view.dealer_message = DEALER_MESSAGES.get(dealer.result or "", "")
    else:
        view.dealer_total_text = describe(dealer.upcard_total, dealer.upcard_soft)
        if round_.dealer_peeked_no_natural:
            view.dealer_message = "Peeks for natural: no blackjack"
    if round_.phase == "dealer_turn":
        view.dealer_message = "Hitting"
    hands = round_.hands
    current = round_.current_hand
    in_play = engine.round_in_progress
    for index, hand in enumerate(hands):
        label = "Player" if len(hands) == 1 else f"Hand {index + 1} of {len(hands)}"
        message = STATUS_MESSAGES.get(hand.status, "")
        if hand.status == "stood":
            message = {"trivia_wrong": "Stand (wrong answer)", "twenty_one": "Stand on 21"}.get(
                hand.stand_reason or "", "Stand"
            )
        view.hands.append(
            HandView(
                number=index + 1,
                label=label,
                cards=list(hand.cards),
                bet=hand.bet,
                doubled=hand.doubled,
                total_text=describe(hand.total, hand.soft),
                message=message,
                active=in_play and index == current,
                result=hand.result,
                result_label=RESULT_LABELS.get(hand.result or "", ""),
                how_label=HOW_LABELS.get(hand.how or "", hand.how or ""),
                winnings=hand.winnings,
                badge=hand_badge(hand.result, hand.how),
            )
        )
    view.active_hand = view.hands[min(current, len(view.hands) - 1)] if view.hands else None
    view.other_hands = [hand for hand in view.hands if hand is not view.active_hand]
    view.round_paid = round_.paid
    view.round_staked = round_.staked
    view.side_bets = round_.side_bets
    view.insurance = round_.insurance
    if round_.boxes is None:
        # One box: its offer and side bets by the betting circle (several: by each box).
        view.offer_badge = offer_badge(round_.insurance)
        view.side_circles = _round_side_circles(round_, _dice_by_box(round_).get(1, []))
    view.insurance_cost = engine.insurance_cost()
    if view.phase in ("insurance", "even_money"):
        reason = view.legal.get(f"{view.phase}:accept", "")
        view.accept_reason = "" if reason == ALLOWED else reason
        view.every_box_question = every_box_question(view.game, engine)
    legal = view.legal
    trivia_open = view.attempt is not None
    view.actions = [
        ActionButton(
            name=name,
            label=ACTION_LABELS[name],
            key=ACTION_KEYS[name],
            allowed=legal.get(name) == ALLOWED and not trivia_open,
            reason="Answer the trivia question first"
            if trivia_open and legal.get(name) == ALLOWED
            else ("" if legal.get(name) == ALLOWED else legal.get(name, "")),
        )
        for name in PLAY_ACTIONS
    ]
    for action in view.actions:
        action.primary = action.name in MAIN_CHOICES
    if not in_play:
        view.panel = "outcome"
    elif view.attempt is not None:
        view.panel = "trivia_reveal" if view.attempt.is_answered else "trivia_question"
    elif view.phase == "player_turn" and view.trivia_choice_for:
        view.panel = "trivia_difficulty"
    else:
        view.panel = view.phase
