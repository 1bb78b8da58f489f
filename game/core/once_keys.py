"""One-time keys: a double click on a form that creates something creates it once.

Play now (a visitor's guest account), New Game, Create Table and Sign up each create
something, and pressing one twice, or twenty parallel posts of one form, must create it
once. Their forms carry a hidden ``once_key`` made when the page was rendered
(``{% once_key_field kind %}``, game/templatetags/once_keys.py): a random value signed
for its kind with the site's SECRET_KEY (django.core.signing), so it cannot be made up
nor carried from one kind of form to another. The first submission stores the random
part (``OnceKey``, unique per kind) in the transaction that creates; a repeat of the
same submission finds it and answers as the first did (the same game, table or account)
instead of making another.

A post without a key, or with one this site did not sign for that form, is answered
400 with a page that says it has expired and offers the form again (FormExpired). A
repeat that would log the browser in (a guest's Play now, Sign up) is honoured only
within ``REPEAT_WINDOW`` of the first submission: the time a double click or a retried
post takes, not a lasting way into the account.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any, TypeVar

from django.core import signing
from django.db.models import Model, QuerySet
from django.utils import timezone

from game.core.errors import FormExpired
from game.models import OnceKey

FIELD = "once_key"
Kind = OnceKey.Kind
Made = TypeVar("Made", bound=Model)
# How long after the first submission a repeat may still be logged in with its account.
REPEAT_WINDOW = timedelta(minutes=10)
# A signed key is ~80 characters; anything much longer is not one.
_MAX_POSTED_LENGTH = 200


def _signer(kind: str) -> signing.Signer:
    return signing.Signer(salt=f"once-key:{kind}")


def issue(kind: str) -> str:
    """A new key for one rendering of a ``kind`` form (the hidden field's value)."""
    return _signer(kind).sign(secrets.token_urlsafe(24))


def read(kind: str, posted: str | None) -> str:
    """The random part of a posted key; FormExpired when it is missing or not one this
    site signed for a ``kind`` form."""
    if not posted or len(posted) > _MAX_POSTED_LENGTH:
        raise FormExpired(f"no {kind} key posted")
    try:
        return _signer(kind).unsign(posted)
    except signing.BadSignature:
        raise FormExpired(f"not a {kind} key") from None


def used(kind: str, key: str) -> OnceKey | None:
    """The first submission's record of ``key``, if one was made."""
    return OnceKey.objects.filter(kind=kind, key=key).first()


def within_repeat_window(record: OnceKey) -> bool:
    """Whether a repeat of ``record``'s submission may still be answered as the first."""
    return timezone.now() - record.created <= REPEAT_WINDOW


def made_for(record: OnceKey, user: Any, theirs: QuerySet[Made]) -> Made:
    """What the first submission of ``record``'s key made, for ``user``'s repeat of it:
    looked up among ``theirs`` (the user's own games, tables…). FormExpired when the key was
    stored by another player or what it made is gone."""
    made = None
    if record.made_id is not None and record.user_id == user.pk:
        made = theirs.filter(pk=record.made_id).first()
    if made is None:
        raise FormExpired(f"a {record.kind} key of another player's, or of something since removed")
    return made
