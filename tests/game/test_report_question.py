"""Report a trivia question after its reveal: htmx and plain posts, refusals, the admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from game.models import Game, TriviaAttempt
from tests.game import scenarios
from tests.game.helpers import post
from tests.trivia.factories import StaffFactory
from trivia.models import QuestionReport

pytestmark = pytest.mark.django_db

THANKS = "Thanks — staff will review this question."


def report(client: Any, game: Game, *, htmx: bool = False, **data: Any) -> Any:
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(f"/games/{game.pk}/report-question/", data, **headers)


def reveal(player: Any) -> tuple[Game, TriviaAttempt]:
    game = scenarios.answered(player)
    return game, game.trivia_attempts.get()


def test_the_reveal_panel_offers_the_report_form(alice, player, questions) -> None:
    game, attempt = reveal(player)
    html = alice.get(f"/games/{game.pk}/").text
    assert "Report this question" in html
    assert f'action="/games/{game.pk}/report-question/"' in html
    assert f'name="attempt" value="{attempt.pk}"' in html
    for value, label in QuestionReport.Reason.choices:
        assert f'<option value="{value}">{label}</option>' in html
    assert '<label for="report-note">Note (optional)</label>' in html
    assert ">Report question</button>" in html


def test_the_question_panel_has_no_report_form(alice, player, questions) -> None:
    game = scenarios.question_shown(player)
    assert "Report this question" not in alice.get(f"/games/{game.pk}/").text


def test_htmx_report_swaps_the_table_and_announces_thanks(alice, player, questions) -> None:
    game, attempt = reveal(player)
    version = game.version
    response = report(
        alice, game, htmx=True, attempt=attempt.pk, reason="ambiguous", note="  Two answers fit. "
    )
    assert response.status_code == 200
    html = response.text
    assert 'id="table"' in html
    assert 'id="status-live"' in html and 'hx-swap-oob="true"' in html
    assert THANKS in html
    assert "You reported this question." in html
    assert "<details>" not in html  # the form is gone
    saved = QuestionReport.objects.get()
    assert (saved.question_id, saved.reporter, saved.reason) == (
        attempt.question_id,
        player,
        "ambiguous",
    )
    assert saved.note == "Two answers fit."
    attempt.refresh_from_db()
    assert attempt.report == saved
    # The game is untouched: the page's version still works for the next action.
    game.refresh_from_db()
    assert game.version == version
    assert post(alice, game, "chip", chip="5", htmx=True).status_code == 200


def test_plain_post_redirects_back_with_the_message(alice, player, questions) -> None:
    game, attempt = reveal(player)
    response = report(alice, game, attempt=attempt.pk, reason="wrong_answer")
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/"
    page = alice.get(response["Location"]).text
    assert THANKS in page
    assert "You reported this question." in page
    assert QuestionReport.objects.filter(reason="wrong_answer", reporter=player).count() == 1


def test_a_second_report_of_the_same_attempt_is_refused(alice, player, questions) -> None:
    game, attempt = reveal(player)
    assert report(alice, game, attempt=attempt.pk, reason="offensive").status_code == 302
    again = report(alice, game, htmx=True, attempt=attempt.pk, reason="other", note="again")
    assert again.status_code == 422
    assert "You have already reported this question." in again.text
    assert QuestionReport.objects.count() == 1


def test_reporting_before_the_reveal_is_refused(alice, player, questions) -> None:
    game = scenarios.question_shown(player)
    attempt = game.trivia_attempts.get()
    response = report(alice, game, attempt=attempt.pk, reason="ambiguous")
    assert response.status_code == 422
    assert "Answer the question first" in response.text
    # The right answer is not revealed by the refusal.
    assert "(right answer)" not in response.text
    assert not QuestionReport.objects.exists()


def test_another_players_attempt_is_not_found(client_for, player, other_player, questions) -> None:
    theirs, attempt = reveal(other_player)
    mine = scenarios.betting(player)
    me = client_for(player)
    # Their game: 404 whatever the post says.
    assert report(me, theirs, attempt=attempt.pk, reason="other").status_code == 404
    # My game, their attempt: 404 too.
    assert report(me, mine, attempt=attempt.pk, reason="other").status_code == 404
    assert not QuestionReport.objects.exists()


ATTEMPT = "<the attempt's id>"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"reason": "other"}, "This field is required."),  # no attempt
        ({"attempt": "x", "reason": "other"}, "Enter a whole number."),
        ({"attempt": ATTEMPT, "reason": ""}, "Choose a reason for the report."),
        ({"attempt": ATTEMPT, "reason": "boring"}, "Choose one of the reasons listed."),
        (
            {"attempt": ATTEMPT, "reason": "other", "note": "n" * 2001},
            "Keep the note under 2000 characters.",
        ),
    ],
)
def test_bad_input_is_a_clear_400_and_changes_nothing(
    alice, player, questions, data: dict[str, str], message: str
) -> None:
    game, attempt = reveal(player)
    payload = {key: str(attempt.pk) if value == ATTEMPT else value for key, value in data.items()}
    response = report(alice, game, htmx=True, **payload)
    assert response.status_code == 422
    assert message in response.text
    assert not QuestionReport.objects.exists()
    assert TriviaAttempt.objects.get(pk=attempt.pk).report_id is None


def test_get_is_not_allowed_and_login_is_required(client, alice, player, questions) -> None:
    game, _ = reveal(player)
    assert alice.get(f"/games/{game.pk}/report-question/").status_code == 405
    anonymous = report(client, game, reason="other")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_trivia_text_in_the_note_is_escaped_in_the_admin(client, alice, player, questions) -> None:
    game, attempt = reveal(player)
    note = "<script>alert(1)</script> the answer is wrong"
    report(alice, game, attempt=attempt.pk, reason="wrong_answer", note=note)
    saved = QuestionReport.objects.get()
    client.force_login(StaffFactory())
    listing = client.get(reverse("admin:trivia_questionreport_changelist"))
    assert listing.status_code == 200
    assert str(saved.question)[:40] in listing.text
    assert player.username in listing.text
    assert "The marked answer is wrong" in listing.text
    detail = client.get(reverse("admin:trivia_questionreport_change", args=[saved.pk]))
    assert detail.status_code == 200
    assert "&lt;script&gt;alert(1)&lt;/script&gt; the answer is wrong" in detail.text
    assert "<script>alert(1)</script>" not in detail.text
