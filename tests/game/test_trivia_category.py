"""A category per game (R-8.10): chosen beside the difficulty (a plain form, with or without
htmx), remembered on the game and shown chosen; one that does not exist or has no active
question is refused with a message and a 4xx, and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from game.models import Game
from game.presentation.notices import REFUSALS
from tests.game import scenarios
from tests.game.helpers import post
from tests.game.html_tree import parse as parse_html
from tests.trivia.factories import CategoryFactory, QuestionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def categories(db) -> dict[str, Any]:
    history, science, empty = (
        CategoryFactory(name="History"),
        CategoryFactory(name="Science"),
        CategoryFactory(name="Empty"),
    )
    for category in (history, science):
        QuestionFactory.create_batch(3, category=category, difficulty="medium")
    QuestionFactory(category=empty, active=False)
    return {"history": history, "science": science, "empty": empty}


@pytest.fixture
def client(player) -> Client:
    client = Client()
    client.force_login(player)
    return client


def _asked_category(game: Game) -> str:
    game.refresh_from_db()
    return game.pending_trivia.question.category.name


@pytest.mark.parametrize("htmx", [False, True])
def test_the_category_chosen_with_the_difficulty_is_asked_and_remembered(
    player, client, categories, htmx: bool
) -> None:
    game = scenarios.choosing_difficulty(player)
    science = categories["science"]
    response = post(client, game, "difficulty", htmx=htmx, difficulty="medium", category=science.pk)
    assert response.status_code == (200 if htmx else 302)
    assert _asked_category(game) == "Science"
    assert game.trivia_category_id == science.pk


def test_the_select_lists_the_categories_with_questions_and_shows_the_games_own(
    player, client, categories
) -> None:
    game = scenarios.choosing_difficulty(player)
    Game.objects.filter(pk=game.pk).update(trivia_category=categories["science"])
    page = client.get(f"/games/{game.pk}/").content.decode()
    form = next(
        f for f in parse_html(page).select("form") if f.select_one('select[name="category"]')
    )
    select = form.one('select[name="category"]')
    options = [(option["value"], option.text()) for option in select.select("option")]
    assert options == [
        ("any", "Any category"),
        (str(categories["history"].pk), "History"),
        (str(categories["science"].pk), "Science"),
    ]
    assert select.one("option[selected]").text() == "Science"
    # Inside the form the difficulty buttons post: it goes with them, with no script.
    assert form.select('button[name="difficulty"]')


def test_any_category_forgets_the_one_remembered(player, client, categories) -> None:
    game = scenarios.choosing_difficulty(player)
    Game.objects.filter(pk=game.pk).update(trivia_category=categories["science"])
    assert post(client, game, "difficulty", difficulty="medium", category="any").status_code == 302
    game.refresh_from_db()
    assert game.trivia_category_id is None


@pytest.mark.parametrize("which", ["empty", "missing", "not a number"])
def test_a_category_without_questions_is_refused_and_nothing_changes(
    player, client, categories, which: str
) -> None:
    game = scenarios.choosing_difficulty(player)
    version = game.version
    value = {"empty": categories["empty"].pk, "missing": 10**9, "not a number": "x1"}[which]
    response = post(client, game, "difficulty", htmx=True, difficulty="medium", category=value)
    assert 400 <= response.status_code < 500
    assert REFUSALS["no_such_category"] in response.content.decode()
    game.refresh_from_db()
    assert game.version == version and game.pending_trivia is None
    assert game.trivia_category_id is None
