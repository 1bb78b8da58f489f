"""Export questions in the shapes the importer reads back (see trivia.importing), each
with its learned rating and rated answers (R-8.10) for a bank that imports them anew."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from typing import Any

from trivia.importing import CSV_FORMULA_GUARD, CSV_FORMULA_STARTS, CSV_HEADER, RATING_COLUMNS
from trivia.models import Question


def _record(question: Question) -> dict[str, Any]:
    # OpenTDB key names and order, so other OpenTDB tools can read our files too.
    return {
        "type": question.type,
        "difficulty": question.difficulty,
        "category": question.category.name,
        "question": question.text,
        "correct_answer": question.correct_answer,
        "incorrect_answers": list(question.incorrect_answers),
        # Keys of ours after OpenTDB's (other tools ignore them): what the bank learned.
        "rating": round(question.rating, 1),
        "rated_answers": question.rated_answers,
    }


def export_opentdb_json(questions: Iterable[Question]) -> str:
    """OpenTDB envelope with unencoded text.

    ``"encoding": "none"`` tells our importer not to HTML-unescape, so a question that
    really contains "&amp;" survives the round trip unchanged.
    """
    payload = {
        "response_code": 0,
        "encoding": "none",
        "results": [_record(q) for q in questions],
    }
    return json.dumps(payload, ensure_ascii=False, indent=1)


def spreadsheet_safe(value: str) -> str:
    """Stop a spreadsheet from running a cell as a formula (CSV injection).

    Imported text is untrusted, and staff open exports in spreadsheet programs, which run a
    cell starting with = + - @ as a formula. A leading apostrophe makes it plain text there;
    the importer takes it off again, so exports still round-trip ("-40" stays "-40").
    """
    return CSV_FORMULA_GUARD + value if value.startswith(CSV_FORMULA_STARTS) else value


def export_csv(questions: Iterable[Question]) -> str:
    """CSV with the documented header and the rating columns; True/False rows leave wrong
    answers 2 and 3 empty."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow((*CSV_HEADER, *RATING_COLUMNS))
    for q in questions:
        wrong = [*q.incorrect_answers, "", "", ""][:3]
        cells = [q.category.name, q.type, q.difficulty, q.text, q.correct_answer, *wrong]
        learned = [f"{q.rating:.1f}", str(q.rated_answers)]
        writer.writerow([*(spreadsheet_safe(cell) for cell in cells), *learned])
    return buffer.getvalue()
