"""What each viewer sees of a shared table, and every word the shared-table pages say.

One view model per viewer (T-4, T-11): a seated player sees their own pending question,
offer and buttons; everyone else (other seats, watchers) sees that the player is
answering, and the question with both answers only once revealed. Built from the
engine's public view, which never holds the hole card or the shoe (R-2.3).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from game.errors import ActionRefused
from game.presentation import notices
from game.presentation.felt_rules import FeltRule, house_rules
from game.presentation.lookup import TemplateLookup
from game.presentation.notices import PHASE_LINES
from game.presentation.side_bet_menu import SIDE_BET_LABELS, SideBetMenu, menu_for
from game.presentation.side_bet_panels import (
    DIE_INFINITY_TEXT,
    LOST,
    NOT_PLAYED,
    PARLAY_LABELS,
    DiceRollPanel,
    ExtraBetPanel,
    ParlayPanel,
    SideBetRow,
    condition_text,
    dice_roll_panel,
    parlay_panel,
    result_rows,
)
from game.presentation.table import (
    ACTION_KEYS,
    ACTION_LABELS,
    DEALER_RULE_LINES,
    ActionButton,
    AnswerButton,
    answer_buttons,
    describe,
    hand_badge,
)
from game.rules import sidebets as sb
from game.rules.cards import card_name
from game.rules.engine import Game as EngineGame
from game.rules.fair import CommittedShoes
from game.rules.money import AMOUNT_FORMAT_REFUSAL, CHIP_CENTS, display_cents
from game.rules.public import public_view
from game.rules.records import ALLOWED, DEALING, HOUSE_MONEY_PARLAY, PLAYER_TURN
from game.rules.storage import game_from_json
from game.rules_pages.content import ratio_text
from game.tables import services
from game.tables.models import Seat, SharedTable, TableEvent, TableQuestion
from trivia.models import DIFFICULTY_LABELS

OFFER_BUTTONS = {
    "insurance": (("insurance:accept", "Take Insurance"), ("insurance:decline", "No Insurance")),
    "even_money": (
        ("even_money:accept", "Take Even Money"),
        ("even_money:decline", "No Even Money"),
    ),
    "early_surrender": (
        ("early_surrender:accept", "Surrender"),
        ("early_surrender:decline", "Play On"),
    ),
    # T-7's side-bet decisions, with the single-player names (UI.md): Place Extra Bet
    # (with the amount typed beside it) / Decline, the four parlay choices, Roll.
    "extra_bet": (("extra_bet", "Place Extra Bet"), ("extra_bet:decline", "Decline")),
    "parlay": tuple((f"parlay:{choice}", PARLAY_LABELS[choice]) for choice in sb.PARLAY_CHOICES),
    "roll": (("roll", "Roll"),),
}
# The round's phase while an offer stage is open, by the offer it makes (the dice are
# rolled while the round is still "dealing", R-4.3).
PHASE_OFFERS = {
    "insurance": "insurance",
    "even_money": "even_money",
    "early_surrender": "early_surrender",
    "extra_bet": "extra_bet",
    HOUSE_MONEY_PARLAY: "parlay",
    DEALING: "roll",
}
# Each offer's question: the single-player game's line for that phase ("Insurance?"),
# except where a shared table's words say more. The whole table reads the question in the
# headline while the offer is open, so it names what won ("House Money: parlay?" would
# not say that the offer exists only because House Money won).
OFFER_QUESTIONS = {
    **{offer: PHASE_LINES[phase] for phase, offer in PHASE_OFFERS.items()},
    "parlay": "House Money won: collect or parlay?",
    "roll": "Perfect 11s won: roll the Infinity dice.",
}
# The offers by name in the log ("ana is offered the extra bet").
OFFER_NAMES = {
    "insurance": "insurance",
    "even_money": "even money",
    "early_surrender": "early surrender",
    "extra_bet": "the extra bet",
    "parlay": "the House Money parlay",
    "roll": "the Perfect 11s dice",
}
OFFER_TEXTS = {
    "extra_bet": (
        "Your first card is a ten-card: you may bet from {smallest} up to {largest} on your "
        "hand (at most 5× your bet of {base_bet}). It pays 2 to 1 if the hand wins and is "
        "returned on a push. A fee of 20% is taken with it and never returned."
    ),
    "parlay": (
        "{condition} pays {ratio}: your {stake} stake returns {winnings}. Money you parlay "
        "is added to your bet (now {base_bet}) and rides on it."
    ),
    "roll": (
        "Your suited 11 wins Perfect 11s (stake {stake}). Each of the three dice has one "
        "infinity face; infinities raise the payout."
    ),
}
EXTRA_BET_UNAFFORDABLE = "Your bank does not cover the smallest extra bet and its fee."
# A seat's side bets on the felt, one short line each.
SIDE_BET_STAKE_LINE = "{title} {stake}"
EXTRA_BET_ACTIVE_LINE = "Extra Bet Blackjack active"
SIDE_BET_FEE = " (fee {fee})"
SIDE_BET_PAID = ", paid {winnings}"
SIDE_BET_PARLAYED = ", {parlayed} parlayed"
SIDE_BET_TO_BE_PAID = ", payout to come"
# The headline of a turn: the player in turn reads their own line (and hears it through
# the page's live region), everyone else the player's name.
YOUR_TURN = "Your turn"
THEIR_TURN = "{name}'s turn"
# What an invitation link says to whoever opens it (UI.md "Shared tables").
INVITATION_LINE = "{host} invited you to their table"


def invitation_line(host: str) -> str:
    return INVITATION_LINE.format(host=host)


# Shown above the table once its live stream has ended for good (table_live.js), by the
# reason the stream gave ("closed") or none (refused: logged out, no longer allowed in).
LIVE_ENDED_NOTICES = {
    "closed": "This table is closed: live updates have ended.",
    "gone": "Live updates have stopped: you may have logged out in another tab, or lost "
    "access to this table. Reload the page to carry on.",
}
# Shown above the table while its live updates cannot come (the server lost Redis, or the
# page lost its stream): the page still refreshes itself, a little later than live.
LIVE_PAUSED_NOTICE = (
    "Reconnecting: live updates are paused, the table refreshes every few seconds meanwhile."
)
# The refusals only a shared table makes; every other reason is one the single-player
# game makes too, worded once there (game/presentation/notices.py).
TABLE_REFUSALS = {
    "too_many_tables": (
        "You host {limit} open tables, the most one player may: close one before creating another."
    ),
    "not_seated": "Take a seat first.",
    "already_seated": "You already have a seat at this table.",
    "seat_taken": "That seat is taken.",
    "no_such_seat": "There is no such seat.",
    "betting_closed": "Betting is closed until the round is over.",
    "already_ready": "Your bet is placed for this round.",
    "no_round_in_play": "No round is in play.",
    "not_your_turn": "It is not your turn.",
    "question_open": "Answer the question first.",
    "no_such_action": "There is no such action.",
    "no_such_answer": "There is no such answer.",
    "host_only": "Only the table's host can do that.",
    "between_rounds_only": "That can be done only between rounds.",
    "bets_placed": "Options can change only before anyone has placed a bet.",
    "table_name_missing": "Give the table a name.",
    "seat_count_out_of_range": "A table has 2 to 7 seats.",
    "intermission_out_of_range": "Betting time is 10 to 60 seconds.",
    "no_such_activation": "Choose Activate or Deactivate.",
    "no_amount": AMOUNT_FORMAT_REFUSAL,
    "bad_version": "This page is out of date: the table has been reloaded, please try again.",
    "shuffle_between_rounds": "The shoe can be shuffled only between rounds.",
    "shoe_new": "The shoe is new: no card has been dealt from it yet.",
}


REFUSALS = {**notices.REFUSALS, **TABLE_REFUSALS}
NOT_ALLOWED = "That is not allowed now."


def refusal_text(error: ActionRefused) -> str:
    """The sentence a refused action at a shared table shows: worded as the single-player
    game words it (``notices.refusal_text``), from the table's own words and the game's."""
    if error.reason not in REFUSALS:
        return NOT_ALLOWED
    try:
        return notices.refusal_text(error, REFUSALS)
    except (KeyError, IndexError):  # a detail missing: the sentence without it
        return REFUSALS[error.reason].split("{")[0].strip() or NOT_ALLOWED


@dataclass
class HandView(TemplateLookup):
    cards: list[str | None]
    total_text: str
    badge: str
    net: int
    message: str
    active: bool


@dataclass(frozen=True)
class RevealView(TemplateLookup):
    """A seat's last question of the round once revealed (T-11): the question, the answer
    given ("" when none came in time) and the right one. Never built before the reveal."""

    question: str
    answer_given: str
    correct_answer: str
    correct: bool


@dataclass
class SeatView(TemplateLookup):
    number: int
    player: str = ""
    is_viewer: bool = False
    bank: int = 0
    credits: int | None = None
    bet: int = 0
    # What rides on the seat's hands now (a double and a split included), else its bet.
    stake: int = 0
    status: str = ""
    hands: list[HandView] = field(default_factory=list)
    in_turn: bool = False
    can_sit: bool = False
    # One short line per side bet: its stake while betting, its result once settled.
    side_bets: list[str] = field(default_factory=list)
    # The seat's last question of the round, once revealed, shown at the seat to everyone.
    reveal: RevealView | None = None

    @property
    def empty(self) -> bool:
        return not self.player

    @property
    def label(self) -> str:
        return f"Seat {self.number}" + (f": {self.player}" if self.player else ", empty")


@dataclass
class QuestionView(TemplateLookup):
    text: str
    difficulty: str
    # As the single-player game shows them: lettered A-D (keys A-D, 1-4), or True / False.
    answers: list[AnswerButton]


@dataclass
class Timer(TemplateLookup):
    label: str
    seconds_left: int


@dataclass(frozen=True)
class ShoeView(TemplateLookup):
    """The open shoe by the felt (F-1): its commitment, nonce and client seed, never its
    server seed (told only once the shoe is finished, on the Fairness page)."""

    nonce: int
    commitment: str
    # The client seed the shoe is dealt with: while no card has left it, the seated
    # players' seeds, which the deal gives it (F-2).
    client_seed: str
    # Why Shuffle now cannot finish the shoe ("" once a card has left it).
    shuffle_reason: str = ""

    @property
    def short(self) -> str:
        return self.commitment[:COMMITMENT_SHOWN] + "…"


COMMITMENT_SHOWN = 10  # hex characters of a commitment shown by the shoe (the rest a click away)


@dataclass
class SharedTableView(TemplateLookup):
    table: SharedTable
    seats: list[SeatView]
    dealer_cards: list[str | None]
    dealer_total_text: str
    headline: str
    timer: Timer | None
    viewer_seat: Seat | None
    is_host: bool
    rules_text: str
    log: list[str]
    # The table's surprising rules, printed on the felt under rules_text, each a link.
    house_rules: list[FeltRule] = field(default_factory=list)
    # The viewer's own controls (empty for a watcher).
    chips: list[int] = field(default_factory=list)
    betting: bool = False
    offer_question: str = ""
    offer_buttons: tuple[tuple[str, str], ...] = ()
    # The turn's plays, as in the single-player game: all five in one order, each disabled
    # with its reason when not allowed, so none moves when another comes or goes.
    play_buttons: list[ActionButton] = field(default_factory=list)
    choosing_difficulty: bool = False
    question: QuestionView | None = None
    last_version: int = 0
    # Side bets (§9): the viewer's stakes while betting (None: off at this table), and the
    # offer open to the viewer's box (T-7) with its panel.
    side_bet_menu: SideBetMenu | None = None
    offer: str = ""
    offer_text: str = ""
    extra_bet: ExtraBetPanel | None = None
    parlay: ParlayPanel | None = None
    dice_roll: DiceRollPanel | None = None
    # The open shoe's commitment (None: a table's shoe from before shoes were committed).
    shoe: ShoeView | None = None
    # The viewer's own client seed (F-2), shown and changed on their seat.
    client_seed: str = ""

    @property
    def seated(self) -> bool:
        return self.viewer_seat is not None and self.viewer_seat.number is not None

    @property
    def docked(self) -> bool:
        """Whether the viewer has something to press now (a bet to make, an offer, a
        question, a play): their controls are then docked to the bottom of the screen, so
        nothing they must press in time is below the fold."""
        return bool(
            self.betting
            or self.question
            or self.choosing_difficulty
            or self.offer_buttons
            or self.play_buttons
        )

    @property
    def seats_taken(self) -> int:
        return sum(1 for seat in self.seats if not seat.empty)

    @property
    def my_seat(self) -> SeatView | None:
        """The viewer's own seat as the felt shows it to them (the status bar's bank,
        credits and stake), None for a watcher."""
        return next((seat for seat in self.seats if seat.is_viewer), None)

    @property
    def seat_version(self) -> int:
        """The version the viewer's own seat actions post (Sit Here, Leave Table, their
        controls): their seat's, or the one a new seat starts from before they ever sat."""
        if self.viewer_seat is None:
            return services.NO_SEAT_VERSION
        return self.viewer_seat.version


