"""Learned ratings across export and import (R-8.10): an export carries each question's
rating and rated answers, importing it restores them for questions new to the bank, a
question already there keeps its own, and files without them still import."""

from __future__ import annotations

import csv
import io
import json

import pytest

from tests.trivia.factories import QuestionFactory
from trivia.exporting import export_csv, export_opentdb_json
from trivia.importing import CSV_HEADER, import_questions, parse_file
from trivia.models import RATING_SEEDS, Question

pytestmark = pytest.mark.django_db

EXPORTS = {"json": export_opentdb_json, "csv": export_csv}


def _learned(**fields) -> Question:
    question = QuestionFactory(**fields)
    Question.objects.filter(pk=question.pk).update(rating=1733.4, rated_answers=57)
    question.refresh_from_db()
    return question


def _by_text() -> dict[str, tuple[float, int]]:
    return {q.text: (q.rating, q.rated_answers) for q in Question.objects.all()}


@pytest.mark.parametrize("kind", sorted(EXPORTS))
def test_an_export_carries_ratings_and_restores_them_for_new_questions(kind: str) -> None:
    _learned(difficulty="easy", text="Learned one?")
    QuestionFactory(difficulty="hard", text="Never answered?")
    exported = EXPORTS[kind](Question.objects.select_related("category").order_by("id"))
    Question.objects.all().delete()
    result = import_questions(exported.encode())
    assert result.added == 2
    assert _by_text() == {
        "Learned one?": (pytest.approx(1733.4), 57),
        "Never answered?": (RATING_SEEDS["hard"], 0),
    }


def test_the_json_export_names_the_rating_beside_the_opentdb_keys() -> None:
    _learned(text="Learned one?")
    record = json.loads(export_opentdb_json(Question.objects.all()))["results"][0]
    assert (record["rating"], record["rated_answers"]) == (1733.4, 57)


def test_the_csv_export_adds_the_rating_columns_after_the_documented_ones() -> None:
    _learned(text="Learned one?")
    rows = list(csv.reader(io.StringIO(export_csv(Question.objects.all()))))
    assert rows[0] == [*CSV_HEADER, "rating", "rated_answers"]
    assert rows[1][-2:] == ["1733.4", "57"]


@pytest.mark.parametrize("kind", sorted(EXPORTS))
def test_reimporting_questions_already_in_the_bank_keeps_their_learned_ratings(
    kind: str,
) -> None:
    question = _learned(difficulty="medium", text="Learned one?")
    exported = EXPORTS[kind](Question.objects.select_related("category").all())
    # Played since the export: the bank's own rating is newer than the file's.
    Question.objects.filter(pk=question.pk).update(rating=1801.0, rated_answers=80)
    result = import_questions(exported.encode())
    assert result.added == 0 and result.plan.duplicates_in_bank == 1
    question.refresh_from_db()
    assert (question.rating, question.rated_answers) == (1801.0, 80)


def test_a_file_without_ratings_seeds_each_question_from_its_label() -> None:
    rows = [
        ",".join(CSV_HEADER),
        "Maths,multiple,easy,Two plus two?,4,3,5,22",
        "Maths,multiple,hard,Seven times eight?,56,54,58,48",
        "Maths,boolean,medium,Zero is even?,True,,,",
    ]
    result = import_questions("\r\n".join(rows).encode())
    assert result.added == 3
    seeded = {q.difficulty: (q.rating, q.rated_answers) for q in Question.objects.all()}
    assert seeded == {d: (rating, 0) for d, rating in RATING_SEEDS.items()}


@pytest.mark.parametrize(
    ("rating", "rated_answers"),
    [("very hard", "3"), ("1500", "-2"), ("1e9", "3"), ("nan", "1"), ("1500", "many")],
)
def test_a_rating_that_is_no_rating_is_a_row_error(rating: str, rated_answers: str) -> None:
    header = ",".join((*CSV_HEADER, "rating", "rated_answers"))
    row = f"Maths,multiple,easy,Two plus two?,4,3,5,22,{rating},{rated_answers}"
    parsed = parse_file(f"{header}\r\n{row}".encode())
    assert parsed.questions == [] and len(parsed.invalid) == 1


@pytest.mark.parametrize("rating", ["1600", True, [1600], {"value": 1}])
def test_a_json_rating_must_be_a_number(rating: object) -> None:
    record = {
        "type": "multiple",
        "difficulty": "easy",
        "category": "Maths",
        "question": "Two plus two?",
        "correct_answer": "4",
        "incorrect_answers": ["3", "5", "22"],
        "rating": rating,
    }
    parsed = parse_file(json.dumps({"encoding": "none", "results": [record]}).encode())
    if isinstance(rating, str):
        # A number written as text is read as one (a hand-edited file).
        assert parsed.questions[0].rating == 1600.0
    else:
        assert parsed.questions == [] and len(parsed.invalid) == 1
