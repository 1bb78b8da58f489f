"""Helpers shared by the trivia tests (fixtures live in conftest.py)."""

from __future__ import annotations

from pathlib import Path

# Small import files written for these tests (the real dumps are read from ../shared).
FIXTURES = Path(__file__).resolve().parent / "fixtures"
