"""Helpers shared by the browser tests (fixtures live in conftest.py)."""

from __future__ import annotations


def csp_violations(page) -> list[str]:
    """Collect what Chromium reports as blocked by the Content-Security-Policy."""
    found: list[str] = []

    def on_console(message) -> None:
        if "Content Security Policy" in message.text:
            found.append(f"{page.url}: {message.text}")

    page.on("console", on_console)
    return found
