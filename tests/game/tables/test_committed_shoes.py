"""A shared table's committed shoes (FAIRNESS.md F-1, F-2, F-6): the commitment shown by the
felt before the first card, the seated players' seeds joined in seat order, each player's
own seed, the host's Shuffle now, the reveal when the table closes, and never the seed of
the shoe still dealing in anything a player receives."""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from game.core.errors import ActionRefused
from game.rules.fair import InvalidClientSeed, check_client_seed, shoe_order
from game.services import randomness
from game.tables import presentation, services
from game.tables.models import Seat, SharedTable, TableEvent, TableShoe
from tests.game.tables.helpers import bet_and_ready, seat_version, table_version
from tests.game.tables.test_hostile_input import table_as_stored

pytestmark = pytest.mark.django_db

VERIFIER = Path(__file__).resolve().parents[3] / "tools" / "verify_shoe.py"


@pytest.fixture(autouse=True)
def distinct_server_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every shoe's server seed its own (seeded: the same every run), so that a shoe's seed
    found anywhere is that shoe's."""
    seeds = random.Random(2026)
    monkeypatch.setattr(randomness, "server_seeds", lambda: seeds.randbytes)


@pytest.fixture
def short_streams(settings) -> None:
    settings.TABLE_STREAM_SECONDS = 0.1


class Viewers:
    """Test clients that keep every body they received (pages, answers, streams)."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self._clients: dict[int, Client] = {}

    def client(self, user: Any) -> Client:
        if user.pk not in self._clients:
            client = Client()
            client.force_login(user)
            self._clients[user.pk] = client
        return self._clients[user.pk]

    def page(self, user: Any, table: SharedTable) -> str:
        response = self.client(user).get(reverse("tables:table", args=[table.pk]))
        assert response.status_code == 200
        return self._keep(response.content.decode())

    def stream(self, user: Any, table: SharedTable) -> str:
        """Everything the live stream sends from the table's first event on."""
        url = reverse("tables:events", args=[table.pk])
        response = self.client(user).get(url, HTTP_LAST_EVENT_ID="0")
        return self._keep(b"".join(response.streaming_content).decode())

    def post(self, user: Any, table: SharedTable, action: str, **fields: Any) -> Any:
        url = reverse("tables:action", args=[table.pk, action])
        response = self.client(user).post(url, fields, HTTP_HX_REQUEST="true")
        self._keep(response.content.decode())
        return response

    def _keep(self, text: str) -> str:
        self.received.append(text)
        return text


@pytest.fixture
def viewers() -> Viewers:
    return Viewers()


def open_seed(table: SharedTable) -> str:
    """The server seed of the shoe the table is dealing from (stored server side only)."""
    table.refresh_from_db()
    return table.state["fair"]["current"]["server_seed"]


def cards_dealt_so_far(table: SharedTable) -> int:
    table.refresh_from_db()
    shoe = table.state["shoe"]
    return shoe["size"] - len(shoe["cards"])


def shoe_row(table: SharedTable, nonce: int) -> TableShoe:
    return TableShoe.objects.get(table=table, nonce=nonce)


