"""Hostile input, everywhere, in every phase: never a 500, a sentence when refused, no change.

A property test (hypothesis) posts random and hostile values to every player action, the
Options form, the chip views and the question report, through the test client, on a game
brought to each phase of a round. Each phase's game is built once a test and each example
runs in a savepoint that is rolled back, so every example starts from the same game.
Whatever is posted:

* the answer is never a server error;
* a refusal (4xx) carries a message a player can read (no Python repr, no traceback);
* a refusal changes nothing: the game row, its rounds, trivia attempts and reports.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.models import Game, Round, TriviaAttempt
from game.views.actions import ACTIONS
from tests.game import scenarios
from tests.game.presentation.test_side_bet_panels import TEN_FIRST, deal
from tests.game.test_options_house_edge import form_data
from trivia.models import QuestionReport

pytestmark = pytest.mark.django_db

HOSTILE_TEXT = [
    "", " ", "0", "-1", "1e3", "1E400", "NaN", "inf", "-0", "0x10", "²", "𝟙𝟘", "١٠", "１０",
    "9" * 20, "9" * 5000, "1.005", "12,34", "$", "$-5", "5.", ".5", "\x00", "<script>",
    "'; DROP TABLE game_game; --", "{{ 7*7 }}", "%s", "\u202e25", "25\n", "true", "None",
    "null", "[]", "{}", "accept", "decline", "easy", "hard", "on", "off", "21+3:5",
    "perfect_pair:25", "lucky_ladies:²", "21+3:" + "9" * 400, "insane", "A" * 3000,
]  # fmt: skip
FIELDS = [
    "version", "amount", "chip", "choice", "difficulty", "answer", "side_chip", "bet",
    "active", "menu", "attempt", "reason", "note", "starting_bank", "min_bet", "max_bet",
    "deck_count", "charlie", "surrender", "double_on", "blackjack_payout", "dealer_stands_on",
    "reset", "estimate",
]  # fmt: skip
# Every POST endpoint of a game, by the path after /games/<id>/.
ENDPOINTS = [*ACTIONS, "end", "options", "extra-bet/chip", "report-question", "no-such-action"]
# The fields each endpoint reads (besides the version): hostile values go there first.
OPTION_FIELDS = ["starting_bank", "min_bet", "max_bet", "deck_count", "charlie", "surrender"]
READS: dict[str, list[str]] = {
    "chip": ["chip", "amount"],
    "deal": ["amount"],
    "extra-bet": ["choice", "amount"],
    "insurance": ["choice"],
    "early-surrender": ["choice"],
    "difficulty": ["difficulty"],
    "answer": ["answer"],
    "parlay": ["choice"],
    "side-bets-menu": ["menu", "amount"],
    "side-chip": ["side_chip", "amount"],
    "side-clear": ["bet", "amount"],
    "side-clear-all": ["amount"],
    "extra-bet-activate": ["active", "amount"],
    "extra-bet/chip": ["chip", "amount"],
    "report-question": ["attempt", "reason", "note"],
    "options": [*OPTION_FIELDS, "reset", "estimate"],
}

hostile_text = st.one_of(
    st.sampled_from(HOSTILE_TEXT),
    st.text(max_size=40),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.decimals(allow_nan=True, allow_infinity=True, places=3).map(str),
)


def _phase_builders() -> dict[str, Callable[[Any], Game]]:
    def over(user: Any) -> Game:
        game = scenarios.betting(user)
        from game import services

        return services.end_game(game_id=game.pk, user=user, version=game.version).game

    return {
        "betting": scenarios.betting,
        "player turn (trivia)": scenarios.dealt,
        "player turn": scenarios.trivia_off,
        "pair": scenarios.pair,
        "insurance": scenarios.insurance,
        "early surrender": scenarios.early_surrender,
        "choosing difficulty": scenarios.choosing_difficulty,
        "question shown": scenarios.question_shown,
        "answered": scenarios.answered,
        "round over": scenarios.round_over,
        "extra bet offered": lambda user: deal(user, TEN_FIRST, extra_bet=True),
        "game over": over,
    }


PHASES = _phase_builders()
NOTICE = re.compile(
    r'class="table-notice"[^>]*>(.*?)</|id="status-live"[^>]*>(.*?)</div>|'
    r'class="errorlist[^"]*"[^>]*><li>(.*?)</li>',
    re.S,
)
TECHNICAL = re.compile(r"Traceback|Decimal\(|ValueError|KeyError|TypeError|object at 0x|: ''|\{'")


def snapshot(game: Game) -> dict[str, Any]:
    return {
        "game": Game.objects.filter(pk=game.pk).values().get(),
        "rounds": list(Round.objects.filter(game=game).values()),
        "attempts": list(TriviaAttempt.objects.filter(game=game).values()),
        "reports": QuestionReport.objects.count(),
    }


def messages_in(text: str) -> list[str]:
    found = []
    for match in NOTICE.finditer(text):
        message = next(group for group in match.groups() if group is not None)
        message = re.sub(r"<[^>]+>", "", message).strip()
        if message:
            found.append(message)
    return found


def check_refusal(status: int, text: str) -> None:
    assert status in {400, 404, 409, 422}, status
    messages = messages_in(text)
    assert messages, f"a {status} without a message"
    for message in messages:
        assert not TECHNICAL.search(message), message
        assert message[0].isupper(), message
        assert len(message) < 400, message


@st.composite
def hostile_posts(draw: st.DrawFn, endpoint: str) -> tuple[str, dict[str, str], bool, str]:
    read = READS.get(endpoint, [])
    names = [name for name in read if draw(st.integers(0, 4))]  # each read field, mostly
    names += draw(st.lists(st.sampled_from(FIELDS), max_size=2, unique=True))
    data = {name: draw(hostile_text) for name in names}
    # Half the time the options form is complete, so a single bad field is what is judged.
    if endpoint == "options" and draw(st.booleans()):
        data = {**form_data(), **{k: v for k, v in data.items() if k != "version"}}
    version_kind = draw(st.sampled_from(["current", "current", "stale", "hostile", "missing"]))
    return endpoint, data, draw(st.booleans()), version_kind


class PhaseGames:
    """Each phase's game for one test, built the first time it is asked for (in the test's
    transaction, outside any example's savepoint), with what it holds before a post."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.client = Client(raise_request_exception=False)
        self.client.force_login(player)
        self.built: dict[str, tuple[Game, dict[str, Any]]] = {}

    def __getitem__(self, phase: str) -> tuple[Game, dict[str, Any]]:
        if phase not in self.built:
            game = PHASES[phase](self.player)
            game.refresh_from_db()
            self.built[phase] = (game, snapshot(game))
        return self.built[phase]


@pytest.fixture
def phase_games(player: Any, questions: Any) -> PhaseGames:
    return PhaseGames(player)


@pytest.mark.parametrize("phase", PHASES)
def test_every_endpoint_in_every_phase_with_a_superscript(
    phase: str, phase_games: PhaseGames
) -> None:
    """The exhaustive corner of the property: each endpoint × each phase, once."""
    failures = []
    for endpoint in ENDPOINTS:
        fields = READS.get(endpoint, ["amount"])
        try:
            run_post(endpoint, phase, dict.fromkeys(fields, "²"), True, "current", phase_games)
        except AssertionError as error:
            failures.append(f"{endpoint} in {phase}: {error}")
    assert failures == [], "\n".join(failures)


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@settings(
    max_examples=36,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_hostile_posts_never_fail_and_refusals_change_nothing(
    endpoint: str, data: st.DataObject, phase_games: PhaseGames
) -> None:
    phase = data.draw(st.sampled_from(list(PHASES)), label="phase")
    _, form, htmx, version_kind = data.draw(hostile_posts(endpoint), label="post")
    run_post(endpoint, phase, form, htmx, version_kind, phase_games)


def run_post(
    endpoint: str,
    phase: str,
    data: dict[str, str],
    htmx: bool,
    version_kind: str,
    phase_games: PhaseGames,
) -> None:
    game, before = phase_games[phase]
    with transaction.atomic():
        versions = {
            "current": str(game.version),
            "stale": str(game.version + 1),
            "hostile": data.get("version", "²"),
        }
        if version_kind in versions:
            data = {**data, "version": versions[version_kind]}
        else:
            data.pop("version", None)
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = phase_games.client.post(f"/games/{game.pk}/{endpoint}/", data, **headers)
        text = response.content.decode()
        assert response.status_code < 500, (endpoint, data, text[-2000:])
        if response.status_code >= 400:
            check_refusal(response.status_code, text)
            assert snapshot(game) == before, (endpoint, data)
        transaction.set_rollback(True)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(query=st.dictionaries(st.sampled_from(FIELDS), hostile_text, max_size=6))
def test_the_house_edge_fragment_never_fails(
    query: dict[str, str], phase_games: PhaseGames
) -> None:
    game, _ = phase_games["betting"]
    with transaction.atomic():
        response = phase_games.client.get(f"/games/{game.pk}/options/house-edge/", query)
        assert response.status_code in {200, 422}, response.content[-2000:]
        transaction.set_rollback(True)
