"""No question with a NUL byte reaches the bank, and the admin's lists (the bank's and the
games') refuse what the database cannot take: a 4xx, never a 500 (PostgreSQL keeps no NUL
in text or JSON)."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.trivia.factories import QuestionFactory, StaffFactory
from trivia.importing import import_questions
from trivia.models import Category, Question, question_problems

pytestmark = pytest.mark.django_db

IMPORT_URL = reverse("admin:trivia_question_import")
CONFIRM_URL = reverse("admin:trivia_question_import_confirm")
CHANGELIST_URL = reverse("admin:trivia_question_changelist")
GOOD = {
    "type": "multiple",
    "difficulty": "easy",
    "category": "Science",
    "question": "Which gas do plants take in?",
    "correct_answer": "Carbon dioxide",
    "incorrect_answers": ["Oxygen", "Nitrogen", "Helium"],
}
# One NUL byte in each text of a record, in turn.
WITH_NUL = [
    {**GOOD, "question": "Which gas\x00 do plants take in?"},
    {**GOOD, "correct_answer": "Carbon\x00dioxide"},
    {**GOOD, "incorrect_answers": ["Oxygen", "Nitro\x00gen", "Helium"]},
    {**GOOD, "category": "Sci\x00ence"},
]


@pytest.fixture
def staff_client(client):
    client.force_login(StaffFactory())
    return client


@pytest.mark.parametrize(
    "question",
    [
        {"text": "A\x00?", "correct_answer": "B", "incorrect_answers": ["C", "D", "E"]},
        {"text": "A?", "correct_answer": "B\x00", "incorrect_answers": ["C", "D", "E"]},
        {"text": "A?", "correct_answer": "B", "incorrect_answers": ["C", "\x00", "E"]},
    ],
)
def test_a_question_holding_a_nul_byte_is_not_playable(question: dict) -> None:
    assert question_problems(type="multiple", **question)


def test_an_imported_record_holding_a_nul_byte_is_an_invalid_row() -> None:
    result = import_questions(json.dumps(WITH_NUL).encode(), fmt="opentdb-plain")
    assert result.added == 0
    assert len(result.plan.invalid) == len(WITH_NUL)
    assert not Question.objects.exists() and not Category.objects.exists()


def test_a_csv_row_holding_a_nul_byte_is_an_invalid_row() -> None:
    rows = (
        "id,category,question,options,correct_answer,difficulty\n"
        "1,Science,Which gas\x00?,CO2 | O2 | N2 | He,CO2,easy\n"
        "2,Sci\x00ence,Which gas?,CO2 | O2 | N2 | He,CO2,easy\n"
    )
    result = import_questions(rows.encode(), fmt="csv")
    assert result.added == 0
    assert not Question.objects.exists()


def test_the_admin_import_skips_records_holding_a_nul_byte(staff_client) -> None:
    data = json.dumps([*WITH_NUL, GOOD]).encode()
    upload = SimpleUploadedFile("nul\x00.json", data, content_type="application/json")
    preview = staff_client.post(
        IMPORT_URL, {"file": upload, "format": "auto", "category_default": ""}
    )
    assert preview.status_code == 200
    token = preview.context["token"]
    confirmed = staff_client.post(CONFIRM_URL, {"token": token, "confirm": "1"})
    assert confirmed.status_code == 302
    assert list(Question.objects.values_list("text", flat=True)) == [GOOD["question"]]
    assert "\x00" not in Question.objects.get().source


def test_the_admin_import_form_refuses_a_nul_default_category(staff_client) -> None:
    upload = SimpleUploadedFile("q.json", json.dumps([GOOD]).encode())
    data = {"file": upload, "format": "auto", "category_default": "S\x00"}
    response = staff_client.post(IMPORT_URL, data)
    assert response.status_code == 200
    assert "category_default" in response.context["form"].errors
    assert not Question.objects.exists()


@pytest.mark.parametrize(
    "query",
    [
        "difficulty__exact=%00",
        "type__exact=easy%00",
        "category__id__exact=%00",
        "reported=%00",
        "rate=%00",
        "active__exact=%00",
    ],
)
def test_a_list_filter_holding_a_nul_byte_is_refused(staff_client, query: str) -> None:
    QuestionFactory()
    response = staff_client.get(f"{CHANGELIST_URL}?{query}")
    assert response.status_code == 400


def test_a_search_holding_a_nul_byte_lists_nothing_amiss(staff_client) -> None:
    QuestionFactory()
    assert staff_client.get(f"{CHANGELIST_URL}?q=%00").status_code == 200


@pytest.mark.parametrize(
    "selected", [["\x00"], ["x"], ["-1"], ["0"], ["99999999999999999999"], ["1", "１"]]
)
def test_an_action_on_rows_that_are_no_ids_is_refused_and_changes_nothing(
    staff_client, selected: list[str]
) -> None:
    question = QuestionFactory(active=True)
    response = staff_client.post(
        CHANGELIST_URL,
        {"action": "deactivate", "_selected_action": [*selected, str(question.pk)], "index": "0"},
    )
    assert response.status_code == 400
    question.refresh_from_db()
    assert question.active


def test_an_action_on_real_rows_still_runs(staff_client) -> None:
    question = QuestionFactory(active=True)
    response = staff_client.post(
        CHANGELIST_URL,
        {"action": "deactivate", "_selected_action": [str(question.pk)], "index": "0"},
    )
    assert response.status_code == 302
    question.refresh_from_db()
    assert not question.active


@pytest.mark.parametrize(
    ("url", "query"),
    [
        ("trivia_category_changelist", "name__exact=%00"),
        ("trivia_questionreport_changelist", "reason__exact=%00"),
        ("game_game_changelist", "status__exact=%00"),
        ("game_triviaattempt_changelist", "difficulty__exact=%00"),
    ],
)
def test_the_other_lists_refuse_a_nul_filter_too(staff_client, url: str, query: str) -> None:
    response = staff_client.get(f"{reverse(f'admin:{url}')}?{query}")
    assert response.status_code == 400
