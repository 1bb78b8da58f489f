"""The table partial's last template nodes written by template tags (issue 14, fifth pass):
the top bar's End Game and Options, every panel but the side-bet offers (bet panel with
its side-bet menu, insurance / even money, early surrender, the trivia difficulty and
question, the dealer's turn, game over) and the status text. The table partial renders
the same HTML as the template text it replaces (table_partial_before.html, the reference,
with the two includes it had — the default Deal button, the side-bet menu — written in
place), runs of whitespace aside: the same characters, and whitespace wherever there was
some.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.messages.storage.base import Message
from django.template import Context, Template, engines

from game import services
from game.models import Game
from game.presentation import coach
from game.presentation.side_bet_menu import side_bet_menu
from game.presentation.table import TableView, table_view
from tests.game import scenarios
from tests.game.helpers import stack_shoe
from tests.game.html_tree import parse
from tests.game.presentation.test_side_bet_menu import with_stakes

pytestmark = pytest.mark.django_db

LOAD = "{% load partials table_tags table_felt table_panels rules_links %}"

# templates/game/table.html's table partial before (eac75d3), the includes written in; the
# side-bet menu's ``{% side_bet_menu game as menu %}`` (a call of
# game.presentation.side_bet_menu.side_bet_menu) is the context's ``menu``.
REFERENCE_TABLE = Template(LOAD + (Path(__file__).parent / "table_partial_before.html").read_text())

REFERENCE_STATUS_TEXT = Template(
    LOAD + "{% if notice %}{{ notice }}{% else %}{% for message in messages %}{{ message }} "
    "{% endfor %}{% if coach_note %}{{ coach_note }} {% endif %}{% if coach_hint %}"
    "{{ coach_hint.hint_text }} {% endif %}{{ view.message }}{% endif %}"
)

HOSTILE = '<script>alert("x")</script> & \'quotes\' "too" &amp;'
TOKEN = "a-csrf-token"


def _runs_collapsed(html: str) -> str:
    return re.sub(r"\s+", " ", html).strip()


@pytest.fixture
def hostile_questions(db) -> None:
    """The only questions in the bank: their category, text and answers are hostile."""
    from tests.trivia.factories import CategoryFactory, QuestionFactory

    category = CategoryFactory(name=f"Cat {HOSTILE}")
    for difficulty in ("easy", "medium", "hard"):
        QuestionFactory(
            category=category,
            difficulty=difficulty,
            text=f"Q {difficulty} {HOSTILE}?",
            correct_answer=f"Right {HOSTILE}",
            incorrect_answers=[f"Wrong {HOSTILE}", "B & B", "<i>c</i>"],
        )


def _act(game: Game, user: Any, service: Callable[..., Game], **kwargs: Any) -> Game:
    game.refresh_from_db()
    service(game_id=game.pk, user=user, version=game.version, **kwargs)
    game.refresh_from_db()
    return game


def _new(user: Any, cards: list[str], **options: Any) -> Game:
    return stack_shoe(services.new_game(user=user, options=options), cards)


def _bet_typed(user: Any) -> Game:
    game = scenarios.betting(user)
    Game.objects.filter(pk=game.pk).update(pending_bet_cents=2550)
    game.refresh_from_db()
    return game


def _double_needs_a_question(user: Any) -> Game:
    # Player 5S 6D (11) against a six: Double Down is allowed and asks the difficulty.
    game = scenarios.dealt(user, ["5S", "0H", "6D", "6C", "2H", "KD"])
    return _act(game, user, services.double)


def _even_money(user: Any) -> Game:
    return scenarios.dealt(user, ["AS", "6H", "0D", "AC", "2H"], even_money=True)


def _over(user: Any, game: Game) -> Game:
    return _act(game, user, services.end_game)


# Each state: (how to bring a game there, a change to its view model, the panel expected).
STATES: dict[str, tuple[Callable[[Any], Game], Callable[[TableView], None] | None, str]] = {
    "bet": (scenarios.betting, None, "bet"),
    "bet typed": (_bet_typed, None, "bet"),
    "bet, side bets open": (
        lambda user: with_stakes(
            scenarios.betting(user), {"21+3": 500, "perfect_pair": 100}, extra_bet=True
        ),
        None,
        "bet",
    ),
    "bet, side bets open, nothing staked": (
        lambda user: with_stakes(scenarios.betting(user), {}),
        None,
        "bet",
    ),
    "bet, side bets closed": (
        lambda user: with_stakes(scenarios.betting(user), {"21+3": 500}, menu_open=False),
        None,
        "bet",
    ),
    "bet, no side bets": (
        lambda user: _new(user, scenarios.PLAIN, side_bets=False),
        None,
        "bet",
    ),
    "bet, three boxes": (lambda user: _new(user, scenarios.PLAIN, seats=3), None, "bet"),
    "player's turn": (scenarios.dealt, None, "player_turn"),
    "insurance": (scenarios.insurance, None, "insurance"),
    "insurance, accept refused": (
        scenarios.insurance,
        lambda view: setattr(view, "accept_reason", HOSTILE),
        "insurance",
    ),
    "even money": (_even_money, None, "even_money"),
    "early surrender": (scenarios.early_surrender, None, "early_surrender"),
    "difficulty for a hit": (scenarios.choosing_difficulty, None, "trivia_difficulty"),
    "difficulty for a double": (_double_needs_a_question, None, "trivia_difficulty"),
    "difficulty, one credit each": (
        scenarios.choosing_difficulty,
        lambda view: setattr(view, "difficulty_hints", {"easy": 1, "hard": 2}),
        "trivia_difficulty",
    ),
    "question": (scenarios.question_shown, None, "trivia_question"),
    "wrong answer's reveal": (scenarios.answered, None, "trivia_reveal"),
    "right answer on the felt": (scenarios.answered_right, None, "player_turn"),
    "dealer's turn": (scenarios.dealt, lambda view: setattr(view, "panel", "dealer_turn"), ""),
    "outcome": (scenarios.round_over, None, "outcome"),
    "game over between rounds": (
        lambda user: _over(user, scenarios.betting(user)),
        None,
        "game_over",
    ),
    "game over after a round": (
        lambda user: _over(user, scenarios.round_over(user)),
        None,
        "game_over",
    ),
}


def _context(game: Game, view: TableView, **extra: Any) -> Context:
    return Context(
        {
            "view": view,
            "notice": "",
            **coach.table_context(game, view, hint=False),
            "csrf_token": TOKEN,
            "messages": [],
            "menu": side_bet_menu(game),
            **extra,
        }
    )


def _state(name: str, user: Any) -> tuple[Game, TableView]:
    make, change, panel = STATES[name]
    game = make(user)
    view = table_view(game)
    if change:
        change(view)
    assert not panel or view.panel == panel
    return game, view


def _new_table(context: Context) -> str:
    return engines["django"].engine.get_template("game/table.html#table").render(context)


@pytest.mark.usefixtures("hostile_questions")
@pytest.mark.parametrize("name", list(STATES))
def test_the_table_partial_writes_what_the_template_wrote(player: Any, name: str) -> None:
    game, view = _state(name, player)
    old = REFERENCE_TABLE.render(_context(game, view))
    new = _new_table(_context(game, view))
    assert _runs_collapsed(new) == _runs_collapsed(old)
    # Whitespace only where there was some: the same text with every run taken out.
    assert re.sub(r"\s+", "", new) == re.sub(r"\s+", "", old)


@pytest.mark.usefixtures("hostile_questions")
@pytest.mark.parametrize(
    "name",
    ["question", "wrong answer's reveal", "right answer on the felt", "insurance, accept refused"],
)
def test_hostile_text_comes_out_escaped(player: Any, name: str) -> None:
    game, view = _state(name, player)
    html = _new_table(_context(game, view))
    assert "<script>" not in html and "<i>c</i>" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;quotes&#x27;" in html
    tree = parse(html)
    if name == "insurance, accept refused":
        assert tree.select_one('button[value="accept"]')["title"] == HOSTILE
    else:
        assert HOSTILE in tree.text()


@pytest.mark.usefixtures("hostile_questions")
def test_the_question_panel_shows_the_question_and_its_category_as_text(player: Any) -> None:
    game, view = _state("question", player)
    tree = parse(_new_table(_context(game, view)))
    assert tree.select_one("#trivia-question").text() == f"Q easy {HOSTILE}?"
    assert f"Cat {HOSTILE}" in tree.select_one(".trivia-meta").text()


STATUS_CONTEXTS: dict[str, dict[str, Any]] = {
    "the table's message": {},
    "a notice": {"notice": HOSTILE},
    "messages, the coach's note and hint": {
        "messages": [Message(20, HOSTILE), Message(25, "Saved & done")],
        "coach_note": f"Note {HOSTILE}",
        "coach_hint": type("Hint", (), {"hint_text": f"Hint {HOSTILE}"})(),
    },
}


@pytest.mark.parametrize("extra", list(STATUS_CONTEXTS))
def test_the_status_text_is_what_the_template_wrote(player: Any, extra: str) -> None:
    game, view = _state("player's turn", player)
    view.message = f"Your turn {HOSTILE}"
    context = _context(game, view, **STATUS_CONTEXTS[extra])
    new = engines["django"].engine.get_template("game/table.html#status_text").render(context)
    assert new == REFERENCE_STATUS_TEXT.render(_context(game, view, **STATUS_CONTEXTS[extra]))
    assert "<script>" not in new
