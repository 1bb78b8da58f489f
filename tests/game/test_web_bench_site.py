"""The two views bench/web_bench.py measures the game against (bench/bench_site/urls.py):
the bare view, and the floor — a game row locked and written back in one transaction. The
benchmark's figures mean something only if these do what they say."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import override_settings

from game.models import Game

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(autouse=True)
def bench_urls(monkeypatch: pytest.MonkeyPatch):
    # bench_site is not on the project's path: only the benchmark loads it.
    monkeypatch.syspath_prepend(str(BENCH))
    with override_settings(ROOT_URLCONF="bench_site.urls"):
        yield


def test_bare_view_writes_the_login_time_and_answers_200(alice, player):
    response = alice.post("/bench/bare/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert b'id="bare"' in response.content
    player.refresh_from_db()
    assert player.last_login is not None


def test_floor_writes_the_game_row_back_and_leaves_its_version(alice, make_game):
    game = make_game()
    before = Game.objects.get(pk=game.pk)
    response = alice.post("/bench/floor/", {"game": str(game.pk)}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    after = Game.objects.get(pk=game.pk)
    assert after.last_played > before.last_played
    # The table's own next post must not go stale because the bench touched the row.
    assert after.version == before.version
    assert after.state == before.state


def test_floor_finds_no_other_players_game(client_for, other_player, make_game):
    game = make_game()
    before = Game.objects.get(pk=game.pk)
    response = client_for(other_player).post("/bench/floor/", {"game": str(game.pk)})
    assert response.status_code == 404
    assert Game.objects.get(pk=game.pk).last_played == before.last_played


@pytest.mark.parametrize("posted", [{}, {"game": ""}, {"game": "x1"}, {"game": "-3"}])
def test_floor_answers_bad_input_404(alice, posted):
    assert alice.post("/bench/floor/", posted).status_code == 404


def test_bench_views_want_a_login_and_a_post(client, alice, make_game):
    game = make_game()
    assert client.post("/bench/floor/", {"game": str(game.pk)}).status_code == 302
    assert alice.get("/bench/floor/").status_code == 405
    assert alice.get("/bench/bare/").status_code == 405
