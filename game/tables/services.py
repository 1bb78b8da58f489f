"""Every write at a shared table (TABLES.md): one function per action, keyword-only.

Each runs in :func:`locked_table`: one transaction with the table row locked
(``select_for_update``), every deadline that ran out applied first (T-13: whichever comes
first, a request or the clock process, applies it, and only once: the row lock
serialises them and an applied deadline is gone), then the seat, phase, turn and posted
version checked (T-12). What changed is written back with the events everyone may see,
and the live channel is told after the commit (T-10). A refused action raises and the
transaction rolls back: nothing changes. The exception: a player's bet being built
(chips, side chips, Extra Bet activation, Clear) runs in :func:`seat_only`, the table row
share-locked and only the player's seat written, so a table's players bet at once.

The seat's posted version (``Seat.version``) catches a repeated or stale post of that
player's; other players' actions never make it stale. The host's actions (options, a new
invitation link, closing) post the table's own version, its last event's seq.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction

from game import once_keys, sql
from game.clock import epoch_ms, from_epoch_ms, now_ms
from game.errors import ActionRefused, FormExpired, LimitReached, StaleVersion, TableNotFound
from game.models import OnceKey
from game.rules import sidebets as sb
from game.rules.bets import check_bets_being_built
from game.rules.engine import Game as EngineGame
from game.rules.fair import CommittedShoes, InvalidClientSeed, check_client_seed, join_client_seeds
from game.rules.money import CHIP_CENTS
from game.rules.options import Options
from game.rules.records import (
    DIFFICULTIES,
    OFFER_ACTIONS,
    Event,
    IllegalAction,
    SharedBox,
    TriviaOutcome,
)
from game.rules.storage import game_from_json, game_to_json
from game.services import randomness
from game.services.locking import lock_player
from game.services.shoe_records import shoe_writes
from game.tables import live
from game.tables.models import (
    SEATS_MAX,
    SEATS_MIN,
    Seat,
    SharedTable,
    TableEvent,
    TableQuestion,
    TableShoe,
    new_client_seed,
    new_invite_token,
)
from trivia.services import NoQuestionsAvailable, choose_question, shuffled_answers

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    Player = User

logger = logging.getLogger(__name__)

STARTING_CREDITS = EngineGame.STARTING_CREDITS  # T-3, as
INTERMISSION_SECONDS = (10, 60)  # T-5
DEFAULT_TURN_SECONDS = 20  # T-7, T-8
ANSWER_FOR_TURN = {10: 10, 20: 15, 30: 30, 60: 30}
EMPTY_TABLE_CLOSES_AFTER = timedelta(minutes=30)  # T-2
# T-7's answers a shared table takes: the engine's own (insurance, even money, early
# surrender, the extra bet, the House Money parlay, the Perfect 11s dice). The engine then
# refuses any that is not on offer to that box now.
OFFER_ANSWERS = OFFER_ACTIONS
# The one answer that carries an amount: "extra_bet" with the amount in cents.
EXTRA_BET_ANSWER = "extra_bet"
PLAYS = ("stand", "split", "surrender")
TRIVIA_PLAYS = ("hit", "double")


# --------------------------------------------------------------------- options


def table_options(raw: dict[str, Any] | None) -> Options:
    """The table's options (RULES.md §10) as a shared table plays them: one box per seat,
    and a turn timer always on (T-8: 20 s unless chosen, "off" not allowed)."""
    data = dict(raw or {})
    data["seats"] = 1
    if data.get("turn_seconds", "off") == "off":
        data["turn_seconds"] = DEFAULT_TURN_SECONDS
    if data.get("answer_seconds", "off") == "off":
        # T-8: the question's own clock runs inside the turn, so a shared table always has
        # one: the longest choice that fits the turn.
        data["answer_seconds"] = ANSWER_FOR_TURN.get(int(data["turn_seconds"]), 30)
    try:
        return Options.from_dict(data)
    except ValueError as error:
        raise ActionRefused("rule", text=str(error)) from None


# --------------------------------------------------------------------- the locked table


@dataclass
class LockedTable:
    """A table row locked for one action, its seats and its engine.

    The engine is read from the table's state the first time it is asked for: an action
    that needs only the rules (a chip, a side chip) reads ``options`` and never parses the
    round and the shoe."""

    table: SharedTable
    seats: list[Seat]
    loaded_engine: EngineGame | None = None
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    changed_seats: set[int] = field(default_factory=set)

    @property
    def engine(self) -> EngineGame:
        if self.loaded_engine is None:
            self.loaded_engine = _load_engine(self.table)
        return self.loaded_engine

    @property
    def options(self) -> Options:
        """The table's rules: the engine's when it is loaded, else the stored copy (the
        same options: ``_save`` writes the engine's back whenever they change)."""
        if self.loaded_engine is not None:
            return self.loaded_engine.options
        return table_options(self.table.options)

    def seat_of(self, user: Player) -> Seat | None:
        for seat in self.seats:
            if seat.player_id == user.pk:
                return seat
        return None

    def seated(self) -> list[Seat]:
        return sorted((s for s in self.seats if s.number is not None), key=lambda s: s.number or 0)

    def seat_with_box(self, box: int) -> Seat | None:
        for seat in self.seats:
            if seat.box == box:
                return seat
        return None

    def touch(self, seat: Seat) -> None:
        self.changed_seats.add(seat.pk)

    def announce(self, kind: str, /, **data: Any) -> None:
        """Record an event everyone at the table sees (named by seat and player)."""
        number = data.get("seat")
        if number is not None and "player" not in data:
            for seat in self.seats:
                if seat.number == number:
                    data["player"] = seat.player.get_username()
                    break
        self.events.append((kind, data))


def _load_engine(table: SharedTable) -> EngineGame:
    """The table's engine as stored: its committed shoes go on (a table stored before
    shoes were committed gets them from its next shoe, F-1)."""
    if table.state:
        return game_from_json(
            table.state,
            rng=randomness.make_rng(),
            seed_bytes=randomness.server_seeds(),
            clock=now_ms,
        )
    return _new_engine(table_options(table.options))


def _new_engine(options: Options) -> EngineGame:
    """A new table's engine: its first shoe committed before anyone sits (F-1)."""
    return EngineGame(
        options, rng=randomness.make_rng(), source=randomness.shoe_source(), clock=now_ms
    )


def seats_of_table(table_id: int) -> list[Seat]:
    """A table's seats in order, with their players and open questions."""
    seats = Seat.objects.filter(table_id=table_id)
    return list(seats.select_related("player", "pending_question__question").order_by("id"))


def revealed_questions(*, table_id: int, round_number: int) -> list[TableQuestion]:
    """The questions of a table's round already answered (or timed out) and so revealed
    (T-11), oldest first, with their trivia question: never one still open."""
    asked = TableQuestion.objects.filter(
        seat__table_id=table_id, round_number=round_number, correct__isnull=False
    )
    return list(asked.select_related("question").order_by("id"))


def _lock(table_id: int, *, skip_locked: bool = False) -> LockedTable:
    """The table row locked (``skip_locked``: TableNotFound if another process holds it),
    its seats with their players and open questions, and its engine."""
    rows = SharedTable.objects.select_for_update(skip_locked=skip_locked).filter(pk=table_id)
    table = next(iter(rows.order_by()), None)
    if table is None:
        raise TableNotFound(table_id)
    return LockedTable(table, seats_of_table(table.pk))


@contextmanager
def locked_table(*, table_id: int, open_only: bool = True) -> Iterator[LockedTable]:
    """One action's transaction on a table: locked, due deadlines applied, saved after.

    Deadlines that ran out are applied and kept even when the action is then refused
    (T-12: a late action changes nothing, but the time that ran out has run out): the
    action runs in a savepoint of its own."""
    refused: Exception | None = None
    with transaction.atomic():
        locked = _lock(table_id)
        if open_only and locked.table.is_closed:
            raise TableNotFound(table_id)
        if _apply_due(locked):
            _save(locked)
        try:
            with transaction.atomic():
                yield locked
                _save(locked)
        except (ActionRefused, StaleVersion, TableNotFound) as error:
            refused = error
    if refused is not None:
        raise refused


# A seat's own bet being built (chips, side chips, Extra Bet activation, Clear) needs the
# table only to stay as it is meanwhile: the table row share-locked (PostgreSQL's FOR SHARE;
# Django's select_for_update has no such mode), the seat row locked for the version check.
# A table's players can build their bets at once, and a Ready, a deal or the clock (which
# lock the row for update) wait for them, as they wait for each other.
_SHARE_TABLE_SQL = 'SELECT * FROM "game_sharedtable" WHERE "id" = %s'


def _seat_of_player(table_id: int, player_id: int) -> Seat | None:
    """The player's seat at the table, locked, with its open question."""
    # of=self: the seat's row only (its open question is joined, nullable, unlocked).
    seats = (
        Seat.objects.select_for_update(of=("self",))
        .filter(table_id=table_id, player_id=player_id)
        .select_related("player", "pending_question__question")
    )
    return next(iter(seats.order_by()), None)


def _share_table(table_id: int) -> SharedTable | None:
    sql = _SHARE_TABLE_SQL
    if connection.vendor == "postgresql":
        sql += " FOR SHARE"
    return next(iter(SharedTable.objects.raw(sql, [table_id])), None)


@contextmanager
def seat_only(*, table_id: int, user: Player) -> Iterator[LockedTable]:
    """One action that changes nothing but the player's own seat (T-5: their bet being
    built): the ``LockedTable`` holds that seat alone and only it is saved — no event, no
    engine state, the table row untouched (the seat's version tells the scenes it changed).
    When a deadline has run out, the whole table's lock is taken instead to apply it
    first (``locked_table``)."""
    with transaction.atomic():
        table = _share_table(table_id)
        if table is None or table.is_closed:
            raise TableNotFound(table_id)
        if table.deadline_ms is None or table.deadline_ms > now_ms():
            seat = _seat_of_player(table.pk, user.pk)
            # The rules only (locked.options): a bet being built never loads the round.
            locked = LockedTable(table, [] if seat is None else [seat])
            yield locked
            if locked.events:
                raise RuntimeError("a seat-only action may not announce events")
            for changed in locked.seats:
                if changed.pk in locked.changed_seats:
                    _update_seat(changed)
            return
    with locked_table(table_id=table_id) as locked:
        yield locked


def _save(locked: LockedTable) -> None:
    table = locked.table
    written = list(TABLE_ROW_FIELDS)
    # The engine's state and the rules are written only when they changed: a chip, a
    # Ready or a seat taken leaves them alone, and the table's lock is held for less. An
    # engine never loaded has changed nothing.
    engine = locked.loaded_engine
    if engine is not None:
        # The shoes the action opened, dealt again for new seeds or revealed (F-1, F-6).
        sql.run_all(shoe_writes(engine.source, TableShoe, {"table_id": table.pk}))
        state = game_to_json(engine)
        if state != table.state:
            table.state = state
            written.append("state")
        # The rules as chosen (a shared table's one box per seat is implied, not stored).
        options = {k: v for k, v in engine.options.to_dict().items() if k != "seats"}
        if options != table.options:
            table.options = options
            written.append("options")
    table.deadline_ms = _next_deadline(locked)
    first_seq = table.version + 1
    if locked.events:
        TableEvent.objects.bulk_create(
            [
                TableEvent(table=table, seq=first_seq + i, kind=kind, data=data)
                for i, (kind, data) in enumerate(locked.events)
            ]
        )
        table.version += len(locked.events)
    table.revision += 1
    SharedTable.objects.filter(pk=table.pk).update(
        **{name: getattr(table, name) for name in written}
    )
    for seat in locked.seats:
        if seat.pk in locked.changed_seats:
            # One UPDATE a seat: bulk_update's CASE … WHEN cost more Python than the
            # statements it saved (py-spy, the load bench).
            _update_seat(seat)
    if locked.events:
        live.announce(table.pk, table.version)
    locked.events = []
    locked.changed_seats = set()


# What an action may change on a table (everything but its key, host and creation time).
TABLE_STATE_FIELDS = tuple(
    field.name
    for field in SharedTable._meta.concrete_fields
    if field.name not in ("id", "host", "created")
)
# Those always written (the engine's state and the rules only when changed).
TABLE_ROW_FIELDS = tuple(name for name in TABLE_STATE_FIELDS if name not in ("state", "options"))
# What an action may change on a seat (saved by one UPDATE for each seat changed).
SEAT_STATE_FIELDS = (
    "number",
    "bank_cents",
    "credits",
    "bet_cents",
    "side_bets",
    "extra_bet",
    "ready",
    "sitting_out",
    "box",
    "trivia_choice_for",
    "pending_question",
    "client_seed",
    "version",
)


def _update_seat(seat: Seat) -> None:
    """Write what an action may change on ``seat`` (its row is locked by the action)."""
    Seat.objects.filter(pk=seat.pk).update(
        **{name: getattr(seat, name) for name in SEAT_STATE_FIELDS}
    )


def _check_seat_version(seat: Seat, version: int) -> None:
    if version != seat.version:
        raise StaleVersion(f"seat {seat.pk}: version {version} posted, {seat.version} stored")


def _check_table_version(table: SharedTable, version: int) -> None:
    """The host's actions name the table's version (its last event) their page showed."""
    if version != table.version:
        raise StaleVersion(f"table {table.pk}: version {version} posted, {table.version} stored")


def _own_seat(locked: LockedTable, user: Player, version: int) -> Seat:
    """T-12: the player's own seat, seated, with the version their page was rendered from."""
    seat = locked.seat_of(user)
    if seat is None or seat.number is None:
        raise ActionRefused("not_seated")
    _check_seat_version(seat, version)
    seat.version += 1
    locked.touch(seat)
    return seat


def _run(action: Any) -> list[Event]:
    try:
        return action()
    except IllegalAction as error:
        raise ActionRefused("rule", text=_players_words(error)) from None


_BOX_PREFIX = re.compile(r"^Box \d+: ")


def _players_words(error: IllegalAction) -> str:
    """The engine's reason without the "Box N: " a shared round puts before it: a player
    knows their seat, not their box's number in the engine's order."""
    text = _BOX_PREFIX.sub("", str(error), count=1)
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------------- the table itself


def create_table(
    *,
    host: Player,
    name: str,
    public: bool,
    seat_count: int,
    intermission_seconds: int = 30,
    options: dict[str, Any] | None = None,
    once_key: str | None = None,
) -> SharedTable:
    """T-1: a new table; its host sits down later like anyone else.

    Made under the host's row lock: a host has at most ``TABLES_HOSTED_PER_PLAYER`` open
    tables (LimitReached past it). With ``once_key`` (Create Table's one-time key,
    game/once_keys.py) a repeat of the same form answers the table the first one made
    (FormExpired when the key was another player's or its table is gone)."""
    name = name.strip()
    if not name:
        raise ActionRefused("table_name_missing")
    if not SEATS_MIN <= seat_count <= SEATS_MAX:
        raise ActionRefused("seat_count_out_of_range")
    low, high = INTERMISSION_SECONDS
    if not low <= intermission_seconds <= high:
        raise ActionRefused("intermission_out_of_range")
    engine = _new_engine(table_options(options))
    try:
        with transaction.atomic():
            lock_player(host)
            made = None if once_key is None else once_keys.used(OnceKey.Kind.TABLE, once_key)
            if made is not None:
                return once_keys.made_for(made, host, SharedTable.objects.filter(host=host))
            _check_room_for_a_table(host)
            table = SharedTable.objects.create(
                name=name[:60],
                host=host,
                public=public,
                seat_count=seat_count,
                intermission_seconds=intermission_seconds,
                empty_since=from_epoch_ms(now_ms()),  # T-2: nobody seated yet
            )
            locked = LockedTable(table, [], engine)
            locked.announce("table_opened", name=table.name)
            _save(locked)
            if once_key is not None:
                OnceKey.objects.create(
                    kind=OnceKey.Kind.TABLE, key=once_key, user=host, made_id=table.pk
                )
    except IntegrityError:
        # Stored meanwhile by a post that did not queue behind this host's lock: another
        # player's, with this player's key.
        raise FormExpired("a table key used by another player") from None
    return table


def _check_room_for_a_table(host: Player) -> None:
    limit = int(settings.TABLES_HOSTED_PER_PLAYER)
    hosted = SharedTable.objects.filter(host=host).exclude(phase=SharedTable.Phase.CLOSED)
    if hosted.count() >= limit:
        raise LimitReached("too_many_tables", limit=limit)


def _host_only(locked: LockedTable, user: Player) -> None:
    if locked.table.host_id != user.pk:
        raise ActionRefused("host_only")


def _between_rounds(locked: LockedTable) -> None:
    if locked.table.phase != SharedTable.Phase.INTERMISSION:
        raise ActionRefused("between_rounds_only")


def change_options(
    *, table_id: int, user: Player, version: int, options: dict[str, Any]
) -> SharedTable:
    """T-2: the host changes the options between rounds, while no bet is placed."""
    with locked_table(table_id=table_id) as locked:
        _host_only(locked, user)
        _check_table_version(locked.table, version)
        _between_rounds(locked)
        if any(seat.ready for seat in locked.seats):
            raise ActionRefused("bets_placed")
        new_options = table_options(options)
        _run(lambda: locked.engine.set_options(new_options))
        locked.announce("options_changed")
        return locked.table


def renew_invite(*, table_id: int, user: Player, version: int) -> SharedTable:
    """T-1: a new invitation link; the old one stops working. The event wakes every
    stream at the table at once, so that one a watcher opened by the old link ends now."""
    with locked_table(table_id=table_id) as locked:
        _host_only(locked, user)
        _check_table_version(locked.table, version)
        locked.table.invite_token = new_invite_token()
        locked.announce("invite_renewed")
        return locked.table


def close_table(*, table_id: int, user: Player, version: int) -> SharedTable:
    """T-2: the host closes the table between rounds."""
    with locked_table(table_id=table_id) as locked:
        _host_only(locked, user)
        _check_table_version(locked.table, version)
        _between_rounds(locked)
        _close(locked, reason="host")
        return locked.table


def shuffle_now(*, table_id: int, user: Player, version: int) -> SharedTable:
    """F-6: the host finishes the shoe between rounds (Shuffle now): its seed is revealed
    with the cards dealt from it, and a new committed shoe, dealt with the seated
    players' seeds (F-2), takes its place. A shoe no card has left is new already."""
    with locked_table(table_id=table_id) as locked:
        _host_only(locked, user)
        _check_table_version(locked.table, version)
        if locked.table.phase != SharedTable.Phase.INTERMISSION:
            raise ActionRefused("shuffle_between_rounds")
        engine = locked.engine
        if _untouched_shoe(engine):
            raise ActionRefused("shoe_new")
        _seed_new_shoes(locked)
        _after_engine(locked, _run(engine.shuffle_now))
        return locked.table


def _close(locked: LockedTable, *, reason: str) -> None:
    locked.table.phase = SharedTable.Phase.CLOSED
    # F-6: nothing more is dealt from the table's shoe, so its seed can be told.
    locked.engine.finish_shoe()
    for seat in locked.seated():
        seat.number = None
        seat.ready = False
        locked.touch(seat)
    locked.announce("table_closed", reason=reason)


# --------------------------------------------------------------------- seats (T-3)


# The version a player who never sat at the table posts: the one a new seat starts from.
NO_SEAT_VERSION = 0


def sit(*, table_id: int, user: Player, version: int, number: int) -> Seat:
    """T-3: sit in a free seat; a returning player gets their bank and credits back."""
    with locked_table(table_id=table_id) as locked:
        table = locked.table
        seat = locked.seat_of(user)
        if seat is None:
            if version != NO_SEAT_VERSION:
                raise StaleVersion(f"table {table.pk}: no seat yet, version {version} posted")
        else:
            _check_seat_version(seat, version)
        if not 1 <= number <= table.seat_count:
            raise ActionRefused("no_such_seat")
        if seat is not None and seat.number is not None:
            raise ActionRefused("already_seated")
        if any(s.number == number for s in locked.seats):
            raise ActionRefused("seat_taken")
        if seat is None:
            seat = Seat.objects.create(
                table=table,
                player=user,
                bank_cents=locked.options.starting_bank,
                credits=STARTING_CREDITS,
                client_seed=new_client_seed(),  # F-2: random, the player's to change
            )
            locked.seats.append(seat)
        was_empty = not locked.seated()
        seat.number = number
        seat.ready = seat.sitting_out = False
        seat.version += 1
        locked.touch(seat)
        table.empty_since = None
        if was_empty and table.phase == SharedTable.Phase.INTERMISSION:
            _open_betting(locked)
        locked.announce("seated", seat=number, player=user.get_username())
        return seat


def leave(*, table_id: int, user: Player, version: int) -> Seat:
    """T-3: leave the seat; bank and credits stay with it. A box still in play is timed
    out like a player who is not connected (T-8)."""
    with locked_table(table_id=table_id) as locked:
        seat = _own_seat(locked, user, version)
        number = seat.number
        seat.number = None
        seat.ready = seat.sitting_out = False
        seat.trivia_choice_for = ""
        if not locked.seated():
            locked.table.empty_since = from_epoch_ms(now_ms())
        locked.announce("left", seat=number, player=user.get_username())
        if locked.table.phase == SharedTable.Phase.INTERMISSION:
            _end_betting_if_everyone_decided(locked)
        return seat


def set_seat_client_seed(*, table_id: int, user: Player, version: int, client_seed: str) -> Seat:
    """F-2: the player's own client seed (1–64 printable ASCII characters). It joins the
    others' in the table's next shoe, or in the shoe no card has left yet at the next deal;
    the shoe dealing now keeps the seed it was committed with."""
    try:
        seed = check_client_seed(client_seed)
    except InvalidClientSeed as error:
        raise ActionRefused("bad_client_seed", text=str(error)) from None
    with locked_table(table_id=table_id) as locked:
        seat = _own_seat(locked, user, version)
        seat.client_seed = seed
        # News for every page: the felt shows the seeds the next shoe will be dealt with.
        locked.announce("client_seed_changed", seat=seat.number)
        return seat


# --------------------------------------------------------------------- the shoe's seeds (F-2)


def seats_client_seed(seats: Iterable[Seat]) -> str | None:
    """The client seed of the table's next shoe: its seated players' seeds in seat order
    joined with "|" (F-2); None while nobody is seated."""
    seated = sorted((s for s in seats if s.number is not None), key=lambda s: s.number or 0)
    if not seated:
        return None
    return join_client_seeds([seat.client_seed for seat in seated])


def _untouched_shoe(engine: EngineGame) -> bool:
    """No card has left the shoe yet: its client seed may still change (F-2)."""
    return engine.shoe.remaining() == engine.shoe.size


def _seed_new_shoes(locked: LockedTable) -> str | None:
    """Every shoe opened from now on is dealt with the seated players' seeds joined (the
    seeds of who sits now); the joined seed, None while nobody is seated."""
    joined = seats_client_seed(locked.seats)
    source = locked.engine.source
    if joined is not None and isinstance(source, CommittedShoes):
        source.client_seed = joined
    return joined


def _seed_the_deal(locked: LockedTable) -> None:
    """F-2 before a deal: the next shoes take the seated players' seeds, and so does the
    shoe about to be dealt from when no card has left it (the table's first shoe, or one
    shuffled since): shuffled again from the same server seed, its commitment unchanged.
    A shoe rebuilt by the deal itself (R-2.2) is then opened with them too."""
    joined = _seed_new_shoes(locked)
    engine = locked.engine
    source = engine.source
    showing = source.showing() if isinstance(source, CommittedShoes) else None
    if joined is None or showing is None or showing.client_seed == joined:
        return
    if _untouched_shoe(engine):
        _run(lambda: engine.set_client_seed(joined))


# --------------------------------------------------------------------- betting (T-5)


def _require_betting(locked: LockedTable) -> None:
    if locked.table.phase != SharedTable.Phase.INTERMISSION:
        raise ActionRefused("betting_closed")


def side_bets_offered(options: Options) -> bool:
    """§9: the side-bet menu is on (the simple game keeps the option but plays none)."""
    return options.side_bets and not options.simple


def seat_side_stakes(seat: Seat) -> dict[str, int]:
    """The seat's side stakes in menu order, staked bets only (anything odd stored is
    ignored, as the single-player game ignores it)."""
    return sb.stored_side_stakes(seat.side_bets)


def bets_for_deal(options: Options, seat: Seat) -> tuple[dict[str, int], bool]:
    """The seat's side stakes and Extra Bet activation as they ride at the deal: none while
    the table's side bets are off (kept on the seat for when they come back on)."""
    if not side_bets_offered(options):
        return {}, False
    return seat_side_stakes(seat), seat.extra_bet


def shared_box(options: Options, seat: Seat) -> SharedBox:
    """The seat's box as the engine deals it: its bets as they ride, and its wallet."""
    stakes, extra_bet = bets_for_deal(options, seat)
    return SharedBox(seat.bet_cents, stakes, extra_bet, bank=seat.bank_cents, credits=seat.credits)


def _require_open_bet(locked: LockedTable, seat: Seat) -> None:
    _require_betting(locked)
    if seat.ready:
        raise ActionRefused("already_ready")


def add_chip(*, table_id: int, user: Player, version: int, chip_cents: int) -> Seat:
    """Add a chip to the bet for the next deal (R-4.1 limits checked at Ready)."""
    if chip_cents not in CHIP_CENTS:
        raise ActionRefused("no_such_chip")
    with seat_only(table_id=table_id, user=user) as locked:
        seat = _own_seat(locked, user, version)
        _require_open_bet(locked, seat)
        options = locked.options
        new_bet = seat.bet_cents + chip_cents
        stakes = bets_for_deal(options, seat)[0]
        # the rules engine's own check of a bet being built (the table
        # maximum; the bet with the side bets within the seat's bank).
        _run(lambda: check_bets_being_built(options, new_bet, stakes, bank=seat.bank_cents))
        seat.bet_cents = new_bet
        return seat


def clear_bet(*, table_id: int, user: Player, version: int) -> Seat:
    """R-4.1 "Clear": the bet, the side bets and the Extra Bet activation go back to none."""
    with seat_only(table_id=table_id, user=user) as locked:
        seat = _own_seat(locked, user, version)
        _require_open_bet(locked, seat)
        seat.bet_cents = 0
        seat.side_bets = {}
        seat.extra_bet = False
        return seat


# --------------------------------------------------------------------- side bets (T-5, §9)


def _side_bet_seat(locked: LockedTable, user: Player, version: int) -> Seat:
    """The player's seat, betting still open to it, at a table whose side bets are on."""
    seat = _own_seat(locked, user, version)
    _require_open_bet(locked, seat)
    options = locked.options
    if not side_bets_offered(options):
        raise ActionRefused("side_bets_simple" if options.simple else "side_bets_off")
    return seat


def _set_side_stakes(locked: LockedTable, seat: Seat, stakes: dict[str, int]) -> None:
    """R-1.4, §9 on bets being built: each stake at least the table minimum, all of them
    with the bet covered by the seat's bank (the engine's own check; no table maximum
    applies to a side stake, as in the single-player game)."""
    options = locked.options
    _run(lambda: check_bets_being_built(options, seat.bet_cents, stakes, bank=seat.bank_cents))
    seat.side_bets = stakes


def add_side_chip(*, table_id: int, user: Player, version: int, bet: str, chip_cents: int) -> Seat:
    """A chip adds to one side bet's stake for the next deal."""
    if bet not in sb.STAKED_SIDE_BETS:
        raise ActionRefused("no_such_side_bet")
    if chip_cents not in CHIP_CENTS:
        raise ActionRefused("no_such_chip")
    with seat_only(table_id=table_id, user=user) as locked:
        seat = _side_bet_seat(locked, user, version)
        stakes = seat_side_stakes(seat)
        _set_side_stakes(locked, seat, {**stakes, bet: stakes.get(bet, 0) + chip_cents})
        return seat


def clear_side_bet(*, table_id: int, user: Player, version: int, bet: str) -> Seat:
    """One side bet's "Clear": its stake goes back to none (not played)."""
    if bet not in sb.STAKED_SIDE_BETS:
        raise ActionRefused("no_such_side_bet")
    with seat_only(table_id=table_id, user=user) as locked:
        seat = _side_bet_seat(locked, user, version)
        seat.side_bets = {k: v for k, v in seat_side_stakes(seat).items() if k != bet}
        return seat


def activate_extra_bet(*, table_id: int, user: Player, version: int, active: bool) -> Seat:
    """R-SB-20: Extra Bet Blackjack activated (no stake until its offer) or not."""
    with seat_only(table_id=table_id, user=user) as locked:
        seat = _side_bet_seat(locked, user, version)
        seat.extra_bet = active
        return seat


def ready(*, table_id: int, user: Player, version: int) -> Seat:
    """T-5: the bet is placed; once everyone is Ready or sitting out, the deal comes."""
    with locked_table(table_id=table_id) as locked:
        seat = _own_seat(locked, user, version)
        _require_betting(locked)
        box = shared_box(locked.options, seat)
        # The very checks start_shared_round makes of this box (R-1.5 credits, R-4.1
        # limits, R-1.4 the bank), decided by the engine alone.
        engine = locked.engine
        _run(lambda: engine.check_shared_box(box))
        seat.ready, seat.sitting_out = True, False
        locked.announce(
            "bet_placed",
            seat=seat.number,
            bet=seat.bet_cents,
            side_bets=sum(box.side_bets.values()),
            extra_bet=box.extra_bet,
        )
        _end_betting_if_everyone_decided(locked)
        return seat


def sit_out(*, table_id: int, user: Player, version: int) -> Seat:
    """T-5: this seat sits the coming round out."""
    with locked_table(table_id=table_id) as locked:
        seat = _own_seat(locked, user, version)
        _require_betting(locked)
        seat.ready, seat.sitting_out = False, True
        locked.announce("sitting_out", seat=seat.number)
        _end_betting_if_everyone_decided(locked)
        return seat


def _open_betting(locked: LockedTable, *, again: bool = False) -> None:
    """T-5/T-9: a new intermission (timed only while someone is seated).

    ``again``: the intermission before it ended with no bet (T-5): it starts over as
    ``betting_reopened``, news for the pages (the new clock) that adds no line to the
    log, so an idle table's log does not fill with "Place your bets" every intermission."""
    table = locked.table
    table.phase = SharedTable.Phase.INTERMISSION
    for seat in locked.seats:
        if seat.ready or seat.sitting_out:
            seat.ready = seat.sitting_out = False
            locked.touch(seat)
    if locked.seated():
        table.betting_ends_ms = now_ms() + table.intermission_seconds * 1000
        kind = "betting_reopened" if again else "betting_open"
        locked.announce(kind, seconds=table.intermission_seconds)
    else:
        table.betting_ends_ms = None


def _end_betting_if_everyone_decided(locked: LockedTable) -> None:
    seated = locked.seated()
    if seated and all(seat.ready or seat.sitting_out for seat in seated):
        _end_betting(locked)


def _end_betting(locked: LockedTable) -> None:
    """T-5/T-6: deal to every seat with a bet placed, seat order; none: betting reopens.

    Each box is checked again by the engine first (``Game.check_shared_box``, the checks
    the deal itself makes): a bet that no longer passes (checked at Ready, but the seat's
    row may have changed since) sits that seat out of the round, said in the table's log,
    so one seat's bet can never refuse the others' deal nor stall the table's clock."""
    engine = locked.engine
    options = engine.options
    players: list[Seat] = []
    boxes: list[SharedBox] = []
    for seat in locked.seated():
        if not seat.ready:
            continue
        box = shared_box(options, seat)
        try:
            engine.check_shared_box(box)
        except IllegalAction as error:
            seat.ready = False
            locked.touch(seat)
            reason = _players_words(error)
            logger.warning(
                "table %s: seat %s sits the round out, its bet refused: %s",
                locked.table.pk,
                seat.number,
                reason,
            )
            locked.announce("bet_refused", seat=seat.number, reason=reason)
            continue
        players.append(seat)
        boxes.append(box)
    for seat in locked.seats:
        if seat.box is not None:
            seat.box = None
            locked.touch(seat)
    if not players:
        _open_betting(locked, again=True)
        return
    _seed_the_deal(locked)
    events = _run(lambda: engine.start_shared_round(boxes))
    for index, seat in enumerate(players):
        seat.box = index
        seat.ready = False
        seat.trivia_choice_for = ""
        locked.touch(seat)
    table = locked.table
    table.phase = SharedTable.Phase.ROUND
    table.round_number = locked.engine.round_number
    table.betting_ends_ms = None
    locked.announce("round_dealt", round=table.round_number, seats=[s.number for s in players])
    _after_engine(locked, events)


def _after_engine(locked: LockedTable, events: list[Event]) -> None:
    """Record what the engine did (public: the engine never puts the hole card or the shoe
    in an event), write each box's wallet back to its seat, and end the round when over."""
    engine = locked.engine
    round_ = engine.round
    for event in events:
        data = {k: v for k, v in event.items() if k != "type"}
        seat = _seat_of_event(locked, data)
        if seat is not None:
            data["seat"] = seat.number
        locked.announce(event["type"], **data)
    if round_ is None:
        return
    for seat in locked.seats:
        if seat.box is None or seat.box >= len(round_.boxes):
            continue
        bank, credits = engine.box_wallet(seat.box)
        if (bank, credits) != (seat.bank_cents, seat.credits):
            seat.bank_cents, seat.credits = bank, credits
            locked.touch(seat)
    if round_.over and locked.table.phase == SharedTable.Phase.ROUND:
        _finish_round(locked)


def _seat_of_event(locked: LockedTable, data: dict[str, Any]) -> Seat | None:
    """The seat an engine event is about: by its box (several boxes), its hand, or the one
    box of a round dealt to one seat."""
    round_ = locked.engine.round
    if round_ is None or data.get("to") == "dealer":
        return None
    if "box" in data:
        return locked.seat_with_box(int(data["box"]) - 1)
    if "hand" in data and int(data["hand"]) < len(round_.hands):
        return locked.seat_with_box(round_.hands[int(data["hand"])].box)
    if len(round_.boxes) == 1 and data.get("to") == "player":
        return locked.seat_with_box(0)
    return None


def _finish_round(locked: LockedTable) -> None:
    """T-9: every box settled and shown; the next intermission begins."""
    for seat in locked.seats:
        if seat.pending_question_id is not None or seat.trivia_choice_for:
            seat.pending_question = None
            seat.trivia_choice_for = ""
            locked.touch(seat)
        if seat.bet_cents > seat.bank_cents:
            seat.bet_cents = 0
            locked.touch(seat)
        _fit_side_stakes(locked, seat)
    _open_betting(locked)


def _fit_side_stakes(locked: LockedTable, seat: Seat) -> None:
    """The side stakes stay as the next round's defaults, cut down in menu order to what
    the bank still covers after the bet (one below the table minimum is dropped), as in the
    single-player game."""
    stakes = seat_side_stakes(seat)
    if not stakes:
        return
    fitted = sb.fit_side_stakes(
        stakes,
        base_cents=seat.bet_cents,
        bank_cents=seat.bank_cents,
        min_cents=locked.options.min_bet,
    )
    if fitted != stakes:
        seat.side_bets = fitted
        locked.touch(seat)


# --------------------------------------------------------------------- decisions (T-7, T-8)


def _require_round(locked: LockedTable) -> Any:
    round_ = locked.engine.round
    if locked.table.phase != SharedTable.Phase.ROUND or round_ is None or round_.over:
        raise ActionRefused("no_round_in_play")
    return round_


def answer_offer(
    *,
    table_id: int,
    user: Player,
    version: int,
    answer: str,
    amount_cents: int | None = None,
) -> Seat:
    """T-7: insurance / even money, early surrender, the extra bet (``"extra_bet"`` with
    ``amount_cents``, or ``"extra_bet:decline"``), the House Money parlay and the Perfect
    11s dice, answered by each player concerned at once; the engine checks the answer
    against that seat's box and wallet (the extra bet's limits included)."""
    if answer not in OFFER_ANSWERS:
        raise ActionRefused("no_such_answer")
    if answer == EXTRA_BET_ANSWER:
        if amount_cents is None:
            raise ActionRefused("no_amount")
        answer = f"{EXTRA_BET_ANSWER}:{amount_cents}"
    with locked_table(table_id=table_id) as locked:
        seat = _own_seat(locked, user, version)
        _require_round(locked)
        if seat.box is None:
            raise ActionRefused("not_your_turn")
        box = seat.box
        events = _run(lambda: locked.engine.answer_for_box(box, answer))
        _after_engine(locked, events)
        return seat


def _require_turn(locked: LockedTable, seat: Seat) -> None:
    """T-12: only the player whose box is in turn acts, and no question is open."""
    _require_round(locked)
    if seat.box is None or locked.engine.box_in_turn() != seat.box:
        raise ActionRefused("not_your_turn")
    if seat.pending_question_id is not None:
        raise ActionRefused("question_open")


def play(*, table_id: int, user: Player, version: int, action: str) -> Seat:
    """T-8: Stand, Split or Surrender for the box in turn; Hit and Double Down ask a
    question first in trivia mode (the difficulty choice opens), else act at once."""
    if action not in PLAYS + TRIVIA_PLAYS:
        raise ActionRefused("no_such_action")
    with locked_table(table_id=table_id) as locked:
        seat = _own_seat(locked, user, version)
        _require_turn(locked, seat)
        engine = locked.engine
        legality = engine.legal_actions().get(action)
        if legality != "allowed":
            raise ActionRefused("rule", text=legality)
        if action in TRIVIA_PLAYS and engine.options.trivia_mode:
            seat.trivia_choice_for = action
            return seat
        method = getattr(engine, action)
        _after_engine(locked, _run(method))
        return seat


def choose_difficulty(*, table_id: int, user: Player, version: int, difficulty: str) -> Seat:
    """R-8.5 at a shared table: the question for the Hit or Double Down chosen; the turn's
    clock waits while the question's own clock runs (T-8, R-8.9)."""
    if difficulty not in DIFFICULTIES:
        raise ActionRefused("no_such_difficulty")
    with locked_table(table_id=table_id) as locked:
        seat = _own_seat(locked, user, version)
        _require_turn(locked, seat)
        action = seat.trivia_choice_for
        if action not in TRIVIA_PLAYS:
            raise ActionRefused("no_choice_waiting")
        asked = TableQuestion.objects.filter(seat=seat).values("question_id")
        rng = randomness.make_rng()
        try:
            question = choose_question(difficulty=difficulty, asked_ids=asked, rng=rng)
        except NoQuestionsAvailable as error:
            raise ActionRefused("no_questions", difficulty=error.difficulty) from None
        asked_question = TableQuestion.objects.create(
            seat=seat,
            round_number=locked.table.round_number,
            action=action,
            question=question,
            difficulty=difficulty,
            answers_shown=shuffled_answers(question, rng=rng),
            shown_ms=now_ms(),
        )
        seat.pending_question = asked_question
        seat.trivia_choice_for = ""
        locked.engine.pause_turn_clock()
        # T-11: the others see who is answering and how hard, never the question's answer.
        locked.announce("question_asked", seat=seat.number, difficulty=difficulty)
        return seat


def answer_question(*, table_id: int, user: Player, version: int, answer: str) -> Seat:
    """R-8.2/R-8.3: the answer is carried into the round at once: right, the card comes;
    wrong, the hand stands. Everyone then sees the question, the answer and the right one
    (T-11)."""
    with locked_table(table_id=table_id) as locked:
        seat = _own_seat(locked, user, version)
        _require_round(locked)
        asked = seat.pending_question
        if asked is None:
            raise ActionRefused("no_unanswered_question")
        if answer not in asked.answers_shown:
            raise ActionRefused("not_an_answer_shown")
        _apply_answer(locked, seat, asked, answer=answer, deadline=None)
        return seat


def _apply_answer(
    locked: LockedTable, seat: Seat, asked: TableQuestion, *, answer: str, deadline: int | None
) -> None:
    correct = deadline is None and answer == asked.question.correct_answer
    outcome = TriviaOutcome(asked.difficulty, correct, timed_out=deadline is not None)
    asked.answer_given = answer
    asked.correct = correct
    asked.timed_out = deadline is not None
    asked.save(update_fields=["answer_given", "correct", "timed_out"])
    seat.pending_question = None
    locked.touch(seat)
    locked.announce(
        "question_revealed",
        seat=seat.number,
        difficulty=asked.difficulty,
        question=asked.question.text,
        answer_given=answer,
        correct_answer=asked.question.correct_answer,
        correct=correct,
        timed_out=deadline is not None,
    )
    engine = locked.engine
    if deadline is not None:
        engine.start_next_decision_at(deadline)
    method = engine.hit if asked.action == "hit" else engine.double
    _after_engine(locked, _run(lambda: method(outcome)))


# --------------------------------------------------------------------- deadlines (T-13)


def _answer_ms(options: Options) -> int:
    """R-8.9 inside the turn (T-8): table_options always sets an answer clock."""
    assert options.answer_ms is not None
    return options.answer_ms


def _pending_answer_deadlines(locked: LockedTable) -> list[tuple[int, Seat]]:
    options = locked.options
    return sorted(
        (
            (seat.pending_question.shown_ms + _answer_ms(options), seat)
            for seat in locked.seats
            if seat.pending_question is not None
        ),
        key=lambda pair: pair[0],
    )


def _next_deadline(locked: LockedTable) -> int | None:
    table = locked.table
    if table.is_closed:
        return None
    if table.phase == SharedTable.Phase.INTERMISSION:
        if locked.seated():
            return table.betting_ends_ms
        if table.empty_since is not None:
            return _empty_table_closes_ms(table)
        return None
    candidates = [deadline for deadline, _ in _pending_answer_deadlines(locked)]
    round_ = locked.engine.round
    if round_ is not None and round_.deadline is not None:
        candidates.append(round_.deadline)
    return min(candidates) if candidates else None


def _empty_table_closes_ms(table: SharedTable) -> int:
    """T-2: when a table with nobody seated closes, on the table clock (the clock every
    other deadline reads)."""
    assert table.empty_since is not None
    return epoch_ms(table.empty_since + EMPTY_TABLE_CLOSES_AFTER)


def _apply_due(locked: LockedTable) -> int:
    """Apply every deadline that has run out, oldest first; how many were applied."""
    applied = 0
    while True:
        now = now_ms()
        table = locked.table
        if table.is_closed:
            return applied
        if table.phase == SharedTable.Phase.INTERMISSION:
            if not locked.seated():
                if table.empty_since is not None and now >= _empty_table_closes_ms(table):
                    _close(locked, reason="empty")
                    return applied + 1
                return applied
            ends = table.betting_ends_ms
            if ends is None or now < ends:
                return applied
            _end_betting(locked)
            applied += 1
            continue
        answers = _pending_answer_deadlines(locked)
        if answers and now >= answers[0][0]:
            deadline, seat = answers[0]
            question = seat.pending_question
            assert question is not None  # a pending answer's deadline is its question's
            _apply_answer(locked, seat, question, answer="", deadline=deadline)
            applied += 1
            continue
        if locked.engine.deadline_passed():
            _time_out_decision(locked)
            applied += 1
            continue
        return applied


def _time_out_decision(locked: LockedTable) -> None:
    """T-7/T-8: an offer stage's or a turn's time ran out: the engine applies the defaults
    (decline, collect, roll) or stands the hand, and the next box plays."""
    engine = locked.engine
    for seat in locked.seats:
        if seat.box is not None and seat.trivia_choice_for:
            seat.trivia_choice_for = ""
            locked.touch(seat)
    _after_engine(locked, _run(engine.timeout))


def apply_due_deadlines_of(table_id: int) -> int:
    """Apply what is due at one table (0 when another clock or a request holds it)."""
    with transaction.atomic():
        try:
            locked = _lock(table_id, skip_locked=True)
        except TableNotFound:
            return 0  # another clock or a request holds it, and applies what is due
        count = _apply_due(locked)
        if count or locked.table.deadline_ms != _next_deadline(locked):
            _save(locked)
        return count


def apply_due_deadlines(now: int | None = None, *, table_id: int | None = None) -> int:
    """For the clock process (T-13): apply every table's deadlines that ran out by now.

    Safe with several clocks and app servers at once: each table is applied under its row
    lock (tables another process holds are skipped), and an applied deadline is gone."""
    moment = now_ms() if now is None else now
    tables = (
        SharedTable.objects.all() if table_id is None else SharedTable.objects.filter(pk=table_id)
    )
    due = list(
        tables.filter(deadline_ms__lte=moment)
        .exclude(phase=SharedTable.Phase.CLOSED)
        .values_list("pk", flat=True)[:200]
    )
    applied = 0
    for due_id in due:
        try:
            applied += apply_due_deadlines_of(due_id)
        except ActionRefused as error:
            # One table's trouble must not stop the clock for the others; it is logged and
            # that table's transaction rolled back (tried again at the next tick).
            logger.error("table %s: a deadline could not be applied: %r", due_id, error)
    return applied
