"""A shared table's page through a Redis outage (static/js/table_live.js): it says that live
updates are paused while the server cannot hear Redis, keeps showing the other players'
moves, and takes the notice down by itself when Redis is back."""

from __future__ import annotations

import pytest

from game.tables import services
from game.tables.presentation import LIVE_PAUSED_NOTICE
from tests.browser.test_table_browser import patient_expectations
from tests.game.factories import PlayerFactory
from tests.game.tables.helpers import bet_and_ready

pytestmark = pytest.mark.django_db(transaction=True)

patient = patient_expectations


def test_the_table_page_says_live_updates_are_paused_while_redis_is_down(
    site_on_private_redis, page, log_in_as, settings
) -> None:
    from playwright.sync_api import expect

    settings.TABLE_CLOCK = "external"  # nothing times out during the test
    settings.TABLE_STREAM_SECONDS = 5
    redis = site_on_private_redis
    ana = PlayerFactory(username="ana")
    table = services.create_table(
        host=ana,
        name="Friday night",
        public=True,
        seat_count=5,
        intermission_seconds=60,
        options={"trivia_mode": False},
    )
    services.sit(table_id=table.pk, user=ana, version=services.NO_SEAT_VERSION, number=1)
    log_in_as(page, "ben")
    page.goto(f"/tables/{table.pk}/")
    status = page.locator("#live-status")
    expect(page.get_by_role("heading", name="Friday night")).to_be_visible()
    expect(status).to_be_hidden()

    redis.stop()
    expect(status).to_be_visible()
    expect(status).to_have_text(LIVE_PAUSED_NOTICE)
    # The page still follows the table: ana bets and is ready, and her round is dealt.
    bet_and_ready(table, ana)
    table.refresh_from_db()
    expect(page.locator("#shared-table")).to_have_attribute("data-version", str(table.version))
    # A page opened meanwhile says so from the start.
    page.reload()
    expect(status).to_be_visible()

    redis.start()
    expect(status).to_be_hidden()
