"""Row locks of the bets being built (services.seat_only), on PostgreSQL: the players of a
table build their bets at once; a Ready (which may deal) waits for them; one seat's two
posts race and exactly one applies."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from game.tables import services
from game.tables.models import Seat
from tests.game.tables.helpers import seat_version
from tests.game.tables.test_services import PLAIN

pytestmark = [pytest.mark.postgres_only, pytest.mark.django_db(transaction=True)]


def in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = work()
        except Exception as error:  # examined by the test
            outcome["error"] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


@pytest.fixture
def ana_building_her_bet(seated_pair, ana):
    """ana's seat-only action held open (its transaction and row locks) until released."""
    table = seated_pair(PLAIN)
    inside, release = threading.Event(), threading.Event()

    def hold() -> None:
        with services.seat_only(table_id=table.pk, user=ana):
            inside.set()
            release.wait(10)

    thread, outcome = in_thread(hold)
    assert inside.wait(5), outcome
    yield table, release
    release.set()
    thread.join(10)


def test_the_players_of_a_table_build_their_bets_at_once(ana_building_her_bet, ben):
    table, _ = ana_building_her_bet
    version = seat_version(table, ben)
    thread, outcome = in_thread(
        lambda: services.add_chip(table_id=table.pk, user=ben, version=version, chip_cents=500)
    )
    thread.join(5)
    assert not thread.is_alive() and "error" not in outcome  # not queued behind ana
    assert Seat.objects.get(player=ben).bet_cents == 500


def test_a_ready_waits_for_a_bet_being_built(ana_building_her_bet, ben):
    table, release = ana_building_her_bet
    Seat.objects.filter(player=ben).update(bet_cents=1000)
    version = seat_version(table, ben)
    thread, outcome = in_thread(
        lambda: services.ready(table_id=table.pk, user=ben, version=version)
    )
    thread.join(0.5)
    assert thread.is_alive()  # the table's row is share-locked by ana's bet being built
    release.set()
    thread.join(5)
    assert not thread.is_alive() and "error" not in outcome
    assert Seat.objects.get(player=ben).ready


def test_one_seats_two_posts_race_and_exactly_one_applies(seated_pair, ana):
    table = seated_pair(PLAIN)
    version = seat_version(table, ana)
    barrier = threading.Barrier(2)

    def chip() -> Any:
        barrier.wait(5)
        return services.add_chip(table_id=table.pk, user=ana, version=version, chip_cents=500)

    runs = [in_thread(chip) for _ in range(2)]
    for thread, _ in runs:
        thread.join(10)
    errors = [type(outcome.get("error")).__name__ for _, outcome in runs]
    assert sorted(errors) == ["NoneType", "StaleVersion"]
    seat = Seat.objects.get(player=ana)
    assert seat.bet_cents == 500 and seat.version == version + 1
