"""Path converters that let through only values the database can hold.

Django's ``<int:…>`` takes any run of digits: an id past the 64-bit id column (SQLite
cannot even bind it) or a NUL byte in a ``<str:…>`` token (PostgreSQL refuses it in a
text parameter) would fail inside the query, a server error. These converters refuse
such a path at the URL instead, so it answers 404 like any id that matches no row.

Registered here, once, on import: every URLconf that names them imports this module.
"""

from __future__ import annotations

import re

from django.urls import register_converter

from trivia.models import ROW_ID_MAX

# The invitation token of a shared table: secrets.token_urlsafe(24) (new_invite_token,
# game/tables/models.py), 24 random bytes in unpadded URL-safe base64.
INVITE_TOKEN_PATTERN = "[A-Za-z0-9_-]{32}"

ROW_ID = "id"
INVITE_TOKEN = "invite_token"


class RowIdConverter:
    """A row id: ASCII digits without a leading zero (one spelling per id), 1 up to
    :data:`ROW_ID_MAX`."""

    regex = "[1-9][0-9]{0,18}"

    def to_python(self, value: str) -> int:
        return row_id(value)

    def to_url(self, value: int | str) -> str:
        return str(row_id(value))


class InviteTokenConverter:
    """A shared table's invitation token, exactly as new_invite_token makes them."""

    regex = INVITE_TOKEN_PATTERN

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        if not isinstance(value, str) or re.fullmatch(INVITE_TOKEN_PATTERN, value) is None:
            raise ValueError("not an invitation token")
        return value


def row_id(value: int | str) -> int:
    """``value`` as a row id; ValueError for anything the id column cannot hold."""
    if isinstance(value, bool):
        raise ValueError("not a row id")
    number = int(value)
    if not 1 <= number <= ROW_ID_MAX:
        raise ValueError("not a row id")
    return number


register_converter(RowIdConverter, ROW_ID)
register_converter(InviteTokenConverter, INVITE_TOKEN)
