"""factory-boy factories for games; trivia questions come from the trivia app's factories."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

PASSWORD = "pw-for-tests-123"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"gamer{n}")
    password = factory.django.Password(PASSWORD)
