"""What each viewer sees of a shared table, and every word the shared-table pages say.

One view model per viewer (T-4, T-11): a seated player sees their own pending question,
offer and buttons; everyone else (other seats, watchers) sees that the player is
answering, and the question with both answers only once revealed. Built from the
engine's public view, which never holds the hole card or the shoe (R-2.3).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from game.presentation.table import ACTION_LABELS, describe, hand_badge
from game.rules.cards import card_name
from game.rules.engine import Game as EngineGame
from game.rules.money import CHIP_CENTS, display_cents
from game.rules.records import PLAYER_TURN
from game.tables import services
from game.tables.models import Seat, SharedTable, TableEvent

DIFFICULTY_LABELS = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}
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
}
OFFER_QUESTIONS = {
    "insurance": "Insurance?",
    "even_money": "Even money?",
    "early_surrender": "Early surrender?",
}
REFUSALS = {
    "not_seated": "Take a seat first.",
    "already_seated": "You already have a seat at this table.",
    "seat_taken": "That seat is taken.",
    "no_such_seat": "There is no such seat.",
    "betting_closed": "Betting is closed until the round is over.",
    "already_ready": "Your bet is placed for this round.",
    "no_such_chip": "There is no such chip.",
    "bet_too_small": "Bet at least {minimum}.",
    "bet_too_large": "Bets at this table go up to {limit}.",
    "no_round_in_play": "No round is in play.",
    "not_your_turn": "It is not your turn.",
    "question_open": "Answer the question first.",
    "no_such_action": "There is no such action.",
    "no_such_answer": "There is no such answer.",
    "no_such_difficulty": "Choose Easy, Medium or Hard.",
    "no_choice_waiting": "Press Hit or Double Down first.",
    "no_unanswered_question": "There is no question to answer.",
    "not_an_answer_shown": "Choose one of the answers shown.",
    "no_questions": "No {difficulty} questions are available.",
    "host_only": "Only the table's host can do that.",
    "between_rounds_only": "That can be done only between rounds.",
    "bets_placed": "Options can change only before anyone has placed a bet.",
    "table_name_missing": "Give the table a name.",
    "seat_count_out_of_range": "A table has 2 to 7 seats.",
    "intermission_out_of_range": "Betting time is 10 to 60 seconds.",
    "time_ran_out": "Time ran out.",
    "no_credits": "You have no trivia credits left at this table.",
    "bad_version": "This page is out of date: the table has been reloaded, please try again.",
}
STALE_NOTICE = "This table changed since the page was shown; here it is now."


def refusal_text(error: services.ActionRefused) -> str:
    details = error.details
    if error.reason == "rule":
        return str(details.get("text", "That is not allowed now."))
    words = {
        key.removesuffix("_cents"): display_cents(value) if key.endswith("_cents") else value
        for key, value in details.items()
    }
    template = REFUSALS.get(error.reason, "That is not allowed now.")
    try:
        return template.format(**words)
    except KeyError:
        return template


@dataclass
class HandView:
    cards: list[str | None]
    total_text: str
    badge: str
    net: int
    message: str
    active: bool


@dataclass
class SeatView:
    number: int
    player: str = ""
    is_viewer: bool = False
    bank: int = 0
    credits: int | None = None
    bet: int = 0
    status: str = ""
    hands: list[HandView] = field(default_factory=list)
    in_turn: bool = False
    can_sit: bool = False
    # The seat's markup once rendered for this revision (views: shared by the viewers).
    html: str = ""

    @property
    def empty(self) -> bool:
        return not self.player

    @property
    def label(self) -> str:
        return f"Seat {self.number}" + (f": {self.player}" if self.player else ", empty")


@dataclass
class QuestionView:
    text: str
    difficulty: str
    answers: list[str]


@dataclass
class Timer:
    label: str
    seconds_left: int


@dataclass
class SharedTableView:
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
    # The viewer's own controls (empty for a watcher).
    chips: list[int] = field(default_factory=list)
    betting: bool = False
    offer_question: str = ""
    offer_buttons: tuple[tuple[str, str], ...] = ()
    play_buttons: list[tuple[str, str]] = field(default_factory=list)
    choosing_difficulty: bool = False
    question: QuestionView | None = None
    last_version: int = 0

    @property
    def seated(self) -> bool:
        return self.viewer_seat is not None and self.viewer_seat.number is not None


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
    trivia."""
    decks = "Infinite decks" if options.infinite_decks else f"{options.deck_count} decks"
    if options.deck_count == 1:
        decks = "1 deck"
    dealer = (
        "dealer stands on soft 17"
        if options.dealer_stands_on == "S17"
        else (f"dealer {options.dealer_stands_on}")
    )
    trivia = "trivia on" if options.trivia_mode else "trivia off"
    return f"{decks} · {dealer} · blackjack pays {options.blackjack_payout} · {trivia}"


