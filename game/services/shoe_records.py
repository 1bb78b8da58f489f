"""The records of committed shoes (FAIRNESS.md F-1, F-6), written with each save.

The engine's :class:`~game.rules.fair.CommittedShoes` says which shoes an action opened,
shuffled again for a new client seed, or revealed; this module turns that into the rows'
writes. A shoe opened and revealed by the same action is one INSERT with its final values
(PostgreSQL runs a save's writes as one statement, whose parts cannot see each other's
rows).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model
from django.utils import timezone

from game.core import sql
from game.rules.fair import CommittedShoes, RevealedShoe, ShoeCommitment
from game.rules.shoe import ShoeSource


def shoe_writes(source: ShoeSource, model: type[Model], owner: dict[str, Any]) -> list[sql.Write]:
    """The writes that record what ``source`` did since it was loaded (then forgotten).

    ``model`` is the shoe record of a game or a table, ``owner`` its foreign key, e.g.
    ``{"game_id": 12}``."""
    if not isinstance(source, CommittedShoes):
        return []
    opened, reseeded, revealed = source.opened, source.reseeded, source.revealed
    if not (opened or reseeded or revealed):
        return []
    source.opened, source.reseeded, source.revealed = [], [], []
    now = timezone.now()
    new_rows: dict[int, dict[str, Any]] = {}
    for shown in opened:
        new_rows[shown.nonce] = _commitment_fields(shown) | {"created": now}
    writes: list[sql.Write] = []
    for shown in reseeded:
        if shown.nonce in new_rows:
            new_rows[shown.nonce]["client_seed"] = shown.client_seed
        else:
            values = {"client_seed": shown.client_seed}
            writes.append(sql.update_write(model, values, **owner, nonce=shown.nonce))
    for shoe in revealed:
        values = _reveal_fields(shoe, now)
        if shoe.nonce in new_rows:
            new_rows[shoe.nonce].update(values)
        else:
            writes.append(sql.update_write(model, values, **owner, nonce=shoe.nonce))
    insert = sql.insert_all_write([model(**owner, **fields) for fields in new_rows.values()])
    return ([insert] if insert is not None else []) + writes


def _commitment_fields(shown: ShoeCommitment) -> dict[str, Any]:
    return {
        "nonce": shown.nonce,
        "commitment": shown.commitment,
        "client_seed": shown.client_seed,
        "deck_count": shown.deck_count,
    }


def _reveal_fields(shoe: RevealedShoe, now: Any) -> dict[str, Any]:
    return {
        "server_seed": shoe.server_seed,
        "cards_dealt": list(shoe.cards_dealt),
        "revealed_at": now,
    }
