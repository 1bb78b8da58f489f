"""Selection, answer order, answer counts and reports: the API the game calls."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.trivia.factories import QuestionFactory, UserFactory
from trivia.models import Question, QuestionReport
from trivia.services import (
    NoQuestionsAvailable,
    choose_question,
    record_answer,
    report_question,
    shuffled_answers,
)

pytestmark = pytest.mark.django_db


def test_never_repeats_until_exhausted_then_starts_over(seeded_rng: random.Random) -> None:
    easy = {q.pk for q in QuestionFactory.create_batch(7, difficulty="easy")}
    QuestionFactory.create_batch(3, difficulty="hard")
    QuestionFactory(difficulty="easy", active=False)
    asked: list[int] = []
    for _ in range(7):
        asked.append(choose_question(difficulty="easy", asked_ids=asked, rng=seeded_rng).pk)
    assert sorted(asked) == sorted(easy)  # each active easy question exactly once
    again = choose_question(difficulty="easy", asked_ids=asked, rng=seeded_rng)
    assert again.pk in easy  # exhausted: starts over among all active easy questions


def test_accepts_a_queryset_of_asked_ids(seeded_rng: random.Random) -> None:
    first, second = QuestionFactory.create_batch(2, difficulty="medium")
    asked = Question.objects.filter(pk=first.pk).values_list("pk", flat=True)
    assert choose_question(difficulty="medium", asked_ids=asked, rng=seeded_rng) == second


def test_every_question_can_be_chosen(seeded_rng: random.Random) -> None:
    pks = {q.pk for q in QuestionFactory.create_batch(4, difficulty="hard")}
    seen = {choose_question(difficulty="hard", asked_ids=[], rng=seeded_rng).pk for _ in range(80)}
    assert seen == pks


def test_no_active_questions_is_a_clear_error() -> None:
    QuestionFactory(difficulty="hard", active=False)
    QuestionFactory(difficulty="easy")
    with pytest.raises(NoQuestionsAvailable, match="'hard'"):
        choose_question(difficulty="hard", asked_ids=[])


def test_unknown_difficulty_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        choose_question(difficulty="extreme", asked_ids=[])


@pytest.mark.parametrize("bank_size", [5, 60])
def test_selection_query_count_does_not_grow(
    bank_size: int, django_assert_max_num_queries, seeded_rng: random.Random
) -> None:
    QuestionFactory.create_batch(bank_size, difficulty="easy")
    asked = list(Question.objects.values_list("pk", flat=True)[: bank_size - 1])
    with django_assert_max_num_queries(3):  # the bank's stamp, its id list, the pick
        choose_question(difficulty="easy", asked_ids=asked, rng=seeded_rng)
    with django_assert_max_num_queries(4):  # exhausted: count, count, fetch
        choose_question(difficulty="easy", asked_ids=list(range(1, 10_000)), rng=seeded_rng)


def test_selection_sql_uses_offset_not_random_order(seeded_rng: random.Random) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    QuestionFactory.create_batch(3)
    with CaptureQueriesContext(connection) as ctx:
        choose_question(difficulty="easy", asked_ids=[], rng=seeded_rng)
    sql = " ".join(q["sql"].upper() for q in ctx.captured_queries)
    assert "RANDOM()" not in sql and "RAND()" not in sql
    assert "OFFSET" in sql or "LIMIT" in sql


def test_answer_order_is_shuffled_once_and_reproducible() -> None:
    question = QuestionFactory(correct_answer="Right", incorrect_answers=["A", "B", "C"])
    first = shuffled_answers(question, rng=random.Random(7))
    assert sorted(first) == ["A", "B", "C", "Right"]
    # The same attempt (same seed, i.e. the stored order) shows the same order on reload.
    assert shuffled_answers(question, rng=random.Random(7)) == first
    orders = {tuple(shuffled_answers(question, rng=random.Random(s))) for s in range(30)}
    assert len(orders) > 1  # it really shuffles


def test_boolean_answers_keep_fixed_order() -> None:
    question = QuestionFactory(boolean=True)
    assert shuffled_answers(question, rng=random.Random(1)) == ["True", "False"]
    question.correct_answer, question.incorrect_answers = "False", ["True"]
    assert shuffled_answers(question) == ["True", "False"]


def test_default_rng_is_system_random() -> None:
    question = QuestionFactory()
    assert len(shuffled_answers(question)) == 4
    assert choose_question(difficulty="easy", asked_ids=[]) == question


def test_record_answer_uses_database_increments() -> None:
    question = QuestionFactory()
    stale = Question.objects.get(pk=question.pk)
    record_answer(question.pk, correct=True)
    record_answer(question.pk, correct=False)
    record_answer(question.pk, correct=True)
    question.refresh_from_db()
    assert (question.times_asked, question.times_correct) == (3, 2)
    assert stale.times_asked == 0  # nothing read-modify-written through Python


def test_report_question() -> None:
    question = QuestionFactory()
    user = UserFactory()
    report = report_question(question=question, user=user, reason="ambiguous", note="  Two fit. ")
    assert (report.reporter, report.reason, report.note, report.resolved) == (
        user,
        "ambiguous",
        "Two fit.",
        False,
    )
    from django.contrib.auth.models import AnonymousUser

    anonymous = report_question(question=question, user=AnonymousUser(), reason="other")
    assert anonymous.reporter is None
    with pytest.raises(ValueError):
        report_question(question=question, user=user, reason="boring")
    assert QuestionReport.objects.count() == 2


def test_no_stdlib_random_in_production_code() -> None:
    trivia = Path(__file__).resolve().parents[2] / "trivia"
    for source in trivia.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        assert "import random" not in text and "from random import" not in text, source
