"""The Fairness page of a game or a table (FAIRNESS.md F-7): every committed shoe, and the
same as JSON with exactly the fields F-7 names.

Built from the shoes' records only: an open shoe's record has no seed (it is written when
the shoe is revealed), so nothing here can show the cards to come.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from game.models import ShoeRecord
from game.rules.shoe import INFINITE

SHORT_COMMITMENT = 10
NOT_REVEALED = "Revealed when this shoe ends."
INFINITE_LABEL = "infinite"


@dataclass(frozen=True)
class ShoeView:
    """One shoe as the page lists it."""

    nonce: int | str  # a Daily Shoe's nonce is "{date}:{round}" (D-2)
    commitment: str
    client_seed: str
    deck_count: int | str  # "infinite" for an infinite shoe's batch of 52
    server_seed: str | None  # None until the shoe is finished
    cards: list[str]
    # Where the shoe comes in its list when the nonce is not a number (a Daily Shoe's round).
    order: int = 0

    @property
    def sort_key(self) -> int:
        return self.nonce if isinstance(self.nonce, int) else self.order

    @property
    def revealed(self) -> bool:
        return self.server_seed is not None

    @property
    def short_commitment(self) -> str:
        return short_commitment(self.commitment)

    @property
    def deck_label(self) -> str:
        if self.deck_count == INFINITE_LABEL:
            return "Infinite deck (a batch of 52)"
        return "1 deck" if self.deck_count == 1 else f"{self.deck_count} decks"

    @property
    def cards_text(self) -> str:
        return " ".join(self.cards)

    @property
    def cards_label(self) -> str:
        count = len(self.cards)
        return "1 card dealt" if count == 1 else f"{count} cards dealt"


@dataclass(frozen=True)
class FairnessView:
    """The page: whose shoes, where to go back to, the shoes newest first."""

    title: str
    back_url: str
    back_label: str
    shoes: list[ShoeView]
    client_seed: str | None  # the seed the next shoe will use (a game's), if known
    hint: str  # how the client seed is changed here

    @property
    def open_shoe(self) -> ShoeView | None:
        return next((shoe for shoe in self.shoes if not shoe.revealed), None)

    @property
    def revealed_shoes(self) -> list[ShoeView]:
        return [shoe for shoe in self.shoes if shoe.revealed]


def short_commitment(commitment: str) -> str:
    """The commitment as the felt shows it: its first characters, the rest one click away."""
    return commitment[:SHORT_COMMITMENT] + "…"


def shoe_view(record: ShoeRecord) -> ShoeView:
    return ShoeView(
        nonce=record.nonce,
        commitment=record.commitment,
        client_seed=record.client_seed,
        deck_count=INFINITE_LABEL if record.deck_count == INFINITE else record.deck_count,
        server_seed=record.server_seed if record.revealed else None,
        cards=list(record.cards_dealt) if record.revealed else [],
    )


def fairness_view(
    records: Iterable[ShoeRecord],
    *,
    title: str,
    back_url: str,
    back_label: str,
    client_seed: str | None = None,
    hint: str = "",
) -> FairnessView:
    shoes = sorted((shoe_view(record) for record in records), key=lambda s: -s.sort_key)
    return FairnessView(title, back_url, back_label, shoes, client_seed, hint)


def fairness_json(shoes: Sequence[ShoeView]) -> dict[str, Any]:
    """F-7's JSON: per shoe exactly ``nonce``, ``commitment``, ``client_seed``,
    ``server_seed`` (null until revealed), ``deck_count`` and ``cards_dealt``, oldest first."""
    return {
        "shoes": [
            {
                "nonce": shoe.nonce,
                "commitment": shoe.commitment,
                "client_seed": shoe.client_seed,
                "server_seed": shoe.server_seed,
                "deck_count": shoe.deck_count,
                "cards_dealt": shoe.cards,
            }
            for shoe in sorted(shoes, key=lambda s: s.sort_key)
        ]
    }


GAME_SEED_HINT = (
    "Your client seed goes into every shoe's shuffle with the site's secret seed. You can "
    "change it while the shoe in play has dealt no card (press Shuffle now on the table "
    "between rounds to start a new shoe)."
)
TABLE_SEED_HINT = (
    "Each seated player's client seed, joined in seat order, goes into every new shoe's "
    "shuffle with the site's secret seed, so nobody chooses a shoe alone. Set yours on your "
    "seat at the table."
)
