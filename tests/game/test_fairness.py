"""Committed shoes as a player meets them (FAIRNESS.md F-1…F-7): the commitment on the felt
before the first card, Shuffle now, the client seed, the Fairness page and its JSON, the
standalone verifier on a whole game, and no seed anywhere before its shoe ends."""

from __future__ import annotations

import hashlib
import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from game import services
from game.models import Game, GameShoe
from game.rules.fair import shoe_order
from tests.game.helpers import post

VERIFIER = Path(__file__).resolve().parents[2] / "tools" / "verify_shoe.py"
F7_FIELDS = {"nonce", "commitment", "client_seed", "server_seed", "deck_count", "cards_dealt"}


def new_game(player: Any, **options: Any) -> Game:
    return services.new_game(user=player, options={"trivia_mode": False, **options})


def play_round(client: Client, game: Game, received: list[str]) -> None:
    """Deal $10 and stand every hand (offers declined), as the page posts, keeping every
    answer the browser got."""
    received.append(post(client, game, "deal", htmx=True, amount="10").content.decode())
    for _ in range(20):
        game.refresh_from_db()
        if game.showing_outcome or game.is_over:
            return
        phase = game.state["round"]["phase"]
        if phase in ("insurance", "even_money", "early_surrender"):
            action = "insurance" if phase != "early_surrender" else "early-surrender"
            answer = post(client, game, action, htmx=True, choice="decline")
        else:
            answer = post(client, game, "stand", htmx=True)
        received.append(answer.content.decode())
    raise AssertionError("the round did not end")


def open_shoe(game: Game) -> GameShoe:
    return GameShoe.objects.get(game=game, revealed_at__isnull=True)


def open_seed(game: Game) -> str:
    game.refresh_from_db()
    return game.state["fair"]["current"]["server_seed"]


def test_a_new_game_shows_its_shoes_commitment_on_the_felt_before_the_first_card(
    player, client_for
) -> None:
    game = new_game(player)
    shoe = open_shoe(game)
    assert shoe.nonce == 1 and shoe.server_seed == "" and shoe.cards_dealt == []
    page = client_for(player).get(f"/games/{game.pk}/").content.decode()
    assert shoe.commitment in page and shoe.commitment[:10] + "…" in page
    assert shoe.client_seed in page
    assert open_seed(game) not in page


def test_shuffle_now_reveals_the_shoe_and_opens_the_next(player, client_for) -> None:
    client = client_for(player)
    game = new_game(player)
    first = open_shoe(game)
    play_round(client, game, [])
    game.refresh_from_db()
    dealt = [card for hand in game.state["round"]["hands"] for card in hand["cards"]]
    answer = post(client, game, "shuffle-now", htmx=True)
    assert answer.status_code == 200
    first.refresh_from_db()
    assert first.revealed and hashlib.sha256(bytes.fromhex(first.server_seed)).hexdigest() == (
        first.commitment
    )
    order = shoe_order(bytes.fromhex(first.server_seed), first.client_seed, 1, 6)
    assert first.cards_dealt == order[: len(first.cards_dealt)]
    assert set(dealt) <= set(first.cards_dealt)
    assert open_shoe(game).nonce == 2
    assert open_shoe(game).commitment in answer.content.decode()


def test_shuffle_now_is_refused_mid_round_another_players_game_and_a_get(
    player, other_player, client_for
) -> None:
    client = client_for(player)
    game = new_game(player)
    services.place_bet_and_deal(game_id=game.pk, user=player, version=game.version, bet_cents=1000)
    game.refresh_from_db()
    if not game.showing_outcome:
        version = game.version
        assert post(client, game, "shuffle-now", htmx=True).status_code == 422
        game.refresh_from_db()
        assert game.version == version and GameShoe.objects.filter(game=game).count() == 1
    assert post(client_for(other_player), game, "shuffle-now").status_code == 404
    assert client.get(f"/games/{game.pk}/shuffle-now/").status_code == 405


def test_the_client_seed_is_set_between_shoes_and_shuffles_the_fresh_shoe(
    player, client_for
) -> None:
    client = client_for(player)
    game = new_game(player, deck_count=1)
    before = open_shoe(game)
    answer = client.post(
        f"/games/{game.pk}/client-seed/",
        {"version": game.version, "client_seed": "lucky seven", "back": "fairness"},
    )
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/fairness/"
    shoe = open_shoe(game)
    assert (shoe.nonce, shoe.commitment, shoe.client_seed) == (1, before.commitment, "lucky seven")
    game.refresh_from_db()
    seed = bytes.fromhex(game.state["fair"]["current"]["server_seed"])
    assert game.state["shoe"]["cards"] == shoe_order(seed, "lucky seven", 1, 1)


