"""Report a trivia question from the table, after its answer is revealed.

A report is tied to the attempt it was made from (``TriviaAttempt.report``, one to
one), so a player reports a question once per time it was asked. Reporting never
touches the game row: the table's version stays as it was and Continue still works.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db import IntegrityError, transaction

from game.core.errors import ActionRefused, GameNotFound
from game.models import TriviaAttempt
from trivia.models import ROW_ID_MAX, QuestionReport
from trivia.services import report_question

NOTE_MAX_LENGTH = 2000
THANKS = "Thanks — staff will review this question."


class ReportQuestionForm(forms.Form):
    attempt = forms.IntegerField(min_value=1, max_value=ROW_ID_MAX, widget=forms.HiddenInput)
    reason = forms.ChoiceField(
        label="Reason",
        choices=[("", "Choose a reason…"), *QuestionReport.Reason.choices],
        error_messages={
            "required": "Choose a reason for the report.",
            "invalid_choice": "Choose one of the reasons listed.",
        },
    )
    note = forms.CharField(
        label="Note (optional)",
        required=False,
        max_length=NOTE_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"max_length": f"Keep the note under {NOTE_MAX_LENGTH} characters."},
    )

    def first_error(self) -> str:
        for errors in self.errors.values():
            return str(errors[0])
        return "The report could not be read."


def report_attempt_question(
    *, game_id: int, user: Any, attempt_id: int, reason: str, note: str = ""
) -> QuestionReport:
    """File the player's report on the question of one of their answered attempts.

    Another player's attempt (or one from another game) is not found (404); an attempt
    not answered yet, or already reported, is refused and nothing changes.
    """
    with transaction.atomic():
        attempt = (
            TriviaAttempt.objects.select_for_update(of=("self",))
            .select_related("question")
            .filter(pk=attempt_id, game_id=game_id, game__owner=user)
            .first()
        )
        if attempt is None:
            raise GameNotFound(game_id)
        if not attempt.is_answered:
            # Reporting before the reveal would let a player probe for the right answer.
            raise ActionRefused("report_before_reveal")
        if attempt.report_id is not None:
            raise ActionRefused("already_reported")
        try:
            with transaction.atomic():
                report = report_question(
                    question=attempt.question, user=user, reason=reason, note=note
                )
                attempt.report = report
                attempt.save(update_fields=["report"])
        except ValueError as error:
            raise ActionRefused("bad_report", text=str(error)) from None
        except IntegrityError:
            # A second tab got there first (the one-to-one column is unique).
            raise ActionRefused("already_reported") from None
        return report