def _hand_view(hand: dict[str, Any], active: bool) -> HandView:
    badge = hand_badge(hand.get("result"), hand.get("how")) if hand.get("result") else ""
    return HandView(
        cards=list(hand["cards"]),
        total_text=describe(hand["total"], hand["soft"]),
        badge=badge,
        net=int(hand.get("winnings") or 0) - int(hand["bet"]) if hand.get("result") else 0,
        message="Doubled" if hand.get("doubled") and not badge else "",
        active=active,
    )


def _a(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _seat_status(table: SharedTable, seat: Seat, in_round: bool) -> str:
    question = seat.pending_question
    if question is not None:
        level = DIFFICULTY_LABELS.get(question.difficulty, question.difficulty)
        # T-11: the others see that a question is open and how hard, not the question.
        return f"{seat.player.get_username()} is answering {_a(level)} {level} question"
    if table.phase == SharedTable.Phase.INTERMISSION:
        if seat.ready:
            return "Ready"
        if seat.sitting_out:
            return "Sitting out"
        return "Betting…"
    if not in_round:
        return "Sitting this round out"
    return ""


def rules_text(options: Any) -> str:
    """The main rules in one line (the lobby and the felt): decks, dealer rule, payout,
    trivia, and side bets when the table plays them."""
    decks = "Infinite decks" if options.infinite_decks else f"{options.deck_count} decks"
    if options.deck_count == 1:
        decks = "1 deck"
    # The single-player felt's words for the dealer's rule ("dealer hits soft 17"), not
    # the rule's code; S17 keeps the lobby's shorter "stands on soft 17".
    rule = options.dealer_stands_on
    dealer = (
        "dealer stands on soft 17"
        if rule == "S17"
        else DEALER_RULE_LINES[rule][:1].lower() + DEALER_RULE_LINES[rule][1:]
    )
    trivia = "trivia on" if options.trivia_mode else "trivia off"
    line = f"{decks} · {dealer} · blackjack pays {options.blackjack_payout} · {trivia}"
    # Side bets are the host's choice (T-6, T-7): the lobby says when a table plays them.
    return f"{line} · side bets" if services.side_bets_offered(options) else line


SCENE_EVENTS = 50  # the newest events a scene keeps: the log, and a stream's catching up


@dataclass
class TableScene(TemplateLookup):
    """What every viewer of a table shares at one revision: the seats as a watcher sees
    them, the dealer, the headline, the newest events. Built once per revision and shared
    by every viewer's view (``view_for``); read-only once built (threads share it)."""

    table: SharedTable
    seats: list[Seat]
    engine: EngineGame | None
    seat_views: list[SeatView]  # as the others see them
    # Each taken seat as its own player sees it: marked as theirs, with the bet they are
    # still building (the others see it once placed).
    own_seat_views: dict[int, SeatView]
    dealer_cards: list[str | None]
    dealer_total_text: str
    headline: str
    rules_text: str
    turn_box: int | None
    events: list[TableEvent]  # newest first, at most SCENE_EVENTS
    log: list[str]  # their lines, newest first
    # The box whose player's turn it is (RULES.md §5), None in every other moment: its
    # player reads "Your turn" (``view_for``), everyone else the scene's headline.
    playing_box: int | None = None
    house_rules: list[FeltRule] = field(default_factory=list)
    # Each seat's last question of the round once revealed (T-11), by the seat's id.
    reveals: dict[int, RevealView] = field(default_factory=dict)
    # The engine's public view of the round (None between rounds): the same for everyone,
    # read once per revision, and the viewers' offer panels take their figures from it.
    public_round: dict[str, Any] | None = None
    # Rendered fragments every viewer can share, by key (filled by whoever renders).
    fragments: dict[Any, str] = field(default_factory=dict)
    shoe: ShoeView | None = None

    @property
    def stamp(self) -> tuple[int, int]:
        """What the scene shows: the table's revision and its seats' versions."""
        return (self.table.revision, sum(seat.version for seat in self.seats))


def table_scene(table: SharedTable, previous: TableScene | None = None) -> TableScene:
    """The part of ``table`` every viewer sees alike (three reads: the seats, the newest
    events; the engine's state is the row's own)."""
    seats = services.seats_of_table(table.pk)
    engine = game_from_json(table.state) if table.state else None
    options = engine.options if engine else services.table_options(table.options)
    public = public_view(engine) if engine else {"round": None}
    round_ = public["round"]
    in_round = table.phase == SharedTable.Phase.ROUND and round_ is not None
    turn_box = engine.box_in_turn() if (engine and in_round) else None
    events, log = _newest_events(table, previous)
    reveals = _reveals(table, round_, options.trivia_mode, events, previous)
    seat_views, own_seat_views = _seat_views(
        table, seats, round_, in_round, turn_box, options.trivia_mode, reveals
    )
    dealer_cards: list[str | None] = []
    dealer_total = ""
    if round_ is not None and any(s.hands for s in seat_views):
        dealer = round_["dealer"]
        dealer_cards = list(dealer["cards"])
        if dealer.get("hole_revealed"):
            dealer_total = describe(dealer["total"], dealer["soft"])
        else:
            dealer_total = f"showing {describe(dealer['upcard_total'], dealer['upcard_soft'])}"
    playing = engine is not None and engine.round is not None and engine.round.phase == PLAYER_TURN
    return TableScene(
        table=table,
        seats=seats,
        engine=engine,
        seat_views=seat_views,
        own_seat_views=own_seat_views,
        dealer_cards=dealer_cards,
        dealer_total_text=dealer_total,
        headline=_headline(table, seats, engine, turn_box),
        rules_text=rules_text(options),
        house_rules=house_rules(options),
        turn_box=turn_box,
        events=events,
        log=log,
        public_round=round_,
        playing_box=turn_box if playing else None,
        reveals=reveals,
        shoe=_shoe_view(engine, seats),
    )


def _shoe_view(engine: EngineGame | None, seats: list[Seat]) -> ShoeView | None:
    """The open shoe as the felt shows it (F-1); None when it has no commitment."""
    source = engine.source if engine is not None else None
    if engine is None or not isinstance(source, CommittedShoes):
        return None
    showing = source.showing()
    if showing is None:
        return None
    if engine.shoe.remaining() != engine.shoe.size:
        return ShoeView(showing.nonce, showing.commitment, showing.client_seed)
    client_seed = services.seats_client_seed(seats) or showing.client_seed
    return ShoeView(showing.nonce, showing.commitment, client_seed, TABLE_REFUSALS["shoe_new"])


def _reveals(
    table: SharedTable,
    round_: dict[str, Any] | None,
    trivia_mode: bool,
    events: list[TableEvent],
    previous: TableScene | None,
) -> dict[int, RevealView]:
    """Each seat's last revealed question of the round on the felt, by seat id (T-11):
    read once a round and after each reveal, else carried over from the previous scene.
    Only revealed questions are read: an open one's right answer never reaches a page."""
    if round_ is None or not trivia_mode or not table.round_number:
        return {}
    if (
        previous is not None
        and previous.table.round_number == table.round_number
        and previous.table.version <= table.version
    ):
        new = [event for event in events if event.seq > previous.table.version]
        unseen = table.version - previous.table.version - len(new)
        if not unseen and not any(event.kind == "question_revealed" for event in new):
            return previous.reveals
    return {
        asked.seat_id: _reveal_view(asked)
        for asked in services.revealed_questions(table_id=table.pk, round_number=table.round_number)
    }


def _reveal_view(asked: TableQuestion) -> RevealView:
    return RevealView(
        question=asked.question.text,
        answer_given=asked.answer_given,
        correct_answer=asked.question.correct_answer,
        correct=bool(asked.correct),
    )


def _seat_views(
    table: SharedTable,
    seats: list[Seat],
    round_: dict[str, Any] | None,
    in_round: bool,
    turn_box: int | None,
    trivia_mode: bool,
    reveals: dict[int, RevealView],
) -> tuple[list[SeatView], dict[int, SeatView]]:
    """Every seat as a watcher sees it, and each taken seat as its own player sees it."""
    by_number = {s.number: s for s in seats if s.number is not None}
    # After a round, its boxes stay on the felt (seat.box) until the next deal.
    boxes_by_seat = {s.pk: s.box for s in seats if s.box is not None}
    side_bets_on = services.side_bets_offered(services.table_options(table.options))
    seat_views: list[SeatView] = []
    own_seat_views: dict[int, SeatView] = {}
    for number in range(1, table.seat_count + 1):
        seat = by_number.get(number)
        if seat is None:
            seat_views.append(SeatView(number, can_sit=True))
            continue
        view = SeatView(
            number,
            player=seat.player.get_username(),
            bank=seat.bank_cents,
            credits=seat.credits if trivia_mode else None,
            bet=seat.bet_cents,
            status=_seat_status(table, seat, seat.pk in boxes_by_seat),
        )
        box = boxes_by_seat.get(seat.pk)
        dealt = round_ is not None and box is not None
        if round_ is not None and box is not None:
            view.in_turn = in_round and turn_box == box
            current = round_.get("current_hand")
            for index, hand in enumerate(round_["hands"]):
                if hand.get("box", 1) - 1 == box:
                    view.hands.append(_hand_view(hand, view.in_turn and index == current))
            boxes = round_.get("boxes")
            view.bet = boxes[box]["bet"] if boxes else round_["bet"]
            if in_round:
                view.stake = sum(
                    int(hand["bet"]) for hand in round_["hands"] if hand.get("box", 1) - 1 == box
                )
            view.reveal = reveals.get(seat.pk)
        view.side_bets = seat_side_bet_lines(round_, box, seat, offered=side_bets_on)
        if not view.stake:  # between rounds: the bet being made for the next deal
            view.stake = seat.bet_cents
        own_seat_views[number] = replace(view, is_viewer=True)
        if not (dealt or seat.ready):
            # A bet still being built is its player's own until Ready places it: a chip
            # writes no event, so the others' felt, live or reloaded, shows it alike from
            # its Ready on (T-5, T-10).
            view = replace(view, bet=0, stake=0, side_bets=[])
        seat_views.append(view)
    return seat_views, own_seat_views


def view_for(
    scene: TableScene, viewer: Any, *, log_size: int = 12, may_sit: bool = True
) -> SharedTableView:
    """The table as ``viewer`` may see it (a watcher when not seated; None: a visitor not
    logged in, ``may_sit`` False, who has no Sit Here to press): the scene, the viewer's
    own seat marked, the time left now, and the viewer's own controls."""
    table = scene.table
    viewer_pk = getattr(viewer, "pk", None)
    viewer_seat = (
        next((s for s in scene.seats if s.player_id == viewer_pk), None) if viewer_pk else None
    )
    seated_at = viewer_seat.number if viewer_seat is not None else None
    seat_views = [_as_seen_by(scene, seat_view, seated_at) for seat_view in scene.seat_views]
    if not may_sit:
        seat_views = [replace(seat, can_sit=False) if seat.empty else seat for seat in seat_views]
    view = SharedTableView(
        table=table,
        seats=seat_views,
        dealer_cards=scene.dealer_cards,
        dealer_total_text=scene.dealer_total_text,
        headline=_viewer_headline(scene, viewer_seat),
        timer=_timer(table, scene.seats, scene.engine),
        viewer_seat=viewer_seat,
        is_host=viewer_pk == table.host_id,
        rules_text=scene.rules_text,
        house_rules=scene.house_rules,
        log=scene.log[:log_size],  # newest first
        last_version=table.version,
        shoe=None if table.is_closed else scene.shoe,
        client_seed=viewer_seat.client_seed if viewer_seat is not None else "",
    )
    if viewer_seat is not None and seated_at is not None:
        _fill_controls(view, scene, viewer_seat)
    return view


def _viewer_headline(scene: TableScene, viewer_seat: Seat | None) -> str:
    """The scene's headline, but "Your turn" for the player whose turn it is."""
    playing = scene.playing_box
    if playing is None or viewer_seat is None or viewer_seat.number is None:
        return scene.headline
    return YOUR_TURN if viewer_seat.box == playing else scene.headline


def _as_seen_by(scene: TableScene, seat_view: SeatView, viewer_number: int | None) -> SeatView:
    """The scene's seat (shared, never changed) as one viewer sees it: their own seat as
    theirs, Sit Here only for someone not seated yet."""
    if seat_view.empty and viewer_number is not None:
        return replace(seat_view, can_sit=False)
    if seat_view.number == viewer_number:
        return scene.own_seat_views[seat_view.number]
    return seat_view


def _events(table_id: int, *, upto: int, after: int | None = None) -> list[TableEvent]:
    """The table's newest events up to ``upto`` (after ``after``), newest first.

    A scene's events go up to its table row's version and no further: the events are read
    after the row, and an action committed in between must not put its events in a scene
    that does not show its version (the next scene reads the events after that version)."""
    events = TableEvent.objects.filter(table_id=table_id, seq__lte=upto)
    if after is not None:
        events = events.filter(seq__gt=after)
    return list(events.order_by("-seq")[:SCENE_EVENTS])


def _newest_events(
    table: SharedTable, previous: TableScene | None
) -> tuple[list[TableEvent], list[str]]:
    """The scene's events and their log lines, newest first, up to the table's version:
    only those written since ``previous`` (the same table's last scene) are read and
    worded, the rest carried."""
    if previous is None or previous.table.version > table.version:
        events = _events(table.pk, upto=table.version)
        return events, _log_lines(events)
    if previous.table.version == table.version:  # a bet being built: no event written
        return previous.events, previous.log
    new = _events(table.pk, after=previous.table.version, upto=table.version)
    events = (new + previous.events)[:SCENE_EVENTS]
    log = (_log_lines(new) + previous.log)[:SCENE_EVENTS]
    return events, log


def _headline(
    table: SharedTable, seats: list[Seat], engine: EngineGame | None, turn_box: int | None
) -> str:
    if table.is_closed:
        return "This table is closed."
    if table.phase == SharedTable.Phase.INTERMISSION:
        if not any(s.number is not None for s in seats):
            return "Waiting for players: take a seat."
        return "Place your bets."
    round_ = engine.round if engine else None
    if round_ is None:
        return ""
    if round_.phase == PLAYER_TURN and turn_box is not None:
        seat = next((s for s in seats if s.box == turn_box), None)
        name = seat.player.get_username() if seat else f"Box {turn_box + 1}"
        return THEIR_TURN.format(name=name)
    offer = PHASE_OFFERS.get(round_.phase)
    if offer is not None:
        return f"{OFFER_QUESTIONS[offer]} Everyone concerned answers now."
    return "The dealer plays."


def _timer(table: SharedTable, seats: list[Seat], engine: EngineGame | None) -> Timer | None:
    now = services.now_ms()
    deadline = table.deadline_ms
    if deadline is None or table.is_closed:
        return None
    if table.phase == SharedTable.Phase.INTERMISSION:
        if not any(s.number is not None for s in seats):
            return None
        label = "Betting closes in"
    else:
        label = "Time left"
    return Timer(label, max(0, -(-(deadline - now) // 1000)))


def _fill_controls(view: SharedTableView, scene: TableScene, seat: Seat) -> None:
    table, engine, turn_box = scene.table, scene.engine, scene.turn_box
    if table.phase == SharedTable.Phase.INTERMISSION:
        view.betting = not seat.ready and not seat.sitting_out
        view.chips = [c // 100 for c in CHIP_CENTS if c <= seat.bank_cents]
        options = engine.options if engine else services.table_options(table.options)
        if view.betting and services.side_bets_offered(options):
            view.side_bet_menu = _side_bet_menu(seat, view.chips)
        return
    if engine is None or seat.box is None or table.phase != SharedTable.Phase.ROUND:
        return
    question = seat.pending_question
    if question is not None:
        view.question = QuestionView(
            text=question.question.text,
            difficulty=DIFFICULTY_LABELS.get(question.difficulty, question.difficulty),
            answers=answer_buttons(list(question.answers_shown)),
        )
        return
    offer = engine.offer_for_box(seat.box)
    if offer in OFFER_BUTTONS:
        view.offer = offer
        view.offer_question = OFFER_QUESTIONS[offer]
        view.offer_buttons = OFFER_BUTTONS[offer]
        if offer in OFFER_TEXTS:
            assert scene.public_round is not None  # an offer is open: a round is in play
            _fill_side_bet_offer(view, engine, scene.public_round, seat.box, offer)
        return
    if turn_box != seat.box:
        return
    if seat.trivia_choice_for:
        view.choosing_difficulty = True
        return
    legal = engine.legal_actions()
    view.play_buttons = [
        ActionButton(
            name=name,
            label=label,
            key=ACTION_KEYS[name],
            allowed=legal.get(name) == ALLOWED,
            reason="" if legal.get(name) == ALLOWED else str(legal.get(name) or NOT_ALLOWED),
        )
        for name, label in ACTION_LABELS.items()
    ]


def _side_bet_menu(seat: Seat, chips: list[int]) -> SideBetMenu:
    """The viewer's side bets for the next deal (T-5, UI.md "Side bets menu"): the
    single-player menu, open while anything rides in it (a live update re-renders it)."""
    stakes = services.seat_side_stakes(seat)
    return menu_for(
        stakes,
        extra_bet_active=seat.extra_bet,
        open=bool(stakes) or seat.extra_bet,
        chips=tuple(chips),
    )


def box_round(round_: dict[str, Any], box: int) -> dict[str, Any]:
    """One box's part of a shared round's public view, under the one-box keys the
    single-player panels read (its bet, side bets, hands and settled records)."""
    return {**round_, **round_["boxes"][box]}


def _fill_side_bet_offer(
    view: SharedTableView, engine: EngineGame, public_round: dict[str, Any], box: int, offer: str
) -> None:
    """The extra bet's, the parlay's or the dice's panel for the viewer's own box (T-7): the
    figures from that box alone (its bet, its wallet) in the scene's public view of the
    round (read once for every viewer), the hole card never involved."""
    mine = box_round(public_round, box)
    words: dict[str, Any] = {}
    if offer == "extra_bet":
        smallest, largest = engine.extra_bet_limits(box)
        base_bet, bank = mine["bet"], mine["bank"]
        view.extra_bet = ExtraBetPanel(
            bank=bank,
            base_bet=base_bet,
            cap=sb.extra_bet_max(base_bet),
            largest=largest,
            smallest=smallest,
            amount=max(smallest, min(base_bet, largest)),
            place_reason="" if largest >= smallest else EXTRA_BET_UNAFFORDABLE,
            chips=[],
        )
        words = {"smallest": smallest, "largest": largest, "base_bet": base_bet}
    elif offer == "parlay":
        view.parlay = panel = parlay_panel(mine)
        if panel is not None:
            words = {"stake": panel.stake, "winnings": panel.winnings, "base_bet": panel.base_bet}
            words |= {"condition": panel.condition_text, "ratio": panel.ratio_text}
    else:
        view.dice_roll = dice_roll_panel(mine)
        words = {"stake": mine["side_stakes"].get(sb.PERFECT_11S, 0)}
    view.offer_text = _format_words(OFFER_TEXTS[offer], words)


def _format_words(template: str, words: dict[str, Any]) -> str:
    """``template`` filled in, amounts in cents shown in dollars."""
    shown = {k: display_cents(v) if isinstance(v, int) else v for k, v in words.items()}
    try:
        return template.format(**shown)
    except (KeyError, IndexError):
        return ""


def seat_side_bet_lines(
    round_: dict[str, Any] | None, box: int | None, seat: Seat, *, offered: bool
) -> list[str]:
    """A seat's side bets on the felt, one short line each (T-6, R-4.12): the round's bets
    and results for a seat dealt in (what a bet that needs the hole card waits for is
    never guessed: it is pending until the engine settles it), else its stakes for the
    next deal while the table's side bets are on (``offered``): the others see those from
    the seat's Ready (``_seat_views``)."""
    if round_ is not None and box is not None and round_.get("boxes"):
        rows = result_rows(box_round(round_, box))
        return [_side_bet_line(row) for row in rows if row.status != NOT_PLAYED]
    if not offered:
        return []
    lines = [
        SIDE_BET_STAKE_LINE.format(title=SIDE_BET_LABELS[name], stake=display_cents(stake))
        for name, stake in services.seat_side_stakes(seat).items()
    ]
    if seat.extra_bet:
        lines.append(EXTRA_BET_ACTIVE_LINE)
    return lines


def _side_bet_line(row: SideBetRow) -> str:
    """E.g. "21+3 $5.00: Won — Flush, paid $30.00" or "Perfect Pair $5.00: Pending"."""
    line = row.title  # the extra bet offered, not yet placed, has no stake
    if row.stake:
        line = SIDE_BET_STAKE_LINE.format(title=row.title, stake=display_cents(row.stake))
    if row.fee:
        line += SIDE_BET_FEE.format(fee=display_cents(row.fee))
    line += f": {row.status_label}"
    if row.condition_text:
        line += f" — {row.condition_text}"
    if row.awaiting_payment:
        return line + SIDE_BET_TO_BE_PAID
    if row.parlayed:
        # R-SB-31: what was paid into the bank and, separately, what rides on the hand.
        if row.winnings:
            line += SIDE_BET_PAID.format(winnings=display_cents(row.winnings))
        return line + SIDE_BET_PARLAYED.format(parlayed=display_cents(row.parlayed))
    if row.settled and row.status != LOST:
        line += SIDE_BET_PAID.format(winnings=display_cents(row.winnings))
    return line


# --------------------------------------------------------------------- the event log (T-10)


def _who(data: dict[str, Any]) -> str:
    player = data.get("player")
    seat = data.get("seat")
    if player and seat:
        return f"{player} (seat {seat})"
    if seat:
        return f"Seat {seat}"
    return "A player"


# Events that are news for the pages (the table changed) but say nothing worth a line:
# betting starting over after an intermission nobody bet in (T-5).
SILENT_EVENTS = frozenset({"betting_reopened"})


def in_log(event: TableEvent) -> bool:
    """Whether ``event`` has a line in the table's log."""
    return event.kind not in SILENT_EVENTS


def _log_lines(events: list[TableEvent]) -> list[str]:
    return [event_text(event) for event in events if in_log(event)]


def event_text(event: TableEvent) -> str:
    """One line of the table's log, from an event's public data ("" for a silent one)."""
    data, kind = event.data, event.kind
    if kind in SILENT_EVENTS:
        return ""
    who = _who(data)
    if kind == "card_dealt":
        if data.get("to") == "dealer":
            if data.get("face_down"):
                return "The dealer takes a card face down."
            return f"The dealer shows {card_name(data['card'])}."
        return f"{who} gets {card_name(data['card'])}."
    if kind == "hole_card_revealed":
        return f"The dealer turns over {card_name(data['card'])}: {data['total']}."
    if kind == "hand_settled":
        paid = int(data.get("winnings") or 0)
        result = hand_badge(data["result"], data.get("how")) or data["result"]
        # A lost hand pays nothing: "paid $0.00" would read as if something were owed.
        return f"{who}: {result}, paid {display_cents(paid)}." if paid else f"{who}: {result}."
    if kind == "question_revealed":
        verdict = (
            "right" if data.get("correct") else ("too late" if data.get("timed_out") else "wrong")
        )
        given = data.get("answer_given") or "no answer"
        return (
            f"{who} was asked “{data['question']}” and answered “{given}”: {verdict}. "
            f"The answer: “{data['correct_answer']}”."
        )
    if kind == "question_asked":
        level = DIFFICULTY_LABELS.get(data.get("difficulty", ""), "")
        return f"{who} is answering {_a(level)} {level} question."
    if kind == "shoe_shuffled" and data.get("reason") == SHUFFLED_BY_HOST:
        return HOST_SHUFFLED_LINE
    if kind == "trivia_answered":
        return f"{who}: {int(data.get('credits_change') or 0):+d} trivia credits."
    side_bet_line = _side_bet_event_text(kind, data, who)
    if side_bet_line is not None:
        return side_bet_line
    simple = EVENT_LINES.get(kind)
    if simple is not None:
        words = {**data, "who": who}
        if "bet" in data:
            words["bet"] = display_cents(int(data["bet"]))
        try:
            return simple.format(**words)
        except (KeyError, ValueError):
            return simple.split("{")[0].strip() or kind.replace("_", " ")
    return kind.replace("_", " ").capitalize() + "."


def _side_bet_event_text(kind: str, data: dict[str, Any], who: str) -> str | None:
    """The log's line for the side bets' and the offers' events (None: not one of them)."""
    if kind not in SIDE_BET_EVENT_LINES:
        return None
    name = str(data.get("name", ""))
    words: dict[str, Any] = {
        "who": who,
        "title": SIDE_BET_LABELS.get(name, name),
        "condition": condition_text(name, data.get("condition")) if name in sb.PAY_TABLES else "",
        "offer": OFFER_NAMES.get(str(data.get("offer", "")), "the offer"),
    }
    for key in ("winnings", "stake", "fee", "parlayed", "amount", "bet"):
        words[key] = display_cents(int(data.get(key) or 0))
    # The deal's event has the stakes by name, Ready's their total.
    side_bets = data.get("side_bets") or 0
    side_total = sum(side_bets.values()) if isinstance(side_bets, dict) else int(side_bets)
    words["side_bets"] = display_cents(side_total)
    line = SIDE_BET_EVENT_LINES[kind]
    if kind == "side_bet_settled":
        if name == sb.EXTRA_BET_BLACKJACK:
            words["condition"] = condition_text(name, data.get("condition"))
        line = SIDE_BET_RESULT_LINES.get(str(data.get("result")), SIDE_BET_RESULT_LINES["lose"])
        words["ratio"] = ratio_text(data.get("ratio"))
        if data.get("parlayed"):
            paid = bool(data.get("winnings"))
            line = SIDE_BET_RESULT_LINES["parlayed" if paid else "all_parlayed"]
    elif kind == "dice_rolled":
        words["dice"] = ", ".join(
            DIE_INFINITY_TEXT if face == sb.INFINITY_FACE else str(face)
            for face in data.get("dice") or ()
        )
    elif kind == "offer_answered":
        line = OFFER_ANSWER_LINES[bool(data.get("accept"))]
    elif kind == "offer_timed_out":
        line = OFFER_TIMEOUT_LINES.get(str(data.get("offer")), line)
    elif kind == "insurance_settled":
        words["title"] = OFFER_NAMES.get(str(data.get("kind")), "insurance").capitalize()
        line = INSURANCE_RESULT_LINES[data.get("result") == "win"]
    elif kind in ("bets_placed", "bet_placed") and not side_total:
        line = EVENT_LINES[kind]
    try:
        return line.format(**words)
    except (KeyError, ValueError, IndexError):
        return line.split("{")[0].strip() or kind.replace("_", " ")


# Side bets and the offers (T-6, T-7) in the log; amounts are shown in dollars.
SIDE_BET_EVENT_LINES = {
    "bet_placed": "{who} bets {bet} and {side_bets} on side bets, and is ready.",
    "bets_placed": "{who} bets {bet}, and {side_bets} on side bets.",
    "side_bet_settled": "",  # by its result: SIDE_BET_RESULT_LINES
    "side_bet_won": (
        "{who}: {title} wins — {condition}; paid once the dealer's blackjack is ruled out."
    ),
    "dice_needed": "{who}: {title} wins with a suited 11 — the Infinity dice decide how much.",
    "dice_rolled": "{who} rolls the Infinity dice: {dice}.",
    "extra_bet_placed": "{who} places an extra bet of {stake} (fee {fee}).",
    "bet_parlayed": "{who} parlays {amount} onto the hand: the bet is now {bet}.",
    "offer": "{who} is offered {offer}.",
    "offer_answered": "",  # accepted or declined: OFFER_ANSWER_LINES
    "offer_timed_out": "{who} ran out of time: {offer} is declined.",
    "insurance_settled": "",  # won or lost: SIDE_BET_RESULT_LINES
}
SIDE_BET_RESULT_LINES = {
    "win": "{who}: {title} wins — {condition}, {ratio}: paid {winnings}.",
    "push": "{who}: {title} pushes: {winnings} returned.",
    "lose": "{who}: {title} loses.",
    "parlayed": (
        "{who}: {title} wins — {condition}, {ratio}: paid {winnings}, {parlayed} parlayed."
    ),
    "all_parlayed": "{who}: {title} wins — {condition}, {ratio}: {parlayed} parlayed.",
}
INSURANCE_RESULT_LINES = {
    True: "{who}: {title} wins: paid {winnings}.",
    False: "{who}: {title} loses.",
}
OFFER_ANSWER_LINES = {True: "{who} accepts {offer}.", False: "{who} declines {offer}."}
# T-7: what a player who did not answer in time gets.
OFFER_TIMEOUT_LINES = {
    "roll": "{who} ran out of time: the Infinity dice roll by themselves.",
    "parlay": "{who} ran out of time: House Money is collected.",
}

# Shuffle now (F-6): the shoe the host finished is revealed on the table's Fairness page.
SHUFFLED_BY_HOST = "player"
HOST_SHUFFLED_LINE = "The host shuffles a new shoe: the last one's seed is on the Fairness page."
EVENT_LINES = {
    "table_opened": "The table “{name}” opened.",
    "seated": "{who} sat down.",
    "left": "{who} left the table.",
    "betting_open": "Place your bets: betting closes in {seconds} seconds.",
    "bet_placed": "{who} bets {bet} and is ready.",
    "sitting_out": "{who} sits this round out.",
    # A Ready bet the engine refused at the deal ("reason": the engine's words).
    "bet_refused": "{who} sits this round out: {reason}.",
    "round_dealt": "Round {round}: the cards are dealt.",
    "bets_placed": "{who} bets {bet}.",
    "timed_out": "{who} ran out of time: the hand stands.",
    "hand_stood": "{who} stands.",
    "hand_doubled": "{who} doubles down.",
    "hand_split": "{who} splits.",
    "hand_surrendered": "{who} surrenders.",
    "hand_busted": "{who} busts.",
    "hand_bust": "{who} busts.",
    "hand_charlie": "{who} makes a Charlie.",
    "hand_natural": "{who} has blackjack!",
    "dealer_peeked": "The dealer checks for blackjack.",
    "round_over": "The round is over.",
    "offers_opened": "Decisions for everyone concerned: answer now.",
    "offer_answer_recorded": "{who} has answered.",
    "options_changed": "The host changed the table's options.",
    "invite_renewed": "The host made a new invitation link: the old one no longer works.",
    "table_closed": "The table is closed.",
    "shoe_shuffled": "Shuffling a new shoe.",
    "client_seed_changed": "{who} chose a new client seed for the next shoe.",
    "credits_exhausted": "{who} has no trivia credits left.",
}