@pytest.mark.parametrize(
    ("seed", "status"),
    [("", 422), ("x" * 65, 422), ("tab\there", 422), ("é", 422)],
    ids=["empty", "65 characters", "not printable", "not ASCII"],
)
def test_a_bad_client_seed_is_refused_and_changes_nothing(
    player, client_for, seed: str, status: int
) -> None:
    game = new_game(player)
    answer = client_for(player).post(
        f"/games/{game.pk}/client-seed/", {"version": game.version, "client_seed": seed}
    )
    assert answer.status_code == status
    assert "client seed" in answer.content.decode().lower()
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_client_seed_without_a_version_mid_shoe_or_for_another_game_is_refused(
    player, other_player, client_for
) -> None:
    client = client_for(player)
    game = new_game(player)
    assert client.post(f"/games/{game.pk}/client-seed/", {"client_seed": "ok"}).status_code == 400
    play_round(client, game, [])
    game.refresh_from_db()
    answer = client.post(
        f"/games/{game.pk}/client-seed/", {"version": game.version, "client_seed": "late"}
    )
    assert answer.status_code == 422 and "Shuffle now" in answer.content.decode()
    assert open_shoe(game).client_seed != "late"
    other = client_for(other_player).post(
        f"/games/{game.pk}/client-seed/", {"version": game.version, "client_seed": "mine"}
    )
    assert other.status_code == 404
    assert client.get(f"/games/{game.pk}/client-seed/").status_code == 405


def test_the_fairness_page_and_its_json_are_the_players_alone(
    player, other_player, client_for
) -> None:
    client = client_for(player)
    game = new_game(player)
    play_round(client, game, [])
    post(client, game, "shuffle-now")
    page = client.get(f"/games/{game.pk}/fairness/")
    assert page.status_code == 200 and page["Cache-Control"].startswith("max-age=0")
    text = page.content.decode()
    assert "Revealed when this shoe ends." in text and "data-fairness-shoe" in text
    shoes = client.get(f"/games/{game.pk}/fairness/?format=json").json()["shoes"]
    assert [set(shoe) for shoe in shoes] == [F7_FIELDS, F7_FIELDS]
    assert shoes[0]["server_seed"] is not None and shoes[1]["server_seed"] is None
    assert shoes[0]["deck_count"] == 6 and shoes[1]["cards_dealt"] == []
    for path in ("fairness/", "fairness/?format=json"):
        assert client_for(other_player).get(f"/games/{game.pk}/{path}").status_code == 404
    assert Client().get(f"/games/{game.pk}/fairness/").status_code == 302


def test_the_verifier_can_be_downloaded_from_the_page() -> None:
    answer = Client().get("/fairness/verify_shoe.py")
    assert answer.status_code == 200
    assert b"".join(answer.streaming_content) == VERIFIER.read_bytes()


def run_verifier(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(VERIFIER), str(path)], capture_output=True, text=True, check=False
    )


def test_a_whole_game_through_several_shoes_verifies_with_the_standalone_script(
    player, client_for, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """One deck, so the cut card comes often; every answer the browser got and every log
    line is kept, and no shoe's seed is in any of them before that shoe ends."""
    caplog.set_level(logging.DEBUG)
    client = client_for(player)
    game = new_game(player, deck_count=1)
    received: list[str] = []
    seeds_seen_open: set[str] = set()
    for round_number in range(24):
        seeds_seen_open.add(open_seed(game))
        play_round(client, game, received)
        if round_number % 10 == 9:
            received.append(post(client, game, "shuffle-now", htmx=True).content.decode())
        received.append(client.get(f"/games/{game.pk}/").content.decode())
        received.append(client.get(f"/games/{game.pk}/fairness/?format=json").content.decode())
        # Everything received so far, before the shoe now open is revealed.
        now_open = open_seed(game)
        assert not any(now_open in text for text in received)
        assert now_open not in caplog.text
    client.post(f"/games/{game.pk}/end/", {"version": Game.objects.get(pk=game.pk).version})
    shoes = client.get(f"/games/{game.pk}/fairness/?format=json").json()["shoes"]
    assert len(shoes) >= 4 and all(shoe["server_seed"] for shoe in shoes)
    # Every shoe that was open during the game is revealed now, and only once.
    assert seeds_seen_open <= {shoe["server_seed"] for shoe in shoes}
    assert len({shoe["server_seed"] for shoe in shoes}) == len(shoes)
    path = tmp_path / "shoes.json"
    path.write_text(json.dumps({"shoes": shoes}))
    checked = run_verifier(path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("✔") == len(shoes)

    # The same shoes with two different cards of one of them swapped: refused.
    cards = shoes[1]["cards_dealt"]
    other = next(i for i, card in enumerate(cards) if card != cards[0])
    cards[0], cards[other] = cards[other], cards[0]
    path.write_text(json.dumps({"shoes": shoes}))
    refused = run_verifier(path)
    assert refused.returncode == 1 and "✘" in refused.stdout


def test_a_game_stored_before_committed_shoes_plays_its_shoe_out_then_commits_the_next(
    player, client_for
) -> None:
    client = client_for(player)
    game = new_game(player)
    state = {key: value for key, value in game.state.items() if key != "fair"}
    GameShoe.objects.filter(game=game).delete()
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    cards = list(state["shoe"]["cards"])
    play_round(client, game, [])
    game.refresh_from_db()
    dealt = [card for hand in game.state["round"]["hands"] for card in hand["cards"]]
    assert set(dealt) <= set(cards[:12])  # dealt from the old shoe as it was
    assert not GameShoe.objects.filter(game=game).exists()
    assert "Fairness" in client.get(f"/games/{game.pk}/").content.decode()
    post(client, game, "shuffle-now")
    assert open_shoe(game).nonce == 1  # the next shoe is committed
    assert not GameShoe.objects.filter(game=game, revealed_at__isnull=False).exists()
