"""Report a trivia question from the reveal panel in Chromium (htmx), then carry on."""

from __future__ import annotations

import pytest

from tests.browser.test_table_browser import (  # noqa: F401 - fixtures used by name
    answer_right,
    bank_of_questions,
    open_game_for,
    sign_up,
    stack,
    table,
)
from trivia.models import QuestionReport

pytestmark = pytest.mark.django_db(transaction=True)

THANKS = "Thanks — staff will review this question."


@pytest.fixture(autouse=True)
def patient_expectations() -> None:
    """Other suites share this 2-core machine; give swaps time before failing."""
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)


def test_report_after_the_reveal_then_continue(
    log_in_as,
    page,
    stack,  # noqa: F811 - the fixture imported above
    bank_of_questions,  # noqa: F811 - the fixture imported above
    axe_violations,
) -> None:
    from playwright.sync_api import expect

    # Player 9S 7D against 6C (hole 0H); the hit brings 2H.
    stack(["9S", "0H", "7D", "6C", "2H", "KD"])
    log_in_as(page, "reporter")
    game = open_game_for("reporter")
    page.goto(f"/games/{game.pk}/")
    page.get_by_label("Bet amount").fill("10")
    page.get_by_role("button", name="Deal").click()
    page.get_by_role("button", name="Hit").click()
    page.get_by_role("button", name="Easy", exact=True).click()
    expect(table(page)).to_have_attribute("data-panel", "trivia_question")
    expect(page.get_by_text("Report this question")).to_have_count(0)
    answer_right(page)
    # The card is dealt at once; the reveal, with the report form, shows on the felt.
    expect(page.locator("#message-line")).to_contain_text("Correct!")
    version = table(page).get_attribute("data-version")

    page.get_by_text("Report this question").click()
    page.get_by_label("Reason").select_option(label="Ambiguous or more than one right answer")
    page.get_by_label("Note (optional)").fill("Two of the answers fit.")
    assert axe_violations(page, "trivia reveal with the report form open") == []
    page.get_by_role("button", name="Report question").click()

    expect(page.locator("#status-live")).to_contain_text(THANKS)
    expect(page.get_by_test_id("question-reported")).to_be_visible()
    expect(page.get_by_role("button", name="Report question")).to_have_count(0)
    expect(table(page)).to_have_attribute("data-version", version)
    report = QuestionReport.objects.get()
    assert (report.reason, report.note, report.reporter.username) == (
        "ambiguous",
        "Two of the answers fit.",
        "reporter",
    )

    expect(page.get_by_role("img", name="Two of Hearts")).to_be_visible()
    expect(table(page)).to_have_attribute("data-credits", "10")  # Easy: +0