SCENE_EVENTS = 50  # the newest events a scene keeps: the log, and a stream's catching up


@dataclass
class TableScene:
    """What every viewer of a table shares at one revision: the seats as a watcher sees
    them, the dealer, the headline, the newest events. Built once per revision and shared
    by every viewer's view (``view_for``); read-only once built (threads share it)."""

    table: SharedTable
    seats: list[Seat]
    engine: EngineGame | None
    seat_views: list[SeatView]
    dealer_cards: list[str | None]
    dealer_total_text: str
    headline: str
    rules_text: str
    turn_box: int | None
    events: list[TableEvent]  # newest first, at most SCENE_EVENTS
    log: list[str]  # their lines, newest first
    # Rendered fragments every viewer can share, by key (filled by whoever renders).
    fragments: dict[Any, str] = field(default_factory=dict)

    @property
    def revision(self) -> int:
        return self.table.revision


def table_scene(table: SharedTable) -> TableScene:
    """The part of ``table`` every viewer sees alike (three reads: the seats, the newest
    events; the engine's state is the row's own)."""
    seats = list(
        Seat.objects.filter(table=table).select_related("player", "pending_question__question")
    )
    engine = EngineGame.from_json(table.state) if table.state else None
    options = engine.options if engine else services.table_options(table.options)
    public = engine.public_view() if engine else {"round": None}
    round_ = public["round"]
    in_round = table.phase == SharedTable.Phase.ROUND and round_ is not None
    turn_box = engine.box_in_turn() if (engine and in_round) else None
    seat_views = _seat_views(table, seats, round_, in_round, turn_box, options.trivia_mode)
    dealer_cards: list[str | None] = []
    dealer_total = ""
    if round_ is not None and any(s.hands for s in seat_views):
        dealer = round_["dealer"]
        dealer_cards = list(dealer["cards"])
        if dealer.get("hole_revealed"):
            dealer_total = describe(dealer["total"], dealer["soft"])
        else:
            dealer_total = f"showing {describe(dealer['upcard_total'], dealer['upcard_soft'])}"
    events = recent_events(table, SCENE_EVENTS)
    return TableScene(
        table=table,
        seats=seats,
        engine=engine,
        seat_views=seat_views,
        dealer_cards=dealer_cards,
        dealer_total_text=dealer_total,
        headline=_headline(table, seats, engine, turn_box),
        rules_text=rules_text(options),
        turn_box=turn_box,
        events=events,
        log=[event_text(e) for e in events],
    )


def _seat_views(
    table: SharedTable,
    seats: list[Seat],
    round_: dict[str, Any] | None,
    in_round: bool,
    turn_box: int | None,
    trivia_mode: bool,
) -> list[SeatView]:
    """Every seat as a watcher sees it (``view_for`` marks the viewer's own)."""
    by_number = {s.number: s for s in seats if s.number is not None}
    # After a round, its boxes stay on the felt (seat.box) until the next deal.
    boxes_by_seat = {s.pk: s.box for s in seats if s.box is not None}
    seat_views: list[SeatView] = []
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
        if round_ is not None and box is not None:
            view.in_turn = in_round and turn_box == box
            current = round_.get("current_hand")
            for index, hand in enumerate(round_["hands"]):
                if hand.get("box", 1) - 1 == box:
                    view.hands.append(_hand_view(hand, view.in_turn and index == current))
            boxes = round_.get("boxes")
            view.bet = boxes[box]["bet"] if boxes else round_["bet"]
        seat_views.append(view)
    return seat_views


def view_for(scene: TableScene, viewer: Any, *, log_size: int = 12) -> SharedTableView:
    """The table as ``viewer`` may see it (a watcher when not seated): the scene, the
    viewer's own seat marked, the time left now, and the viewer's own controls."""
    table = scene.table
    viewer_pk = getattr(viewer, "pk", None)
    viewer_seat = next((s for s in scene.seats if s.player_id == viewer_pk), None)
    seated = viewer_seat is not None and viewer_seat.number is not None
    seat_views = [
        _as_seen_by(seat_view, viewer_seat.number if seated else None)
        for seat_view in scene.seat_views
    ]
    view = SharedTableView(
        table=table,
        seats=seat_views,
        dealer_cards=scene.dealer_cards,
        dealer_total_text=scene.dealer_total_text,
        headline=scene.headline,
        timer=_timer(table, scene.seats, scene.engine),
        viewer_seat=viewer_seat,
        is_host=viewer_pk == table.host_id,
        rules_text=scene.rules_text,
        log=scene.log[:log_size],  # newest first
        last_version=table.version,
    )
    if seated:
        _fill_controls(view, table, viewer_seat, scene.engine, scene.turn_box)
    return view


