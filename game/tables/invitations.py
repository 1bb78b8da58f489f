"""A private table's invitation as this browser holds it (T-1): the tokens of the invitation
links it opened, kept in its session.

The session is the browser's, not the account's, so the tokens are kept across a login in
that browser: Django's ``login()`` flushes the session when its user changes (a guest
logging in to an account) or when the user's password does (a guest signing up), and the
invitation went with it. ``KeepInvitationsAcrossLogin`` puts the tokens the session held
before such a request back into the new session. A logout flushes them for good (nobody
is logged in after it), and the table still checks each token against its current link
(``grants``): a renewed link ends the old one's access however the token was kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse

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


class KeepInvitationsAcrossLogin:
    """Middleware: the invitations a session held before a request that logged someone in
    (sign-up, log in, Play as guest) are in the session after it, though ``login()``
    flushed it. Only posts log in; other requests pass untouched."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST":
            return self.get_response(request)
        before = held(request.session)
        response = self.get_response(request)
        if before and request.user.is_authenticated:
            kept = held(request.session)
            missing = [token for token in before if token not in kept]
            if missing:
                request.session[SESSION_KEY] = [*missing, *kept][-KEPT:]
        return response
