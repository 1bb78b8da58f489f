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
    page.evaluate(
        """() => { const s = document.createElement('script');
                   s.textContent = 'window.injected = true'; document.body.appendChild(s); }"""
    )
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.injected === undefined")
    assert any("script-src" in violation for violation in violations), violations
    context.close()
