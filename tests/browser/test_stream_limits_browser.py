"""A table page whose live stream was refused (the player's streams at their cap) keeps
coming back and, once a place is free, catches up: nothing is lost (table_live.js
reconnects from its last event, as after any stream's end)."""

from __future__ import annotations

import time

import pytest

from game.tables import services, sse, stream_limits
from game.tables.models import SharedTable
from tests.browser.helpers import add_session, csp_violations
from tests.game.tables.helpers import seat_version

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_refused_stream_catches_up_once_a_place_is_free(
    browser, live_server, settings, monkeypatch
) -> None:
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    settings.TABLE_CLOCK = "external"
    settings.TABLE_STREAM_SECONDS = 2
    settings.TABLE_STREAMS_PER_PLAYER = 1
    monkeypatch.setattr(sse, "BUSY_RETRY_MS", 300)
    monkeypatch.setattr(sse, "BUSY_JITTER_MS", 0)
    users = get_user_model().objects
    ana, ben = users.create_user("ana"), users.create_user("ben")
    table = services.create_table(
        host=ana, name="Friday night", public=True, seat_count=5, options={}
    )
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(15_000)
    add_session(context, ana, live_server.url)
    first, second = context.new_page(), context.new_page()
    violations = csp_violations(first) + csp_violations(second)
    with first.expect_response(lambda r: "/events/" in r.url and r.status == 200):
        first.goto(f"/tables/{table.pk}/")
    # The second tab's stream is refused while the first holds ana's one place.
    with second.expect_response(lambda r: "/events/" in r.url) as refused:
        second.goto(f"/tables/{table.pk}/")
    assert refused.value.header_value("content-type") == "text/event-stream"
    assert b"event:" not in refused.value.body()
    first.close()  # its stream ends within TABLE_STREAM_SECONDS and gives the place back

    table = SharedTable.objects.get()
    services.sit(table_id=table.pk, user=ben, version=seat_version(table, ben), number=3)
    expect(second.locator('.seat[data-seat="3"]')).to_contain_text("ben", timeout=15_000)
    context.close()
    assert not violations, violations
    # The server's side of the last stream ends within its lifetime; the test's database
    # goes only after it (a stream reading a database being torn down would log errors).
    give_up = time.monotonic() + settings.TABLE_STREAM_SECONDS + 5
    while stream_limits.PROCESS.held() and time.monotonic() < give_up:
        time.sleep(0.05)
    assert stream_limits.PROCESS.held() == 0
