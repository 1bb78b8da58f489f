"""manage.py import_trivia and load_default_questions."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.trivia.helpers import FIXTURES
from trivia.models import Question

pytestmark = pytest.mark.django_db


def _run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_import_prints_summary_with_row_numbers() -> None:
    output = _run("import_trivia", str(FIXTURES / "envelope_html.json"))
    assert "added: 5" in output
    assert "duplicates skipped: 1 (1 within the file, 0 already in the bank)" in output
    assert "invalid: 3" in output
    assert "row 7: unknown difficulty 'expert'" in output
    assert Question.objects.count() == 5
    again = _run("import_trivia", str(FIXTURES / "envelope_html.json"))
    assert "added: 0" in again and "Nothing new" in again


def test_dry_run_writes_nothing() -> None:
    output = _run("import_trivia", str(FIXTURES / "options_shape.csv"), "--dry-run")
    assert "would add: 3" in output and "Dry run: nothing was written." in output
    assert "row 4: (id 3) expected 6 fields, found 5" in output
    assert not Question.objects.exists()


def test_format_and_category_default_options(tmp_path: Path) -> None:
    path = tmp_path / "nocat.json"
    path.write_text(
        json.dumps(
            [
                {
                    "type": "boolean",
                    "difficulty": "easy",
                    "question": "Tea &amp; coffee both contain caffeine.",
                    "correct_answer": "True",
                    "incorrect_answers": ["False"],
                }
            ]
        )
    )
    _run("import_trivia", str(path), "--format", "opentdb-plain", "--category-default", "Drinks")
    question = Question.objects.get()
    assert question.category.name == "Drinks"
    assert question.text == "Tea &amp; coffee both contain caffeine."  # plain: not unescaped


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "Cannot read"),
        (b"\x00\xff\xfe", "not UTF-8"),
        (b"{oops", "not valid JSON"),
        (b"a,b\n1,2\n", "unrecognised file"),
    ],
)
def test_bad_file_exits_2_with_one_line(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(CommandError) as excinfo:
        call_command("import_trivia", str(path))
    assert excinfo.value.returncode == 2
    assert message in str(excinfo.value) and "\n" not in str(excinfo.value)


def test_unknown_format_choice_is_rejected() -> None:
    with pytest.raises(CommandError):
        call_command("import_trivia", str(FIXTURES / "bare_list.json"), "--format", "xml")


def _tiny_default_bank(tmp_path: Path) -> Path:
    path = tmp_path / "default_questions.json"
    records = [
        {
            "category": "Science & Nature",  # plain text: the "&" stays as written
            "type": "multiple",
            "difficulty": "easy",
            "question": "Which planet is closest to the Sun?",
            "correct_answer": "Mercury",
            "incorrect_answers": ["Venus", "Mars", "Earth"],
        },
        {
            "category": "Geography",
            "type": "boolean",
            "difficulty": "medium",
            "question": "Canberra is the capital of Australia.",
            "correct_answer": "True",
            "incorrect_answers": ["False"],
        },
    ]
    path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    return path


def test_load_default_questions_is_idempotent(tmp_path: Path) -> None:
    path = _tiny_default_bank(tmp_path)
    first = _run("load_default_questions", "--path", str(path))
    assert "Loaded 2 default questions" in first
    second = _run("load_default_questions", "--path", str(path))
    assert "No new default questions: all 2 are already in the bank." in second
    assert Question.objects.count() == 2
    assert set(Question.objects.values_list("source", flat=True)) == {"default"}
    assert Question.objects.filter(category__name="Science & Nature").exists()


def test_load_default_questions_uses_the_setting(settings, tmp_path: Path) -> None:
    settings.TRIVIA_DEFAULT_QUESTIONS_PATH = _tiny_default_bank(tmp_path)
    assert "Loaded 2" in _run("load_default_questions")


def test_load_default_questions_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("load_default_questions", "--path", str(tmp_path / "absent.json"))


def test_shipped_default_bank_loads_cleanly() -> None:
    path = Path(__file__).resolve().parents[2] / "trivia" / "data" / "default_questions.json"
    if not path.exists():
        pytest.skip("trivia/data/default_questions.json not written yet")
    err = StringIO()
    call_command("load_default_questions", stdout=StringIO(), stderr=err)
    assert err.getvalue() == ""  # every default question is valid
    count = Question.objects.count()
    # A bank that lasts: a player who comes back daily meets no repeat for weeks.
    assert count >= 1_000
    assert Question.objects.values("category").distinct().count() >= 16
    for difficulty in ("easy", "medium", "hard"):
        assert Question.objects.filter(difficulty=difficulty).count() >= 250
    assert "No new default questions" in _run("load_default_questions")
    assert Question.objects.count() == count
