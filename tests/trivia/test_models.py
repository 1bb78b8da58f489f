"""Model validation: Question.clean() refuses incomplete questions."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tests.trivia.factories import CategoryFactory, QuestionFactory
from trivia.models import Question, question_fingerprint

pytestmark = pytest.mark.django_db


def _question(**overrides) -> Question:
    values = {
        "category": CategoryFactory(),
        "text": "What colour is a ripe banana?",
        "type": Question.Type.MULTIPLE,
        "difficulty": Question.Difficulty.EASY,
        "correct_answer": "Yellow",
        "incorrect_answers": ["Blue", "Purple", "Black"],
    }
    values.update(overrides)
    return Question(**values)


def test_complete_multiple_choice_question_is_valid() -> None:
    question = _question(text="  What colour is   a ripe banana? ")
    question.full_clean()
    assert question.text == "What colour is a ripe banana?"
    assert question.fingerprint == question_fingerprint("what colour is a ripe banana?", "YELLOW")


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"text": "   "}, "text"),
        ({"correct_answer": ""}, "correct_answer"),
        ({"incorrect_answers": ["Blue", "Purple"]}, "incorrect_answers"),
        ({"incorrect_answers": ["Blue", "Purple", "Black", "Red"]}, "incorrect_answers"),
        ({"incorrect_answers": ["Blue", "blue", "Black"]}, "incorrect_answers"),
        ({"incorrect_answers": ["Blue", "", "Black"]}, "incorrect_answers"),
        ({"incorrect_answers": ["Yellow", "Purple", "Black"]}, "incorrect_answers"),
        ({"incorrect_answers": "Blue, Purple, Black"}, "incorrect_answers"),
        (
            {"type": Question.Type.BOOLEAN, "correct_answer": "Yes", "incorrect_answers": ["No"]},
            "correct_answer",
        ),
        (
            {"type": Question.Type.BOOLEAN, "correct_answer": "True", "incorrect_answers": []},
            "incorrect_answers",
        ),
        (
            {
                "type": Question.Type.BOOLEAN,
                "correct_answer": "True",
                "incorrect_answers": ["True"],
            },
            "incorrect_answers",
        ),
    ],
)
def test_incomplete_questions_are_rejected(overrides: dict, field: str) -> None:
    with pytest.raises(ValidationError) as excinfo:
        _question(**overrides).full_clean()
    assert field in excinfo.value.message_dict


def test_boolean_question_needs_the_opposite_as_wrong_answer() -> None:
    question = _question(
        type=Question.Type.BOOLEAN, correct_answer="False", incorrect_answers=["True"]
    )
    question.full_clean()


def test_duplicate_of_bank_question_is_rejected_but_editing_itself_is_fine() -> None:
    existing = QuestionFactory(text="Which ocean is largest?", correct_answer="Pacific")
    existing.full_clean()  # its own fingerprint is not a clash
    with pytest.raises(ValidationError) as excinfo:
        _question(text="which ocean is  LARGEST?", correct_answer="pacific").full_clean()
    assert "text" in excinfo.value.message_dict


def test_save_keeps_fingerprint_in_step_and_rate_property() -> None:
    question = QuestionFactory(text="Old text?", correct_answer="Right")
    question.text = "New text?"
    question.save()
    assert question.fingerprint == question_fingerprint("New text?", "Right")
    assert question.correct_rate is None
    question.times_asked, question.times_correct = 4, 1
    assert question.correct_rate == 0.25
