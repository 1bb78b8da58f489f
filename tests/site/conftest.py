"""Fixtures of the site tests: a player account, and a cache emptied around each test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from tests.site.helpers import PASSWORD


@pytest.fixture
def player(db) -> Any:
    return get_user_model().objects.create_user("ada", password=PASSWORD)


@pytest.fixture
def empty_cache() -> Iterator[None]:
    """Sessions and the cached user live in the cache: start and end each test without."""
    cache.clear()
    yield
    cache.clear()
