"""The bench's query counter (bench/bench_site/query_counter.py): it counts a connection's
queries, and it does not keep the connection wrapper alive (under ASGI each request has a
wrapper of its own: kept, thousands would pile up in every worker for its garbage
collections to walk, and the benchmark would measure its own counter)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.signals import connection_created

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture
def query_counter(monkeypatch: pytest.MonkeyPatch):
    # bench_site is not on the project's path: only the benchmark loads it.
    monkeypatch.syspath_prepend(str(BENCH))
    from bench_site import query_counter

    query_counter.install()
    return query_counter


def counted_wrapper():
    wrapper = connections.create_connection(DEFAULT_DB_ALIAS)
    connection_created.send(sender=type(wrapper), connection=wrapper)
    return wrapper


def request_queries(query_counter) -> int:
    # The test's thread is no stream's: its queries count as a request's.
    return query_counter.counts()["requests"]


@pytest.mark.django_db
def test_a_new_connection_counts_its_queries_once_however_often_it_connects(query_counter):
    wrapper = counted_wrapper()
    # A pooled or re-opened connection sends the signal again on the same wrapper.
    connection_created.send(sender=type(wrapper), connection=wrapper)
    before = request_queries(query_counter)
    try:
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT 1")
    finally:
        wrapper.close()
    assert request_queries(query_counter) == before + 1


def test_a_counted_connection_wrapper_goes_with_its_last_reference(query_counter):
    wrapper = counted_wrapper()
    gone = weakref.ref(wrapper)
    del wrapper
    gc.collect()
    assert gone() is None