def _as_seen_by(seat_view: SeatView, viewer_number: int | None) -> SeatView:
    """The scene's seat (shared, never changed) as one viewer sees it: their own seat
    marked, Sit Here only for someone not seated yet."""
    if seat_view.empty and viewer_number is not None:
        return replace(seat_view, can_sit=False)
    if seat_view.number == viewer_number:
        return replace(seat_view, is_viewer=True)
    return seat_view


def table_view(table: SharedTable, viewer: Any, *, log_size: int = 12) -> SharedTableView:
    """The shared table as ``viewer`` may see it (a watcher when not seated)."""
    return view_for(table_scene(table), viewer, log_size=log_size)


def recent_events(table: SharedTable, count: int) -> list[TableEvent]:
    return list(TableEvent.objects.filter(table=table).order_by("-seq")[:count])


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
        return f"{name}'s turn"
    if round_.phase in OFFER_QUESTIONS:
        return f"{OFFER_QUESTIONS[round_.phase]} Everyone concerned answers now."
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


def _fill_controls(
    view: SharedTableView,
    table: SharedTable,
    seat: Seat,
    engine: EngineGame | None,
    turn_box: int | None,
) -> None:
    if table.phase == SharedTable.Phase.INTERMISSION:
        view.betting = not seat.ready and not seat.sitting_out
        view.chips = [c // 100 for c in CHIP_CENTS if c <= seat.bank_cents]
        return
    if engine is None or seat.box is None or table.phase != SharedTable.Phase.ROUND:
        return
    question = seat.pending_question
    if question is not None:
        view.question = QuestionView(
            text=question.question.text,
            difficulty=DIFFICULTY_LABELS.get(question.difficulty, question.difficulty),
            answers=list(question.answers_shown),
        )
        return
    offer = engine.offer_for_box(seat.box)
    if offer in OFFER_BUTTONS:
        view.offer_question = OFFER_QUESTIONS[offer]
        view.offer_buttons = OFFER_BUTTONS[offer]
        return
    if turn_box != seat.box:
        return
    if seat.trivia_choice_for:
        view.choosing_difficulty = True
        return
    legal = engine.legal_actions()
    view.play_buttons = [
        (name, label) for name, label in ACTION_LABELS.items() if legal.get(name) == "allowed"
    ]


# --------------------------------------------------------------------- the event log (T-10)


def _who(data: dict[str, Any]) -> str:
    player = data.get("player")
    seat = data.get("seat")
    if player and seat:
        return f"{player} (seat {seat})"
    if seat:
        return f"Seat {seat}"
    return "A player"


def event_text(event: TableEvent) -> str:
    """One line of the table's log, from an event's public data."""
    data, kind = event.data, event.kind
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
        amount = display_cents(int(data.get("winnings") or 0))
        result = hand_badge(data["result"], data.get("how")) or data["result"]
        return f"{who}: {result}, paid {amount}."
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
    if kind == "trivia_answered":
        return f"{who}: {int(data.get('credits_change') or 0):+d} trivia credits."
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


EVENT_LINES = {
    "table_opened": "The table “{name}” opened.",
    "seated": "{who} sat down.",
    "left": "{who} left the table.",
    "betting_open": "Place your bets: betting closes in {seconds} seconds.",
    "bet_placed": "{who} bets {bet} and is ready.",
    "sitting_out": "{who} sits this round out.",
    "round_dealt": "Round {round}: the cards are dealt.",
    "bets_placed": "{who} bets {bet}.",
    "offer": "{who} is offered {offer}.",
    "offer_answered": "{who} answered the {offer} offer.",
    "offer_timed_out": "{who} ran out of time: the offer is declined.",
    "timed_out": "{who} ran out of time: the hand stands.",
    "hand_stood": "{who} stands.",
    "hand_doubled": "{who} doubles down.",
    "hand_split": "{who} splits.",
    "hand_surrendered": "{who} surrenders.",
    "hand_busted": "{who} busts.",
    "hand_natural": "{who} has blackjack!",
    "dealer_peeked": "The dealer checks for blackjack.",
    "round_over": "The round is over.",
    "offers_opened": "Decisions for everyone concerned: answer now.",
    "offer_answer_recorded": "{who} has answered.",
    "options_changed": "The host changed the table's options.",
    "table_closed": "The table is closed.",
    "shoe_shuffled": "Shuffling a new shoe.",
    "credits_exhausted": "{who} has no trivia credits left.",
}
