"""Bad input to every shared-table action, in every phase: a 4xx or a redirect, never a
500, and nothing changes on a refusal (house rule; T-12)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.forms import OUT_OF_DATE
from game.tables import presentation, services
from game.tables.forms import TableOptionsForm
from game.tables.models import Seat, SharedTable, TableEvent, TableQuestion
from game.tables.views.rendering import TABLE_ACTIONS
from tests.game.tables.helpers import bet_and_ready, seat_version, table_version
from tests.game.tables.test_services import ACE_UP, PLAIN
from tests.game.tables.test_side_bets import OFFERS, place

pytestmark = pytest.mark.django_db

ACTIONS = (*TABLE_ACTIONS, "no-such-action")
FIELDS = (
    "seat",
    "chip",
    "version",
    "answer",
    "play",
    "difficulty",
    "side_chip",
    "bet",
    "active",
    "amount",
    "client_seed",
)
JUNK = st.one_of(
    st.sampled_from(
        [
            "",
            "0",
            "-1",
            "1e9",
            "99999999999999999999",
            "hit",
            "stand",
            "\x00",
            "5",
            "21+3:5",
            "perfect_pair:500",
            "on",
            "extra_bet",
            "extra_bet:99999",
            "parlay:all",
            "roll",
            "12.50",
            "²",
        ]
    ),
    st.text(max_size=12),
)


def _phase(name: str, seated_pair, ana, ben) -> SharedTable:
    if name == "betting":
        return seated_pair()
    if name == "side_offers":
        # The Perfect 11s dice open to ana; then ben's extra bet, then both parlays.
        table = seated_pair(OFFERS)
        place(table, ana, 10, perfect_11s=1, house_money=1)
        place(table, ben, 10, house_money=2, extra_bet=1)
        return table
    table = seated_pair(ACE_UP if name == "offers" else PLAIN)
    bet_and_ready(table, ana)
    bet_and_ready(table, ben)
    return table


@pytest.mark.parametrize("phase", ["betting", "offers", "side_offers", "turns"])
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_junk_posts_never_500_and_a_refusal_changes_nothing(phase, data, seated_pair, ana, ben):
    # The tables an example left: hypothesis stops an example whose draws overrun where it
    # stands, before its last line, and a host may keep only so many open tables.
    SharedTable.objects.all().delete()
    table = _phase(phase, seated_pair, ana, ben)
    client = Client()
    client.force_login(data.draw(st.sampled_from([ana, ben])))
    action = data.draw(st.sampled_from(ACTIONS))
    payload = {name: data.draw(JUNK) for name in data.draw(st.sets(st.sampled_from(FIELDS)))}
    payload = {k: v.replace("\x00", "") for k, v in payload.items()}
    table.refresh_from_db()
    before = (table.version, TableEvent.objects.filter(table=table).count())
    response = client.post(
        reverse("tables:action", args=[table.pk, action]), payload, HTTP_HX_REQUEST="true"
    )
    assert response.status_code in (200, 404, 409, 422), response.status_code
    table.refresh_from_db()
    if response.status_code != 200:
        assert (table.version, TableEvent.objects.filter(table=table).count()) == before
    SharedTable.objects.all().delete()


# --------------------------------------------------------------------- seats are plain numbers


def table_as_stored(table: SharedTable) -> tuple[Any, ...]:
    """Everything stored of the table: its row, its seats, its events, its questions."""
    return (
        SharedTable.objects.filter(pk=table.pk).values().get(),
        list(Seat.objects.filter(table=table).order_by("pk").values()),
        list(TableEvent.objects.filter(table=table).order_by("seq").values_list("seq", "kind")),
        list(TableQuestion.objects.filter(seat__table=table).order_by("pk").values()),
    )


def action_url(table: SharedTable, action: str) -> str:
    return reverse("tables:action", args=[table.pk, action])


@pytest.mark.parametrize(
    "seat",
    ["𝟜", "٤", "４", "+4", " 4", "4 ", "4.0", "4e0", "0x4", "-1", "0", "6", "", "9" * 18, "9" * 40],
)
def test_a_seat_that_is_not_a_number_of_the_table_is_refused_and_changes_nothing(
    make_table, ben, seat
):
    table = make_table()
    before = table_as_stored(table)
    client = Client()
    client.force_login(ben)
    response = client.post(
        action_url(table, "sit"), {"version": "0", "seat": seat}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 422
    assert presentation.TABLE_REFUSALS["no_such_seat"] in response.content.decode()
    assert table_as_stored(table) == before


def test_a_seat_in_plain_digits_seats_the_player(make_table, ben):
    table = make_table()
    client = Client()
    client.force_login(ben)
    response = client.post(
        action_url(table, "sit"), {"version": "0", "seat": "4"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert Seat.objects.get(table=table, player=ben).number == 4


# --------------------------------------------------------------------- every post names a version


@dataclass
class Post:
    """One action as its page would post it: where, by whom, its fields, and the version
    the page shows (posted only when the test says so)."""

    table: SharedTable
    user: Any
    url: str
    fields: dict[str, str]
    version: int


def seat_post(table: SharedTable, user: Any, action: str, **fields: str) -> Post:
    return Post(table, user, action_url(table, action), fields, seat_version(table, user))


def host_post(table: SharedTable, user: Any, url: str, **fields: str) -> Post:
    return Post(table, user, url, fields, table_version(table))


def _betting(fixtures: Callable[[str], Any]) -> SharedTable:
    return fixtures("seated_pair")()


def _with_a_chip(fixtures: Callable[[str], Any]) -> SharedTable:
    table, ana = _betting(fixtures), fixtures("ana")
    services.add_chip(table_id=table.pk, user=ana, version=seat_version(table, ana), chip_cents=500)
    return table


def _round(fixtures: Callable[[str], Any], cards: list[str], **options: Any) -> SharedTable:
    table = fixtures("seated_pair")(cards, **options)
    bet_and_ready(table, fixtures("ana"))
    bet_and_ready(table, fixtures("ben"))
    return table


def _choosing_difficulty(fixtures: Callable[[str], Any]) -> SharedTable:
    fixtures("questions")
    table, ana = _round(fixtures, PLAIN, trivia_mode=True), fixtures("ana")
    services.play(table_id=table.pk, user=ana, version=seat_version(table, ana), action="hit")
    return table


def _round_over(fixtures: Callable[[str], Any]) -> SharedTable:
    """A round dealt and settled (both stand on 17 and 16, the dealer on 18): betting is
    open again, cards have left the shoe."""
    table = _round(fixtures, PLAIN)
    for name in ("ana", "ben"):
        user = fixtures(name)
        services.play(
            table_id=table.pk, user=user, version=seat_version(table, user), action="stand"
        )
    return table


def _shuffle_now_post(fixtures: Callable[[str], Any]) -> Post:
    table = _round_over(fixtures)
    return host_post(table, fixtures("ana"), action_url(table, "shuffle-now"))


def _question_open(fixtures: Callable[[str], Any]) -> SharedTable:
    fixtures("questions")
    return fixtures("question_open")(PLAIN, "easy")


def _options_post(fixtures: Callable[[str], Any]) -> Post:
    table = fixtures("make_table")()
    fields = {**TableOptionsForm.initial_for(table.options), "deck_count": "2"}
    return host_post(table, fixtures("ana"), reverse("tables:options", args=[table.pk]), **fields)


def _answer_post(fixtures: Callable[[str], Any]) -> Post:
    table, ana = _question_open(fixtures), fixtures("ana")
    right = Seat.objects.get(player=ana).pending_question.question.correct_answer
    return seat_post(table, ana, "answer", answer=right)


def _side_bet_placed(fixtures: Callable[[str], Any]) -> SharedTable:
    table, ana = _betting(fixtures), fixtures("ana")
    services.add_side_chip(
        table_id=table.pk, user=ana, version=seat_version(table, ana), bet="21+3", chip_cents=500
    )
    return table


def _host_action(fixtures: Callable[[str], Any], action: str, **table: Any) -> Post:
    made = fixtures("make_table")(**table)
    return host_post(made, fixtures("ana"), action_url(made, action))


# Each POST endpoint of the shared tables, set up so that the post, with the version its
# page shows, is applied: refused without one, it is refused for that alone.
POSTS: dict[str, Callable[[Callable[[str], Any]], Post]] = {
    "sit": lambda f: seat_post(f("make_table")(), f("ben"), "sit", seat="2"),
    "leave": lambda f: seat_post(_betting(f), f("ana"), "leave"),
    "chip": lambda f: seat_post(_betting(f), f("ana"), "chip", chip="5"),
    "clear": lambda f: seat_post(_with_a_chip(f), f("ana"), "clear"),
    "ready": lambda f: seat_post(_with_a_chip(f), f("ana"), "ready"),
    "sit-out": lambda f: seat_post(_betting(f), f("ana"), "sit-out"),
    "offer": lambda f: seat_post(_round(f, ACE_UP), f("ana"), "offer", answer="insurance:decline"),
    "side-chip": lambda f: seat_post(_betting(f), f("ana"), "side-chip", side_chip="21+3:5"),
    "side-clear": lambda f: seat_post(_side_bet_placed(f), f("ana"), "side-clear", bet="21+3"),
    "extra-bet-activate": lambda f: seat_post(
        _betting(f), f("ana"), "extra-bet-activate", active="on"
    ),
    "play": lambda f: seat_post(_round(f, PLAIN), f("ana"), "play", play="stand"),
    "difficulty": lambda f: seat_post(
        _choosing_difficulty(f), f("ana"), "difficulty", difficulty="easy"
    ),
    "answer": _answer_post,
    "renew-invite": lambda f: _host_action(f, "renew-invite", public=False),
    "close": lambda f: _host_action(f, "close"),
    "client-seed": lambda f: seat_post(_betting(f), f("ana"), "client-seed", client_seed="ana's"),
    "shuffle-now": _shuffle_now_post,
    "options": _options_post,
}


@pytest.mark.parametrize("posted", [None, ""], ids=["missing", "empty"])
@pytest.mark.parametrize("action", [*TABLE_ACTIONS, "options"])
def test_a_post_without_a_version_is_refused_with_422_and_changes_nothing(action, posted, request):
    post = POSTS[action](request.getfixturevalue)
    client = Client()
    client.force_login(post.user)
    before = table_as_stored(post.table)
    fields = post.fields if posted is None else {**post.fields, "version": posted}
    response = client.post(post.url, fields, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    html = response.content.decode()
    assert OUT_OF_DATE in html
    if action != "options":
        assert html.lstrip().startswith('<div id="shared-table"')  # the table as it stands
    assert table_as_stored(post.table) == before
    # The same post with the version its page shows is applied: only the version was amiss.
    fields = {**post.fields, "version": str(post.version)}
    assert client.post(post.url, fields, HTTP_HX_REQUEST="true").status_code in (200, 302)
    assert table_as_stored(post.table) != before


@pytest.mark.parametrize("action", [*TABLE_ACTIONS, "options"])
def test_a_plain_post_without_a_version_changes_nothing_either(action, request):
    post = POSTS[action](request.getfixturevalue)
    client = Client()
    client.force_login(post.user)
    before = table_as_stored(post.table)
    response = client.post(post.url, post.fields, follow=True)
    assert OUT_OF_DATE in response.content.decode()
    if action == "options":
        assert response.status_code == 422
    else:  # back to the table, the refusal shown there
        assert response.redirect_chain == [(reverse("tables:table", args=[post.table.pk]), 302)]
    assert table_as_stored(post.table) == before
