"""Fixtures shared by the whole suite."""

from __future__ import annotations

import random

import pytest


@pytest.fixture
def seeded_rng() -> random.Random:
    """A deterministic generator for tests; production uses secrets.SystemRandom."""
    return random.Random(20261121)
