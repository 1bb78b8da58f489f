"""The settings module is driven by environment variables and safe in production."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # The browser tests' DJANGO_ALLOW_ASYNC_UNSAFE must not leak into a production check.
    inherited = {"DEBUG", "SECRET_KEY", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    base_env = {k: v for k, v in os.environ.items() if k not in inherited}
    return subprocess.run(  # noqa: S603 - fixed argv, our own manage.py
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base_env, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_refuses_to_start_without_a_secret_key() -> None:
    result = run_manage("check", DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_deploy_check_is_clean_in_production() -> None:
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS="blackjack.example",
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_database_url_selects_the_database() -> None:
    result = run_manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres",
    )
    assert result.stdout.strip().splitlines()[-1] == "django.db.backends.postgresql"


def test_a_log_line_is_printed_once() -> None:
    # Django's "django" logger keeps a console handler of its own unless LOGGING replaces it;
    # with root's console handler as well, every django.* line used to print twice.
    result = run_manage(
        "shell",
        "-c",
        "import logging; logging.getLogger('django.request').error('log-once-marker')",
        DEBUG="1",
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("log-once-marker") == 1, result.stderr


def test_the_test_database_name_can_be_chosen_per_run() -> None:
    result = run_manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.DATABASES['default']['TEST']['NAME'])",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres",
        TEST_DATABASE_NAME="test_blackjack_ci_123",
    )
    assert result.stdout.strip().splitlines()[-1] == "test_blackjack_ci_123"
