"""Helpers shared by the game tests (fixtures live in conftest.py)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.test import Client

from game.models import Game, TriviaAttempt
from game.tables.views.rendering import TABLE_ACTIONS
from game.views.actions import ACTIONS

# Every route under /games/<id>/ and /tables/<id>/, by the path after the id.
GAME_ROUTES = [
    "",
    "end/",
    "options/",
    "options/house-edge/",
    "report-question/",
    "extra-bet/chip/",
    *(f"{action}/" for action in ACTIONS),
]
TABLE_ROUTES = ["", "events/", "options/", "invite/", *(f"{action}/" for action in TABLE_ACTIONS)]


def stack_shoe(game: Game, cards: Sequence[str]) -> Game:
    """Put ``cards`` on top of the game's shoe (next to be dealt), in deal order."""
    state = dict(game.state)
    shoe = dict(state["shoe"])
    shoe["cards"] = list(cards) + list(shoe["cards"])
    shoe["size"] = max(shoe["size"], len(shoe["cards"]))
    state["shoe"] = shoe
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    return game


def script_dice(game: Game, faces: Sequence[int]) -> Game:
    """Make the game's next Infinity dice ``faces`` (as a replay file gives them) instead
    of the shoe's committed dice stream."""
    game.refresh_from_db()
    state = {**game.state, "dice_queue": list(faces)}
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    return game


def post(client: Client, game: Game, action: str, *, htmx: bool = False, **data: Any) -> Any:
    """Post an action with the game's current version (unless given)."""
    game.refresh_from_db()
    payload = {"version": str(game.version), **{k: str(v) for k, v in data.items()}}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    url = f"/games/{game.pk}/{action}/"
    return client.post(url, payload, **headers)


def asked_before(game: Game, question: Any) -> TriviaAttempt:
    """``question`` asked earlier in ``game``: answered right and settled."""
    return TriviaAttempt.objects.create(
        game=game,
        hand_index=0,
        action="hit",
        question=question,
        difficulty=question.difficulty,
        answers_shown=[question.correct_answer, *question.incorrect_answers],
        answer_given=question.correct_answer,
        correct=True,
        credits_change=1,
        applied=True,
        answered_at=game.created,
    )


def post_at_once(user: Any, url: str, data: dict[str, str], *, posts: int) -> list[int]:
    """``posts`` clients logged in as ``user`` post ``data`` to ``url`` at the same moment
    (each on a thread and a database connection of its own, held at a barrier until all
    are ready); the status codes they got, sorted. Needs a test with
    ``django_db(transaction=True)``: the threads see only committed rows."""
    barrier = threading.Barrier(posts)
    statuses: list[int] = []

    def send() -> None:
        client = Client()
        client.force_login(user)
        try:
            barrier.wait()
            statuses.append(client.post(url, data).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(posts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(statuses)
