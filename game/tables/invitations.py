"""A private table's invitation as this browser holds it (T-1): the tokens of the invitation
links it opened, kept in its session.

The session is the browser's, not the account's, so the tokens are kept across a login in
that browser: Django's ``login()`` flushes the session when its user changes (a guest
logging in to an account) or when the user's password does (a guest signing up), and the
invitation went with it. The views that log someone in do it inside
``kept_through_login``, which puts the tokens the session held back into the new session.
A logout flushes them for good (nobody is logged in after it), and the table still checks
each token against its current link (``grants``): a renewed link ends the old one's access
however the token was kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

SESSION_KEY = "table_invites"
KEPT = 20  # the newest tokens a session keeps


def held(session: Any) -> list[str]:
    """The invitation tokens this session holds, oldest first."""
    tokens = session.get(SESSION_KEY, [])
    return [token for token in tokens if isinstance(token, str)] if isinstance(tokens, list) else []


def remember(session: Any, token: str) -> None:
    """The browser opened the invitation link ``token``: keep it (the newest ``KEPT``)."""
    others = [kept for kept in held(session) if kept != token]
    session[SESSION_KEY] = [*others[-(KEPT - 1) :], token]


def grants(session: Any, invite_token: str) -> bool:
    """Whether this session opened the table's current invitation link."""
    return bool(invite_token) and invite_token in held(session)


@contextmanager
def kept_through_login(session: Any) -> Iterator[None]:
    """Keep the invitation tokens ``session`` holds through a login run inside: Django's
    ``login()`` flushes the session when its user or password changes (a guest logging in
    to an account, a guest signing up), and the browser's invitations must survive it."""
    before = held(session)
    yield
    kept = held(session)
    missing = [token for token in before if token not in kept]
    if missing:
        session[SESSION_KEY] = [*missing, *kept][-KEPT:]
