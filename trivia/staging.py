"""Keep an uploaded import file on the server between the admin preview and Confirm.

The preview never writes questions; Confirm re-reads this stored copy instead of
trusting anything the browser posts back, and only the session that uploaded it can
confirm it (the token lives in that session).
"""

from __future__ import annotations

import re
import secrets
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings

if TYPE_CHECKING:
    from django.contrib.sessions.backends.base import SessionBase

SESSION_KEY = "trivia_import_staged"
MAX_AGE_SECONDS = 24 * 60 * 60
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


def staging_dir() -> Path:
    configured = getattr(settings, "TRIVIA_IMPORT_STAGING_DIR", None)
    path = Path(configured) if configured else Path(tempfile.gettempdir()) / "trivia-imports"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _path_for(token: str) -> Path | None:
    # The token names a file, so only our own URL-safe tokens are accepted (no "../").
    if not _TOKEN.match(token):
        return None
    return staging_dir() / f"{token}.upload"


def _remove_stale() -> None:
    cutoff = time.time() - MAX_AGE_SECONDS
    for old in staging_dir().glob("*.upload"):
        try:
            if old.stat().st_mtime < cutoff:
                old.unlink()
        except OSError:
            continue  # another worker removed it first


def stage(session: SessionBase, data: bytes, meta: dict[str, str]) -> str:
    """Store the upload; returns the token the preview's Confirm button posts."""
    _remove_stale()
    token = secrets.token_urlsafe(24)
    path = _path_for(token)
    assert path is not None  # token_urlsafe(24) always matches _TOKEN
    path.write_bytes(data)
    staged = dict(session.get(SESSION_KEY, {}))
    staged[token] = meta
    session[SESSION_KEY] = staged
    return token


def load(session: SessionBase, token: str) -> tuple[bytes, dict[str, str]] | None:
    """The staged bytes and metadata, or None if the token is unknown to this session."""
    meta = session.get(SESSION_KEY, {}).get(token)
    path = _path_for(token)
    if meta is None or path is None or not path.exists():
        return None
    return path.read_bytes(), meta


def discard(session: SessionBase, token: str) -> None:
    staged = dict(session.get(SESSION_KEY, {}))
    staged.pop(token, None)
    session[SESSION_KEY] = staged
    path = _path_for(token)
    if path is not None:
        path.unlink(missing_ok=True)
