"""The longest password an account may have: set by sign-up and every password change
(a password validator, settings.AUTH_PASSWORD_VALIDATORS), and beyond which the login
forms refuse a password as wrong without asking any backend (blackjack_site/forms.py)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

# Far beyond any password typed or kept in a password manager.
PASSWORD_MAX_LENGTH = 4096


class MaximumLengthValidator:
    """Refuses a password longer than ``max_length``, so no account has a password its
    owner could not log in with."""

    def __init__(self, max_length: int = PASSWORD_MAX_LENGTH) -> None:
        self.max_length = max_length

    def validate(self, password: str, user: Any = None) -> None:
        if len(password) > self.max_length:
            raise ValidationError(
                "This password is too long. It must contain at most %(max_length)d characters.",
                code="password_too_long",
                params={"max_length": self.max_length},
            )

    def get_help_text(self) -> str:
        return f"Your password can’t be longer than {self.max_length:,} characters."
