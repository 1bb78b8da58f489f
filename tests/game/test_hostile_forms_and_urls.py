"""Every form and every URL, given what no database column can hold: never a 500.

A property test (hypothesis, derandomized so CI is stable) posts, to each form of the site
(login, sign-up, the admin's login and import, a game's options, question report and
actions, the shared tables' creation, options and actions), a valid post with one or more
of its fields replaced by text holding a NUL byte (PostgreSQL keeps none in text), text
longer than the field's column or limit, or an integer no 64-bit column holds. Others give
every id route and the invitation link ids and tokens no row can have. Whatever is sent:

* the answer is never a server error: a 4xx, or the form shown again with its error;
* nothing changes in the database (games, rounds, tables, seats, questions, reports,
  accounts, django-axes' records of login attempts).

The game's actions are tried in every phase of a round by tests/game/test_hostile_input.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.converters import ROW_ID_MAX
from game.models import Game
from game.tables import scenes
from game.tables import services as table_services
from game.tables.forms import TableOptionsForm
from game.tables.models import SharedTable
from game.tables.views.rendering import TABLE_ACTIONS
from game.views.actions import ACTIONS
from tests.game import scenarios
from tests.game.factories import PASSWORD, PlayerFactory
from tests.game.helpers import GAME_ROUTES, TABLE_ROUTES
from tests.game.test_options_house_edge import form_data
from tests.pages import once_key

pytestmark = pytest.mark.django_db

PROPERTY = settings(
    max_examples=10,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
USERNAME_MAX = get_user_model()._meta.get_field("username").max_length
# What the site keeps: every row of these apps, and the accounts.
KEPT_APPS = ("game", "tables", "trivia", "axes")


# --------------------------------------------------------------------- hostile values


@dataclass(frozen=True)
class Text:
    """A text field accepting at most ``limit`` characters."""

    limit: int


@dataclass(frozen=True)
class Number:
    """A field read as a whole number (an id, an amount, a version, a choice's value)."""


NUL_TEXT = st.builds(lambda a, b: f"{a}\x00{b}", st.text(max_size=12), st.text(max_size=12))
BEYOND_64_BITS = st.one_of(
    st.integers(min_value=ROW_ID_MAX + 1, max_value=10**40).map(str),
    st.integers(min_value=-(10**40), max_value=-(2**63) - 1).map(str),
    st.sampled_from(["9" * 5000, "-1", "1e400", "NaN", "0x10", "+-5", "1_000", "١" * 25]),
)


def over_long(limit: int) -> st.SearchStrategy[str]:
    # Printable, not blank: a field that strips blanks must see the whole length.
    character = st.characters(codec="utf-8", categories=("L", "N", "P", "S"))
    length = st.sampled_from([limit + 1, 2 * limit + 3, 100_000])
    return st.builds(lambda c, n: c * n, character, length)


def hostile(kind: Text | Number) -> st.SearchStrategy[str]:
    if isinstance(kind, Number):
        return st.one_of(NUL_TEXT, BEYOND_64_BITS)
    return st.one_of(NUL_TEXT, over_long(kind.limit))


# --------------------------------------------------------------------- what there is to hit


@dataclass
class World:
    player: Any
    staff: Any
    betting: Game
    answered: Game
    table: SharedTable
    clients: dict[str, Client] = field(default_factory=dict)
    # What the database holds once the world is made. Every example starts from it: a
    # form's example is rolled back, and one that passes has changed nothing.
    at_start: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


@pytest.fixture
def world(questions: Any, settings: Any, tmp_path: Any) -> World:
    settings.TABLE_CLOCK = "external"  # no clock thread: nothing moves by itself
    settings.TRIVIA_IMPORT_STAGING_DIR = tmp_path / "staging"
    scenes.forget_all()
    player = PlayerFactory(username="alice")
    staff = PlayerFactory(username="sam", is_staff=True, is_superuser=True)
    table = table_services.create_table(
        host=player, name="Friday night", public=True, seat_count=5, intermission_seconds=60
    )
    table_services.sit(
        table_id=table.pk, user=player, version=table_services.NO_SEAT_VERSION, number=1
    )
    world = World(player, staff, scenarios.betting(player), scenarios.answered(player), table)
    world.clients["anonymous"] = Client(raise_request_exception=False)
    for name, user in (("player", player), ("staff", staff)):
        client = Client(raise_request_exception=False)
        client.force_login(user)
        world.clients[name] = client
    world.at_start = database_snapshot()
    return world


def _form_post(form: Any) -> dict[str, str]:
    """A form's initial values as the browser posts them (an unticked box: absent)."""
    data: dict[str, str] = {}
    for name, form_field in form.fields.items():
        value = form.initial.get(name, form_field.initial)
        if getattr(form_field.widget, "input_type", None) == "checkbox":
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = str(value)
    return data


def _table_options() -> dict[str, str]:
    return _form_post(TableOptionsForm(initial=TableOptionsForm.initial_for({})))


def _create_table() -> dict[str, str]:
    options = _table_options()
    return {**options, "name": "Saturday", "public": "1", "seat_count": "5"} | {
        "intermission_seconds": "30"
    }


OPTION_FIELDS: dict[str, Text | Number] = {
    "min_bet": Number(),
    "max_bet": Number(),
    "starting_bank": Number(),
    "deck_count": Number(),
    "max_splits": Number(),
    "charlie": Text(3),
    "surrender": Text(13),
    "blackjack_payout": Text(3),
    "dealer_stands_on": Text(3),
    "double_on": Text(5),
    "reshuffle": Text(11),
}
TABLE_OPTION_FIELDS = {
    **{k: v for k, v in OPTION_FIELDS.items() if k != "starting_bank"},
    "turn_seconds": Number(),
    "answer_seconds": Number(),
}
# The fields each game action reads (besides the version), and what they take.
GAME_ACTION_FIELDS: dict[str, dict[str, Text | Number]] = {
    "chip": {"chip": Number(), "amount": Number()},
    "select-box": {"box": Number(), "amount": Number()},
    "deal": {"amount": Number()},
    "hit": {"difficulty": Text(6)},
    "double": {"difficulty": Text(6)},
    "insurance": {"choice": Text(7)},
    "early-surrender": {"choice": Text(7)},
    "difficulty": {"difficulty": Text(6)},
    "answer": {"answer": Text(500)},
    "extra-bet": {"choice": Text(7), "amount": Number()},
    "parlay": {"choice": Text(40)},
    "side-bets-menu": {"menu": Text(5), "amount": Number()},
    "side-chip": {"side_chip": Text(40), "amount": Number()},
    "side-clear": {"bet": Text(40), "amount": Number()},
    "side-clear-all": {"amount": Number()},
    "extra-bet-activate": {"active": Text(3), "amount": Number()},
}
# Table actions that read nothing from the post (not even the version): nothing to spoil.
READS_NOTHING = ("leave", "renew-invite", "close")
TABLE_ACTION_FIELDS: dict[str, dict[str, Text | Number]] = {
    "sit": {"seat": Number()},
    "chip": {"chip": Number()},
    "offer": {"answer": Text(40), "amount": Number()},
    "side-chip": {"side_chip": Text(40)},
    "side-clear": {"bet": Text(40)},
    "extra-bet-activate": {"active": Text(3)},
    "play": {"play": Text(9)},
    "difficulty": {"difficulty": Text(6)},
    "answer": {"answer": Text(500)},
}


@dataclass(frozen=True)
class Form:
    """One form: where it posts, a post it would take, and the fields to spoil."""

    client: str
    url: Callable[[World], str]
    valid: Callable[[World], dict[str, Any]]
    fields: dict[str, Text | Number]
    method: str = "post"
    htmx: bool = False
    # The status of the form shown again with its errors, when it is not a 4xx.
    shown_again: int | None = None


def _seat_version(world: World) -> str:
    return str(world.table.seats.get(player=world.player).version)


def _import_post(world: World) -> dict[str, Any]:
    rows = (
        "id,category,question,options,correct_answer,difficulty\n"
        "1,,Which gas do plants take in?,CO2 | O2 | N2 | He,CO2,easy\n"
    )
    upload = SimpleUploadedFile("questions.csv", rows.encode())
    return {"file": upload, "format": "csv", "category_default": "Science"}


FORMS: dict[str, Form] = {
    "login": Form(
        "anonymous",
        lambda w: "/accounts/login/",
        lambda w: {"username": "alice", "password": PASSWORD},
        {"username": Text(USERNAME_MAX), "password": Text(4096)},
        shown_again=200,
    ),
    "admin login": Form(
        "anonymous",
        lambda w: "/admin/login/",
        lambda w: {"username": "sam", "password": PASSWORD},
        {"username": Text(USERNAME_MAX), "password": Text(4096)},
        shown_again=200,
    ),
    "sign-up": Form(
        "anonymous",
        lambda w: "/accounts/signup/",
        lambda w: {
            "username": "newcomer",
            "password1": PASSWORD,
            "password2": PASSWORD,
            **once_key("sign_up"),
        },
        {"username": Text(USERNAME_MAX), "password1": Text(4096), "password2": Text(4096)},
    ),
    "admin import": Form(
        "staff",
        lambda w: "/admin/trivia/question/import/",
        _import_post,
        {"category_default": Text(120), "format": Text(15)},
        shown_again=200,
    ),
    "game options": Form(
        "player",
        lambda w: f"/games/{w.betting.pk}/options/",
        lambda w: {**form_data(), "version": str(w.betting.version)},
        {**OPTION_FIELDS, "version": Number()},
    ),
    "game options estimate": Form(
        "player",
        lambda w: f"/games/{w.betting.pk}/options/house-edge/",
        lambda w: form_data(),
        OPTION_FIELDS,
        method="get",
    ),
    "question report": Form(
        "player",
        lambda w: f"/games/{w.answered.pk}/report-question/",
        lambda w: {
            "attempt": str(w.answered.trivia_attempts.get().pk),
            "reason": "other",
            "note": "Looks wrong.",
        },
        {"attempt": Number(), "reason": Text(16), "note": Text(2000)},
        htmx=True,
    ),
    "extra bet chip": Form(
        "player",
        lambda w: f"/games/{w.betting.pk}/extra-bet/chip/",
        lambda w: {"chip": "5", "amount": "10", "version": str(w.betting.version)},
        {"chip": Number(), "amount": Number(), "version": Number()},
        htmx=True,
    ),
    **{
        f"game {action}": Form(
            "player",
            lambda w, action=action: f"/games/{w.betting.pk}/{action}/",
            lambda w: {"version": str(w.betting.version)},
            {**GAME_ACTION_FIELDS.get(action, {}), "version": Number()},
            htmx=True,
        )
        for action in ACTIONS
    },
    "create table": Form(
        "player",
        lambda w: "/tables/new/",
        lambda w: {**_create_table(), **once_key("table")},
        {
            "name": Text(60),
            "public": Number(),
            "seat_count": Number(),
            "intermission_seconds": Number(),
            **TABLE_OPTION_FIELDS,
        },
    ),
    "table options": Form(
        "player",
        lambda w: f"/tables/{w.table.pk}/options/",
        lambda w: _table_options(),
        TABLE_OPTION_FIELDS,
    ),
    **{
        f"table {action}": Form(
            "player",
            lambda w, action=action: f"/tables/{w.table.pk}/{action}/",
            lambda w: {"version": _seat_version(w)},
            {**TABLE_ACTION_FIELDS.get(action, {}), "version": Number()},
            htmx=True,
        )
        for action in TABLE_ACTIONS
        if action not in READS_NOTHING
    },
}


# --------------------------------------------------------------------- what must not change


def database_snapshot() -> dict[str, list[dict[str, Any]]]:
    models = [model for label in KEPT_APPS for model in apps.get_app_config(label).get_models()]
    models.append(get_user_model())
    return {
        model._meta.label: list(model.objects.order_by("pk").values())
        for model in models
        if not model._meta.proxy
    }


def send(client: Client, method: str, url: str, data: dict[str, Any], htmx: bool) -> Any:
    headers = {"HX-Request": "true"} if htmx else {}
    return getattr(client, method)(url, data, headers=headers)


def check_answer(form: Form, response: Any) -> None:
    status = response.status_code
    if status == form.shown_again:
        assert response.context["form"].errors, "the form shown again without its error"
    else:
        assert 400 <= status < 500, (status, response.content[-1500:])


@pytest.mark.parametrize("name", FORMS)
@PROPERTY
@given(data=st.data())
def test_a_form_given_what_no_column_holds_refuses_it_and_nothing_changes(
    name: str, data: st.DataObject, world: World
) -> None:
    form = FORMS[name]
    spoiled = data.draw(
        st.lists(st.sampled_from(sorted(form.fields)), min_size=1, unique=True), label="spoiled"
    )
    with transaction.atomic():
        post = form.valid(world)
        post.update(
            {field: data.draw(hostile(form.fields[field]), label=field) for field in spoiled}
        )
        response = send(world.clients[form.client], form.method, form.url(world), post, form.htmx)
        check_answer(form, response)
        assert database_snapshot() == world.at_start
        transaction.set_rollback(True)


# --------------------------------------------------------------------- URLs


ROUTES = [f"/games/{{id}}/{route}" for route in GAME_ROUTES] + [
    f"/tables/{{id}}/{route}" for route in TABLE_ROUTES
]


def _is_row_id(text: str) -> bool:
    return re.fullmatch("[1-9][0-9]{0,18}", text) is not None and int(text) <= ROW_ID_MAX


NO_ID = st.one_of(
    st.integers(min_value=ROW_ID_MAX + 1, max_value=10**60).map(str),
    st.integers(max_value=0).map(str),
    st.integers(min_value=1, max_value=ROW_ID_MAX).map(lambda n: f"0{n}"),
    st.sampled_from(["%00", "1%00", "%001", "١", "１", "+1", "1e3", "0x1", "9" * 5000, "1.0"]),
    st.text(st.characters(exclude_characters="/"), min_size=1, max_size=30)
    .filter(lambda text: not _is_row_id(text))
    .map(lambda text: quote(text, safe="")),
)


@PROPERTY
@given(route=st.sampled_from(ROUTES), row_id=NO_ID, method=st.sampled_from(["get", "post"]))
def test_an_id_no_row_can_have_is_not_found_on_every_route(
    route: str, row_id: str, method: str, world: World
) -> None:
    url = route.format(id=row_id)
    response = getattr(world.clients["player"], method)(url, {"version": "1", "seat": "2"})
    assert response.status_code == 404, (url, response.status_code)
    assert database_snapshot() == world.at_start


@PROPERTY
@given(token=st.text(max_size=80))
def test_an_invitation_token_no_table_has_is_not_found(token: str, world: World) -> None:
    response = world.clients["player"].get(f"/tables/invite/{quote(token, safe='')}/")
    assert response.status_code == 404
    assert database_snapshot() == world.at_start


def test_every_action_the_table_links_to_has_a_view_of_its_own() -> None:
    from game.views.rendering import ACTION_NAMES

    assert sorted(ACTIONS) == sorted(ACTION_NAMES)
