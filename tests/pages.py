"""Helpers for looking inside rendered pages."""

from __future__ import annotations

import re

# CSRF tokens are 64 random letters and digits, so a short string such as the card code "QH"
# turns up in one now and then. Tests that check a page does NOT hold something mask them first.
CSRF_TOKEN = re.compile(r"[A-Za-z0-9]{64}")


def without_csrf_tokens(html: str) -> str:
    return CSRF_TOKEN.sub("<csrf-token>", html)


def once_key(kind: str) -> dict[str, str]:
    """The hidden one-time key a form that creates something carries (game/core/once_keys.py:
    ``guest``, ``new_game``, ``table``, ``sign_up``), as its page renders a new one."""
    from game.core import once_keys

    return {once_keys.FIELD: once_keys.issue(kind)}
