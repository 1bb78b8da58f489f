"""No page reports a Content-Security-Policy violation: every kind of page is visited and
the browser's reports collected two ways, from the console and from the
``securitypolicyviolation`` events a script added through DevTools listens for (the
policy does not govern it). htmx is told not to insert its indicator ``<style>``
(``includeIndicatorStyles``, base.html) and its indicator rules live in site.css."""

from __future__ import annotations

import pytest

from tests.browser.helpers import add_session, csp_violations

pytestmark = pytest.mark.django_db(transaction=True)

# Every securitypolicyviolation the document sees, kept on the window for the test to read.
LISTEN = """
window.__cspReports = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspReports.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
});
"""


@pytest.fixture(autouse=True)
def quick_streams(settings) -> None:
    settings.TABLE_STREAM_SECONDS = 5  # the streams end soon after the test


def reports(page) -> list[str]:
    return page.evaluate("() => window.__cspReports || []")


# htmx inserted no style element, and its indicator rules come from the stylesheet.
HTMX_STYLED_BY_SITE_CSS = """() => {
  const probe = document.createElement("span");
  probe.className = "htmx-indicator";
  document.body.appendChild(probe);
  const hidden = getComputedStyle(probe).opacity === "0";
  probe.remove();
  return window.htmx.config.includeIndicatorStyles === false
    && document.querySelectorAll("style").length === 0 && hidden;
}"""


def visit(page, path: str, found: list[str]) -> None:
    page.goto(path)
    page.wait_for_load_state("networkidle")
    found += [f"{path}: {report}" for report in reports(page)]
    if not page.evaluate(HTMX_STYLED_BY_SITE_CSS):
        found.append(f"{path}: htmx's indicator style is not the stylesheet's")


def test_no_page_reports_a_csp_violation(browser, live_server, settings) -> None:
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    from game.models import Game
    from game.tables import services as table_services
    from tests.browser.helpers import PASSWORD

    settings.TABLE_CLOCK = "external"
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    context.add_init_script(LISTEN)
    page = context.new_page()
    console = csp_violations(page)
    found: list[str] = []

    # A visitor: the home page, sign up, log in, the rules; then Play now's table.
    for path in ("/", "/accounts/signup/", "/accounts/login/", "/rules/"):
        visit(page, path, found)
    page.goto("/")
    page.get_by_role("button", name="Play now", exact=True).click()
    expect(page.locator("#table")).to_be_visible()
    page.wait_for_load_state("networkidle")
    found += [f"Play now's table: {report}" for report in reports(page)]
    # An htmx answer swapped in: a chip on the betting circle.
    page.get_by_role("button", name="$5", exact=True).first.click()
    expect(page.locator("#table")).to_have_attribute("data-phase", "betting")
    page.wait_for_load_state("networkidle")
    found += [f"after a chip: {report}" for report in reports(page)]

    # A player: My games, statistics, a game's options, the lobby, a shared table of
    # theirs and its invitation page.
    host = get_user_model().objects.create_user("ada", password=PASSWORD)
    add_session(context, host, live_server.url)
    table = table_services.create_table(
        host=host, name="Friday night", public=False, seat_count=5, options={}
    )
    visit(page, "/games/", found)
    page.get_by_role("button", name="New Game").click()
    page.wait_for_load_state("networkidle")
    found += [f"New Game's table: {report}" for report in reports(page)]
    newest = Game.objects.filter(owner=host).first()
    assert newest is not None
    for path in (
        "/games/statistics/",
        f"/games/{newest.pk}/options/",
        "/tables/",
        f"/tables/{table.pk}/",
        f"/tables/{table.pk}/invite/",
    ):
        visit(page, path, found)
    context.close()
    assert not found, "Content-Security-Policy violations:\n" + "\n".join(found)
    assert not console, "Content-Security-Policy violations:\n" + "\n".join(console)
