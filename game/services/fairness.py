"""A game's shoes between rounds (FAIRNESS.md F-2, F-6): Shuffle now and the client seed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core.errors import ActionRefused
from game.rules.engine import Engine
from game.rules.fair import InvalidClientSeed, check_client_seed
from game.services.guards import refuse_if_trivia_open, require_playing
from game.services.locking import locked_game
from game.services.results import Played
from game.services.saving import phase_note, run_engine, save_game

if TYPE_CHECKING:
    from game.services.saving import Player


def untouched_shoe(engine: Engine) -> bool:
    """No card has left the shoe yet: its client seed may still change (F-2), and Shuffle
    now has nothing to finish (F-6). A shared table's shoe is asked the same."""
    return engine.shoe.remaining() == engine.shoe.size


def shuffle_now(*, game_id: int, user: Player, version: int) -> Played:
    """Finish the shoe (its seed is revealed) and deal on from a new committed one.

    Between rounds only; a shoe nothing was dealt from is already new and stays."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        require_playing(locked.engine)
        refuse_if_trivia_open(locked.game)
        events = run_engine(locked.engine.shuffle_now)
        return save_game(locked, note=phase_note(events))


def change_client_seed(*, game_id: int, user: Player, version: int, client_seed: str) -> Played:
    """Use ``client_seed`` for the shoe not yet dealt from and the shoes after it (F-2).

    Refused (ActionRefused ``bad_client_seed``) unless it is 1–64 printable ASCII
    characters, and mid-shoe: a dealing shoe's client seed is part of its commitment."""
    try:
        seed = check_client_seed(client_seed)
    except InvalidClientSeed as error:
        raise ActionRefused("bad_client_seed", text=str(error)) from None
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        require_playing(locked.engine)
        engine = locked.engine
        if not untouched_shoe(engine):
            raise ActionRefused("client_seed_mid_shoe")
        run_engine(lambda: engine.set_client_seed(seed))
        return save_game(locked, note={"kind": "client_seed_changed"})
