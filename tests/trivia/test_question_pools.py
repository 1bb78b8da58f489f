"""Each process keeps the active id lists it read while the bank's stamp stays the same
(trivia.services): no list read per pick; a change to the bank — made here or in
another process, through the app — gives the bank a new stamp in the database, in the
change's own transaction, and the next pick that reads it reads the lists afresh."""

from __future__ import annotations

import pytest
from django.db import transaction

from tests.trivia.factories import QuestionFactory
from trivia import services
from trivia.models import Question, QuestionPoolStamp

pytestmark = pytest.mark.django_db


def _stamp() -> str:
    return services.read_pool_stamp()


def test_a_pool_read_once_is_kept_until_the_bank_changes(django_assert_num_queries) -> None:
    first = QuestionFactory(difficulty="easy")
    assert services.active_question_ids("easy") == [first.pk]
    stamp = _stamp()
    with django_assert_num_queries(0):  # the caller read the stamp (a game: with its lock)
        assert services.active_question_ids("easy", stamp) == [first.pk]
    with django_assert_num_queries(1):  # the stamp, not the list
        assert services.active_question_ids("easy") == [first.pk]
    second = QuestionFactory(difficulty="easy")  # saved: a new stamp
    assert _stamp() != stamp
    assert services.active_question_ids("easy") == [first.pk, second.pk]


def test_another_process_changing_the_bank_is_seen(django_assert_num_queries) -> None:
    question = QuestionFactory(difficulty="hard")
    assert services.active_question_ids("hard") == [question.pk]
    # What question_pools_changed() in another process leaves here: this process still
    # holds its list; the stamp in the database is new.
    Question.objects.filter(pk=question.pk).update(active=False)  # no signal
    QuestionPoolStamp.objects.update(stamp="changed elsewhere")
    with django_assert_num_queries(2):  # the stamp, then the list
        assert services.active_question_ids("hard") == []


def test_a_change_rolled_back_keeps_the_stamp() -> None:
    QuestionFactory(difficulty="easy")
    before = _stamp()
    with pytest.raises(RuntimeError), transaction.atomic():
        QuestionFactory(difficulty="easy")
        assert _stamp() != before
        raise RuntimeError("the import failed")
    assert _stamp() == before


def test_a_missing_stamp_row_is_made_again() -> None:
    QuestionPoolStamp.objects.all().delete()  # as a flushed database leaves it
    assert _stamp() == ""
    question = QuestionFactory(difficulty="medium")
    assert _stamp() != ""
    assert services.active_question_ids("medium") == [question.pk]


def test_a_list_is_read_again_after_its_time(monkeypatch, django_assert_num_queries) -> None:
    question = QuestionFactory(difficulty="easy")
    stamp = _stamp()
    now = [1_000.0]
    monkeypatch.setattr(services.time, "monotonic", lambda: now[0])
    assert services.active_question_ids("easy", stamp) == [question.pk]
    # A write that bypassed the app (no signal, no new stamp) is seen once the list is old.
    Question.objects.filter(pk=question.pk).update(active=False)
    now[0] += services.POOL_TIMEOUT_SECONDS - 1
    assert services.active_question_ids("easy", stamp) == [question.pk]
    now[0] += 1
    with django_assert_num_queries(1):
        assert services.active_question_ids("easy", stamp) == []
