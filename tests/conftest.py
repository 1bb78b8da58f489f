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
    """Each test starts with an empty cache: ids the trivia pools cached, or sessions, from
    another test's rolled-back rows must not leak into it."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
