"""factory-boy factories for the trivia bank."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from trivia.models import Category, Question, QuestionReport


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.django.Password("pw-for-tests-123")


class StaffFactory(UserFactory):
    username = factory.Sequence(lambda n: f"staff{n}")
    is_staff = True
    is_superuser = True


class CategoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Category
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Category {n}")


class QuestionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Question

    category = factory.SubFactory(CategoryFactory)
    text = factory.Sequence(lambda n: f"Test question number {n}?")
    type = Question.Type.MULTIPLE
    difficulty = Question.Difficulty.EASY
    correct_answer = factory.Sequence(lambda n: f"Right {n}")
    incorrect_answers = factory.LazyFunction(lambda: ["Wrong A", "Wrong B", "Wrong C"])
    active = True
    source = "test"

    class Params:
        boolean = factory.Trait(
            type=Question.Type.BOOLEAN,
            correct_answer="True",
            incorrect_answers=factory.LazyFunction(lambda: ["False"]),
        )


class QuestionReportFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = QuestionReport

    question = factory.SubFactory(QuestionFactory)
    reporter = factory.SubFactory(UserFactory)
    reason = QuestionReport.Reason.WRONG_ANSWER
    note = "The marked answer looks wrong."
