"""The scene cache: what every viewer shares is built once per table revision, and each
viewer still gets their own seat, controls and Sit Here buttons -- never someone else's."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import caches
from django.urls import reverse

from blackjack_site.fragment_cache import RenderedFragmentCache
from game.tables import presentation, scenes, services
from game.tables.models import Seat, SharedTable, TableEvent
from game.tables.views.events import _events_between
from tests.game.tables.helpers import bet_and_ready, seat_version
from tests.game.tables.test_services import PLAIN
from tests.game.tables.test_views import client_of


def first_table_message(user, table: SharedTable) -> str:
    url = reverse("tables:events", args=[table.pk])
    text = b"".join(client_of(user).get(url).streaming_content).decode()
    return text.split("event: table", 1)[1]


def seat_markup(html: str, number: int) -> str:
    match = re.search(rf'<li class="seat[^"]*" data-seat="{number}">.*?</li>', html, re.S)
    assert match, f"seat {number} not in the table"
    return match.group(0)


@pytest.fixture
def short_streams(settings) -> None:
    settings.TABLE_STREAM_SECONDS = 0.1


@pytest.fixture
def scene_builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The revisions scenes were built for, in order."""
    built: list[int] = []
    real = scenes.table_scene

    def counting(
        table: SharedTable, previous: presentation.TableScene | None = None, **written: Any
    ) -> presentation.TableScene:
        built.append(table.revision)
        return real(table, previous, **written)

    monkeypatch.setattr(scenes, "table_scene", counting)
    return built


def test_every_viewer_of_one_revision_shares_one_scene(
    seated_pair, ana, ben, watcher, short_streams, scene_builds
):
    table = seated_pair(PLAIN)
    seen = {user.username: first_table_message(user, table) for user in (ana, ben, watcher)}
    table.refresh_from_db()
    assert scene_builds == [table.revision]
    # Each seated player sees their own seat as theirs, and only their own.
    assert "(you)" in seat_markup(seen["ana"], 1) and "(you)" not in seat_markup(seen["ana"], 3)
    assert "(you)" in seat_markup(seen["ben"], 3) and "(you)" not in seat_markup(seen["ben"], 1)
    assert "(you)" not in seen["wendy"]
    # Sit Here is offered to the watcher only, each with the watcher's own form.
    assert "Sit Here" in seen["wendy"]
    assert "Sit Here" not in seen["ana"] and "Sit Here" not in seen["ben"]
    # Each player's controls are their own (their own seat's version in the form).
    for user in (ana, ben):
        assert f'name="version" value="{seat_version(table, user)}"' in seen[user.username]
    assert 'aria-label="Your controls"' not in seen["wendy"]


def test_a_new_revision_builds_a_new_scene(seated_pair, ana, ben, short_streams, scene_builds):
    table = seated_pair(PLAIN)
    first_table_message(ben, table)
    services.sit_out(table_id=table.pk, user=ana, version=seat_version(table, ana))
    after = first_table_message(ben, table)
    table.refresh_from_db()
    assert scene_builds[-1] == table.revision and len(scene_builds) == 2
    assert "Sitting out" in seat_markup(after, 1)


def test_a_chip_writes_no_event_and_the_bet_being_built_is_its_players_own(
    seated_pair, ana, ben, short_streams
):
    table = seated_pair(PLAIN)
    before = first_table_message(ben, table)  # the scene of this revision is kept
    assert "$25.00" not in seat_markup(before, 1)
    version_before = SharedTable.objects.get(pk=table.pk).version
    services.add_chip(
        table_id=table.pk, user=ana, version=seat_version(table, ana), chip_cents=2500
    )
    assert SharedTable.objects.get(pk=table.pk).version == version_before  # no event
    # Her own felt and controls show it at once (a new scene, though no event)...
    page = client_of(ana).get(reverse("tables:table", args=[table.pk])).content.decode()
    assert 'data-testid="my-bet">$25.00<' in page and "$25.00" in seat_markup(page, 1)
    assert "$25.00" in seat_markup(first_table_message(ana, table), 1)
    # ...the others', live or reloaded alike, once she is Ready (an event: T-10).
    assert "$25.00" not in seat_markup(first_table_message(ben, table), 1)
    page = client_of(ben).get(reverse("tables:table", args=[table.pk])).content.decode()
    assert "$25.00" not in seat_markup(page, 1)
    services.ready(table_id=table.pk, user=ana, version=seat_version(table, ana))
    assert SharedTable.objects.get(pk=table.pk).version > version_before
    assert "$25.00" in seat_markup(first_table_message(ben, table), 1)


