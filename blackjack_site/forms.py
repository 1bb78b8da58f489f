"""The login forms (the site's and the admin's): Django's, bounded; and the sign-up form.

A login's username reaches django-axes' attempt log (a 255-character column) and every
credential reaches the authentication backends' queries: a NUL byte, which PostgreSQL
refuses in a text parameter, or an over-long username would fail there, a server error.
No account can have such credentials (usernames are bounded by their column, passwords by
blackjack_site/passwords.py), so the login forms refuse them as a wrong username or
password, with the same message, before any backend sees them: nothing is recorded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db.models import Field

from blackjack_site.guests import GUEST_PREFIX
from blackjack_site.passwords import PASSWORD_MAX_LENGTH

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    # The mixin is only ever mixed into an AuthenticationForm: type-check it as one.
    _AuthenticationFormBase = AuthenticationForm
    # django-stubs types UserCreationForm as generic in its user model; Django's own class
    # takes no subscript.
    _UserCreationFormBase = UserCreationForm[User]
else:
    _AuthenticationFormBase = object
    _UserCreationFormBase = UserCreationForm

NUL = "\x00"


def _username_max_length() -> int:
    model = get_user_model()
    field = model._meta.get_field(model.USERNAME_FIELD)
    max_length = field.max_length if isinstance(field, Field) else None
    return max_length or 254


def credentials_fit(username: str, password: str) -> bool:
    """Whether an account could have these credentials: short enough, no NUL byte."""
    return (
        len(username) <= _username_max_length()
        and len(password) <= PASSWORD_MAX_LENGTH
        and NUL not in username
        and NUL not in password
    )


class BoundedCredentialsMixin(_AuthenticationFormBase):
    """For an AuthenticationForm: credentials no account can have fail as a wrong
    password would, without asking the authentication backends."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A NUL byte is refused by clean(), as a wrong password: not by the fields, whose
        # own message would tell it apart.
        for name in ("username", "password"):
            field = self.fields[name]
            field.validators = [
                validator
                for validator in field.validators
                if not isinstance(validator, ProhibitNullCharactersValidator)
            ]

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password and not credentials_fit(username, password):
            raise self.get_invalid_login_error()
        return super().clean()


class LoginForm(BoundedCredentialsMixin, AuthenticationForm):
    """The site's login form (/accounts/login/)."""


class AdminLoginForm(BoundedCredentialsMixin, AdminAuthenticationForm):
    """The admin's login form (/admin/login/): the same login, for staff."""


class SignUpForm(_UserCreationFormBase):
    """Django's sign-up form; the ``guest-`` names are kept for guests (guests.py).

    Bound to a guest's own account (``instance``), saving it gives that account the chosen
    name and password: the guest's games stay with it."""

    error_messages = {
        **UserCreationForm.error_messages,
        "reserved": "Names starting with “%(prefix)s” are kept for guest players.",
    }

    def clean_username(self) -> str:
        username = super().clean_username()
        if username and username.lower().startswith(GUEST_PREFIX):
            raise ValidationError(
                self.error_messages["reserved"], code="reserved", params={"prefix": GUEST_PREFIX}
            )
        return username
