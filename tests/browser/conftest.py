"""Playwright (Python, sync API) driving the system Chromium against live_server.

`playwright install` cannot download browsers here, so the tests launch Debian's
chromium through `executable_path`. Outside CI a missing browser skips these tests
with a clear message; with CI=true it fails them, so CI can never pass without them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.helpers import PASSWORD, add_session, csp_violations

CHROMIUM_CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def find_chromium() -> str | None:
    explicit = os.environ.get("CHROMIUM_PATH")
    if explicit and Path(explicit).exists():
        return explicit
    for name in CHROMIUM_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:
    # Signing up and logging in hash the password in the live server's thread (this
    # process); the production hasher's deliberate slowness is not what these tests check.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path:
        return path
    message = (
        "No Chromium found (tried $CHROMIUM_PATH and chromium/chromium-browser on PATH); "
        "install Debian's chromium package (.ci/run does) to run the browser tests."
    )
    if in_ci():
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[object]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:  # pragma: no cover - the test extra installs it
        if in_ci():
            pytest.fail(f"playwright is not installed: {exc}")
        pytest.skip(f"playwright is not installed: {exc}")
    # Playwright's sync API runs an event loop in this thread; Django's ORM calls made by
    # the tests themselves (setup, assertions) are still synchronous and safe here.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server) -> Iterator[object]:
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    violations = csp_violations(page)
    yield page
    context.close()
    # The site runs under a strict policy (settings.CONTENT_SECURITY_POLICY): anything the
    # browser had to block is a bug in a page, even when the test's own checks passed.
    assert not violations, "Content-Security-Policy violations:\n" + "\n".join(violations)


@pytest.fixture
def log_in_as(live_server):
    """``log_in_as(page, username, **fields)``: a new player's account (password
    PASSWORD) and ``page`` logged in as it, on My games: where the sign-up form leaves a
    player, without the form (signing up is walked in test_accounts_browser.py,
    test_front_door_browser.py and test_table_browser.py). Returns the user."""
    from django.contrib.auth import get_user_model

    def log_in(page, username: str, **fields):
        user = get_user_model().objects.create_user(username, password=PASSWORD, **fields)
        add_session(page.context, user, live_server.url)
        page.goto("/games/")
        return user

    return log_in


AXE_PATH = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
AXE_BLOCKING_IMPACTS = {"serious", "critical"}


@pytest.fixture
def axe_violations():
    """Run axe-core (the npm package, injected by Playwright) on a page.

    Returns the serious or critical violations as short readable strings, so a failing
    assertion says which rule failed on which element.
    """
    if not AXE_PATH.exists():
        message = f"axe-core is not installed ({AXE_PATH}); `make test` runs npm ci for it."
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)

    axe_source = AXE_PATH.read_text()

    def scan(page, context: str = "") -> list[str]:
        # Evaluated through the DevTools protocol, which the page's CSP does not govern;
        # add_script_tag would insert an inline script, which the policy rightly blocks.
        if not page.evaluate("() => typeof axe !== 'undefined'"):
            page.evaluate(axe_source)
        results = page.evaluate("async () => await axe.run(document)")
        # axe leaves an empty style attribute on elements it measured; the next htmx swap
        # would copy it onto the new element of the same id (htmx settles attributes), which
        # the policy reports. It is the scanner's, not the page's: take it away again.
        page.evaluate(
            "() => document.querySelectorAll('[style=\"\"]')"
            ".forEach(element => element.removeAttribute('style'))"
        )
        problems = []
        for violation in results["violations"]:
            if violation.get("impact") not in AXE_BLOCKING_IMPACTS:
                continue
            targets = ", ".join(str(node["target"]) for node in violation["nodes"][:3])
            problems.append(f"{context}: {violation['id']} ({violation['impact']}) at {targets}")
        return problems

    return scan


@pytest.fixture
def table_screens(browser, live_server, settings):
    """``open_as(user, viewport, **options)``: a page logged in as ``user`` (None: a visitor
    not logged in; its session made by the test client, no sign-up form) in a browser
    context of its own (``options`` go to the context); every page's Content-Security-Policy
    reports, console errors and page errors are checked empty at the end."""
    settings.TABLE_CLOCK = "external"  # the walks play faster than any deadline
    contexts, problems = [], []

    def open_as(user, viewport, **options):
        context = browser.new_context(base_url=live_server.url, viewport=viewport, **options)
        context.set_default_timeout(15_000)
        if user is not None:
            add_session(context, user, live_server.url)
        contexts.append(context)
        page = context.new_page()
        problems.append(csp_violations(page))
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
        problems.append(errors)
        return page

    yield open_as
    for context in contexts:
        context.close()
    found = [line for lines in problems for line in lines]
    assert not found, "Console errors or CSP reports:\n" + "\n".join(found)
