"""Games brought to a given point of a round through the services, with stacked cards."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from django.utils import timezone

from game import services
from game.models import Game, TriviaAttempt
from game.services import Played
from tests.game.helpers import stack_shoe

# Player 9S 7D (16), dealer hole 0H, upcard 6C; next cards 2H then KD.
PLAIN = ["9S", "0H", "7D", "6C", "2H", "KD"]
# A pair of eights against a seven.
PAIR = ["8S", "0H", "8D", "7C", "3H", "2C"]
# Ace up, hole 6H: insurance is offered and the dealer has no blackjack.
ACE_UP = ["9S", "6H", "7D", "AC", "2H"]
# Ten up, hole 6H: early surrender is offered in surrender mode "early".
TEN_UP = ["9S", "6H", "7D", "0C", "2H"]


def _game(user: Any, cards: list[str], **options: Any) -> Game:
    return stack_shoe(services.new_game(user=user, options=options), cards)


def _act(game: Game, user: Any, service: Callable[..., Played], **kwargs: Any) -> Game:
    game.refresh_from_db()
    return service(game_id=game.pk, user=user, version=game.version, **kwargs).game


def betting(user: Any) -> Game:
    return _game(user, PLAIN)


def dealt(user: Any, cards: list[str] = PLAIN, **options: Any) -> Game:
    game = _game(user, cards, **options)
    _act(game, user, services.place_bet_and_deal, bet_cents=1000)
    game.refresh_from_db()
    return game


def pair(user: Any) -> Game:
    return dealt(user, PAIR)


def trivia_off(user: Any) -> Game:
    return dealt(user, PLAIN, trivia_mode=False)


def insurance(user: Any) -> Game:
    return dealt(user, ACE_UP)


def early_surrender(user: Any) -> Game:
    return dealt(user, TEN_UP, surrender="early")


def choosing_difficulty(user: Any) -> Game:
    game = dealt(user)
    _act(game, user, services.hit)
    game.refresh_from_db()
    return game


def question_shown(user: Any) -> Game:
    game = choosing_difficulty(user)
    _act(game, user, services.choose_difficulty, difficulty="easy")
    game.refresh_from_db()
    return game


def answered(user: Any) -> Game:
    """A wrong answer: the hand stands at once and the reveal shows beside the hand."""
    game = question_shown(user)
    attempt = game.trivia_attempts.get()
    _act(game, user, services.answer_question, answer=_wrong_answer(attempt))
    game.refresh_from_db()
    return game


def _wrong_answer(attempt: TriviaAttempt) -> str:
    return next(text for text in attempt.answers_shown if text != attempt.question.correct_answer)


def reveal_waiting_for_continue(user: Any) -> Game:
    """A wrong answer recorded but not carried into the round, as a game saved before
    answers were applied at once left it: its reveal waits for Continue."""
    game = question_shown(user)
    attempt = game.trivia_attempts.get()
    TriviaAttempt.objects.filter(pk=attempt.pk).update(
        answer_given=_wrong_answer(attempt),
        correct=False,
        credits_change=-1,
        answered_at=timezone.now(),
    )
    Game.objects.filter(pk=game.pk).update(
        credits=game.credits,
        status_note={"kind": "answered", "correct": False, "credits_change": -1},
        version=game.version + 1,
    )
    game.refresh_from_db()
    return game


def answered_right(user: Any) -> Game:
    """A right answer: the card is already dealt and the reveal shows on the felt."""
    game = question_shown(user)
    attempt = game.trivia_attempts.get()
    _act(game, user, services.answer_question, answer=attempt.question.correct_answer)
    game.refresh_from_db()
    return game


def round_over(user: Any) -> Game:
    game = trivia_off(user)
    _act(game, user, services.stand)
    game.refresh_from_db()
    return game


class ScriptedDice(random.Random):
    """A seeded generator whose ``randint`` calls (the Infinity dice) follow a script."""

    def __init__(self, faces: Sequence[int]) -> None:
        super().__init__(6)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0) if self.faces else super().randint(a, b)
