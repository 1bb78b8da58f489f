"""A shared table's shoes take its seated players' client seeds joined with "|" (F-2):
longer than one player's seed, still checked, and kept by the stored state."""

from __future__ import annotations

import json
import random

import pytest

from game.rules.engine import Engine
from game.rules.fair import (
    CLIENT_SEED_MAX,
    SHOE_CLIENT_SEED_MAX,
    TABLE_SEEDS_MAX,
    CommittedShoes,
    InvalidClientSeed,
    check_shoe_client_seed,
    join_client_seeds,
    shoe_order,
)
from game.rules.options import Options
from game.rules.storage import game_from_json, game_to_json

SEVEN_LONG_SEEDS = ["x" * CLIENT_SEED_MAX] * TABLE_SEEDS_MAX


def test_seeds_join_in_the_order_given_with_a_bar() -> None:
    assert join_client_seeds(["a", "b"]) == "a|b"
    assert len(join_client_seeds(SEVEN_LONG_SEEDS)) == SHOE_CLIENT_SEED_MAX


@pytest.mark.parametrize(
    "seeds", [[], ["a"] * (TABLE_SEEDS_MAX + 1), ["a", ""], ["a", "x" * 65], ["a", "tab\there"]]
)
def test_only_one_to_seven_valid_seeds_join(seeds: list[str]) -> None:
    with pytest.raises(InvalidClientSeed):
        join_client_seeds(seeds)


@pytest.mark.parametrize("value", ["", "x" * (SHOE_CLIENT_SEED_MAX + 1), "a|b\n"])
def test_a_shoes_client_seed_is_printable_and_at_most_seven_seeds_long(value: str) -> None:
    with pytest.raises(InvalidClientSeed):
        check_shoe_client_seed(value)


def test_a_game_dealt_with_seven_joined_seeds_is_stored_and_loaded_again() -> None:
    joined = join_client_seeds(SEVEN_LONG_SEEDS)
    game = Engine(
        Options(trivia_mode=False),
        source=CommittedShoes("c", seed_bytes=random.Random(1).randbytes),
    )
    game.set_client_seed(joined)
    source = game.source
    assert isinstance(source, CommittedShoes) and source.current is not None
    assert game.shoe.cards == shoe_order(source.current.server_seed, joined, 1, 6)
    stored = json.loads(json.dumps(game_to_json(game)))
    loaded = game_from_json(stored, seed_bytes=random.Random(2).randbytes)
    assert isinstance(loaded.source, CommittedShoes)
    assert loaded.source.client_seed == joined
    showing = loaded.source.showing()
    assert showing is not None and showing.client_seed == joined
