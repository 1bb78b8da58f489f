"""Trivia in play (RULES.md §8): the pending question, one answer, the reveal, Continue."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game import services
from game.models import TriviaAttempt
from tests.game import scenarios
from tests.game.helpers import asked_before, post, stack_shoe
from tests.trivia.factories import QuestionFactory
from trivia.models import QuestionPoolStamp
from trivia.services import active_question_ids, read_pool_stamp

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"|"X-CSRFToken": "[^"]+"')


def test_reload_and_repost_show_the_same_question_in_the_same_order(
    alice, player, questions
) -> None:
    game = scenarios.question_shown(player)
    attempt = game.trivia_attempts.get()
    first = alice.get(f"/games/{game.pk}/").text
    again = alice.get(f"/games/{game.pk}/").text
    assert CSRF.sub("", first) == CSRF.sub("", again)
    positions = [first.index(f'value="{answer}"') for answer in attempt.answers_shown]
    assert positions == sorted(positions)
    # Re-posting the difficulty changes nothing: the pending question stays.
    response = post(alice, game, "difficulty", difficulty="hard")
    assert response.status_code == 422
    assert attempt.question.text in response.text
    assert TriviaAttempt.objects.filter(game=game).count() == 1


def test_a_second_answer_is_refused(alice, player, questions) -> None:
    game = scenarios.answered(player)
    game.refresh_from_db()
    credits, version = game.credits, game.version
    attempt = game.trivia_attempts.get()
    response = post(alice, game, "answer", answer=attempt.answers_shown[0])
    assert response.status_code == 422
    game.refresh_from_db()
    assert (game.credits, game.version) == (credits, version)
    assert TriviaAttempt.objects.get(pk=attempt.pk).answer_given == attempt.answer_given


def test_an_answer_not_shown_is_refused(alice, player, questions) -> None:
    game = scenarios.question_shown(player)
    assert post(alice, game, "answer", answer="Not one of them").status_code == 422
    assert game.trivia_attempts.get().answered_at is None


def test_the_right_answer_is_not_marked_before_the_answer(alice, player) -> None:
    question = QuestionFactory(
        difficulty="easy", correct_answer="Mars", incorrect_answers=["Venus", "Jupiter", "Pluto"]
    )
    game = scenarios.question_shown(player)
    first = alice.get(f"/games/{game.pk}/").text
    # Swap which answer is right: the page must not change at all, so it cannot tell.
    question.correct_answer, question.incorrect_answers = "Venus", ["Mars", "Jupiter", "Pluto"]
    question.save()
    second = alice.get(f"/games/{game.pk}/").text
    assert CSRF.sub("", first) == CSRF.sub("", second)
    assert "right answer" not in first.lower() and "right-answer" not in first


def test_a_right_answer_deals_the_card_at_once_and_shows_the_reveal(
    alice, player, questions
) -> None:
    game = scenarios.choosing_difficulty(player)
    post(alice, game, "difficulty", difficulty="hard")
    attempt = game.trivia_attempts.get()
    response = post(alice, game, "answer", answer=attempt.question.correct_answer)
    page = alice.get(response["Location"]).text
    game.refresh_from_db()
    assert game.credits == 15
    assert game.state["round"]["hands"][0]["cards"] == ["9S", "7D", "2H"]
    assert game.trivia_attempts.get().applied
    assert 'aria-label="Trivia answer"' in page and "Credits +5" in page
    assert attempt.question.correct_answer in page and 'data-panel="player_turn"' in page
    attempt.question.refresh_from_db()
    assert (attempt.question.times_asked, attempt.question.times_correct) == (1, 1)
    assert post(alice, game, "continue").status_code == 422  # nothing waits for Continue


def test_the_difficulty_is_remembered_and_hit_asks_at_it_directly(alice, player, questions) -> None:
    game = scenarios.choosing_difficulty(player)
    post(alice, game, "difficulty", difficulty="hard")
    game.refresh_from_db()
    assert game.trivia_difficulty == "hard"
    wrong = next(
        text
        for text in game.trivia_attempts.get().answers_shown
        if text != game.trivia_attempts.get().question.correct_answer
    )
    post(alice, game, "answer", answer=wrong)
    post(alice, game, "continue")
    game.refresh_from_db()
    game = services.next_round(game_id=game.pk, user=player, version=game.version).game
    stack_shoe(game, ["9S", "0H", "7D", "6C", "2H", "KD"])
    post(alice, game, "deal", amount="10")
    page = alice.get(f"/games/{game.pk}/").text
    # The select beside Hit holds the remembered difficulty; Hit posts it: two steps.
    assert '<option value="hard" selected>' in page
    post(alice, game, "hit", difficulty="medium")
    game.refresh_from_db()
    assert game.trivia_difficulty == "medium"
    assert game.trivia_attempts.filter(applied=False, difficulty="medium").count() == 1
    assert 'data-panel="trivia_question"' in alice.get(f"/games/{game.pk}/").text


def test_a_hit_with_an_unknown_difficulty_is_refused(alice, player, questions) -> None:
    game = scenarios.dealt(player)
    assert post(alice, game, "hit", difficulty="legendary").status_code == 422
    assert not game.trivia_attempts.exists()


def test_wrong_answer_then_continue_stands_the_hand(alice, player, questions) -> None:
    game = scenarios.question_shown(player)
    attempt = game.trivia_attempts.get()
    wrong = next(a for a in attempt.answers_shown if a != attempt.question.correct_answer)
    page = alice.get(post(alice, game, "answer", answer=wrong)["Location"]).text
    assert "Incorrect" in page and attempt.question.correct_answer in page
    post(alice, game, "continue")
    game.refresh_from_db()
    assert game.credits == 9
    assert game.state["round"]["hands"][0]["cards"] == ["9S", "7D"]
    assert game.rounds.get().phase == "round_over"


def test_double_with_a_right_answer_doubles_the_bet(alice, player, questions) -> None:
    game = scenarios.dealt(player)
    post(alice, game, "double")
    post(alice, game, "difficulty", difficulty="easy")
    attempt = game.trivia_attempts.get()
    post(alice, game, "answer", answer=attempt.question.correct_answer)
    post(alice, game, "continue")
    game.refresh_from_db()
    hand = game.rounds.get().hands.get()
    assert hand.bet_cents == 2000 and hand.doubled and hand.cards == ["9S", "7D", "2H"]


def test_trivia_off_hit_deals_at_once(alice, player) -> None:
    game = scenarios.trivia_off(player)
    post(alice, game, "hit")
    game.refresh_from_db()
    assert game.state["round"]["hands"][0]["cards"] == ["9S", "7D", "2H"]
    assert not TriviaAttempt.objects.exists()
    page = alice.get(f"/games/{game.pk}/").text
    assert 'data-credits=""' in page and "Credits" not in page


def test_other_actions_wait_for_the_question(alice, player, questions) -> None:
    game = scenarios.question_shown(player)
    page = alice.get(f"/games/{game.pk}/").text
    assert 'disabled title="Answer the trivia question first"' in page
    assert post(alice, game, "stand").status_code == 422


def test_no_questions_in_the_bank_is_a_clear_400(alice, player) -> None:
    game = scenarios.choosing_difficulty(player)
    response = post(alice, game, "difficulty", difficulty="easy")
    assert response.status_code == 422 and "No active trivia questions" in response.text


def test_questions_are_not_repeated_within_a_game(alice, player) -> None:
    QuestionFactory.create_batch(2, difficulty="easy")
    game = scenarios.question_shown(player)
    first = game.trivia_attempts.get()
    post(alice, game, "answer", answer=first.question.correct_answer)
    post(alice, game, "continue")  # 9 7 2 = 18: the hand can still hit
    post(alice, game, "hit")
    post(alice, game, "difficulty", difficulty="easy")
    second = game.trivia_attempts.exclude(pk=first.pk).get()
    assert second.question_id != first.question_id


def test_trivia_text_is_escaped(alice, player) -> None:
    QuestionFactory(
        difficulty="easy", text="<script>alert(1)</script> & <b>x</b>?", correct_answer="<i>yes</i>"
    )
    game = scenarios.question_shown(player)
    page = alice.get(f"/games/{game.pk}/").text
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
    assert "<i>yes</i>" not in page


def test_a_question_added_by_another_process_can_be_asked(alice, player) -> None:
    """The pick's id lists follow the bank's stamp, read with the game's lock: a list kept
    from before the change would offer only the question this game has asked already."""
    old = QuestionFactory(difficulty="easy")
    game = scenarios.choosing_difficulty(player)
    asked_before(game, old)
    assert active_question_ids("easy", read_pool_stamp()) == [old.pk]
    # Another process adds a question: a new stamp, none of it through this process's
    # signals (bulk_create sends none; the stamp is written as its question_pools_changed
    # writes it).
    new = QuestionFactory.build(difficulty="easy", category=old.category)
    type(old).objects.bulk_create([new])
    QuestionPoolStamp.objects.update(stamp="another process")
    with CaptureQueriesContext(connection) as queries:
        assert post(alice, game, "difficulty", difficulty="easy").status_code == 302
    # The stamp came with the lock (a subquery), not from a read of its own.
    assert not [q for q in queries if q["sql"].startswith('SELECT "trivia_questionpoolstamp"')]
    asked = game.trivia_attempts.exclude(question=old).get()
    assert asked.question.text == new.text
