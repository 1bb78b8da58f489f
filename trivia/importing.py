"""One parsing and validation core for every way questions enter the bank.

Used by ``manage.py import_trivia``, ``manage.py load_default_questions`` and the admin
"Import questions" view, so a file is judged the same everywhere.

Supported inputs
----------------
* Open Trivia Database JSON: the API envelope ``{"response_code": 0, "results": [...]}``
  or a bare list of question objects. Text is decoded exactly once according to the
  file's encoding: OpenTDB's default HTML entities, ``base64`` or ``url3986`` (detected,
  or forced with a format), or plain text (our own export marks itself with
  ``"encoding": "none"``; the default bank uses ``opentdb-plain``).
* CSV with the documented header
  ``category,type,difficulty,question,correct_answer,incorrect_answer_1,incorrect_answer_2,incorrect_answer_3``
  (UTF-8 with or without BOM, CRLF or LF; a True/False row may leave the wrong answer
  blank and gets the opposite one).
* Either of the two above with a question's learned rating (R-8.10), as our export writes
  it: the optional JSON keys or CSV columns ``rating`` and ``rated_answers``. A question
  new to the bank keeps them; one already there is a duplicate, skipped, so its own
  learned rating stays. Without them a question starts at its label's rating.
* The anandjoshi OpenTDB CSV shape ``id,category,question,options,correct_answer,difficulty``
  where every choice sits in ``options`` joined by `` | `` and True/False questions are
  recognised by their options.

Row numbers: for JSON the 1-based position of the record in the list; for CSV the
spreadsheet row (the header is row 1, the first question row 2).
"""

from __future__ import annotations

import base64
import binascii
import csv
import html
import io
import json
import math
import re
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from django.db import transaction

from trivia.models import (
    BOOLEAN_ANSWERS,
    NUL,
    RATING_SEEDS,
    Category,
    Question,
    clean_text,
    question_fingerprint,
    question_problems,
)
from trivia.services import question_pools_changed

FORMATS = (
    "auto",
    "opentdb-json",
    "opentdb-html",
    "opentdb-plain",
    "opentdb-base64",
    "opentdb-url3986",
    "csv",
)
CSV_HEADER = (
    "category",
    "type",
    "difficulty",
    "question",
    "correct_answer",
    "incorrect_answer_1",
    "incorrect_answer_2",
    "incorrect_answer_3",
)
# Optional columns (and JSON keys) our export adds after those: a question's learned
# rating and how many rated answers it was learned from. Files without them still import.
RATING_COLUMNS = ("rating", "rated_answers")
# A rating outside this range is no rating of ours (the scale's middle is 1500).
RATING_RANGE = (-10_000.0, 10_000.0)
# Our CSV export puts an apostrophe before a cell that a spreadsheet would run as a formula;
# the documented CSV reader takes it off again (see trivia.exporting.spreadsheet_safe).
CSV_FORMULA_GUARD = "'"
CSV_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Category may come from --category-default; wrong answers 2 and 3 only matter for
# multiple choice (a True/False-only file may leave those columns out).
_CSV_REQUIRED = {"type", "difficulty", "question", "correct_answer", "incorrect_answer_1"}
ANANDJOSHI_HEADER = ("id", "category", "question", "options", "correct_answer", "difficulty")
MAX_CATEGORY_LENGTH = Category._meta.get_field("name").max_length or 120
BATCH_SIZE = 500
# Enough for any real dump, small enough that a stray upload cannot exhaust memory.
MAX_FILE_BYTES = 20 * 1024 * 1024

_DIFFICULTIES = {d.value for d in Question.Difficulty}
_TYPES = {t.value for t in Question.Type}
_BASE64_TYPES = {"bXVsdGlwbGU=", "Ym9vbGVhbg=="}  # "multiple", "boolean"
_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_OPTION_SEPARATOR = re.compile(r"\s*\|\s*")

Encoding = Literal["html", "plain", "base64", "url3986"]


class ImportFileError(Exception):
    """The file as a whole cannot be read: one line for the user, nothing imported."""


class RowProblem(Exception):
    """One record is unusable; the reason is reported with its row number."""


@dataclass(frozen=True)
class ParsedQuestion:
    row: int
    category: str
    type: str
    difficulty: str
    text: str
    correct_answer: str
    incorrect_answers: tuple[str, ...]
    fingerprint: str
    # A learned rating and its rated answers, as our own export gives them: kept
    # for a question new to the bank; None starts it at its label's rating.
    rating: float | None = None
    rated_answers: int = 0


