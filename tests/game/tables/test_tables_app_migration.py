"""A database from before the shared tables had their own app migrates with nothing lost.

The test goes back to the state before the move (the ``tables`` app unmigrated, its models
still the ``game`` app's), fills a table there through the historical models (a played
round, the next round in play, seats, events and questions), migrates forward, and reads
it all back through the ``tables`` app; the live services then finish the round in play.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.apps.registry import Apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db.models.signals import post_migrate

from game.rules.engine import Engine
from game.rules.storage import game_from_json, game_to_json
from game.tables import services
from game.tables.models import Seat, SharedTable, TableEvent, TableQuestion
from tests.game.tables.helpers import with_cards_on_top

pytestmark = pytest.mark.django_db(transaction=True)

# Deal order with two boxes: box 1, box 2, hole, box 1, box 2, upcard.
# Round 1: ana 10+7=17, ben 9+7=16, the dealer 10+8=18: both stand and lose.
# Round 2: ana 10+9=19, ben 10+8=18, the dealer 10+7=17: both stand and win.
ROUND_ONE = ["0S", "9S", "0H", "7D", "7C", "8C"]
ROUND_TWO = ["0D", "0C", "0S", "9D", "8D", "7H"]
BET_CENTS = 1_000
STARTING_BANK_CENTS = 100_000


def migrate(app: str, target: str) -> Apps:
    """Run ``manage.py migrate app target``; the state it leaves, as its post-migrate
    signal gives it to receivers (the historical models)."""
    state: dict[str, Apps] = {}

    def keep_state(sender: Any, apps: Apps, **kwargs: Any) -> None:
        state["apps"] = apps

    post_migrate.connect(keep_state, dispatch_uid="test_tables_app_migration")
    try:
        call_command("migrate", app, target, verbosity=0)
    finally:
        post_migrate.disconnect(dispatch_uid="test_tables_app_migration")
    return state["apps"]


@pytest.fixture
def before_the_move() -> Iterator[Apps]:
    """The historical models before the move; the database fully migrated again after."""
    try:
        yield migrate("tables", "zero")
    finally:
        call_command("migrate", verbosity=0)


def played_table(old: Apps, clock: Any) -> dict[str, Any]:
    """A table made through the historical models as the services would leave it: ana in
    seat 1 and ben in seat 3, round 1 played and settled, round 2 dealt, ana's turn."""
    user_model = old.get_model(settings.AUTH_USER_MODEL)
    ana = user_model.objects.create(username="ana", password="!")
    ben = user_model.objects.create(username="ben", password="!")
    category = old.get_model("trivia", "Category").objects.create(name="Science")
    question = old.get_model("trivia", "Question").objects.create(
        category=category,
        text="What is H2O?",
        difficulty="easy",
        correct_answer="Water",
        incorrect_answers=["Salt", "Air", "Fire"],
        fingerprint="water",
    )
    options = services.table_options({"trivia_mode": False})
    engine = Engine(options, clock=clock)
    engine = game_from_json(
        with_cards_on_top(game_to_json(engine), ROUND_ONE + ROUND_TWO), clock=clock
    )
    table = old.get_model("game", "SharedTable").objects.create(
        name="Friday night", host=ana, seat_count=5, options={"trivia_mode": False}
    )
    seat_model = old.get_model("game", "Seat")
    seats = [
        seat_model.objects.create(
            table=table,
            player=player,
            number=number,
            bank_cents=STARTING_BANK_CENTS,
            credits=10,
            bet_cents=BET_CENTS,
            box=box,
        )
        for box, (player, number) in enumerate([(ana, 1), (ben, 3)])
    ]
    events: list[tuple[str, dict[str, Any]]] = [("table_opened", {"name": table.name})]

    def deal() -> None:
        boxes = [services.shared_box(options, seat) for seat in seats]
        events.extend(as_events(engine.start_shared_round(boxes)))

    def write_back_wallets() -> None:
        for seat in seats:
            seat.bank_cents, seat.credits = engine.box_wallet(seat.box)

    deal()
    events.extend(as_events(engine.stand()) + as_events(engine.stand()))
    write_back_wallets()
    deal()
    write_back_wallets()
    for seat in seats:
        seat.save()
    old.get_model("game", "TableQuestion").objects.create(
        seat=seats[0],
        round_number=1,
        action="hit",
        question=question,
        difficulty="easy",
        answers_shown=["Water", "Salt", "Air", "Fire"],
        shown_ms=clock(),
        answer_given="Water",
        correct=True,
    )
    old.get_model("game", "TableEvent").objects.bulk_create(
        old.get_model("game", "TableEvent")(table=table, seq=seq, kind=kind, data=data)
        for seq, (kind, data) in enumerate(events, start=1)
    )
    table.state = game_to_json(engine)
    table.phase = "round"
    table.round_number = engine.round_number
    table.version = len(events)
    table.deadline_ms = engine.round.deadline
    table.save()
    return {"table": table.pk, "events": events, "banks": [s.bank_cents for s in seats]}


