"""Helpers shared by the browser tests (fixtures live in conftest.py)."""

from __future__ import annotations

from typing import Any

PASSWORD = "felt-table-42-Aces"


def add_session(context: Any, user: Any, url: str) -> None:
    """Log ``context`` (every page of it) in as ``user``: a session made by Django's test
    client, its cookie handed to the browser. No form is filled and no password hashed."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": url}])


def start_new_game(page) -> None:
    """Press New Game and wait for the new table's page to load. The click returns once the
    page has started loading; a control pressed before its scripts run posts its plain form
    and reloads the page (the game still plays, without JavaScript), so nothing a script does
    (focus, animations, sounds) would follow."""
    page.get_by_role("button", name="New Game").click()
    page.wait_for_load_state()


def csp_violations(page) -> list[str]:
    """Collect what Chromium reports as blocked by the Content-Security-Policy."""
    found: list[str] = []

    def on_console(message) -> None:
        if "Content Security Policy" in message.text:
            found.append(f"{page.url}: {message.text}")

    page.on("console", on_console)
    return found


def site_nav(page):
    """The header's navigation as the screen shows it: on a phone the items behind Menu
    (opened here), on a wide screen the row of links."""
    menu = page.locator(".site-menu")
    if menu.locator("summary").is_visible():
        if menu.get_attribute("open") is None:
            menu.locator("summary").click()
        return menu.locator(".site-menu__list")
    return page.locator(".nav-list")
