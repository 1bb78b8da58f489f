"""A new staff user imports a real Open Trivia Database dump through the admin in Chromium."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from trivia.models import Question

pytestmark = pytest.mark.django_db(transaction=True)

SHARED_DUMP = (
    Path(__file__).resolve().parents[2].parent
    / "shared"
    / "data"
    / "trivia"
    / "opentdb-leakyhose-4738.json"
)
PASSWORD = "felt-table-42-Aces"


@pytest.fixture
def staff_user():
    user = get_user_model().objects.create_user("curator", password=PASSWORD, is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(
            codename__in=["add_question", "view_question", "change_question"]
        )
    )
    return user


def upload(page, path: Path) -> None:
    page.goto("/admin/trivia/question/")
    page.get_by_role("link", name="Import questions").click()
    page.locator("input[type=file]").set_input_files(str(path))
    page.get_by_role("button", name="Preview").click()


def test_staff_imports_a_dump_with_preview_then_confirm(page, staff_user) -> None:
    from playwright.sync_api import expect

    if not SHARED_DUMP.exists():
        pytest.skip(f"shared trivia dumps not present at {SHARED_DUMP.parent}")
    page.goto("/admin/login/?next=/admin/trivia/question/")
    page.get_by_label("Username").fill("curator")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    upload(page, SHARED_DUMP)
    expect(page.locator("#count-add")).to_have_text("4736")
    expect(page.locator("#count-duplicates")).to_have_text("2")
    assert Question.objects.count() == 0, "nothing is written at the preview"

    # Writing 4,736 questions takes a second or two alone, far longer on a loaded 2-core
    # machine: the navigation it waits for gets a minute, not Playwright's default 10 s.
    confirm = page.get_by_role("button", name=re.compile(r"^Confirm: add 4736 questions"))
    confirm.click(timeout=60_000)
    expect(page.locator("li.success")).to_contain_text("Imported 4736 questions", timeout=60_000)
    assert Question.objects.filter(active=True).count() == 4736
    for difficulty in ("easy", "medium", "hard"):
        assert Question.objects.filter(difficulty=difficulty, active=True).exists()

    # Re-importing the same file adds nothing.
    upload(page, SHARED_DUMP)
    expect(page.locator("#count-add")).to_have_text("0")
    assert Question.objects.count() == 4736
