"""Fixtures shared by the whole suite."""

from __future__ import annotations

import random

import pytest


@pytest.fixture
def seeded_rng() -> random.Random:
    """A deterministic generator for tests; production uses secrets.SystemRandom."""
    return random.Random(20261121)


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache and no question pools kept: sessions, or the
    trivia ids a process keeps, from another test's rolled-back rows must not leak into it
    (SQLite reuses a rolled-back row's id)."""
    from django.core.cache import cache

    from trivia.services import forget_question_pools

    cache.clear()
    forget_question_pools()
    yield
    cache.clear()
    forget_question_pools()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked postgres_only (several processes sharing one PostgreSQL database) do
    not apply to the SQLite pass: they are deselected there, not skipped, so a skip always
    means something is missing."""
    from django.conf import settings

    if "postgresql" in settings.DATABASES["default"]["ENGINE"]:
        return
    kept = [item for item in items if item.get_closest_marker("postgres_only") is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept
