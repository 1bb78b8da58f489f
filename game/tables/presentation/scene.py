"""What every viewer of a table shares at one revision (the scene): the seats, the dealer,
the headline, the shoe and the newest events, built once and shared by every viewer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.presentation.felt_rules import FeltRule, house_rules
from game.presentation.fragments import FragmentModel
from game.presentation.lookup import TemplateLookup
from game.presentation.table import describe
from game.rules.engine import Engine
from game.rules.fair import CommittedShoes
from game.rules.public import PublicRound, RevealedDealer, public_view
from game.rules.records import PLAYER_TURN
from game.rules.storage import game_from_json
from game.tables import services
from game.tables.models import Seat, SharedTable, TableEvent, TableQuestion
from game.tables.presentation.lobby import rules_text
from game.tables.presentation.log import log_lines
from game.tables.presentation.notices import TABLE_REFUSALS
from game.tables.presentation.offers import OFFER_QUESTIONS, PHASE_OFFERS
from game.tables.presentation.seats import RevealView, SeatView, seat_views_of

# The headline of a turn: the player in turn reads their own line (and hears it through
# the page's live region), everyone else the player's name.
YOUR_TURN = "Your turn"
THEIR_TURN = "{name}'s turn"


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


SCENE_EVENTS = 50  # the newest events a scene keeps: the log, and a stream's catching up


@dataclass(frozen=True)
class FeltRulesLine(FragmentModel):
    """The rules line under the felt: the usual rules in words, then the surprising ones,
    each a link. Kept rendered by its fragment key: every viewer of every table with the
    same rules shares it."""

    usual: str
    house: tuple[FeltRule, ...] = ()


@dataclass
class TableScene(TemplateLookup):
    """What every viewer of a table shares at one revision: the seats as a watcher sees
    them, the dealer, the headline, the newest events. Built once per revision and shared
    by every viewer's view (``view_for``); read-only once built (threads share it)."""

    table: SharedTable
    seats: list[Seat]
    engine: Engine | None
    seat_views: list[SeatView]  # as the others see them
    # Each taken seat as its own player sees it: marked as theirs, with the bet they are
    # still building (the others see it once placed).
    own_seat_views: dict[int, SeatView]
    dealer_cards: list[str | None]
    dealer_total_text: str
    headline: str
    # The rules line under the felt (its usual rules, then the surprising ones).
    felt_rules: FeltRulesLine
    turn_box: int | None
    events: list[TableEvent]  # newest first, at most SCENE_EVENTS
    log: list[str]  # their lines, newest first
    # The box whose player's turn it is (RULES.md §5), None in every other moment: its
    # player reads "Your turn" (``view_for``), everyone else the scene's headline.
    playing_box: int | None = None
    # Each seat's last question of the round once revealed (T-11), by the seat's id.
    reveals: dict[int, RevealView] = field(default_factory=dict)
    # The engine's public view of the round (None between rounds): the same for everyone,
    # read once per revision, and the viewers' offer panels take their figures from it.
    public_round: PublicRound | None = None
    # Rendered fragments every viewer can share, by key (filled by whoever renders).
    fragments: dict[Any, str] = field(default_factory=dict)
    shoe: ShoeView | None = None

    @property
    def stamp(self) -> tuple[int, int]:
        """What the scene shows: the table's revision and its seats' versions."""
        return (self.table.revision, sum(seat.version for seat in self.seats))


def table_scene(
    table: SharedTable,
    previous: TableScene | None = None,
    *,
    seats: list[Seat] | None = None,
    written: list[TableEvent] | None = None,
) -> TableScene:
    """The part of ``table`` every viewer sees alike (three reads: the seats, the newest
    events, a round's revealed questions; the engine's state is the row's own).
    ``seats``: every seat of the table as just written (not read again); ``written``: the
    events up to the table's version that were just written, oldest first (read only
    when they do not follow ``previous``'s)."""
    if seats is None:
        seats = services.seats_of_table(table.pk)
    engine = game_from_json(table.state) if table.state else None
    options = engine.options if engine else services.table_options(table.options)
    round_ = public_view(engine).round if engine else None
    in_round = table.phase == SharedTable.Phase.ROUND and round_ is not None
    turn_box = engine.box_in_turn() if (engine and in_round) else None
    events, log = _newest_events(table, previous, written or [])
    reveals = _reveals(table, round_, options.trivia_mode, events, previous)
    seat_views, own_seat_views = seat_views_of(
        table, seats, round_, in_round, turn_box, options.trivia_mode, reveals
    )
    dealer_cards: list[str | None] = []
    dealer_total = ""
    if round_ is not None and any(s.hands for s in seat_views):
        dealer = round_.dealer
        dealer_cards = list(dealer.cards)
        if isinstance(dealer, RevealedDealer):
            dealer_total = describe(dealer.total, dealer.soft)
        else:
            dealer_total = f"showing {describe(dealer.upcard_total, dealer.upcard_soft)}"
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
        felt_rules=FeltRulesLine(rules_text(options), tuple(house_rules(options))),
        turn_box=turn_box,
        events=events,
        log=log,
        public_round=round_,
        playing_box=turn_box if playing else None,
        reveals=reveals,
        shoe=_shoe_view(engine, seats),
    )


def _shoe_view(engine: Engine | None, seats: list[Seat]) -> ShoeView | None:
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
    round_: PublicRound | None,
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
    table: SharedTable, previous: TableScene | None, written: list[TableEvent]
) -> tuple[list[TableEvent], list[str]]:
    """The scene's events and their log lines, newest first, up to the table's version:
    only those written since ``previous`` (the same table's last scene) are read and
    worded, the rest carried; not read when ``written`` holds them all."""
    if previous is None or previous.table.version > table.version:
        events = _events(table.pk, upto=table.version)
        return events, log_lines(events)
    if previous.table.version == table.version:  # a bet being built: no event written
        return previous.events, previous.log
    if _follows(written, previous.table.version, table.version):
        new = written[::-1]
    else:
        new = _events(table.pk, after=previous.table.version, upto=table.version)
    events = (new + previous.events)[:SCENE_EVENTS]
    log = (log_lines(new) + previous.log)[:SCENE_EVENTS]
    return events, log


def _follows(written: list[TableEvent], after: int, upto: int) -> bool:
    """Whether ``written`` (oldest first) are exactly the events after seq ``after`` up to
    ``upto``."""
    return (
        len(written) == upto - after
        and bool(written)
        and written[0].seq == after + 1
        and written[-1].seq == upto
    )


def _headline(
    table: SharedTable, seats: list[Seat], engine: Engine | None, turn_box: int | None
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
