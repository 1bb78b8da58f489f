"""Admin: each question's learned rating, rated answers and right rate, and the flag for a
label its answers contradict (trivia.ratings.label_contradicted)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.trivia.factories import QuestionFactory, StaffFactory
from trivia.models import Question
from trivia.ratings import LABEL_MIN_ANSWERS, label_contradicted

CHANGELIST_URL = reverse("admin:trivia_question_changelist")
N = LABEL_MIN_ANSWERS


@pytest.fixture
def staff_client(client):
    client.force_login(StaffFactory())
    return client


@pytest.mark.parametrize(
    ("difficulty", "answers", "right", "contradicted"),
    [
        ("easy", N, 7, True),  # 35 % on an easy question
        ("easy", N, 8, False),  # 40 %: the lowest an easy one may have
        ("easy", N - 1, 0, False),  # too few answers to judge
        ("medium", N, 3, True),  # 15 %
        ("medium", N, 4, False),  # 20 %
        ("medium", N, 19, False),  # 95 %
        ("medium", N, 20, True),  # 100 %
        ("hard", N, 17, False),  # 85 %
        ("hard", N, 18, True),  # 90 %
        ("hard", N, 0, False),  # nobody: hard indeed
    ],
)
def test_a_label_is_contradicted_only_by_a_wide_margin_after_enough_answers(
    difficulty: str, answers: int, right: int, contradicted: bool
) -> None:
    assert label_contradicted(difficulty=difficulty, answers=answers, right=right) is contradicted


def _row(html: str, text: str) -> str:
    start = html.index(text)
    return html[start : html.index("</tr>", start)]


@pytest.mark.django_db
def test_the_question_list_shows_rating_rated_answers_right_rate_and_the_flag(
    staff_client,
) -> None:
    flagged = QuestionFactory(difficulty="easy", times_asked=N, times_correct=5, text="Flag me?")
    Question.objects.filter(pk=flagged.pk).update(rating=1612.6, rated_answers=17)
    QuestionFactory(difficulty="easy", times_asked=N, times_correct=18, text="Fine one?")
    html = staff_client.get(CHANGELIST_URL).content.decode()
    row = _row(html, "Flag me?")
    assert ">1613<" in row and ">17<" in row and ">25%<" in row
    assert 'alt="True"' in row
    assert 'alt="False"' in _row(html, "Fine one?")


@pytest.mark.django_db
def test_the_label_contradicted_filter_finds_each_label_out_of_its_range(staff_client) -> None:
    easy_missed = QuestionFactory(difficulty="easy", times_asked=N, times_correct=2)
    medium_missed = QuestionFactory(difficulty="medium", times_asked=N, times_correct=2)
    medium_trivial = QuestionFactory(difficulty="medium", times_asked=N, times_correct=N)
    hard_trivial = QuestionFactory(difficulty="hard", times_asked=N, times_correct=N - 1)
    QuestionFactory(difficulty="medium", times_asked=N, times_correct=N // 2)
    QuestionFactory(difficulty="hard", times_asked=N - 1, times_correct=N - 1)

    def shown(value: str) -> set[Question]:
        return set(staff_client.get(f"{CHANGELIST_URL}?rate={value}").context["cl"].queryset)

    assert shown("any") == {easy_missed, medium_missed, medium_trivial, hard_trivial}
    assert shown("too_hard") == {easy_missed, medium_missed}
    assert shown("too_easy") == {medium_trivial, hard_trivial}


@pytest.mark.django_db
def test_the_list_can_be_sorted_by_rating(staff_client) -> None:
    high = QuestionFactory(difficulty="hard")
    low = QuestionFactory(difficulty="easy")
    response = staff_client.get(CHANGELIST_URL + "?o=6")  # the rating column, ascending
    assert list(response.context["cl"].queryset) == [low, high]
