"""R-4.13 and R-8.9 on the server: stored deadlines enforced by whichever request comes
first, under the row lock. The clock is faked (game.core.clock.CLOCK) and moved, never waited."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from game import services
from game.core import clock as game_clock
from game.models import Game, TriviaAttempt
from game.rules.clock import FakeClock
from tests.game.helpers import post, stack_shoe

pytestmark = pytest.mark.django_db

# Player 9S 7D (hard 16) against 6C, hole 0H; the dealer's 16 draws KD and busts.
SIXTEEN = ["9S", "0H", "7D", "6C", "KD", "5H", "4C"]
# Player 2S 3D (5) against 6C: a hit (4H) leaves the hand open.
FIVE = ["2S", "0H", "3D", "6C", "4H", "KD", "5H"]
TIMER = re.compile(r'<p class="timer timer--(\w+)" role="timer" data-seconds-left="(\d+)"')


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(game_clock, "CLOCK", fake)
    return fake


def dealt(user: Any, cards: list[str] = SIXTEEN, **options: Any) -> Game:
    game = stack_shoe(services.new_game(user=user, options=options), cards)
    services.place_bet_and_deal(game_id=game.pk, user=user, version=game.version, bet_cents=1000)
    game.refresh_from_db()
    return game


def hand(game: Game) -> dict[str, Any]:
    game.refresh_from_db()
    return game.state["round"]["hands"][0]


def timer_on(page: str) -> tuple[str, int] | None:
    found = TIMER.search(page)
    return (found.group(1), int(found.group(2))) if found else None


def test_the_page_shows_the_time_left_and_a_reload_keeps_the_deadline(
    alice: Client, player: Any, clock: FakeClock
) -> None:
    game = dealt(player, trivia_mode=False, turn_seconds=20)
    assert timer_on(alice.get(f"/games/{game.pk}/").text) == ("turn", 20)
    clock.advance(seconds=12.5)
    assert timer_on(alice.get(f"/games/{game.pk}/").text) == ("turn", 8)  # rounded up


def test_a_decision_after_the_deadline_is_refused_and_the_hand_has_stood(
    alice: Client, player: Any, clock: FakeClock
) -> None:
    game = dealt(player, trivia_mode=False, turn_seconds=20)
    clock.advance(seconds=20)
    response = post(alice, game, "hit")
    assert response.status_code == 422
    assert "Time ran out" in response.text
    assert hand(game)["stand_reason"] == "timeout"
    assert game.state["round"]["phase"] == "round_over"
    assert game.state["round"]["actions"] == ["timeout"]
    assert len(hand(game)["cards"]) == 2  # the late Hit dealt nothing


def test_a_decision_in_time_is_played_and_starts_a_new_clock(
    alice: Client, player: Any, clock: FakeClock
) -> None:
    game = dealt(player, FIVE, trivia_mode=False, turn_seconds=10)
    clock.advance(seconds=9.9)
    assert post(alice, game, "hit").status_code == 302
    game.refresh_from_db()
    assert game.state["round"]["deadline"] == clock() + 10_000


def test_a_game_resumed_after_its_deadline_shows_the_hand_stood(
    alice: Client, player: Any, clock: FakeClock
) -> None:
    game = dealt(player, trivia_mode=False, turn_seconds=30)
    shown_version = game.version
    clock.advance(seconds=3600)  # nobody had the page open
    page = alice.get(f"/games/{game.pk}/").text
    assert "Time ran out: the hand stands." in page
    assert hand(game)["stand_reason"] == "timeout" and game.version == shown_version + 1
    # The tab left open posts the version it was made with: refused, in words.
    response = alice.post(f"/games/{game.pk}/stand/", {"version": str(shown_version)})
    assert response.status_code == 422 and "Time ran out" in response.text


def test_an_answer_after_its_deadline_counts_as_wrong(
    alice: Client, player: Any, clock: FakeClock, questions: Any
) -> None:
    game = dealt(player, answer_seconds=15)
    services.hit(game_id=game.pk, user=player, version=game.version, difficulty="medium")
    game.refresh_from_db()
    attempt = TriviaAttempt.objects.get(game=game)
    assert timer_on(alice.get(f"/games/{game.pk}/").text) == ("answer", 15)
    clock.advance(seconds=10)
    assert timer_on(alice.get(f"/games/{game.pk}/").text) == ("answer", 5)  # not restarted
    clock.advance(seconds=5)
    response = post(alice, game, "answer", answer=attempt.question.correct_answer)
    assert response.status_code == 422 and "Time ran out" in response.text
    attempt.refresh_from_db()
    assert attempt.correct is False and attempt.applied and attempt.credits_change == -1
    assert hand(game)["stand_reason"] == "trivia_wrong" and len(hand(game)["cards"]) == 2
    assert game.credits == 9 and game.pending_trivia is None
    assert game.state["round"]["actions"] == ["hit:medium:timeout"]


def test_the_turn_clock_waits_while_a_question_is_shown(
    player: Any, clock: FakeClock, questions: Any
) -> None:
    game = dealt(player, FIVE, turn_seconds=10)  # no answer clock: the question is untimed
    services.hit(game_id=game.pk, user=player, version=game.version, difficulty="easy")
    clock.advance(seconds=600)
    game.refresh_from_db()
    assert services.catch_up_deadlines(game=game) is None  # nothing fired
    attempt = TriviaAttempt.objects.get(game=game)
    game = services.answer_question(
        game_id=game.pk, user=player, version=game.version, answer=attempt.question.correct_answer
    ).game
    assert game.state["round"]["deadline"] == clock() + 10_000


def test_untimed_games_never_lock_on_a_page_view(
    alice: Client, player: Any, clock: FakeClock, django_assert_max_num_queries: Any
) -> None:
    game = dealt(player, trivia_mode=False)
    clock.advance(seconds=10_000)
    assert timer_on(alice.get(f"/games/{game.pk}/").text) is None
    version = game.version
    alice.get(f"/games/{game.pk}/")
    game.refresh_from_db()
    assert game.version == version


def test_another_players_late_game_is_still_not_found(
    client_for: Any, player: Any, other_player: Any, clock: FakeClock
) -> None:
    game = dealt(player, trivia_mode=False, turn_seconds=10)
    clock.advance(seconds=60)
    mallory = client_for(other_player)
    assert mallory.get(f"/games/{game.pk}/").status_code == 404
    assert post(mallory, game, "stand").status_code == 404
    assert hand(game)["status"] == "open"  # nothing applied on someone else's behalf