def as_events(engine_events: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    return [(e["type"], {k: v for k, v in e.items() if k != "type"}) for e in engine_events]


def test_a_table_with_seats_rounds_events_and_questions_survives_the_move(before_the_move, clock):
    old = before_the_move
    with pytest.raises(LookupError):
        old.get_model("tables", "SharedTable")
    made = played_table(old, clock)
    old_type = old.get_model("contenttypes", "ContentType").objects.get(
        app_label="game", model="sharedtable"
    )
    permission = old.get_model("auth", "Permission").objects.get(
        content_type=old_type, codename="view_sharedtable"
    )
    old.get_model(settings.AUTH_USER_MODEL).objects.get(username="ben").user_permissions.add(
        permission
    )

    migrate("game", "0014_shared_tables_app")
    # And every later migration, which the live models below read through.
    call_command("migrate", verbosity=0)
    ContentType.objects.clear_cache()

    table = SharedTable.objects.get(pk=made["table"])
    assert (table.name, table.host.get_username(), table.phase) == ("Friday night", "ana", "round")
    assert table.round_number == 2
    seats = list(table.seats.order_by("number"))
    assert [(s.player.get_username(), s.number, s.box) for s in seats] == [
        ("ana", 1, 0),
        ("ben", 3, 1),
    ]
    # Round 1 lost both bets; round 2's bets are in play.
    assert [s.bank_cents for s in seats] == made["banks"]
    assert made["banks"] == [STARTING_BANK_CENTS - 2 * BET_CENTS] * 2
    assert [(e.seq, e.kind, e.data) for e in table.events.order_by("seq")] == [
        (seq, kind, data) for seq, (kind, data) in enumerate(made["events"], start=1)
    ]
    asked = TableQuestion.objects.select_related("seat__player", "question").get()
    assert (asked.seat.player.get_username(), asked.question.correct_answer) == ("ana", "Water")
    assert list(Seat.objects.filter(questions__correct=True)) == [seats[0]]
    # The content type moved with the model: the same row, the permission given on it kept.
    assert ContentType.objects.get_for_model(SharedTable).pk == old_type.pk
    assert get_user_model().objects.get(username="ben").has_perm("tables.view_sharedtable")

    # The live code takes the table up where it was: both stand and win round 2.
    for seat in seats:
        seat.refresh_from_db()
        services.play(table_id=table.pk, user=seat.player, version=seat.version, action="stand")
    table.refresh_from_db()
    assert table.phase == SharedTable.Phase.INTERMISSION
    banks = dict(table.seats.values_list("player__username", "bank_cents"))
    assert banks == {"ana": STARTING_BANK_CENTS, "ben": STARTING_BANK_CENTS}
    later = TableEvent.objects.filter(table=table, seq__gt=len(made["events"]))
    assert "round_over" in later.values_list("kind", flat=True)