@dataclass(frozen=True)
class RowError:
    row: int
    reason: str


@dataclass(frozen=True)
class Duplicate:
    row: int
    text: str
    # Row of the first copy when the duplicate is within the file; None when in the bank.
    first_row: int | None

    @property
    def in_bank(self) -> bool:
        return self.first_row is None


@dataclass
class ParsedFile:
    format_label: str
    total_rows: int
    questions: list[ParsedQuestion] = field(default_factory=list)
    invalid: list[RowError] = field(default_factory=list)


@dataclass
class ImportPlan:
    format_label: str
    total_rows: int
    to_add: list[ParsedQuestion]
    duplicates: list[Duplicate]
    invalid: list[RowError]

    @property
    def duplicates_in_file(self) -> int:
        return sum(1 for d in self.duplicates if not d.in_bank)

    @property
    def duplicates_in_bank(self) -> int:
        return sum(1 for d in self.duplicates if d.in_bank)


@dataclass
class ImportResult:
    plan: ImportPlan
    added: int
    dry_run: bool


# --------------------------------------------------------------------------- parsing


def parse_file(
    data: bytes, *, fmt: str = "auto", category_default: str | None = None
) -> ParsedFile:
    """Turn file bytes into validated questions and row errors; never touches the bank."""
    if fmt not in FORMATS:
        raise ImportFileError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if len(data) > MAX_FILE_BYTES:
        raise ImportFileError(f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFileError(f"file is not UTF-8 text (byte {exc.start})") from None
    default = clean_text(category_default or "")
    if fmt == "csv" or (fmt == "auto" and not text.lstrip().startswith(("{", "["))):
        return _parse_csv(text, default)
    return _parse_opentdb_json(text, fmt, default)


def _parse_opentdb_json(text: str, fmt: str, category_default: str) -> ParsedFile:
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFileError(
            f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    declared: str | None = None
    if isinstance(payload, dict):
        if not isinstance(payload.get("results"), list):
            raise ImportFileError('JSON object has no "results" list (OpenTDB envelope expected)')
        declared = payload.get("encoding") if isinstance(payload.get("encoding"), str) else None
        records = payload["results"]
    elif isinstance(payload, list):
        records = payload
    else:
        raise ImportFileError("JSON must be an OpenTDB envelope or a list of questions")

    encoding = _choose_encoding(fmt, declared, records)
    decode = _DECODERS[encoding]
    parsed = ParsedFile(format_label=f"OpenTDB JSON ({_ENCODING_LABELS[encoding]})", total_rows=0)
    for row, record in enumerate(records, start=1):
        parsed.total_rows += 1
        try:
            parsed.questions.append(_question_from_opentdb(row, record, decode, category_default))
        except RowProblem as problem:
            parsed.invalid.append(RowError(row, str(problem)))
    return parsed


def _choose_encoding(fmt: str, declared: str | None, records: Sequence[Any]) -> Encoding:
    forced: dict[str, Encoding] = {
        "opentdb-html": "html",
        "opentdb-plain": "plain",
        "opentdb-base64": "base64",
        "opentdb-url3986": "url3986",
    }
    if fmt in forced:
        return forced[fmt]
    if declared in {"none", "plain"}:
        return "plain"
    if declared in {"html", "base64", "url3986"}:
        return declared  # type: ignore[return-value]
    return _detect_encoding(records)


def _detect_encoding(records: Sequence[Any]) -> Encoding:
    """Guess OpenTDB's encoding from a sample of records.

    base64 encodes even the ``type`` field; url3986 turns every space into %20, so its
    question texts contain no spaces but do contain percent escapes. Anything else is
    the API default, HTML entities (unescaping plain text is harmless unless it holds
    a literal entity, which is why our own export declares ``"encoding": "none"``).
    """
    sample = [r for r in records[:50] if isinstance(r, dict)]
    if any(r.get("type") in _BASE64_TYPES for r in sample):
        return "base64"
    questions = [q for r in sample if isinstance(q := r.get("question"), str)]
    if (
        questions
        and not any(" " in q for q in questions)
        and any(_PERCENT_ESCAPE.search(q) for q in questions)
    ):
        return "url3986"
    return "html"


def _decode_base64(value: str) -> str:
    try:
        return base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise RowProblem(f"{value[:30]!r} is not valid base64 text") from None


def _decode_url3986(value: str) -> str:
    try:
        return urllib.parse.unquote(value, errors="strict")
    except UnicodeDecodeError:
        raise RowProblem(f"{value[:30]!r} is not valid percent-encoded UTF-8") from None


_DECODERS: dict[Encoding, Callable[[str], str]] = {
    "html": html.unescape,
    "plain": lambda value: value,
    "base64": _decode_base64,
    "url3986": _decode_url3986,
}
_ENCODING_LABELS: dict[Encoding, str] = {
    "html": "HTML entities",
    "plain": "plain text",
    "base64": "base64",
    "url3986": "url3986",
}


def _question_from_opentdb(
    row: int, record: Any, decode: Callable[[str], str], category_default: str
) -> ParsedQuestion:
    if not isinstance(record, dict):
        raise RowProblem("record is not a JSON object")

    def text_field(name: str) -> str:
        if name not in record:
            raise RowProblem(f"missing field {name!r}")
        value = record[name]
        if not isinstance(value, str):
            raise RowProblem(f"field {name!r} is not a string")
        return clean_text(decode(value))

    wrong_raw = record.get("incorrect_answers")
    if "incorrect_answers" not in record:
        raise RowProblem("missing field 'incorrect_answers'")
    if not isinstance(wrong_raw, list) or not all(isinstance(a, str) for a in wrong_raw):
        raise RowProblem("field 'incorrect_answers' is not a list of strings")
    category = text_field("category") if "category" in record else ""
    question = _finish_question(
        row,
        category=category or category_default,
        type_=text_field("type"),
        difficulty=text_field("difficulty"),
        text=text_field("question"),
        correct=text_field("correct_answer"),
        wrong=[clean_text(decode(a)) for a in wrong_raw],
    )
    return _with_rating(question, record.get("rating"), record.get("rated_answers"))


def _with_rating(question: ParsedQuestion, rating: object, rated_answers: object) -> ParsedQuestion:
    """The question with the learned rating a file gives (JSON numbers, or CSV text; absent
    or empty: none), refused when it is no number of ours."""
    if rating is None or rating == "":
        return question
    try:
        value = float(rating) if isinstance(rating, int | float | str) else math.nan
        answers = 0 if rated_answers in (None, "") else _whole_number(rated_answers)
    except ValueError:
        raise RowProblem("rating or rated_answers is not a number") from None
    if isinstance(rating, bool) or not RATING_RANGE[0] <= value <= RATING_RANGE[1]:
        raise RowProblem(f"rating {str(rating)[:20]!r} is not a rating")
    if answers < 0:
        raise RowProblem("rated_answers is negative")
    return replace(question, rating=value, rated_answers=answers)


def _whole_number(value: object) -> int:
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    raise ValueError(value)


def _finish_question(
    row: int,
    *,
    category: str,
    type_: str,
    difficulty: str,
    text: str,
    correct: str,
    wrong: list[str],
) -> ParsedQuestion:
    """Checks every source shares: category, type, difficulty and completeness."""
    if not category:
        raise RowProblem("missing category (give a default category to use one)")
    if len(category) > MAX_CATEGORY_LENGTH:
        raise RowProblem(f"category name is longer than {MAX_CATEGORY_LENGTH} characters")
    if NUL in category:
        raise RowProblem("category name holds a NUL character")
    type_ = type_.lower()
    if type_ not in _TYPES:
        raise RowProblem(f"unknown type {type_!r} (expected multiple or boolean)")
    difficulty = difficulty.lower()
    if difficulty not in _DIFFICULTIES:
        raise RowProblem(f"unknown difficulty {difficulty!r} (expected easy, medium or hard)")
    if type_ == Question.Type.BOOLEAN:
        correct, wrong = _canonical_boolean(correct, wrong)
    problems = question_problems(
        text=text, type=type_, correct_answer=correct, incorrect_answers=wrong
    )
    if problems:
        raise RowProblem(" ".join(problems.values()))
    return ParsedQuestion(
        row=row,
        category=category,
        type=type_,
        difficulty=difficulty,
        text=text,
        correct_answer=correct,
        incorrect_answers=tuple(wrong),
        fingerprint=question_fingerprint(text, correct),
    )


def _canonical_boolean(correct: str, wrong: list[str]) -> tuple[str, list[str]]:
    """Spell True/False the one way the game shows them; fill a blank wrong answer."""
    by_fold = {a.casefold(): a for a in BOOLEAN_ANSWERS}
    correct = by_fold.get(correct.casefold(), correct)
    wrong = [by_fold.get(a.casefold(), a) for a in wrong if a]
    if not wrong and correct in BOOLEAN_ANSWERS:
        wrong = [a for a in BOOLEAN_ANSWERS if a != correct]
    return correct, wrong


def _parse_csv(text: str, category_default: str) -> ParsedFile:
    rows = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [clean_text(h).lower() for h in next(rows)]
    except StopIteration:
        raise ImportFileError("the file is empty") from None
    except csv.Error as exc:
        raise ImportFileError(f"not a readable CSV file ({exc})") from None
    if set(ANANDJOSHI_HEADER) <= set(header) and "options" in header:
        build, label = _question_from_options_row, "CSV (id, category, question, options …)"
    elif set(header) >= _CSV_REQUIRED:
        build, label = _question_from_documented_row, "CSV (documented header)"
    else:
        raise ImportFileError(
            "unrecognised file: expected OpenTDB JSON or a CSV header "
            f"{','.join(CSV_HEADER)} (got {','.join(header)[:120]})"
        )
    parsed = ParsedFile(format_label=label, total_rows=0)
    for row, values in _numbered_csv_rows(rows):
        parsed.total_rows += 1
        try:
            if len(values) != len(header):
                raise RowProblem(f"expected {len(header)} fields, found {len(values)}")
            record = dict(zip(header, values, strict=True))
            parsed.questions.append(build(row, record, category_default))
        except RowProblem as problem:
            reason = str(problem)
            if "id" in header and values and values[0].strip():
                reason = f"(id {values[0].strip()[:20]}) {reason}"
            parsed.invalid.append(RowError(row, reason))
    return parsed


def _numbered_csv_rows(rows: Iterator[list[str]]) -> Iterator[tuple[int, list[str]]]:
    """Data rows with their spreadsheet row number; blank lines are skipped silently."""
    row = 1
    while True:
        try:
            values = next(rows)
        except StopIteration:
            return
        except csv.Error as exc:
            raise ImportFileError(f"CSV is malformed after row {row} ({exc})") from None
        row += 1
        if values and any(v.strip() for v in values):
            yield row, values


def _csv_cell(value: str) -> str:
    if value.startswith(CSV_FORMULA_GUARD) and value[1:].startswith(CSV_FORMULA_STARTS):
        value = value[1:]
    return clean_text(value)


def _question_from_documented_row(
    row: int, record: dict[str, str], category_default: str
) -> ParsedQuestion:
    wrong = [_csv_cell(record.get(f"incorrect_answer_{n}", "")) for n in (1, 2, 3)]
    question = _finish_question(
        row,
        category=_csv_cell(record.get("category", "")) or category_default,
        type_=clean_text(record["type"]),
        difficulty=clean_text(record["difficulty"]),
        text=_csv_cell(record["question"]),
        correct=_csv_cell(record["correct_answer"]),
        wrong=[a for a in wrong if a],
    )
    rating, answers = (clean_text(record.get(name, "")) for name in RATING_COLUMNS)
    return _with_rating(question, rating, answers)


def _question_from_options_row(
    row: int, record: dict[str, str], category_default: str
) -> ParsedQuestion:
    options = [clean_text(o) for o in _OPTION_SEPARATOR.split(record["options"].strip())]
    correct = clean_text(record["correct_answer"])
    folded = [o.casefold() for o in options]
    if sorted(folded) == ["false", "true"]:
        type_ = Question.Type.BOOLEAN.value
    elif len(options) == 4:
        type_ = Question.Type.MULTIPLE.value
    else:
        raise RowProblem(
            f"options hold {len(options)} choices separated by ' | ', expected 4 or True | False "
            "(an answer may itself contain ' | ')"
        )
    if correct.casefold() not in folded:
        raise RowProblem(f"the right answer {correct[:40]!r} is not among the options")
    # Keep the option spelling for the right answer; drop it from the wrong ones once.
    position = folded.index(correct.casefold())
    correct = options[position]
    wrong = options[:position] + options[position + 1 :]
    return _finish_question(
        row,
        category=clean_text(record["category"]) or category_default,
        type_=type_,
        difficulty=clean_text(record["difficulty"]),
        text=clean_text(record["question"]),
        correct=correct,
        wrong=wrong,
    )


# --------------------------------------------------------------------------- planning


def _chunks(items: Sequence[Any], size: int = BATCH_SIZE) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def plan_import(parsed: ParsedFile) -> ImportPlan:
    """Split parsed questions into new ones and duplicates (in the file or in the bank).

    One query per 500 fingerprints, never one per row.
    """
    first_row: dict[str, int] = {}
    unique: list[ParsedQuestion] = []
    duplicates: list[Duplicate] = []
    for question in parsed.questions:
        if question.fingerprint in first_row:
            first = first_row[question.fingerprint]
            duplicates.append(Duplicate(question.row, question.text, first))
        else:
            first_row[question.fingerprint] = question.row
            unique.append(question)
    in_bank: set[str] = set()
    for chunk in _chunks([q.fingerprint for q in unique]):
        in_bank.update(
            Question.objects.filter(fingerprint__in=chunk).values_list("fingerprint", flat=True)
        )
    to_add = [q for q in unique if q.fingerprint not in in_bank]
    duplicates.extend(Duplicate(q.row, q.text, None) for q in unique if q.fingerprint in in_bank)
    duplicates.sort(key=lambda d: d.row)
    return ImportPlan(
        format_label=parsed.format_label,
        total_rows=parsed.total_rows,
        to_add=to_add,
        duplicates=duplicates,
        invalid=parsed.invalid,
    )


# --------------------------------------------------------------------------- writing


def _category_ids(names: Iterable[str]) -> dict[str, int]:
    """Map category names to ids, creating missing ones in bulk.

    Matching ignores case so "Science & Nature" from two files is one category. The
    category table is small (dozens of rows), so it is read whole in one query.
    """
    existing = {name.casefold(): pk for pk, name in Category.objects.values_list("pk", "name")}
    missing: dict[str, str] = {}
    for name in names:
        if name.casefold() not in existing:
            missing.setdefault(name.casefold(), name)
    if missing:
        Category.objects.bulk_create([Category(name=n) for n in missing.values()])
        existing = {name.casefold(): pk for pk, name in Category.objects.values_list("pk", "name")}
    return existing


def apply_plan(plan: ImportPlan, *, source: str, active: bool = True) -> int:
    """Write the plan's new questions in batches; returns how many were added."""
    category_ids = _category_ids(q.category for q in plan.to_add)
    source = source[: Question._meta.get_field("source").max_length]
    for chunk in _chunks(plan.to_add):
        Question.objects.bulk_create(
            [
                Question(
                    category_id=category_ids[q.category.casefold()],
                    text=q.text,
                    type=q.type,
                    difficulty=q.difficulty,
                    correct_answer=q.correct_answer,
                    incorrect_answers=list(q.incorrect_answers),
                    active=active,
                    source=source,
                    fingerprint=q.fingerprint,
                    # bulk_create skips Question.save(), which seeds the label's rating.
                    rating=RATING_SEEDS[q.difficulty] if q.rating is None else q.rating,
                    rated_answers=q.rated_answers,
                )
                for q in chunk
            ]
        )
    if plan.to_add:
        question_pools_changed()  # bulk_create sends no signal
    return len(plan.to_add)


def import_questions(
    data: bytes,
    *,
    fmt: str = "auto",
    category_default: str | None = None,
    source: str = "import",
    dry_run: bool = False,
) -> ImportResult:
    """Parse, de-duplicate and (unless dry_run) write a file in one transaction.

    Raises ImportFileError when the file as a whole is unreadable.
    """
    parsed = parse_file(data, fmt=fmt, category_default=category_default)
    if dry_run:
        return ImportResult(plan=plan_import(parsed), added=0, dry_run=True)
    with transaction.atomic():
        # Planning inside the transaction keeps the duplicate check and the inserts
        # consistent with each other.
        plan = plan_import(parsed)
        added = apply_plan(plan, source=source)
    return ImportResult(plan=plan, added=added, dry_run=False)


def summary_lines(result: ImportResult, *, max_rows: int = 50) -> list[str]:
    """Human summary shared by the commands: counts, then each invalid row."""
    plan = result.plan
    added = len(plan.to_add) if result.dry_run else result.added
    verb = "would add" if result.dry_run else "added"
    lines = [
        f"{plan.format_label}: {plan.total_rows} records",
        f"  {verb}: {added}",
        f"  duplicates skipped: {len(plan.duplicates)} "
        f"({plan.duplicates_in_file} within the file, "
        f"{plan.duplicates_in_bank} already in the bank)",
        f"  invalid: {len(plan.invalid)}",
    ]
    lines += [f"    row {e.row}: {e.reason}" for e in plan.invalid[:max_rows]]
    if len(plan.invalid) > max_rows:
        lines.append(f"    … and {len(plan.invalid) - max_rows} more invalid rows")
    if result.dry_run:
        lines.append("Dry run: nothing was written.")
    elif not added:
        lines.append("Nothing new: every valid question is already in the bank.")
    return lines