def test_catching_up_reads_the_same_lines_from_the_scene_as_from_the_database(
    seated_pair, ana, ben, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(presentation.scene, "SCENE_EVENTS", 2)
    table = seated_pair(PLAIN)
    table.refresh_from_db()
    scene = scenes.scene_of(table)
    assert len(scene.events) == 2 < table.version
    for after in range(table.version + 1):
        for count in (1, 2, 200):
            expected = list(
                TableEvent.objects.filter(table=table, seq__gt=after)
                .order_by("seq")
                .values_list("seq", flat=True)[:count]
            )
            got = [event.seq for event in _events_between(scene, after, count)]
            assert got == expected, (after, count)


def test_a_scene_carries_the_last_ones_events_and_reads_only_the_new(
    seated_pair, ana, ben, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(presentation.scene, "SCENE_EVENTS", 5)
    table = seated_pair(PLAIN)
    table.refresh_from_db()
    scenes.scene_of(table)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)  # the deal: many events at once
    table.refresh_from_db()
    carried = scenes.scene_of(table)
    scenes.forget_all()
    fresh = scenes.scene_of(table)
    assert [e.seq for e in carried.events] == [e.seq for e in fresh.events]
    assert carried.events[0].seq == table.version and len(carried.events) == 5
    assert carried.log == fresh.log


def test_streams_woken_together_read_the_whole_row_once(
    seated_pair, ana, monkeypatch: pytest.MonkeyPatch
):
    """A stream that waited while another built the scene takes that scene: only the
    builder reads the whole row (the engine's state), the others only its revision."""
    table = seated_pair(PLAIN)
    scenes.current_scene(table.pk)
    services.sit_out(table_id=table.pk, user=ana, version=seat_version(table, ana))
    whole_rows: list[int] = []
    read_whole_row = scenes.table_by_id

    def counting_read(table_id: int):
        whole_rows.append(table_id)
        return read_whole_row(table_id)

    monkeypatch.setattr(scenes, "table_by_id", counting_read)
    real_builder = scenes._builder

    class AnotherStreamBuildsWhileThisOneWaits:
        def __enter__(self) -> None:
            with real_builder(table.pk):
                scenes._build(scenes.table_by_id(table.pk))

        def __exit__(self, *exc: object) -> None:
            return None

    monkeypatch.setattr(scenes, "_builder", lambda table_id: AnotherStreamBuildsWhileThisOneWaits())
    scene = scenes.current_scene(table.pk)
    table.refresh_from_db()
    assert scene is not None and scene.table.revision == table.revision
    assert whole_rows == [table.pk]  # the other stream's read; this one's none


def test_a_new_revision_renders_only_the_seats_it_changed(
    seated_pair, ana, ben, short_streams, monkeypatch: pytest.MonkeyPatch
):
    """A taken seat's markup is kept by what the seat shows: a change renders the seats it
    changed, and a seat seen by its own player (marked as theirs) is another rendering."""
    caches["template_fragments"].clear()  # other tests' seats
    table = seated_pair(PLAIN)
    first_table_message(ben, table)
    rendered: list[str] = []
    real_set = RenderedFragmentCache.set

    def counting_set(self, key, value, *args, **kwargs):
        seat = isinstance(value, str) and re.match(
            r'\s*<h2 class="seat__name">.*?seat__player">(\w+)', value, re.S
        )
        if seat:
            rendered.append(seat.group(1))
        return real_set(self, key, value, *args, **kwargs)

    monkeypatch.setattr(RenderedFragmentCache, "set", counting_set)
    services.sit_out(table_id=table.pk, user=ana, version=seat_version(table, ana))
    after = first_table_message(ben, table)
    assert rendered == ["ana"]  # ben's seat looks as it did: its markup is reused
    assert "Sitting out" in seat_markup(after, 1) and "(you)" in seat_markup(after, 3)
    # Seen by ana, her seat is marked as hers: another rendering, not ben's view of it.
    mine = first_table_message(ana, table)
    assert rendered == ["ana", "ana", "ben"]
    assert "(you)" in seat_markup(mine, 1) and "(you)" not in seat_markup(mine, 3)


def test_events_committed_after_the_row_was_read_wait_for_the_next_scene(seated_pair, ana, ben):
    """A scene's events go up to its row's version: an action committed between the read
    of the row and the read of its events shows in the next scene, once."""
    table = seated_pair(PLAIN)
    first = scenes.table_by_id(table.pk)
    previous = presentation.table_scene(first)
    services.sit_out(table_id=table.pk, user=ana, version=seat_version(table, ana))
    row_read = scenes.table_by_id(table.pk)
    services.sit_out(table_id=table.pk, user=ben, version=seat_version(table, ben))
    stale = presentation.table_scene(row_read, previous)  # its events read after the actions
    assert max(event.seq for event in stale.events) == row_read.version
    fresh_row = scenes.table_by_id(table.pk)
    carried = presentation.table_scene(fresh_row, stale)
    seqs = [event.seq for event in carried.events]
    assert len(seqs) == len(set(seqs)) and seqs[0] == fresh_row.version
    assert carried.log == presentation.table_scene(fresh_row).log


def test_a_stream_woken_by_news_its_process_has_a_scene_for_reads_nothing(
    seated_pair, ana, ben, django_assert_num_queries
):
    """The first stream the news wakes reads the table's head and builds the scene; the
    others at that table find it covering the news and read nothing at all."""
    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    table.refresh_from_db()
    built = scenes.current_scene(table.pk)
    assert built is not None and built.table.version == table.version
    with django_assert_num_queries(0):
        assert scenes.scene_covering(table.pk, table.version) is built
        assert scenes.scene_covering(table.pk, table.version - 1) is built
        # News of a later event: not covered, so the stream reads the head as before.
        assert scenes.scene_covering(table.pk, table.version + 1) is None
        assert scenes.scene_covering(table.pk, None) is None


def test_seats_read_just_after_a_newer_deal_than_the_rounds_state_do_not_break_the_scene(
    seated_pair, ana, ben
):
    """The scene reads the table's row, then its seats: a deal committed between the two
    can give a seat a box the round it has does not hold yet. That seat is shown without
    hands until the next scene, rather than the page failing."""
    from game.tables.models import Seat

    table = seated_pair(PLAIN)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    table.refresh_from_db()
    Seat.objects.filter(table=table, player=ben).update(box=4)
    scene = presentation.table_scene(table, None)
    ben_seat = next(seat for seat in scene.seat_views if seat.player == "ben")
    assert ben_seat.hands == ()
    ana_seat = next(seat for seat in scene.seat_views if seat.player == "ana")
    assert ana_seat.hands


_CSRF_VALUE = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def _without_csrf_values(html: str) -> str:
    return _CSRF_VALUE.sub('name="csrfmiddlewaretoken" value=""', html)


def test_an_actions_answer_shows_the_table_as_the_database_has_it(seated_pair, ana, ben, questions):
    """The answer to an action is built from what the action wrote (its row, seats and
    events, not read back): at every step of a trivia round it is the table exactly as a
    page read afresh from the database shows it to the same player."""
    table = seated_pair(PLAIN, trivia_mode=True)
    clients = {user.pk: client_of(user) for user in (ana, ben)}
    page_url = reverse("tables:table", args=[table.pk])

    def act(user: Any, action: str, **data: str) -> None:
        url = reverse("tables:action", args=[table.pk, action])
        data["version"] = str(seat_version(table, user))
        answered = clients[user.pk].post(url, data, HTTP_HX_REQUEST="true")
        assert answered.status_code == 200, answered.content[:500]
        scenes.forget_all()  # the page below builds its scene from the database
        page = clients[user.pk].get(page_url).content.decode()
        assert _without_csrf_values(answered.content.decode()) in _without_csrf_values(page)

    for user in (ana, ben):
        act(user, "chip", chip="10")
        act(user, "ready")  # ben's deals the round
    act(ana, "play", play="hit")
    act(ana, "difficulty", difficulty="easy")
    asked = Seat.objects.get(table=table, player=ana).pending_question
    act(ana, "answer", answer=asked.question.correct_answer)
    table.refresh_from_db()
    for user in (ana, ben):
        if 'aria-label="Actions"' in clients[user.pk].get(page_url).content.decode():
            act(user, "play", play="stand")
    table.refresh_from_db()
    assert table.phase == SharedTable.Phase.INTERMISSION
    assert TableEvent.objects.filter(table=table, kind="round_over").exists()


def test_an_actions_answer_reads_the_seats_and_the_row_once(seated_pair, ana, ben):
    """The answer's table comes from what the action wrote: the seats are read once (with
    the lock), the table's whole row once (the lock's), never again to show them."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table = seated_pair(PLAIN)
    services.add_chip(
        table_id=table.pk, user=ana, version=seat_version(table, ana), chip_cents=1000
    )
    url = reverse("tables:action", args=[table.pk, "ready"])
    client, posted = client_of(ana), {"version": seat_version(table, ana)}
    with CaptureQueriesContext(connection) as run:
        answered = client.post(url, posted, HTTP_HX_REQUEST="true")
    assert answered.status_code == 200
    selects = [query["sql"] for query in run.captured_queries if query["sql"].startswith("SELECT")]
    assert sum('FROM "game_seat"' in sql for sql in selects) == 1
    assert sum('"game_sharedtable"."state"' in sql for sql in selects) == 1


def test_sitting_down_and_leaving_answer_the_table_as_the_database_has_it(make_table, ben):
    """Sit Here's answer shows the seat just taken (the action adds it to the seats it
    wrote), Leave's the seat freed: each as a page read afresh shows it."""
    table = make_table()
    client = client_of(ben)
    page_url = reverse("tables:table", args=[table.pk])
    for action, data in (("sit", {"seat": "2"}), ("leave", {})):
        data["version"] = str(seat_version(table, ben))
        url = reverse("tables:action", args=[table.pk, action])
        answered = client.post(url, data, HTTP_HX_REQUEST="true")
        assert answered.status_code == 200, answered.content[:500]
        scenes.forget_all()
        page = client.get(page_url).content.decode()
        assert _without_csrf_values(answered.content.decode()) in _without_csrf_values(page)
    assert 'aria-label="Sit Here, seat 2"' in answered.content.decode()
