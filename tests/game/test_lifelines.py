"""R-8.11 in play: 50:50 and Swap on the question shown, through the services and the
pages: the credit taken at once, what each changes, and every refusal changing nothing."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest
from django.test import Client

from game import services
from game.core import clock as game_clock
from game.core.clock import epoch_ms
from game.core.errors import ActionRefused, GameNotFound, StaleVersion
from game.models import Game, Round, TriviaAttempt
from game.rules.clock import FakeClock
from game.rules.replay import run_replay
from game.services import daily
from tests.game.helpers import asked_before, post, stack_shoe
from tests.trivia.factories import QuestionFactory
from trivia import learning
from trivia.models import Question

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)

# Player 2S 3D (5) against 6C: a hit (4H) leaves the hand open, then Stand ends the round.
FIVE = ["2S", "0H", "3D", "6C", "4H", "KD", "5H", "9C", "8D"]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(game_clock, "CLOCK", fake)
    return fake


def asking(user: Any, difficulty: str = "medium", **options: Any) -> Game:
    """A game whose Hit waits on a question of ``difficulty``."""
    game = stack_shoe(services.new_game(user=user, options=options), FIVE)
    game = services.place_bet_and_deal(
        game_id=game.pk, user=user, version=game.version, bet_cents=1000
    ).game
    return services.hit(
        game_id=game.pk, user=user, version=game.version, difficulty=difficulty
    ).game


def attempt_of(game: Game) -> TriviaAttempt:
    return TriviaAttempt.objects.select_related("question").get(game=game)


def snapshot(game: Game) -> tuple[Any, ...]:
    game.refresh_from_db()
    attempt = attempt_of(game)
    return (
        game.version,
        game.credits,
        game.state,
        attempt.question_id,
        attempt.answers_shown,
        attempt.lifelines,
        attempt.answered_at,
    )


def fifty_fifty(game: Game, user: Any) -> Game:
    game.refresh_from_db()
    return services.use_fifty_fifty(game_id=game.pk, user=user, version=game.version).game


def swap(game: Game, user: Any) -> Game:
    game.refresh_from_db()
    return services.swap_question(game_id=game.pk, user=user, version=game.version).game


def refused(action: Any, game: Game, user: Any) -> str:
    game.refresh_from_db()
    with pytest.raises(ActionRefused) as error:
        action(game_id=game.pk, user=user, version=game.version)
    return str(error.value.reason)


# ----------------------------------------------------------------------------- 50:50


def test_fifty_fifty_takes_a_credit_and_two_wrong_answers_away(player: Any, questions) -> None:
    game = asking(player)
    shown = attempt_of(game).answers_shown
    game = fifty_fifty(game, player)
    attempt = attempt_of(game)
    right = attempt.question.correct_answer
    assert game.credits == 9
    assert len(attempt.answers_shown) == 2 and right in attempt.answers_shown
    [record] = attempt.lifelines
    assert record["kind"] == "fifty_fifty" and len(record["removed"]) == 2
    assert right not in record["removed"]
    assert sorted(attempt.answers_shown + record["removed"]) == sorted(shown)
    # The answer that follows is applied with the lifeline's credit already gone.
    game = services.answer_question(
        game_id=game.pk, user=player, version=game.version, answer=right
    ).game
    assert game.credits == 10  # 10 - 1 (50:50) + 1 (Medium)
    assert game.state["round"]["actions"] == ["hit:medium:fifty_fifty:correct"]


def test_a_removed_answer_cannot_be_posted(player: Any, questions) -> None:
    game = fifty_fifty(asking(player), player)
    removed = attempt_of(game).lifelines[0]["removed"][0]
    before = snapshot(game)
    with pytest.raises(ActionRefused) as error:
        services.answer_question(game_id=game.pk, user=player, version=game.version, answer=removed)
    assert error.value.reason == "not_an_answer_shown"
    assert snapshot(game) == before


def test_fifty_fifty_is_refused_on_a_true_false_question(player: Any) -> None:
    QuestionFactory.create_batch(2, difficulty="easy", boolean=True)
    game = asking(player, "easy")
    before = snapshot(game)
    assert refused(services.use_fifty_fifty, game, player) == "fifty_fifty_two_answers"
    assert snapshot(game) == before


def test_fifty_fifty_is_refused_the_second_time(player: Any, questions) -> None:
    game = fifty_fifty(asking(player), player)
    before = snapshot(game)
    assert refused(services.use_fifty_fifty, game, player) == "lifeline_used"
    assert snapshot(game) == before


# ----------------------------------------------------------------------------- Swap


def test_swap_gives_another_question_of_the_difficulty_not_asked_before(player: Any) -> None:
    hard = QuestionFactory.create_batch(3, difficulty="hard")
    QuestionFactory.create_batch(3, difficulty="easy")
    game = asking(player, "hard")
    old = attempt_of(game).question
    game = swap(game, player)
    attempt = attempt_of(game)
    assert game.credits == 9
    assert attempt.question != old and attempt.question in hard
    assert attempt.difficulty == "hard" and attempt.answered_at is None
    assert sorted(attempt.answers_shown) == sorted(
        [attempt.question.correct_answer, *attempt.question.incorrect_answers]
    )
    assert attempt.lifelines == [{"kind": "swap", "question": old.pk}]
    # The swapped question is answered as any other, and the record names the Swap.
    game = services.answer_question(
        game_id=game.pk, user=player, version=game.version, answer="Wrong A"
    ).game
    assert game.credits == 8
    assert game.state["round"]["actions"] == ["hit:hard:swap:wrong"]


def test_swap_never_brings_back_a_question_asked_or_swapped_away_earlier(
    player: Any,
) -> None:
    bank = QuestionFactory.create_batch(4, difficulty="medium")
    game = asking(player)
    current = attempt_of(game).question
    answered, swapped_away, left = [q for q in bank if q != current]
    earlier = asked_before(game, answered)
    earlier.lifelines = [{"kind": "swap", "question": swapped_away.pk}]
    earlier.swapped_away = swapped_away
    earlier.save(update_fields=["lifelines", "swapped_away"])
    game = swap(game, player)
    assert game.pending_trivia is not None
    assert game.pending_trivia.question == left


def test_a_question_swapped_away_is_never_asked_again_in_the_game(player: Any) -> None:
    """Even once the player has seen every question (the pick then takes the nearest seen
    but not asked in the game), the one swapped away stays out."""
    bank = QuestionFactory.create_batch(5, difficulty="medium")
    for question in bank:
        learning.record_shown(player=player, question_id=question.pk, now=NOW)
    game = asking(player)
    swapped_away = attempt_of(game).question
    game = swap(game, player)
    assert attempt_of(game).swapped_away == swapped_away
    # The question swapped away is now the nearest the target by far: only leaving it
    # out keeps it from coming back.
    Question.objects.filter(pk=swapped_away.pk).update(rating=1523)
    Question.objects.exclude(pk=swapped_away.pk).update(rating=2400)
    for _ in range(2):  # 2S 3D, then 4H and KD dealt by right answers: 19
        game = right_answer(game, player)
        game = services.hit(
            game_id=game.pk, user=player, version=game.version, difficulty="medium"
        ).game
        assert game.pending_trivia is not None
        assert game.pending_trivia.question != swapped_away


def right_answer(game: Game, user: Any) -> Game:
    game.refresh_from_db()
    right = attempt_of_pending(game).question.correct_answer
    return services.answer_question(
        game_id=game.pk, user=user, version=game.version, answer=right
    ).game


def attempt_of_pending(game: Game) -> TriviaAttempt:
    return TriviaAttempt.objects.select_related("question").get(pk=game.pending_trivia_id)


def test_swap_is_refused_when_no_other_question_is_left(player: Any) -> None:
    QuestionFactory.create_batch(1, difficulty="medium")
    game = asking(player)
    before = snapshot(game)
    assert refused(services.swap_question, game, player) == "no_questions"
    assert snapshot(game) == before


def test_fifty_fifty_and_swap_each_once_on_one_question(player: Any, questions) -> None:
    game = swap(fifty_fifty(asking(player), player), player)
    attempt = attempt_of(game)
    assert game.credits == 8
    assert [entry["kind"] for entry in attempt.lifelines] == ["fifty_fifty", "swap"]
    assert len(attempt.answers_shown) == 4  # the new question's own four answers
    assert refused(services.use_fifty_fifty, game, player) == "lifeline_used"


# ----------------------------------------------------------------------------- refusals


def test_a_lifeline_is_refused_with_one_credit_left(player: Any, questions) -> None:
    game = asking(player)
    Game.objects.filter(pk=game.pk).update(credits=1, state={**game.state, "credits": 1})
    before = snapshot(game)
    assert refused(services.use_fifty_fifty, game, player) == "lifeline_last_credit"
    assert refused(services.swap_question, game, player) == "lifeline_last_credit"
    assert snapshot(game) == before


def test_a_lifeline_is_refused_with_no_question_or_after_the_answer(player: Any, questions) -> None:
    game = stack_shoe(services.new_game(user=player, options={}), FIVE)
    game = services.place_bet_and_deal(
        game_id=game.pk, user=player, version=game.version, bet_cents=1000
    ).game
    version = game.version
    assert refused(services.swap_question, game, player) == "no_unanswered_question"
    game = services.hit(game_id=game.pk, user=player, version=version, difficulty="easy").game
    right = attempt_of(game).question.correct_answer
    game = services.answer_question(
        game_id=game.pk, user=player, version=game.version, answer=right
    ).game
    before = (game.version, game.credits)
    assert refused(services.use_fifty_fifty, game, player) == "no_unanswered_question"
    game.refresh_from_db()
    assert (game.version, game.credits) == before


def test_a_lifeline_is_refused_when_the_option_is_off(player: Any, questions) -> None:
    game = asking(player, lifelines=False)
    before = snapshot(game)
    assert refused(services.swap_question, game, player) == "lifelines_off"
    assert refused(services.use_fifty_fifty, game, player) == "lifelines_off"
    assert snapshot(game) == before


def test_the_daily_shoe_has_no_lifelines(monkeypatch: pytest.MonkeyPatch, player: Any) -> None:
    today = FakeClock(epoch_ms(datetime(2026, 11, 28, 12, tzinfo=UTC)))
    monkeypatch.setattr(game_clock, "CLOCK", today)
    for difficulty in ("easy", "medium", "hard"):
        QuestionFactory.create_batch(4, difficulty=difficulty)
    game = daily.start_attempt(user=player, day=daily.daily_shoe_for(date(2026, 11, 28))).game
    assert game.options["lifelines"] is False
    assert refused(services.use_fifty_fifty, game, player) == "lifelines_off"


def test_a_lifeline_does_not_stop_the_answer_clock_and_is_refused_after_it(
    player: Any, clock: FakeClock, questions
) -> None:
    game = asking(player, answer_seconds=15)
    shown_at = attempt_of(game).shown_at
    clock.advance(seconds=5)
    game = swap(game, player)
    assert attempt_of(game).shown_at == shown_at  # the same clock runs on
    clock.advance(seconds=10)
    game.refresh_from_db()
    with pytest.raises(ActionRefused) as error:
        services.use_fifty_fifty(game_id=game.pk, user=player, version=game.version)
    assert error.value.reason == "time_ran_out"
    game.refresh_from_db()
    assert game.credits == 8  # -1 Swap, -1 the answer that timed out; no 50:50
    assert game.state["round"]["actions"] == ["hit:medium:swap:timeout"]


def test_another_players_game_and_a_stale_version_are_refused(
    player: Any, other_player: Any, questions
) -> None:
    game = asking(player)
    before = snapshot(game)
    with pytest.raises(GameNotFound):
        services.swap_question(game_id=game.pk, user=other_player, version=game.version)
    with pytest.raises(StaleVersion):
        services.use_fifty_fifty(game_id=game.pk, user=player, version=game.version - 1)
    assert snapshot(game) == before


# ----------------------------------------------------------------------------- the pages


def test_the_question_shows_both_lifelines_with_their_cost(
    alice: Client, player: Any, questions
) -> None:
    game = asking(player)
    page = alice.get(f"/games/{game.pk}/").text
    assert ">50:50</button>" in page and ">Swap</button>" in page
    assert "1 credit<" in page
    assert f"/games/{game.pk}/fifty-fifty/" in page and f"/games/{game.pk}/swap/" in page


def test_fifty_fifty_by_a_plain_post_and_by_htmx(alice: Client, player: Any, questions) -> None:
    game = asking(player)
    response = post(alice, game, "fifty-fifty")
    assert response.status_code == 302
    attempt = attempt_of(game)
    page = alice.get(f"/games/{game.pk}/").text
    for gone in attempt.lifelines[0]["removed"]:
        assert f'value="{gone}"' not in page
    assert "Used." in page
    # The two answers left keep letters (A, B), not the first letters True/False use.
    assert 'data-key="a"' in page and 'data-key="b"' in page
    swapped = post(alice, game, "swap", htmx=True)
    assert swapped.status_code == 200 and "<html" not in swapped.text
    assert "Swap: a new question." in swapped.text


def test_a_refused_lifeline_post_is_a_4xx_with_its_reason(
    alice: Client, client_for: Any, other_player: Any, player: Any, questions
) -> None:
    game = asking(player)
    post(alice, game, "fifty-fifty")
    again = post(alice, game, "fifty-fifty")
    assert again.status_code == 422
    assert "already used that lifeline" in again.text
    assert (
        client_for(other_player)
        .post(f"/games/{game.pk}/swap/", {"version": str(game.version)})
        .status_code
        == 404
    )
    assert alice.post(f"/games/{game.pk}/swap/", {}).status_code in (400, 409, 422)


def test_the_lifeline_buttons_are_off_with_the_reason_on_the_last_credit(
    alice: Client, player: Any, questions
) -> None:
    game = asking(player)
    Game.objects.filter(pk=game.pk).update(credits=1, state={**game.state, "credits": 1})
    page = alice.get(f"/games/{game.pk}/").text
    assert "you have only one left" in page
    assert page.count(" disabled>") >= 2


def test_a_rounds_exported_replay_names_the_lifelines_and_replays(player: Any, questions) -> None:
    game = swap(fifty_fifty(asking(player), player), player)
    right = attempt_of(game).question.correct_answer
    game = services.answer_question(
        game_id=game.pk, user=player, version=game.version, answer=right
    ).game
    game = services.stand(game_id=game.pk, user=player, version=game.version).game
    row = Round.objects.get(game=game)
    assert row.replay["rounds"][0]["actions"][0] == "hit:medium:fifty_fifty:swap:correct"
    assert row.credits_change == -1  # two lifelines, a right Medium
    result = run_replay(row.replay)
    assert result["credits"] == game.credits == 9


def test_statistics_count_the_lifelines_and_the_right_rate_after_a_fifty_fifty(
    alice: Client, player: Any, questions
) -> None:
    from game.presentation.statistics import player_statistics

    game = fifty_fifty(asking(player), player)
    right = attempt_of(game).question.correct_answer
    game = services.answer_question(
        game_id=game.pk, user=player, version=game.version, answer=right
    ).game
    game = services.stand(game_id=game.pk, user=player, version=game.version).game
    other = swap(asking(player), player)
    services.answer_question(game_id=other.pk, user=player, version=other.version, answer="Wrong A")
    stats = player_statistics(player)
    assert (stats.fifty_fifty_used, stats.fifty_fifty_correct, stats.swap_used) == (1, 1, 1)
    assert stats.fifty_fifty_percent_correct == 100
    page = alice.get("/games/statistics/").text
    assert 'data-testid="stat-swap">1<' in page
    assert 'data-testid="stat-fifty-fifty-correct">1 (100%)<' in page


def test_the_options_menu_switches_lifelines_off(alice: Client, player: Any) -> None:
    from game.forms import OptionsForm, default_options

    game = services.new_game(user=player, options={})
    page = alice.get(f"/games/{game.pk}/options/").text
    assert "Lifelines: 50:50 and Swap" in page
    data = {**OptionsForm.initial_from(default_options()), "lifelines": False}
    form = OptionsForm(data={k: v for k, v in data.items() if v is not False})
    assert form.is_valid(), form.errors
    assert form.to_options()["lifelines"] is False
