"""The shared import core on small fixture files of our own, one quirk at a time."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.trivia.factories import CategoryFactory, QuestionFactory
from trivia.importing import ImportFileError, import_questions, parse_file, plan_import
from trivia.models import Category, Question

pytestmark = pytest.mark.django_db


def _by_text(parsed_questions) -> dict:
    by_text: dict = {}
    for question in parsed_questions:
        by_text.setdefault(question.text, question)  # first copy, like the importer keeps
    return by_text


class TestOpenTdbEnvelope:
    def test_counts_rows_duplicates_and_invalid(self, fixture_bytes) -> None:
        plan = plan_import(parse_file(fixture_bytes("envelope_html.json")))
        assert plan.format_label == "OpenTDB JSON (HTML entities)"
        assert plan.total_rows == 9
        assert [q.row for q in plan.to_add] == [1, 2, 3, 4, 9]
        assert [(d.row, d.first_row) for d in plan.duplicates] == [(5, 1)]
        reasons = {e.row: e.reason for e in plan.invalid}
        assert set(reasons) == {6, 7, 8}
        assert "missing field 'correct_answer'" in reasons[6]
        assert "unknown difficulty 'expert'" in reasons[7]
        assert "right answer is also listed" in reasons[8]

    def test_entities_decoded_once_everywhere_including_categories(self, fixture_bytes) -> None:
        parsed = parse_file(fixture_bytes("envelope_html.json"))
        questions = _by_text(parsed.questions)
        studio = questions['Which studio\'s logo shows a "roaring lion"?']
        assert studio.category == "Entertainment: Film & TV"
        web = questions["Which HTML entity writes an ampersand: &amp; or &lt;?"]
        assert web.correct_answer == "&amp;"  # "&amp;amp;" decoded once, not twice
        assert web.incorrect_answers == ("&lt;", "&gt;", "&quot;")

    def test_stray_spaces_trimmed_and_pipe_kept_inside_answers(self, fixture_bytes) -> None:
        questions = _by_text(parse_file(fixture_bytes("envelope_html.json")).questions)
        plants = questions["Which gas do plants take in to make sugar?"]
        assert plants.category == "Science & Nature"
        assert plants.correct_answer == "Carbon dioxide"
        assert plants.incorrect_answers == ("Oxygen", "Nitrogen", "Helium")
        ferry = questions["Which pair gives our imaginary ferry's length in two units?"]
        assert ferry.correct_answer == "100 ft | 30.5 m"
        assert ferry.incorrect_answers[0] == "120 ft | 36.6 m"

    def test_import_writes_questions_and_categories(self, fixture_bytes) -> None:
        result = import_questions(fixture_bytes("envelope_html.json"), source="test")
        assert result.added == 5
        assert Question.objects.count() == 5
        assert set(Category.objects.values_list("name", flat=True)) == {
            "Science & Nature",
            "Entertainment: Film & TV",
            "Vehicles",
            "Web",
        }
        boolean = Question.objects.get(type="boolean")
        assert (boolean.correct_answer, boolean.incorrect_answers) == ("True", ["False"])

    def test_reimport_adds_nothing_and_counts_bank_duplicates(self, fixture_bytes) -> None:
        import_questions(fixture_bytes("envelope_html.json"))
        again = import_questions(fixture_bytes("envelope_html.json"))
        assert again.added == 0
        assert again.plan.duplicates_in_bank == 5
        assert again.plan.duplicates_in_file == 1
        assert Question.objects.count() == 5

    def test_existing_category_matched_ignoring_case(self, fixture_bytes) -> None:
        CategoryFactory(name="science & nature")
        import_questions(fixture_bytes("envelope_html.json"))
        assert Category.objects.filter(name__iexact="science & nature").count() == 1

    def test_dry_run_writes_nothing(self, fixture_bytes) -> None:
        result = import_questions(fixture_bytes("envelope_html.json"), dry_run=True)
        assert len(result.plan.to_add) == 5
        assert not Question.objects.exists()
        assert not Category.objects.exists()


def test_bare_list_is_accepted(fixture_bytes) -> None:
    plan = plan_import(parse_file(fixture_bytes("bare_list.json")))
    assert plan.total_rows == 2
    assert {q.type for q in plan.to_add} == {"multiple", "boolean"}


@pytest.mark.parametrize(
    ("name", "label"),
    [("base64.json", "base64"), ("url3986.json", "url3986")],
)
def test_base64_and_url3986_detected_and_decoded(fixture_bytes, name: str, label: str) -> None:
    parsed = parse_file(fixture_bytes(name))
    assert parsed.format_label == f"OpenTDB JSON ({label})"
    assert not parsed.invalid
    planet, cafe = parsed.questions
    assert planet.category == "Science & Nature"
    assert planet.text == 'Which planet is known as the "Red Planet"?'
    assert planet.incorrect_answers == ("Venus", "Jupiter", "Saturn")
    assert (cafe.type, cafe.difficulty, cafe.correct_answer) == ("boolean", "easy", "False")
    assert cafe.text == "A café's jukebox in our story plays Beyoncé & friends."


def test_encodings_decode_to_the_same_questions(fixture_bytes) -> None:
    import_questions(fixture_bytes("base64.json"))
    again = import_questions(fixture_bytes("url3986.json"))
    assert again.added == 0 and again.plan.duplicates_in_bank == 2


def test_format_option_forces_the_encoding(fixture_bytes) -> None:
    forced = parse_file(fixture_bytes("base64.json"), fmt="opentdb-url3986")
    # Read as url3986 the base64 type "bXVsdGlwbGU=" is no known type: reported per row.
    assert not forced.questions
    assert all("unknown type" in e.reason for e in forced.invalid)
    assert parse_file(fixture_bytes("base64.json"), fmt="opentdb-base64").questions


def test_bad_base64_field_is_a_row_error() -> None:
    data = (
        b'[{"type": "bXVsdGlwbGU=", "difficulty": "ZWFzeQ==", "category": "QQ==",'
        b' "question": "not base64!!", "correct_answer": "QQ==",'
        b' "incorrect_answers": ["Qg==", "Qw==", "RA=="]}]'
    )
    parsed = parse_file(data)
    assert parsed.invalid[0].row == 1
    assert "not valid base64" in parsed.invalid[0].reason


class TestDocumentedCsv:
    def test_bom_crlf_rows(self, fixture_bytes) -> None:
        plan = plan_import(parse_file(fixture_bytes("documented_bom_crlf.csv")))
        assert plan.format_label == "CSV (documented header)"
        assert [q.row for q in plan.to_add] == [2, 3, 4]
        peru, danube, final = plan.to_add
        assert (peru.category, peru.difficulty, peru.text) == (
            "Geography",
            "easy",
            "What is the capital of Peru?",
        )
        assert peru.correct_answer == "Lima"
        assert peru.incorrect_answers == ("Quito", "Bogotá", "Santiago")
        assert (danube.type, danube.incorrect_answers) == ("boolean", ("False",))
        assert final.text == 'Which scoreline, written "home | away", ended our league final?'
        assert final.correct_answer == "3 | 1"
        assert [(d.row, d.first_row) for d in plan.duplicates] == [(8, 2)]
        reasons = {e.row: e.reason for e in plan.invalid}
        assert "unknown difficulty 'legendary'" in reasons[5]
        assert reasons[6] == "expected 8 fields, found 5"

    def test_lf_without_bom_reads_the_same(self, fixture_bytes) -> None:
        data = fixture_bytes("documented_bom_crlf.csv").removeprefix(b"\xef\xbb\xbf")
        plan = plan_import(parse_file(data.replace(b"\r\n", b"\n")))
        assert [q.row for q in plan.to_add] == [2, 3, 4]
        assert len(plan.invalid) == 2

    def test_missing_category_uses_the_default(self) -> None:
        data = (
            b"type,difficulty,question,correct_answer,incorrect_answer_1\n"
            b"boolean,easy,Ice floats.,True,False\n"
        )
        assert parse_file(data).invalid[0].reason.startswith("missing category")
        parsed = parse_file(data, category_default="Misc")
        assert parsed.questions[0].category == "Misc"


class TestOptionsCsv:
    def test_options_shape(self, fixture_bytes) -> None:
        plan = plan_import(parse_file(fixture_bytes("options_shape.csv")))
        assert plan.total_rows == 6
        assert [q.row for q in plan.to_add] == [2, 3, 5]
        keyboard, honey, colour = plan.to_add
        assert keyboard.text == 'Which company made the "Model M" keyboard?'
        assert (keyboard.correct_answer, keyboard.incorrect_answers) == (
            "IBM",
            ("Apple", "Dell", "HP"),
        )
        assert (honey.type, honey.correct_answer, honey.incorrect_answers) == (
            "boolean",
            "True",
            ("False",),
        )
        assert colour.difficulty == "hard"

    def test_malformed_rows_reported_not_fatal(self, fixture_bytes) -> None:
        plan = plan_import(parse_file(fixture_bytes("options_shape.csv")))
        reasons = {e.row: e.reason for e in plan.invalid}
        assert reasons[4] == "(id 3) expected 6 fields, found 5"
        assert "not among the options" in reasons[6]
        assert "5 choices" in reasons[7]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "the file is empty"),
        (b"\xff\xfe\x00bad", "not UTF-8"),
        (b'{"results": [', "not valid JSON"),
        (b'{"questions": []}', 'no "results" list'),
        (b"[1, 2", "not valid JSON"),
        (b"name,age\nBob,3\n", "unrecognised file"),
    ],
)
def test_unreadable_files_raise_one_clear_error(data: bytes, message: str) -> None:
    with pytest.raises(ImportFileError, match=message):
        parse_file(data)


def test_unknown_format_is_rejected() -> None:
    with pytest.raises(ImportFileError, match="unknown format"):
        parse_file(b"[]", fmt="xml")


def test_import_uses_a_constant_number_of_queries() -> None:
    QuestionFactory(text="Already here?", correct_answer="Yes")
    rows = ",".join(
        f'{{"type":"multiple","difficulty":"easy","category":"C{n % 3}","question":"Q{n}?",'
        f'"correct_answer":"R","incorrect_answers":["a","b","c"]}}'
        for n in range(1200)
    )
    data = f"[{rows}]".encode()
    with CaptureQueriesContext(connection) as queries:
        result = import_questions(data)
    assert result.added == 1200
    # Batches, not rows: 3 fingerprint chunks, categories read/create/re-read, savepoints
    # and insert batches (SQLite's 999-parameter limit makes those ~90 rows each).
    assert len(queries) <= 1200 // 40


def test_whole_import_is_one_transaction(fixture_bytes, monkeypatch) -> None:
    from trivia import importing

    original = Question.objects.bulk_create

    def fail_after_categories(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(Question.objects, "bulk_create", fail_after_categories)
    with pytest.raises(RuntimeError):
        importing.import_questions(fixture_bytes("envelope_html.json"))
    monkeypatch.setattr(Question.objects, "bulk_create", original)
    # The categories created before the failure were rolled back with it.
    assert not Category.objects.exists()
