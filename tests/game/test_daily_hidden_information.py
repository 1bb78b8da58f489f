"""Nothing of today's Daily Shoe reaches a response before the player's own round shows it
(FAIRNESS.md D-5, D-8; R-2.3, R-8.6): not the day's seed, a round shoe's seed, the day's
question lists, the hole card or the cards to come, nor the right answer, in the table, its
partials, the Daily pages, the leaderboard, the Fairness JSON or the front door."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from django.test import Client

from game.models import Game, TriviaAttempt
from game.rules.cards import card_name
from game.services import daily
from tests.game.factories import PlayerFactory
from tests.game.test_daily_attempts import day, deal, today  # noqa: F401 - fixtures
from tests.pages import without_csrf_tokens

HTMX = {"HTTP_HX_REQUEST": "true"}


def seeds_in(value: Any) -> Iterator[str]:
    """Every value stored under a key naming a seed, anywhere in the engine's state."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if "seed" in key and isinstance(inner, str) and len(inner) >= 32:
                yield inner
            yield from seeds_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from seeds_in(inner)


def secrets_of(game: Game, day_shoe: Any) -> list[str]:
    """What the player may not see yet, as it would be written in a response."""
    game.refresh_from_db()
    round_ = game.state["round"]
    seen = {card for hand in round_["hands"] for card in hand["cards"]} | {round_["dealer"][1]}
    hole = round_["dealer"][0]
    secrets = [day_shoe.server_seed, *seeds_in(game.state)]
    secrets += [",".join(str(qid) for qid in ids) for ids in day_shoe.questions.values()]
    secrets.append(json.dumps(game.state["shoe"]["cards"][:4]))
    if hole not in seen:
        secrets += [card_name(hole), f'"{hole}"']
    return secrets


def test_no_daily_response_holds_what_the_player_may_not_see_yet(day, client: Client) -> None:  # noqa: F811
    ana = PlayerFactory()
    game = daily.start_attempt(user=ana, day=day).game
    client.force_login(ana)
    responses = [client.get(f"/games/{game.pk}/").content.decode()]
    responses.append(
        client.post(
            f"/games/{game.pk}/deal/", {"version": game.version, "amount": "100.00"}, **HTMX
        ).content.decode()
    )
    game.refresh_from_db()
    if game.state["round"]["phase"] == "player_turn":
        responses.append(
            client.post(
                f"/games/{game.pk}/hit/", {"version": game.version, "difficulty": "easy"}, **HTMX
            ).content.decode()
        )
    game.refresh_from_db()
    assert game.state["round"] is not None and not game.state["round"]["hole_revealed"]
    pending = (
        TriviaAttempt.objects.get(pk=game.pending_trivia_id) if game.pending_trivia_id else None
    )
    iso = day.date.isoformat()
    for address in (
        f"/games/{game.pk}/",
        f"/games/{game.pk}/fairness/",
        f"/games/{game.pk}/fairness/?format=json",
        "/daily/",
        f"/daily/{iso}/leaderboard/",
        f"/daily/{iso}/fairness/?format=json",
        "/",
    ):
        responses.append(client.get(address).content.decode())
    secrets = secrets_of(game, day)
    for body in map(without_csrf_tokens, responses):
        for secret in secrets:
            assert secret not in body, secret
        assert "(right answer)" not in body and "right-answer" not in body
        if pending is not None:
            # The right answer is one of the choices shown, never marked as the right one.
            assert f'data-correct="{pending.question.correct_answer}"' not in body
