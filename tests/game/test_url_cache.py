"""game/core/url_cache.py: game URLs reversed once give what reverse() gives."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import reverse, set_script_prefix

from game.core.url_cache import cached_reverse, game_url


@pytest.mark.django_db
def test_cached_game_urls_are_what_reverse_gives() -> None:
    for name, args in [
        ("game:table", []),
        ("game:options", []),
        ("game:end_game", []),
        ("game:report_question", []),
        ("game:action", ["hit"]),
        ("game:action", ["side-bets-menu"]),
    ]:
        for game_id in (1, 42, 1234567):
            assert game_url(name, game_id, *args) == reverse(name, args=[game_id, *args])
    assert cached_reverse("game:statistics") == reverse("game:statistics")


@pytest.mark.django_db
def test_cached_urls_follow_the_script_prefix_and_the_urlconf() -> None:
    plain = game_url("game:table", 7)
    with override_settings(FORCE_SCRIPT_NAME="/casino/"):
        set_script_prefix("/casino/")
        try:
            assert game_url("game:table", 7) == "/casino" + plain == reverse("game:table", args=[7])
        finally:
            set_script_prefix("/")
    assert game_url("game:table", 7) == plain
