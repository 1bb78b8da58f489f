"""A double click never counts twice: twenty parallel posts of a form that creates
something (Play now, New Game, Create Table, Sign up, an invitation's Play as guest)
create it once and answer the same,
never a 500. Each post is a thread with its own test client and database connection
(both databases: SQLite queues them on its write lock, PostgreSQL on row locks and unique
keys)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from importlib import import_module
from typing import Any, TypeVar

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher
from django.db import connection
from django.test import Client

from blackjack_site.guests import is_guest
from game import services
from game.models import Game
from game.tables import services as table_services
from game.tables.models import SharedTable
from tests.pages import once_key
from tests.site.helpers import PASSWORD, create_table_form

pytestmark = pytest.mark.django_db(transaction=True)

POSTS = 20
T = TypeVar("T")


class CountingHasher(MD5PasswordHasher):
    """MD5 (fast), counting the passwords it hashes."""

    algorithm = "counting_md5"
    hashed = 0
    lock = threading.Lock()

    def encode(self, password: str, salt: str) -> str:
        with CountingHasher.lock:
            CountingHasher.hashed += 1
        return super().encode(password, salt)


@pytest.fixture(autouse=True)
def counted_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    settings.TABLE_CLOCK = "external"
    CountingHasher.hashed = 0


def race(post: Callable[[int], T]) -> list[T]:
    """``post(i)`` in POSTS threads let go at once; their answers, in thread order."""
    barrier = threading.Barrier(POSTS)
    answers: list[Any] = [None] * POSTS
    failures: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            answers[index] = post(index)
        except BaseException as error:  # reported below, in the test's own thread
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(POSTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures, failures
    return answers


def browser(session: str | None = None, address: str = "10.0.0.1") -> Client:
    """A client posting as a browser would: with this session cookie, if any."""
    client = Client(raise_request_exception=False, REMOTE_ADDR=address)
    if session is not None:
        client.cookies[django_settings.SESSION_COOKIE_NAME] = session
    return client


def session_cookie(response: Any) -> str:
    """The session the answer left the browser with ("" when it deleted the cookie)."""
    morsel = response.cookies.get(django_settings.SESSION_COOKIE_NAME)
    assert morsel is not None, "the answer set no session cookie"
    return "" if morsel["max-age"] == 0 else morsel.value


def user_id_of(session: str) -> str | None:
    store = import_module(django_settings.SESSION_ENGINE).SessionStore(session_key=session)
    return store.get("_auth_user_id")


def statuses(answers: list[Any]) -> list[int]:
    return sorted(answer.status_code for answer in answers)


def test_a_visitors_twenty_play_now_posts_make_one_guest_and_one_game() -> None:
    form = once_key("guest")
    answers = race(lambda _: browser().post("/play/", form))
    assert statuses(answers) == [302] * POSTS
    guest = get_user_model().objects.get()
    game = Game.objects.get()
    assert is_guest(guest) and game.owner == guest
    assert {answer["Location"] for answer in answers} == {f"/games/{game.pk}/"}
    # Whichever answer the browser keeps, it is logged in as that one guest.
    assert {user_id_of(session_cookie(answer)) for answer in answers} == {str(guest.pk)}


def test_twenty_play_now_posts_of_a_guest_whose_game_ended_make_one_game() -> None:
    first = browser()
    assert first.post("/play/", once_key("guest")).status_code == 302
    guest = get_user_model().objects.get()
    ended = Game.objects.get()
    services.end_game(game_id=ended.pk, user=guest, version=ended.version)
    session = first.cookies[django_settings.SESSION_COOKIE_NAME].value
    answers = race(lambda _: browser(session).post("/play/", once_key("guest")))
    assert statuses(answers) == [302] * POSTS
    new = Game.objects.exclude(pk=ended.pk).get()
    assert new.owner == guest and not new.is_over
    assert {answer["Location"] for answer in answers} == {f"/games/{new.pk}/"}


def test_twenty_new_game_posts_of_one_form_make_one_game(player: Any) -> None:
    form = once_key("new_game")

    def post(_: int) -> Any:
        client = browser()
        client.force_login(player)
        return client.post("/games/new/", form)

    answers = race(post)
    assert statuses(answers) == [302] * POSTS
    game = Game.objects.get()
    assert game.owner == player
    assert {answer["Location"] for answer in answers} == {f"/games/{game.pk}/"}


def test_twenty_create_table_posts_of_one_form_make_one_table(player: Any) -> None:
    form = {**create_table_form(), **once_key("table")}

    def post(_: int) -> Any:
        client = browser()
        client.force_login(player)
        return client.post("/tables/new/", form)

    answers = race(post)
    assert statuses(answers) == [302] * POSTS
    table = SharedTable.objects.get()
    assert table.host == player
    assert {answer["Location"] for answer in answers} == {f"/tables/{table.pk}/"}


def sign_up_form(username: str = "grace") -> dict[str, str]:
    return {"username": username, "password1": PASSWORD, "password2": PASSWORD}


def test_twenty_sign_ups_of_one_name_from_twenty_browsers_make_one_account() -> None:
    def post(index: int) -> Any:
        form = {**sign_up_form(), **once_key("sign_up")}
        return browser(address=f"10.0.1.{index}").post("/accounts/signup/", form)

    answers = race(post)
    assert statuses(answers) == [302] + [400] * (POSTS - 1)
    assert get_user_model().objects.get().username == "grace"
    for answer in answers:
        if answer.status_code == 400:
            assert "A user with that username already exists." in answer.text


def test_twenty_sign_ups_of_names_differing_only_in_case_make_one_account() -> None:
    names = ["grace", "Grace", "GRACE", "gRaCe", "GrAcE"]

    def post(index: int) -> Any:
        form = {**sign_up_form(names[index % 5]), **once_key("sign_up")}
        return browser(address=f"10.0.1.{index}").post("/accounts/signup/", form)

    answers = race(post)
    assert statuses(answers) == [302] + [400] * (POSTS - 1)
    assert get_user_model().objects.get().username.lower() == "grace"


def test_twenty_posts_of_one_sign_up_form_make_one_account_all_logged_in_to_it() -> None:
    form = {**sign_up_form(), **once_key("sign_up")}
    answers = race(lambda _: browser().post("/accounts/signup/", form))
    assert statuses(answers) == [302] * POSTS
    account = get_user_model().objects.get()
    assert account.username == "grace" and CountingHasher.hashed == 1
    assert {user_id_of(session_cookie(answer)) for answer in answers} == {str(account.pk)}


def test_twenty_posts_of_a_guests_sign_up_hash_once_and_stay_logged_in() -> None:
    first = browser()
    assert first.post("/play/", once_key("guest")).status_code == 302
    guest = get_user_model().objects.get()
    game = Game.objects.get()
    session = first.cookies[django_settings.SESSION_COOKIE_NAME].value
    form = {**sign_up_form(), **once_key("sign_up")}
    answers = race(lambda _: browser(session).post("/accounts/signup/", form))
    assert statuses(answers) == [302] * POSTS
    account = get_user_model().objects.get()
    assert account.pk == guest.pk and account.username == "grace"
    assert account.check_password(PASSWORD) and not is_guest(account)
    # The form's password was hashed once, by the first post (check_password is the test's).
    assert CountingHasher.hashed == 2
    # No answer deleted the session cookie: whichever comes last, the browser is logged in
    # to the account, which still has the guest's game.
    assert {user_id_of(session_cookie(answer)) for answer in answers} == {str(account.pk)}
    assert Game.objects.get().owner_id == account.pk == game.owner_id


def test_twenty_play_as_guest_posts_from_an_invitation_make_one_guest(player: Any) -> None:
    table = table_services.create_table(
        host=player, name="Friday night", public=False, seat_count=3, intermission_seconds=30
    )
    url = f"/tables/invite/{table.invite_token}/guest/"
    form = once_key("guest")
    answers = race(lambda _: browser().post(url, form))
    assert statuses(answers) == [302] * POSTS
    guest = get_user_model().objects.get(username__startswith="guest-")
    assert {answer["Location"] for answer in answers} == {f"/tables/{table.pk}/"}
    assert {user_id_of(session_cookie(answer)) for answer in answers} == {str(guest.pk)}
