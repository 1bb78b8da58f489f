"""The table as one viewer sees it (T-4, T-11): the scene with the viewer's own seat marked,
the time left and the viewer's own controls (bet, offer, question, plays).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from game.presentation.lookup import TemplateLookup
from game.presentation.side_bet_menu import SideBetMenu, menu_for
from game.presentation.side_bet_panels import (
    DiceRollPanel,
    ExtraBetPanel,
    ParlayPanel,
    dice_roll_panel,
    parlay_panel,
)
from game.presentation.table import (
    ACTION_KEYS,
    ACTION_LABELS,
    ActionButton,
    AnswerButton,
    answer_buttons,
)
from game.rules import sidebets as sb
from game.rules.engine import Engine
from game.rules.money import CHIP_CENTS, display_cents
from game.rules.public import PublicRound
from game.rules.records import ALLOWED
from game.tables import services
from game.tables.models import Seat, SharedTable
from game.tables.presentation.notices import NOT_ALLOWED
from game.tables.presentation.offers import (
    EXTRA_BET_UNAFFORDABLE,
    OFFER_BUTTONS,
    OFFER_QUESTIONS,
    OFFER_TEXTS,
)
from game.tables.presentation.scene import YOUR_TURN, FeltRulesLine, ShoeView, TableScene
from game.tables.presentation.seats import SeatView, box_round
from trivia.models import DIFFICULTY_LABELS


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
    log: list[str]
    # The rules line under the felt: the usual rules, then the surprising ones, each a link.
    felt_rules: FeltRulesLine
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
        felt_rules=scene.felt_rules,
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


def _timer(table: SharedTable, seats: list[Seat], engine: Engine | None) -> Timer | None:
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


def _fill_side_bet_offer(
    view: SharedTableView, engine: Engine, public_round: PublicRound, box: int, offer: str
) -> None:
    """The extra bet's, the parlay's or the dice's panel for the viewer's own box (T-7): the
    figures from that box alone (its bet, its wallet) in the scene's public view of the
    round (read once for every viewer), the hole card never involved."""
    mine = box_round(public_round, box)
    words: dict[str, Any] = {}
    if offer == "extra_bet":
        smallest, largest = engine.extra_bet_limits(box)
        assert public_round.boxes is not None  # a shared round lists its boxes
        base_bet, bank = mine.bet, public_round.boxes[box].bank
        assert bank is not None  # a shared round's box has its wallet
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
        words = {"stake": mine.side_stakes.get(sb.PERFECT_11S, 0)}
    view.offer_text = _format_words(OFFER_TEXTS[offer], words)


def _format_words(template: str, words: dict[str, Any]) -> str:
    """``template`` filled in, amounts in cents shown in dollars."""
    shown = {k: display_cents(v) if isinstance(v, int) else v for k, v in words.items()}
    try:
        return template.format(**shown)
    except (KeyError, IndexError):
        return ""
