"""A player signs up, lands on My games, logs out and logs back in, in Chromium."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "felt-table-42-Aces"


def sign_up(page, username: str) -> None:
    page.goto("/")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()


def test_sign_up_log_out_and_log_back_in(page, live_server) -> None:
    from playwright.sync_api import expect

    sign_up(page, "ada")
    expect(page).to_have_url(re.compile(r"/games/$"))
    expect(page.get_by_role("heading", name="My games")).to_be_visible()
    assert get_user_model().objects.filter(username="ada").exists()

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in").first).to_be_visible()

    page.goto("/games/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/games/"))
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/games/$"))
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def test_sign_up_shows_validator_errors(page) -> None:
    from playwright.sync_api import expect

    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill("bob")
    page.get_by_label("Password", exact=True).fill("123")
    page.get_by_label("Password confirmation").fill("123")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text("This password is too short", exact=False)).to_be_visible()
    assert not get_user_model().objects.filter(username="bob").exists()
