"""``manage.py remove_idle_guests``: guests with no play for 30 days go, with their games;
nothing else does."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import timezone

from blackjack_site.guests import create_guest
from game import services
from game.models import Game, Round
from game.tables.models import Seat, SharedTable
from tests.game.helpers import stack_shoe

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def days_ago(days: int) -> Any:
    return timezone.now() - timedelta(days=days)


def guest_made(days: int, *, played: int | None = None) -> Any:
    """A guest made ``days`` ago (and logged in then), with a game last played ``played``
    days ago if given: one finished round in it."""
    guest = create_guest()
    if played is not None:
        game = stack_shoe(services.new_game(user=guest), ["0S", "0H", "9D", "7C"])
        game = services.place_bet_and_deal(
            game_id=game.pk, user=guest, version=game.version, bet_cents=1000
        ).game
        services.stand(game_id=game.pk, user=guest, version=game.version)
        Game.objects.filter(owner=guest).update(last_played=days_ago(played))
    get_user_model().objects.filter(pk=guest.pk).update(
        date_joined=days_ago(days), last_login=days_ago(days)
    )
    return guest


def remove() -> str:
    out = StringIO()
    call_command("remove_idle_guests", stdout=out)
    return out.getvalue().strip()


def remaining() -> set[int]:
    return set(get_user_model().objects.values_list("pk", flat=True))


def test_a_guest_idle_for_30_days_goes_with_its_games() -> None:
    idle = guest_made(40, played=35)
    idle_without_a_game = guest_made(31)
    assert remove() == "Removed 2 idle guest(s) and 1 game(s)."
    assert not get_user_model().objects.filter(pk__in=[idle.pk, idle_without_a_game.pk]).exists()
    assert not Game.objects.exists() and not Round.objects.exists()
    # Run again: nothing more to remove.
    assert remove() == "Removed 0 idle guest(s) and 0 game(s)."


def test_recent_guests_and_guests_still_playing_stay() -> None:
    new = guest_made(3)
    old_but_playing = guest_made(90, played=2)
    assert remove() == "Removed 0 idle guest(s) and 0 game(s)."
    assert remaining() == {new.pk, old_but_playing.pk}
    assert Game.objects.filter(owner=old_but_playing).exists()


def test_players_and_staff_are_never_removed_however_idle() -> None:
    model = get_user_model()
    player = model.objects.create_user("ada", password="felt-table-42-Aces")
    # A name like a guest's but a password: not a guest (sign-up refuses such names; the
    # admin might not).
    lookalike = model.objects.create_user("guest-lookalike", password="felt-table-42-Aces")
    staff = model.objects.create_user("guest-staff", is_staff=True)
    for user in (player, lookalike, staff):
        services.new_game(user=user)
    model.objects.update(date_joined=days_ago(400), last_login=days_ago(400))
    Game.objects.update(last_played=days_ago(400))
    assert remove() == "Removed 0 idle guest(s) and 0 game(s)."
    assert remaining() == {player.pk, lookalike.pk, staff.pk}
    assert Game.objects.count() == 3


def test_a_guest_seated_at_a_shared_table_stays() -> None:
    host = get_user_model().objects.create_user("host", password="felt-table-42-Aces")
    table = SharedTable.objects.create(name="Friday", host=host, empty_since=None)
    seated = guest_made(60)
    Seat.objects.create(table=table, player=seated, number=1, bank_cents=100_000, credits=10)
    assert remove() == "Removed 0 idle guest(s) and 0 game(s)."
    assert remaining() == {host.pk, seated.pk}


def test_a_guest_who_hosted_only_closed_tables_goes_with_them() -> None:
    hosting = guest_made(60)
    closed = SharedTable.objects.create(name="Mine", host=hosting, phase=SharedTable.Phase.CLOSED)
    player = get_user_model().objects.create_user("ada", password="felt-table-42-Aces")
    Seat.objects.create(table=closed, player=player, number=None, bank_cents=5_000, credits=3)
    assert remove() == "Removed 1 idle guest(s) and 0 game(s)."
    assert remaining() == {player.pk}
    assert not SharedTable.objects.exists() and not Seat.objects.exists()


def test_a_guest_hosting_a_table_someone_sits_at_stays_with_it() -> None:
    hosting = guest_made(60)
    table = SharedTable.objects.create(name="Busy", host=hosting, empty_since=None)
    player = get_user_model().objects.create_user("ada", password="felt-table-42-Aces")
    Seat.objects.create(table=table, player=player, number=2, bank_cents=100_000, credits=10)
    assert remove() == "Removed 0 idle guest(s) and 0 game(s)."
    assert remaining() == {hosting.pk, player.pk}
    assert Seat.objects.get().table == table


def test_an_open_table_empty_for_less_than_the_idle_days_keeps_its_host() -> None:
    recent = guest_made(60)
    SharedTable.objects.create(name="Lately", host=recent, empty_since=days_ago(2))
    forgotten = guest_made(60)
    SharedTable.objects.create(name="Long ago", host=forgotten, empty_since=days_ago(45))
    assert remove() == "Removed 1 idle guest(s) and 0 game(s)."
    assert remaining() == {recent.pk}
    assert list(SharedTable.objects.values_list("name", flat=True)) == ["Lately"]


def test_the_idle_days_can_be_chosen_but_not_below_one() -> None:
    guest = guest_made(10)
    out = StringIO()
    call_command("remove_idle_guests", "--days", "7", stdout=out)
    assert out.getvalue().strip() == "Removed 1 idle guest(s) and 0 game(s)."
    assert guest.pk not in remaining()
    with pytest.raises(CommandError, match="at least 1"):
        call_command("remove_idle_guests", "--days", "0")
