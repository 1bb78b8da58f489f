"""Fixtures for the trivia tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.trivia.helpers import FIXTURES


@pytest.fixture
def fixture_bytes():
    def read(name: str) -> bytes:
        return (FIXTURES / name).read_bytes()

    return read


@pytest.fixture(autouse=True)
def _trivia_test_settings(settings, tmp_path: Path) -> None:
    # Admin import previews stage uploads on disk; keep them out of the real temp dir.
    settings.TRIVIA_IMPORT_STAGING_DIR = tmp_path / "staging"
    # Factories set real passwords; the production hasher is deliberately slow.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