def sha256_hex(seed_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def sit(table: SharedTable, user: Any, number: int) -> None:
    services.sit(table_id=table.pk, user=user, version=seat_version(table, user), number=number)


def set_seed(table: SharedTable, user: Any, seed: str) -> None:
    services.set_seat_client_seed(
        table_id=table.pk, user=user, version=seat_version(table, user), client_seed=seed
    )


def stand(table: SharedTable, *users: Any) -> None:
    for user in users:
        services.play(
            table_id=table.pk, user=user, version=seat_version(table, user), action="stand"
        )


def play_a_round(table: SharedTable, *users: Any) -> None:
    """Every player bets and stands, in seat order (a blackjack plays itself, a dealer's
    ends the round at once)."""
    for user in users:
        bet_and_ready(table, user)
    for user in sorted(users, key=lambda u: Seat.objects.get(table=table, player=u).number):
        table.refresh_from_db()
        if table.phase != SharedTable.Phase.ROUND:
            break
        with contextlib.suppress(ActionRefused):  # not this box's turn: nothing to decide
            stand(table, user)
    table.refresh_from_db()
    assert table.phase == SharedTable.Phase.INTERMISSION


@pytest.fixture
def pair_with_seeds(make_table, ana, ben):
    """ana's table: ben sits first, in seat 3, with seed "b"; ana then in seat 1 with "a"."""

    def make(**options: Any) -> SharedTable:
        table = make_table(**options)
        sit(table, ben, 3)
        sit(table, ana, 1)
        set_seed(table, ben, "b")
        set_seed(table, ana, "a")
        table.refresh_from_db()
        return table

    return make


# --------------------------------------------------------------------- F-1 the commitment


def test_a_tables_first_shoe_is_committed_before_its_first_card(
    make_table, ana, watcher, viewers, short_streams
):
    table = make_table()
    row = shoe_row(table, 1)
    seed = open_seed(table)
    assert row.commitment == sha256_hex(seed)
    assert (row.server_seed, row.cards_dealt, row.revealed_at) == ("", [], None)
    assert row.deck_count == services.table_options(table.options).deck_count
    assert cards_dealt_so_far(table) == 0
    for user in (ana, watcher):
        page = viewers.page(user, table)
        assert row.commitment[:10] + "…" in page
        assert row.commitment in page and "Shoe 1" in page
        assert f'href="{reverse("tables:fairness", args=[table.pk])}">Fairness</a>' in page
        # The live stream re-renders the table with the commitment in it.
        streamed = viewers.stream(user, table).split("event: table", 1)[1]
        assert row.commitment in streamed and "Shoe 1" in streamed
    assert not any(seed in text for text in viewers.received)


def test_the_tables_fairness_page_lists_its_shoes_to_whoever_may_see_the_table(
    make_table, ana, viewers, django_user_model
):
    table = make_table()
    url = reverse("tables:fairness", args=[table.pk])
    assert url == f"/tables/{table.pk}/fairness/"
    page = viewers.client(ana).get(url)
    assert page.status_code == 200
    assert shoe_row(table, 1).commitment in page.content.decode()
    assert "Revealed when this shoe ends." in page.content.decode()
    shoes = viewers.client(ana).get(url + "?format=json").json()["shoes"]
    assert [set(shoe) for shoe in shoes] == [
        {"nonce", "commitment", "client_seed", "server_seed", "deck_count", "cards_dealt"}
    ]
    assert shoes[0]["server_seed"] is None and shoes[0]["cards_dealt"] == []
    SharedTable.objects.filter(pk=table.pk).update(public=False)
    stranger = django_user_model.objects.create_user("stranger")
    for path in (url, url + "?format=json"):
        assert viewers.client(stranger).get(path).status_code == 404
    assert not any(open_seed(table) in text for text in viewers.received)


# --------------------------------------------------------------------- F-2 the seats' seeds


def test_the_first_deal_gives_the_shoe_the_seated_players_seeds_in_seat_order(
    pair_with_seeds, ana, ben
):
    table = pair_with_seeds()
    commitment = shoe_row(table, 1).commitment
    seed = open_seed(table)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    row = shoe_row(table, 1)
    assert row.client_seed == "a|b"  # seat 1's, then seat 3's: not the order they sat in
    assert row.commitment == commitment and open_seed(table) == seed  # the same shoe
    table.refresh_from_db()
    order = shoe_order(bytes.fromhex(seed), "a|b", 1, row.deck_count)
    left = table.state["shoe"]["cards"]
    assert order[len(order) - len(left) :] == left  # dealt from the shoe of "a|b"
    assert TableShoe.objects.filter(table=table).count() == 1


def test_the_felt_shows_the_seeds_the_untouched_shoe_will_be_dealt_with(
    pair_with_seeds, ana, viewers
):
    table = pair_with_seeds()
    page = viewers.page(ana, table)
    assert '<code class="shoe-info__seed">a|b</code>' in page
    # Her own seed, in her seat's Client seed field.
    assert 'name="client_seed" value="a"' in page


def test_a_seat_seed_changed_mid_shoe_waits_for_the_next_shoe(pair_with_seeds, ana, ben):
    table = pair_with_seeds()
    play_a_round(table, ana, ben)
    set_seed(table, ana, "c")
    play_a_round(table, ana, ben)  # the same shoe deals on with the seeds it began with
    assert list(TableShoe.objects.filter(table=table).values_list("nonce", "client_seed")) == [
        (1, "a|b")
    ]
    services.shuffle_now(table_id=table.pk, user=ana, version=table_version(table))
    assert shoe_row(table, 2).client_seed == "c|b"


def test_a_player_changes_only_their_own_seed(pair_with_seeds, ana, ben, watcher, viewers):
    table = pair_with_seeds()
    services.add_chip(table_id=table.pk, user=ana, version=seat_version(table, ana), chip_cents=500)
    before = table_as_stored(table)
    # Not seated: nothing to change.
    response = viewers.post(watcher, table, "client-seed", version="0", client_seed="w")
    assert response.status_code == 422
    assert escape(presentation.TABLE_REFUSALS["not_seated"]) in response.content.decode()
    assert table_as_stored(table) == before
    # An action names no seat: ana's seat's version posted by ben is checked against ben's.
    ana_version = seat_version(table, ana)
    assert ana_version != seat_version(table, ben)
    response = viewers.post(ben, table, "client-seed", version=str(ana_version), client_seed="x")
    assert response.status_code == 409
    assert table_as_stored(table) == before
    response = viewers.post(
        ben, table, "client-seed", version=str(seat_version(table, ben)), client_seed="ben's own"
    )
    assert response.status_code == 200
    seeds = dict(Seat.objects.filter(table=table).values_list("player__username", "client_seed"))
    assert seeds == {"ana": "a", "ben": "ben's own"}
    assert TableEvent.objects.filter(table=table, kind="client_seed_changed").count() == 3


@pytest.mark.parametrize("seed", ["", "x" * 65, "tab\there", "café", "bell\x07", "del\x7f"])
def test_a_seed_that_is_not_1_to_64_printable_ascii_is_refused(pair_with_seeds, ana, viewers, seed):
    table = pair_with_seeds()
    before = table_as_stored(table)
    response = viewers.post(
        ana, table, "client-seed", version=str(seat_version(table, ana)), client_seed=seed
    )
    assert response.status_code == 422
    with pytest.raises(InvalidClientSeed) as refusal:
        check_client_seed(seed)
    assert escape(str(refusal.value)) in response.content.decode()
    assert table_as_stored(table) == before


def test_a_64_character_seed_is_taken_as_typed(pair_with_seeds, ana, viewers):
    table = pair_with_seeds()
    seed = " ~" * 32
    response = viewers.post(
        ana, table, "client-seed", version=str(seat_version(table, ana)), client_seed=seed
    )
    assert response.status_code == 200
    assert Seat.objects.get(player=ana).client_seed == seed


def test_a_seed_from_a_stale_page_is_refused(pair_with_seeds, ana, viewers):
    table = pair_with_seeds()
    before = table_as_stored(table)
    stale = str(seat_version(table, ana) - 1)
    response = viewers.post(ana, table, "client-seed", version=stale, client_seed="late")
    assert response.status_code == 409
    assert table_as_stored(table) == before


def test_the_seed_form_is_on_the_players_own_seat_only(pair_with_seeds, ana, watcher, viewers):
    table = pair_with_seeds()
    page = viewers.page(ana, table)
    mine = page.split('data-seat="1"', 1)[1].split("</li>", 1)[0]
    assert '<label for="seat-seed-value">Client seed</label>' in mine
    assert 'maxlength="64"' in mine and ">Save</button>" in mine
    assert 'name="client_seed"' not in page.split('data-seat="3"', 1)[1].split("</li>", 1)[0]
    assert 'name="client_seed"' not in viewers.page(watcher, table)


# --------------------------------------------------------------------- F-6 Shuffle now


def test_shuffle_now_reveals_the_shoe_and_opens_the_next(pair_with_seeds, ana, ben, viewers):
    table = pair_with_seeds()
    seed = open_seed(table)
    play_a_round(table, ana, ben)
    dealt = cards_dealt_so_far(table)
    assert dealt >= 6
    page = viewers.page(ana, table)
    assert ">Shuffle now</button>" in page
    response = viewers.post(ana, table, "shuffle-now", version=str(table_version(table)))
    assert response.status_code == 200
    old = shoe_row(table, 1)
    assert old.server_seed == seed and sha256_hex(old.server_seed) == old.commitment
    assert old.revealed_at is not None
    order = shoe_order(bytes.fromhex(seed), "a|b", 1, old.deck_count)
    assert old.cards_dealt == order[:dealt]
    new = shoe_row(table, 2)
    assert new.commitment == sha256_hex(open_seed(table)) and new.commitment != old.commitment
    assert (new.server_seed, new.client_seed) == ("", "a|b")
    assert cards_dealt_so_far(table) == 0
    assert TableEvent.objects.filter(table=table, kind="shoe_shuffled").exists()
    assert escape(presentation.HOST_SHUFFLED_LINE) in viewers.page(ben, table)
    assert "Shoe 2" in response.content.decode()


def test_shuffle_now_is_the_hosts_between_rounds_with_cards_dealt(
    pair_with_seeds, ana, ben, viewers
):
    table = pair_with_seeds()

    def refused(user: Any, reason: str) -> None:
        before = table_as_stored(table)
        response = viewers.post(user, table, "shuffle-now", version=str(table_version(table)))
        assert response.status_code == 422
        assert escape(presentation.TABLE_REFUSALS[reason]) in response.content.decode()
        assert table_as_stored(table) == before

    refused(ana, "shoe_new")  # nothing dealt: the shoe is the newest already
    # Only the host sees the button; a post by another player is refused.
    assert ">Shuffle now</button>" not in viewers.page(ben, table)
    play_a_round(table, ana, ben)
    refused(ben, "host_only")
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    table.refresh_from_db()
    assert table.phase == SharedTable.Phase.ROUND
    refused(ana, "shuffle_between_rounds")
    assert ">Shuffle now</button>" not in viewers.page(ana, table)
    assert TableShoe.objects.filter(table=table).count() == 1


def test_the_host_sees_shuffle_now_disabled_with_its_reason_while_the_shoe_is_new(
    pair_with_seeds, ana, viewers
):
    table = pair_with_seeds()
    page = viewers.page(ana, table)
    reason = escape(presentation.TABLE_REFUSALS["shoe_new"])
    assert f'disabled title="{reason}">Shuffle now</button>' in page


# --------------------------------------------------------------------- F-6 the table closes


def test_closing_the_table_reveals_its_shoe(pair_with_seeds, ana, ben):
    table = pair_with_seeds()
    seed = open_seed(table)
    play_a_round(table, ana, ben)
    dealt = cards_dealt_so_far(table)
    services.close_table(table_id=table.pk, user=ana, version=table_version(table))
    row = shoe_row(table, 1)
    assert row.server_seed == seed and sha256_hex(seed) == row.commitment
    assert row.cards_dealt == shoe_order(bytes.fromhex(seed), "a|b", 1, row.deck_count)[:dealt]
    table.refresh_from_db()
    assert table.state["fair"]["current"] is None  # nothing left to keep secret
    client = Client()
    client.force_login(ben)
    shoes = client.get(reverse("tables:fairness", args=[table.pk]) + "?format=json").json()
    assert shoes["shoes"][0]["server_seed"] == seed
    path = Path(tempfile.mkdtemp()) / "shoes.json"
    path.write_text(json.dumps(shoes))
    checked = subprocess.run(
        [sys.executable, str(VERIFIER), str(path)], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0 and "✔" in checked.stdout


def test_a_table_closed_for_being_empty_reveals_its_shoe(make_table, ana, clock):
    table = make_table()
    seed = open_seed(table)
    sit(table, ana, 2)
    services.leave(table_id=table.pk, user=ana, version=seat_version(table, ana))
    clock.advance(seconds=31 * 60)
    services.apply_due_deadlines()
    table.refresh_from_db()
    assert table.is_closed
    row = shoe_row(table, 1)
    assert (row.server_seed, row.cards_dealt) == (seed, [])
    assert row.revealed_at is not None


# --------------------------------------------------------------------- never the open seed


def test_the_open_shoes_seed_reaches_no_player_during_play(
    pair_with_seeds, ana, ben, watcher, viewers, short_streams
):
    """Pages, action answers and live streams for the players and a watcher, through a
    deal, the plays, a seed change and Shuffle now: every body received is scanned for
    the seed of each shoe while it was open; and nothing stored for a page (the events,
    the shoe rows) holds it."""
    table = pair_with_seeds()
    open_seeds: list[str] = []

    def look(*, also_stream: bool = True) -> None:
        open_seeds.append(open_seed(table))
        for user in (ana, ben, watcher):
            viewers.page(user, table)
            if also_stream:
                viewers.stream(user, table)

    look()
    for user in (ana, ben):
        viewers.post(user, table, "chip", version=str(seat_version(table, user)), chip="10")
        viewers.post(user, table, "ready", version=str(seat_version(table, user)))
    look()
    for user in (ana, ben):  # in seat order; a refused play (not the turn) changes nothing
        viewers.post(user, table, "play", version=str(seat_version(table, user)), play="stand")
    table.refresh_from_db()
    assert table.phase == SharedTable.Phase.INTERMISSION
    look()
    viewers.post(ana, table, "client-seed", version=str(seat_version(table, ana)), client_seed="z")
    response = viewers.post(ana, table, "shuffle-now", version=str(table_version(table)))
    assert response.status_code == 200
    look()
    assert len(set(open_seeds)) == 2  # the first shoe, then the one Shuffle now opened
    assert shoe_row(table, 2).client_seed == "z|b"
    # No page shows a seed (the first shoe's is told on the Fairness page once finished).
    for seed in open_seeds:
        assert not any(seed in text for text in viewers.received)
    still_open = open_seeds[-1]
    stored = [str(data) for data in TableEvent.objects.filter(table=table).values_list("data")]
    stored += [str(row) for row in TableShoe.objects.filter(table=table).values()]
    assert not any(still_open in text for text in stored)
    assert shoe_row(table, 1).server_seed == open_seeds[0]  # revealed once finished
