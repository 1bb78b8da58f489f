"""A Daily Shoe attempt as players meet it (FAIRNESS.md D-1…D-7): the same deals for two
accounts whatever they decide, one attempt a day, the options locked, the day's n-th
question, twenty rounds and the spoiler-free share line; and the Daily page."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.test import Client

from game import services
from game.core import clock as game_clock
from game.core.clock import epoch_ms
from game.core.errors import ActionRefused
from game.models import DailyAttempt, Game, TriviaAttempt
from game.presentation.daily import share_squares, share_text
from game.rules.clock import FakeClock
from game.services import daily
from tests.game.factories import PlayerFactory
from tests.trivia.factories import QuestionFactory
from trivia.models import PlayerRating, SeenQuestion

TODAY = date(2026, 11, 28)


@pytest.fixture(autouse=True)
def today(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """The game clock at noon UTC on TODAY (every page and service reads the day from it)."""
    clock = FakeClock(epoch_ms(datetime(2026, 11, 28, 12, tzinfo=UTC)))
    monkeypatch.setattr(game_clock, "CLOCK", clock)
    return clock


@pytest.fixture
def day(db) -> Any:
    for difficulty in ("easy", "medium", "hard"):
        QuestionFactory.create_batch(8, difficulty=difficulty)
    return daily.daily_shoe_for(TODAY)


def first_cards(game: Game) -> tuple[list[str], list[str]]:
    """The player's first two cards and the dealer's up card of the round in play."""
    game.refresh_from_db()
    round_ = game.state["round"]
    return round_["hands"][0]["cards"][:2], round_["dealer"][1:2]


def deal(game: Game, user: Any) -> Game:
    return services.place_bet_and_deal(
        game_id=game.pk, user=user, version=game.version, bet_cents=10_000
    ).game


def finish_round(game: Game, user: Any, *, hit_first: bool) -> Game:
    """Decline the offers; hit once (answering the question right) if asked, then stand."""
    hit = hit_first
    for _ in range(30):
        game.refresh_from_db()
        if game.showing_outcome or game.is_over:
            return game
        phase = game.state["round"]["phase"]
        version = game.version
        if phase in ("insurance", "even_money"):
            game = services.answer_insurance(
                game_id=game.pk, user=user, version=version, accept=False
            ).game
        elif phase == "early_surrender":
            game = services.answer_early_surrender(
                game_id=game.pk, user=user, version=version, accept=False
            ).game
        elif game.pending_trivia_id is not None:
            attempt = TriviaAttempt.objects.get(pk=game.pending_trivia_id)
            game = services.answer_question(
                game_id=game.pk, user=user, version=version, answer=attempt.question.correct_answer
            ).game
        elif game.trivia_choice_for:
            game = services.choose_difficulty(
                game_id=game.pk, user=user, version=version, difficulty="easy"
            ).game
        elif hit:
            hit = False
            game = services.hit(game_id=game.pk, user=user, version=version, difficulty="easy").game
        else:
            game = services.stand(game_id=game.pk, user=user, version=version).game
    raise AssertionError("the round did not end")


def test_two_accounts_deciding_differently_get_the_same_deals(day) -> None:
    ana, ben = PlayerFactory(), PlayerFactory()
    games = {user: daily.start_attempt(user=user, day=day).game for user in (ana, ben)}
    seen: dict[Any, list[Any]] = {ana: [], ben: []}
    for round_number in (1, 2):
        for user, game in games.items():
            game = deal(game, user)
            seen[user].append(first_cards(game))
            finish_round(game, user, hit_first=user is ana)
            games[user] = Game.objects.get(pk=game.pk)
            dealer = games[user].state["round"]["dealer"]
            seen[user].append(("dealer", round_number, dealer[:2]))
    assert seen[ana] == seen[ben]


def test_one_attempt_a_day_resumed_never_restarted(day) -> None:
    ana = PlayerFactory()
    first = daily.start_attempt(user=ana, day=day)
    assert daily.start_attempt(user=ana, day=day) == first
    assert DailyAttempt.objects.filter(player=ana).count() == 1
    tomorrow = daily.daily_shoe_for(TODAY + timedelta(days=1))
    with pytest.raises(ActionRefused) as refused:
        daily.start_attempt(user=ana, day=tomorrow)
    assert refused.value.reason == "daily_not_today"


def test_the_options_of_an_attempt_are_locked(day) -> None:
    ana = PlayerFactory()
    game = daily.start_attempt(user=ana, day=day).game
    with pytest.raises(ActionRefused) as refused:
        services.apply_options(
            game_id=game.pk, user=ana, version=game.version, options={"deck_count": 1}
        )
    assert refused.value.reason == "daily_options_locked"
    assert Game.objects.get(pk=game.pk).version == game.version
    # A new ordinary game does not take the day's options.
    assert services.default_options_for(ana)["deck_count"] == 6
    assert services.default_options_for(ana).get("min_bet") != 10_000


def test_the_nth_question_of_a_difficulty_is_the_days_nth(day) -> None:
    ana = PlayerFactory()
    game = daily.start_attempt(user=ana, day=day).game
    asked: list[int] = []
    for _ in range(3):
        game = deal(game, ana)
        game = finish_round(game, ana, hit_first=True)
        asked = list(
            TriviaAttempt.objects.filter(game=game, difficulty="easy")
            .order_by("id")
            .values_list("question_id", flat=True)
        )
        if game.is_over:
            break
    assert asked and asked == day.questions["easy"][: len(asked)]


def test_twenty_rounds_finish_the_attempt_with_its_share_line(day) -> None:
    ana = PlayerFactory()
    attempt = daily.start_attempt(user=ana, day=day)
    game = attempt.game
    for _ in range(20):
        game = finish_round(deal(game, ana), ana, hit_first=False)
        if game.is_over:
            break
    attempt.refresh_from_db()
    game.refresh_from_db()
    assert game.is_over and attempt.finished
    assert attempt.final_bank_cents == game.bank_cents
    played = len(attempt.rounds)
    assert played == game.rounds_played and (played == 20 or game.bank_cents < 10_000)
    line = share_text(attempt, TODAY)
    assert line.startswith("Blackjack Trivia Daily 2026-11-28 · $")
    assert line.endswith(" · trivia 0/0") and len(share_squares([])) == 20
    with pytest.raises(ActionRefused):
        deal(game, ana)


def test_the_daily_page_shows_today_and_tomorrow_committed(day, client: Client) -> None:
    page = client.get("/daily/").content.decode()
    tomorrow = daily.daily_shoe_for(TODAY + timedelta(days=1))
    assert day.commitment in page and tomorrow.commitment in page
    assert day.server_seed not in page and tomorrow.server_seed not in page
    assert "Log in or sign up" in page
    ana = PlayerFactory()
    client.force_login(ana)
    assert "Play Daily Shoe" in client.get("/daily/").content.decode()
    answer = client.post("/daily/play/")
    attempt = DailyAttempt.objects.get(player=ana)
    assert answer.status_code == 302 and answer["Location"] == f"/games/{attempt.game_id}/"
    assert client.post("/daily/play/")["Location"] == answer["Location"]
    assert "Resume" in client.get("/daily/").content.decode()
    assert client.get("/daily/play/").status_code == 405


def test_the_daily_table_offers_deal_at_the_fixed_stake_and_no_chips(day, client: Client) -> None:
    ana = PlayerFactory()
    game = daily.start_attempt(user=ana, day=day).game
    client.force_login(ana)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Round 1 of 20 · every round stakes $100.00, the same for everyone." in page
    assert 'aria-label="Chips"' not in page and ">Clear Bet<" not in page
    assert 'type="hidden" name="amount" value="100.00"' in page
    assert "betting-circle__spot" not in page  # the circle takes no chip
    # Deal from that panel (its hidden amount) plays the round at $100.
    answer = client.post(f"/games/{game.pk}/deal/", {"version": game.version, "amount": "100.00"})
    assert answer.status_code == 302
    game.refresh_from_db()
    assert game.state["round"]["hands"][0]["bet"] == 10_000
    finish_round(game, ana, hit_first=False)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Round 2 of 20" in page


def test_an_ordinary_table_keeps_its_chips(db, client: Client) -> None:
    ana = PlayerFactory()
    game = services.new_game(user=ana, options={"trivia_mode": False})
    client.force_login(ana)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'aria-label="Chips"' in page and "every round stakes" not in page


def test_a_finished_attempt_points_to_its_daily_result(day, client: Client) -> None:
    ana = PlayerFactory()
    game = daily.start_attempt(user=ana, day=day).game
    for _ in range(20):
        game = finish_round(deal(game, ana), ana, hit_first=False)
        if game.is_over:
            break
    client.force_login(ana)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'href="/daily/">Your Daily Shoe result</a>' in page


def test_the_days_questions_are_rated_as_first_attempts(day) -> None:
    """The Daily Shoe's questions count like any first attempt (R-8.10): the same for
    every player of the day, each player's own first answer moves the ratings once."""
    ana = PlayerFactory()
    game = daily.start_attempt(user=ana, day=day).game
    game = deal(game, ana)
    finish_round(game, ana, hit_first=True)
    answered = TriviaAttempt.objects.filter(game=game, correct__isnull=False)
    # The day's deals are the same for everyone: its first round asks a question.
    attempt = answered.select_related("question").first()
    assert attempt is not None
    seen = SeenQuestion.objects.get(player=ana, question=attempt.question)
    assert seen.first_correct is attempt.correct
    assert PlayerRating.objects.get(player=ana).rated_answers == answered.count()
    attempt.question.refresh_from_db()
    assert attempt.question.rated_answers == 1
