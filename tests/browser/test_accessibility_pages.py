"""axe-core finds no serious or critical violations on the site's own pages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "path", ["/", "/accounts/signup/", "/accounts/login/", "/rules/", "/rules/side-bets/"]
)
def test_public_pages_pass_axe(page, axe_violations, path: str) -> None:
    page.goto(path)
    assert axe_violations(page, path) == []


def test_my_games_passes_axe(page, live_server, axe_violations) -> None:
    get_user_model().objects.create_user("ada", password="felt-table-42-Aces")
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill("felt-table-42-Aces")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/games/")
    assert axe_violations(page, "my games") == []


def test_the_scan_reports_a_known_violation(page, axe_violations) -> None:
    # Guards the guard: a page with an unlabeled button must be reported.
    page.goto("/")
    page.set_content("<html lang='en'><body><main><button></button></main></body></html>")
    problems = axe_violations(page, "broken")
    assert any("button-name" in problem for problem in problems)
