"""Each process keeps the active id lists it read while the shared stamp stays the same
(trivia.services, issue 14): no query and no list read from the cache per pick; a change
to the bank (or another process forgetting the pools) is seen at the next pick."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.trivia.factories import QuestionFactory
from trivia import services

pytestmark = pytest.mark.django_db


def test_a_pool_read_once_is_kept_until_the_bank_changes(django_assert_num_queries) -> None:
    first = QuestionFactory(difficulty="easy")
    assert services.active_question_ids("easy") == [first.pk]
    with django_assert_num_queries(0):
        assert services.active_question_ids("easy") == [first.pk]
    second = QuestionFactory(difficulty="easy")  # saved: the pools are forgotten
    assert services.active_question_ids("easy") == [first.pk, second.pk]


def test_another_process_forgetting_the_pools_is_seen(django_assert_num_queries) -> None:
    question = QuestionFactory(difficulty="hard")
    assert services.active_question_ids("hard") == [question.pk]
    # What forget_question_pools() in another process leaves here: the stamp is gone
    # from the shared cache, this process still holds its list.
    cache.delete(services._STAMP_KEY)
    type(question).objects.filter(pk=question.pk).update(active=False)  # no signal
    with django_assert_num_queries(1):
        assert services.active_question_ids("hard") == []
