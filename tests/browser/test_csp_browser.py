"""The policy is really enforced: an inline script is blocked and reported."""

from __future__ import annotations

import pytest

from tests.browser.helpers import csp_violations

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_inline_script_is_blocked_and_reported(browser, live_server) -> None:
    context = browser.new_context(base_url=live_server.url)
    page = context.new_page()
    violations = csp_violations(page)
    page.goto("/")
    # Chromium reports the block on the console as the script is refused: waited for,
    # rather than a pause that a loaded machine may outlast.
    with page.expect_console_message(lambda m: "Content Security Policy" in m.text) as report:
        page.evaluate(
            """() => { const s = document.createElement('script');
                       s.textContent = 'window.injected = true'; document.body.appendChild(s); }"""
        )
    assert "script-src" in report.value.text
    assert page.evaluate("() => window.injected === undefined")
    assert any("script-src" in violation for violation in violations), violations
    context.close()
