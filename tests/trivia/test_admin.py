"""Admin: import preview/confirm through the test client, export round trip, filters, actions."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.trivia.factories import (
    QuestionFactory,
    QuestionReportFactory,
    StaffFactory,
    UserFactory,
)
from trivia.admin import RATE_MIN_ANSWERS
from trivia.importing import import_questions
from trivia.models import Question, QuestionReport

pytestmark = pytest.mark.django_db

IMPORT_URL = reverse("admin:trivia_question_import")
CONFIRM_URL = reverse("admin:trivia_question_import_confirm")
CHANGELIST_URL = reverse("admin:trivia_question_changelist")


@pytest.fixture
def staff_client(client):
    client.force_login(StaffFactory())
    return client


def _upload(client, data: bytes, name: str = "questions.json", **fields):
    upload = SimpleUploadedFile(name, data, content_type="application/octet-stream")
    return client.post(IMPORT_URL, {"file": upload, "format": "auto", **fields})


class TestImportFlow:
    def test_changelist_links_to_import(self, staff_client) -> None:
        response = staff_client.get(CHANGELIST_URL)
        assert IMPORT_URL in response.content.decode()
        form = staff_client.get(IMPORT_URL)
        assert form.status_code == 200 and b'type="file"' in form.content

    def test_preview_writes_nothing_then_confirm_writes(self, staff_client, fixture_bytes) -> None:
        response = _upload(staff_client, fixture_bytes("envelope_html.json"))
        assert response.status_code == 200
        body = response.content.decode()
        assert '<strong id="count-add">5</strong>' in body
        assert '<strong id="count-duplicates">1</strong>' in body
        assert '<strong id="count-invalid">3</strong>' in body
        assert "unknown difficulty" in body and "<td>7</td>" in body
        assert not Question.objects.exists()  # nothing written at preview

        token = response.context["token"]
        response = staff_client.post(CONFIRM_URL, {"token": token, "confirm": "1"})
        assert response.status_code == 302 and response.url == CHANGELIST_URL
        assert Question.objects.count() == 5
        assert Question.objects.filter(source="admin:questions.json").count() == 5

    def test_confirm_twice_or_reimport_adds_nothing(self, staff_client, fixture_bytes) -> None:
        token = _upload(staff_client, fixture_bytes("bare_list.json")).context["token"]
        staff_client.post(CONFIRM_URL, {"token": token})
        again = staff_client.post(CONFIRM_URL, {"token": token})  # token was used up
        assert again.url == IMPORT_URL
        preview = _upload(staff_client, fixture_bytes("bare_list.json"))
        assert preview.context["plan"].duplicates_in_bank == 2
        assert Question.objects.count() == 2

    def test_uploaded_text_is_escaped_in_the_preview(self, staff_client) -> None:
        data = json.dumps(
            [
                {
                    "type": "boolean",
                    "difficulty": "easy",
                    "category": "<b>Bold</b>",
                    "question": "Is &lt;script&gt;alert(1)&lt;/script&gt; harmless here?",
                    "correct_answer": "True",
                    "incorrect_answers": ["False"],
                }
            ]
        ).encode()
        body = _upload(staff_client, data).content.decode()
        assert "<script>alert(1)" not in body and "<b>Bold</b>" not in body
        assert "&lt;script&gt;alert(1)" in body

    def test_unreadable_file_shows_form_error(self, staff_client) -> None:
        response = _upload(staff_client, b"hello,world\n1,2\n", name="x.csv")
        assert response.status_code == 200
        assert "Cannot import this file: unrecognised file" in response.content.decode()

    def test_cancel_discards_the_staged_file(self, staff_client, fixture_bytes) -> None:
        token = _upload(staff_client, fixture_bytes("bare_list.json")).context["token"]
        staff_client.post(CONFIRM_URL, {"token": token, "cancel": "1"})
        assert staff_client.post(CONFIRM_URL, {"token": token}).url == IMPORT_URL
        assert not Question.objects.exists()

    def test_forged_or_foreign_token_is_refused(self, client, fixture_bytes) -> None:
        owner = StaffFactory()
        client.force_login(owner)
        token = _upload(client, fixture_bytes("bare_list.json")).context["token"]
        client.logout()
        client.force_login(StaffFactory())  # a fresh session does not hold the token
        assert client.post(CONFIRM_URL, {"token": token}).url == IMPORT_URL
        assert client.post(CONFIRM_URL, {"token": "../../etc/passwd"}).url == IMPORT_URL
        assert not Question.objects.exists()

    def test_non_staff_refused(self, client, fixture_bytes) -> None:
        client.force_login(UserFactory())
        response = _upload(client, fixture_bytes("bare_list.json"))
        assert response.status_code == 302 and "/login/" in response.url
        assert client.post(CONFIRM_URL, {"token": "x" * 32}).status_code == 302
        assert not Question.objects.exists()

    def test_staff_without_add_permission_refused(self, client, fixture_bytes) -> None:
        user = UserFactory(is_staff=True)
        user.user_permissions.add(Permission.objects.get(codename="view_question"))
        client.force_login(user)
        assert client.get(IMPORT_URL).status_code == 403
        assert _upload(client, fixture_bytes("bare_list.json")).status_code == 403
        assert IMPORT_URL not in client.get(CHANGELIST_URL).content.decode()


def _export_all(client, action: str) -> bytes:
    ids = list(Question.objects.values_list("pk", flat=True))
    response = client.post(CHANGELIST_URL, {"action": action, "_selected_action": ids, "index": 0})
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    return response.content


class TestExport:
    @pytest.mark.parametrize("action", ["export_json", "export_csv"])
    def test_round_trip(self, staff_client, fixture_bytes, action: str) -> None:
        import_questions(fixture_bytes("envelope_html.json"))
        import_questions(fixture_bytes("documented_bom_crlf.csv"))
        before = {
            (q.category.name, q.type, q.difficulty, q.text, q.correct_answer)
            + tuple(q.incorrect_answers)
            for q in Question.objects.select_related("category")
        }
        exported = _export_all(staff_client, action)
        Question.objects.all().delete()
        result = import_questions(exported)
        assert not result.plan.invalid and result.added == len(before)
        after = {
            (q.category.name, q.type, q.difficulty, q.text, q.correct_answer)
            + tuple(q.incorrect_answers)
            for q in Question.objects.select_related("category")
        }
        assert after == before  # including the literal "&amp;" answer and "|" answers
        assert import_questions(exported).added == 0


class TestListAndActions:
    def test_filters_and_columns_render(self, staff_client) -> None:
        QuestionFactory(times_asked=40, times_correct=10)
        for query in [
            "?difficulty__exact=easy",
            "?type__exact=boolean",
            "?active__exact=1",
            "?reported=open",
            "?reported=none",
            "?rate=any",
            "?rate=too_hard",
            "?rate=too_easy",
            "?q=question",
            "?o=8",
        ]:
            response = staff_client.get(CHANGELIST_URL + query)
            assert response.status_code == 200, query
        assert "25%" in staff_client.get(CHANGELIST_URL).content.decode()

    def test_rate_contradicts_difficulty_filter(self, staff_client) -> None:
        n = RATE_MIN_ANSWERS
        missed_easy = QuestionFactory(difficulty="easy", times_asked=n, times_correct=n // 5)
        QuestionFactory(difficulty="easy", times_asked=n - 1, times_correct=0)  # too few
        QuestionFactory(difficulty="easy", times_asked=n, times_correct=n // 2)  # fine
        trivial_hard = QuestionFactory(difficulty="hard", times_asked=n, times_correct=n)
        QuestionFactory(difficulty="hard", times_asked=n, times_correct=n // 2)  # fine
        shown = staff_client.get(CHANGELIST_URL + "?rate=any").context["cl"].queryset
        assert set(shown) == {missed_easy, trivial_hard}
        shown = staff_client.get(CHANGELIST_URL + "?rate=too_hard").context["cl"].queryset
        assert list(shown) == [missed_easy]

    def test_reported_filter_counts_only_unresolved(self, staff_client) -> None:
        open_report = QuestionReportFactory()
        QuestionReportFactory(resolved=True)
        QuestionFactory()
        shown = staff_client.get(CHANGELIST_URL + "?reported=open").context["cl"].queryset
        assert list(shown) == [open_report.question]

    def test_bulk_deactivate_and_activate(self, staff_client) -> None:
        questions = QuestionFactory.create_batch(3)
        ids = [q.pk for q in questions[:2]]
        staff_client.post(CHANGELIST_URL, {"action": "deactivate", "_selected_action": ids})
        assert set(Question.objects.filter(active=False).values_list("pk", flat=True)) == set(ids)
        staff_client.post(CHANGELIST_URL, {"action": "activate", "_selected_action": ids})
        assert Question.objects.filter(active=True).count() == 3

    def test_edit_form_validates_completeness(self, staff_client) -> None:
        question = QuestionFactory()
        url = reverse("admin:trivia_question_change", args=[question.pk])
        data = {
            "category": question.category_id,
            "text": "Which is a prime number?",
            "type": "multiple",
            "difficulty": "medium",
            "correct_answer": "7",
            "incorrect_answers_1": "4",
            "incorrect_answers_2": "7",
            "incorrect_answers_3": "",
            "active": "on",
            "source": "admin",
        }
        response = staff_client.post(url, data)
        assert response.status_code == 200
        assert "three distinct, non-empty wrong answers" in response.content.decode()
        # Shown beside the wrong answers' boxes, not as a complaint about the whole form.
        assert "incorrect_answers" in response.context["adminform"].form.errors
        data.update(incorrect_answers_2="6", incorrect_answers_3="8")
        assert staff_client.post(url, data).status_code == 302
        question.refresh_from_db()
        assert question.incorrect_answers == ["4", "6", "8"]

    def test_change_form_shows_each_wrong_answer_in_its_own_labelled_box(
        self, staff_client
    ) -> None:
        question = QuestionFactory()
        url = reverse("admin:trivia_question_change", args=[question.pk])
        page = staff_client.get(url).content.decode()
        for n, answer in enumerate(question.incorrect_answers, start=1):
            box = re.search(rf'<input[^>]*name="incorrect_answers_{n}"[^>]*>', page)
            assert box, f"no box for wrong answer {n}"
            assert f'value="{answer}"' in box.group(0)
            assert f'aria-label="Wrong answer {n}"' in box.group(0)

    def test_add_boolean_question_fills_the_opposite_answer(self, staff_client) -> None:
        category = QuestionFactory().category
        response = staff_client.post(
            reverse("admin:trivia_question_add"),
            {
                "category": category.pk,
                "text": "The Moon has no atmosphere to speak of.",
                "type": "boolean",
                "difficulty": "easy",
                "correct_answer": "True",
                "active": "on",
            },
        )
        assert response.status_code == 302
        added = Question.objects.get(type="boolean")
        assert added.incorrect_answers == ["False"]

    def test_report_admin_mark_resolved(self, staff_client) -> None:
        reports = QuestionReportFactory.create_batch(2)
        url = reverse("admin:trivia_questionreport_changelist")
        assert staff_client.get(url + "?resolved__exact=0").status_code == 200
        staff_client.post(url, {"action": "mark_resolved", "_selected_action": [reports[0].pk]})
        resolved = QuestionReport.objects.get(pk=reports[0].pk)
        assert resolved.resolved and resolved.resolved_by is not None and resolved.resolved_at
        assert not QuestionReport.objects.get(pk=reports[1].pk).resolved

    def test_category_admin_lists_counts(self, staff_client) -> None:
        QuestionFactory.create_batch(2)
        response = staff_client.get(reverse("admin:trivia_category_changelist"))
        assert response.status_code == 200


class TestCsvFormulaGuard:
    """Cells a spreadsheet would run as formulas are exported as plain text (CSV injection)."""

    FORMULAS = {
        "text": '=HYPERLINK("http://evil.example","Click") is what?',
        "correct_answer": "-40",
        "incorrect_answers": ["+1", "@SUM(A1:A9)", "Plain"],
    }

    def test_export_quotes_formula_cells_and_import_restores_them(self, staff_client) -> None:
        QuestionFactory(**self.FORMULAS)
        exported = _export_all(staff_client, "export_csv").decode()
        data_row = next(csv.reader(io.StringIO(exported.splitlines()[1])))
        assert data_row[3].startswith("'=HYPERLINK") and data_row[4] == "'-40"
        assert data_row[5:8] == ["'+1", "'@SUM(A1:A9)", "Plain"]
        assert not any(cell.startswith(("=", "+", "-", "@")) for cell in data_row)

        Question.objects.all().delete()
        result = import_questions(exported.encode())
        assert result.added == 1
        question = Question.objects.get()
        assert question.text == self.FORMULAS["text"]
        assert question.correct_answer == "-40"
        assert list(question.incorrect_answers) == ["+1", "@SUM(A1:A9)", "Plain"]

    def test_an_apostrophe_before_ordinary_text_is_kept(self) -> None:
        rows = (
            "category,type,difficulty,question,correct_answer,incorrect_answer_1,"
            "incorrect_answer_2,incorrect_answer_3\r\n"
            "Music,multiple,easy,Which band sang 'Tis the season'?,'Tis Band,A,B,C\r\n"
        )
        result = import_questions(rows.encode())
        assert result.added == 1
        assert Question.objects.get().correct_answer == "'Tis Band"
