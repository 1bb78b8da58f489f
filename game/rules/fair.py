"""Provably fair shoes (FAIRNESS.md F-1…F-6): the committed stream every shoe is made from.

A shoe is made from a *server seed* of 32 bytes (kept secret while the shoe deals), a
*client seed* the player chooses and the shoe's *nonce* (its number in the game, from 1).
Before the first card the player sees the seed's *commitment*, its SHA-256; when the shoe
is finished the seed is revealed, and anyone can recompute the shoe from the three values:

- **The stream (F-3).** Block ``k`` (k = 0, 1, …) is HMAC-SHA256 keyed with the server
  seed over ``"{client_seed}:{nonce}:{purpose}:{k}"``; the stream is the blocks in order.
  ``purpose`` is ``shoe`` (the Jackpot Ace marks, then the shuffle) or ``dice`` (the
  Perfect 11s dice, read in the order they are rolled).
- **Integers (F-4).** An integer in ``[0, n)`` reads the next four bytes as an unsigned
  big-endian ``x``; ``x % n`` when ``x < 2**32 - 2**32 % n``, else the four bytes are
  dropped and the next four read (so every value is exactly equally likely).
- **The shuffle (F-5).** The unshuffled shoe is ``deck_count`` decks in the order of
  :data:`ONE_DECK`. Each ace of spades, in that order, becomes the Jackpot Ace when its
  integer in ``[0, 6)`` is 0; then Fisher–Yates from the last position down to 1, ``j`` an
  integer in ``[0, i + 1)``. An infinite shoe is batches of 52, each card the unshuffled
  deck's card at an integer in ``[0, 52)``, then the marks over the batch.

:class:`CommittedShoes` is the engine's source of shoes and dice made this way (used for
every game and table); ``tools/verify_shoe.py`` and the Fairness page's script are two
more implementations, and ``tools/fairness_vectors.json`` keeps the three in step.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from game.rules.cards import JACKPOT_MARK
from game.rules.shoe import INFINITE, Shoe

# One deck in the order of cards.SUITS then cards.RANKS, written out so that this file
# says exactly what the verifiers must start from (F-5).
ONE_DECK: Final = (
    "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "0S", "JS", "QS", "KS", "AS",
    "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "0C", "JC", "QC", "KC", "AC",
    "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "0D", "JD", "QD", "KD", "AD",
    "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "0H", "JH", "QH", "KH", "AH",
)  # fmt: skip
SEED_BYTES: Final = 32
SHOE: Final = "shoe"
DICE: Final = "dice"
CLIENT_SEED_MAX: Final = 64
# A shared table's shoe takes its seated players' seeds joined with "|" (F-2), one per seat
# of at most seven (TABLES.md T-1): longer than any one player's seed.
TABLE_SEEDS_MAX: Final = 7
SHOE_CLIENT_SEED_MAX: Final = TABLE_SEEDS_MAX * (CLIENT_SEED_MAX + 1) - 1
_ACE_OF_SPADES: Final = "AS"
_JACKPOT_ACE: Final = _ACE_OF_SPADES + JACKPOT_MARK
_JACKPOT_ODDS: Final = 6  # R-SB-11: one ace of spades in six is the Jackpot Ace
_WORD: Final = 4
_RANGE: Final = 2**32


class InvalidClientSeed(ValueError):
    """A client seed that is not 1–64 printable ASCII characters (F-2)."""


def check_client_seed(value: str) -> str:
    """Return ``value`` if it is a valid client seed (F-2), else raise InvalidClientSeed."""
    return _checked_seed(value, CLIENT_SEED_MAX)


def _checked_seed(value: str, most: int) -> str:
    if not value:
        raise InvalidClientSeed("A client seed needs at least one character.")
    if len(value) > most:
        raise InvalidClientSeed(f"A client seed has at most {most} characters.")
    if not all(" " <= character <= "~" for character in value):
        raise InvalidClientSeed("A client seed uses printable ASCII characters only.")
    return value


def join_client_seeds(seeds: Sequence[str]) -> str:
    """A shared table's client seed for a new shoe (F-2): its seated players' seeds, in
    seat order, joined with "|"."""
    if not 1 <= len(seeds) <= TABLE_SEEDS_MAX:
        raise InvalidClientSeed(f"A table joins 1 to {TABLE_SEEDS_MAX} client seeds.")
    return "|".join(check_client_seed(seed) for seed in seeds)


def check_shoe_client_seed(value: str) -> str:
    """Return ``value`` if a shoe may be dealt with it (one player's seed, or a table's
    seats' seeds joined: as long as :data:`SHOE_CLIENT_SEED_MAX`), else raise
    InvalidClientSeed."""
    return _checked_seed(value, SHOE_CLIENT_SEED_MAX)


def commitment(server_seed: bytes) -> str:
    """The commitment to a server seed (F-1): SHA-256 of its raw bytes, lower-case hex."""
    return hashlib.sha256(server_seed).hexdigest()


def stream_block(
    server_seed: bytes, client_seed: str, nonce: int | str, purpose: str, k: int
) -> bytes:
    """Block ``k`` of a stream (F-3): HMAC-SHA256 of the message, keyed with the seed."""
    message = f"{client_seed}:{nonce}:{purpose}:{k}".encode("ascii")
    return hmac.digest(server_seed, message, "sha256")


class StreamIntegers:
    """Uniform integers read from one stream (F-4), from its start or after ``skip`` bytes.

    ``used`` counts the bytes read so far (rejected words included), so a stream read in
    several sittings — the dice of one shoe, roll after roll — resumes where it stopped.
    """

    __slots__ = ("_seed", "_prefix", "_block", "_offset", "used")

    def __init__(
        self, server_seed: bytes, client_seed: str, nonce: int | str, purpose: str, *, skip: int = 0
    ) -> None:
        self._seed = server_seed
        self._prefix = f"{client_seed}:{nonce}:{purpose}:"
        self.used = skip
        self._block = b""
        self._offset = 0
        if skip:
            self._load(skip // 32)
            self._offset = skip % 32

    def _load(self, k: int) -> None:
        self._block = hmac.digest(self._seed, f"{self._prefix}{k}".encode("ascii"), "sha256")
        self._offset = 0

    def below(self, n: int) -> int:
        """The next uniform integer in ``[0, n)`` (F-4)."""
        limit = _RANGE - _RANGE % n
        while True:
            if self._offset >= len(self._block):
                self._load(self.used // 32)
            offset = self._offset
            x = int.from_bytes(self._block[offset : offset + _WORD], "big")
            self._offset = offset + _WORD
            self.used += _WORD
            if x < limit:
                return x % n


def shoe_order(
    server_seed: bytes, client_seed: str, nonce: int | str, deck_count: int
) -> list[str]:
    """Every card of a shoe in the order it deals (F-5); an infinite shoe's batch of 52."""
    integers = StreamIntegers(server_seed, client_seed, nonce, SHOE)
    if deck_count == INFINITE:
        cards = [ONE_DECK[integers.below(len(ONE_DECK))] for _ in ONE_DECK]
        return _marked(cards, integers)
    cards = _marked(list(ONE_DECK) * deck_count, integers)
    below = integers.below
    for i in range(len(cards) - 1, 0, -1):
        j = below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _marked(cards: list[str], integers: StreamIntegers) -> list[str]:
    """Mark each ace of spades, in order, as the Jackpot Ace when its integer is 0."""
    for position, card in enumerate(cards):
        if card == _ACE_OF_SPADES and integers.below(_JACKPOT_ODDS) == 0:
            cards[position] = _JACKPOT_ACE
    return cards


def without_set_aside(order: Sequence[str], set_aside: Iterable[str]) -> list[str]:
    """The shoe's order without the first copy of each card set aside (still on the table
    when the shoe was made, R-2.2): a uniform shuffle of the cards that remain."""
    owed = Counter(card[:2] for card in set_aside)
    kept: list[str] = []
    for card in order:
        code = card[:2]
        if owed[code]:
            owed[code] -= 1
        else:
            kept.append(card)
    return kept


def cards_out(order: Sequence[str], set_aside: Iterable[str], dealt: int) -> list[str]:
    """The cards that left the shoe, in order, once ``dealt`` cards were dealt from it.

    Cards set aside leave the shoe where the shuffle put them, unused, so what left is
    always the start of the shuffled order (F-7 checks exactly that).
    """
    if dealt <= 0:
        return []
    owed = Counter(card[:2] for card in set_aside)
    for position, card in enumerate(order):
        code = card[:2]
        if owed[code]:
            owed[code] -= 1
            continue
        dealt -= 1
        if dealt == 0:
            return list(order[: position + 1])
    return list(order)


@dataclass(frozen=True, slots=True)
class ShoeCommitment:
    """What a player sees of a shoe before its first card (F-1): never the seed."""

    nonce: int
    commitment: str
    client_seed: str
    deck_count: int


@dataclass(frozen=True, slots=True)
class RevealedShoe:
    """A finished shoe (F-6): its seed, and every card that left it in order."""

    nonce: int
    commitment: str
    client_seed: str
    deck_count: int
    server_seed: str
    cards_dealt: list[str]


@dataclass(slots=True)
class OpenShoe:
    """The shoe dealing now: its secret seed, and how far its dice stream has been read."""

    nonce: int
    server_seed: bytes
    client_seed: str
    deck_count: int
    set_aside: list[str] = field(default_factory=list)
    dice_used: int = 0

    def commitment(self) -> ShoeCommitment:
        return ShoeCommitment(
            self.nonce, commitment(self.server_seed), self.client_seed, self.deck_count
        )

    def order(self) -> list[str]:
        return shoe_order(self.server_seed, self.client_seed, self.nonce, self.deck_count)

    def shoe(self) -> Shoe:
        return Shoe(without_set_aside(self.order(), self.set_aside), self.deck_count)

    def reveal(self, shoe: Shoe) -> RevealedShoe:
        dealt = shoe.size - shoe.remaining()
        return RevealedShoe(
            self.nonce,
            commitment(self.server_seed),
            self.client_seed,
            self.deck_count,
            self.server_seed.hex(),
            cards_out(self.order(), self.set_aside, dealt),
        )


def new_client_seed() -> str:
    """A random client seed for a new game (F-2); the player may change it between shoes."""
    return secrets.token_hex(8)


class CommittedShoes:
    """The engine's shoes and dice from the committed stream (F-1…F-6).

    Each new shoe gets the next nonce and a fresh server seed from ``seed_bytes``
    (``secrets.token_bytes`` in play, a seeded source in tests). What happened since the
    source was loaded — shoes opened, shuffled again for a new client seed, revealed —
    waits in :attr:`opened`, :attr:`reseeded` and :attr:`revealed` for the caller to
    record; none of them is part of the stored state.
    """

    __slots__ = ("client_seed", "nonce", "current", "seed_bytes", "opened", "reseeded", "revealed")

    def __init__(
        self,
        client_seed: str,
        *,
        nonce: int = 0,
        current: OpenShoe | None = None,
        seed_bytes: Callable[[int], bytes] = secrets.token_bytes,
    ) -> None:
        self.client_seed = check_shoe_client_seed(client_seed)
        self.nonce = nonce
        self.current = current
        self.seed_bytes = seed_bytes
        self.opened: list[ShoeCommitment] = []
        self.reseeded: list[ShoeCommitment] = []
        self.revealed: list[RevealedShoe] = []

    # ------------------------------------------------------------------ the engine's seam

    def new_shoe(self, deck_count: int, finished: Shoe | None) -> Shoe:
        """Finish ``finished`` (revealing it) and open the next committed shoe."""
        self.finish(finished)
        return self._open(deck_count, []).shoe()

    def refill(self, shoe: Shoe, on_table: Iterable[str]) -> tuple[Shoe, bool]:
        """The shoe ran out mid-round (R-2.2): the next committed shoe, without the cards
        on the table; an infinite shoe's next batch of 52, which is no reshuffle."""
        self.finish(shoe)
        if shoe.deck_count == INFINITE:
            return self._open(INFINITE, []).shoe(), False
        fresh = self._open(shoe.deck_count, [card[:2] for card in on_table]).shoe()
        if not fresh.cards:
            raise RuntimeError("every card is on the table")
        return fresh, True

    def roll_dice(self, count: int) -> list[int]:
        """``count`` die faces (1–6) from the open shoe's dice stream, where it stopped."""
        current = self.current
        if current is None:
            # An older game's shoe, made before shoes were committed, has no dice stream:
            # its dice come from a seed of their own, as unpredictable and never shown.
            integers = StreamIntegers(self.seed_bytes(SEED_BYTES), self.client_seed, 0, DICE)
            return [integers.below(6) + 1 for _ in range(count)]
        integers = StreamIntegers(
            current.server_seed, current.client_seed, current.nonce, DICE, skip=current.dice_used
        )
        faces = [integers.below(6) + 1 for _ in range(count)]
        current.dice_used = integers.used
        return faces

    # ------------------------------------------------------------------ between rounds

    def showing(self) -> ShoeCommitment | None:
        """The open shoe's commitment, as the table shows it; None for an older game's
        shoe made before shoes were committed."""
        return None if self.current is None else self.current.commitment()

    def finish(self, shoe: Shoe | None) -> RevealedShoe | None:
        """Reveal the open shoe (F-6) with the cards dealt from ``shoe``; None if none."""
        current = self.current
        if current is None or shoe is None:
            self.current = None
            return None
        revealed = current.reveal(shoe)
        self.revealed.append(revealed)
        self.current = None
        return revealed

    def reseed(self, client_seed: str, shoe: Shoe) -> Shoe:
        """The open shoe, not yet dealt from, shuffled again for a new client seed: the
        server seed stays, so its commitment, already shown, still holds."""
        self.client_seed = check_shoe_client_seed(client_seed)
        current = self.current
        if current is None or shoe.remaining() != shoe.size:
            return shoe
        current.client_seed = client_seed
        self.reseeded.append(current.commitment())
        return current.shoe()

    def _open(self, deck_count: int, set_aside: list[str]) -> OpenShoe:
        self.nonce += 1
        self.current = OpenShoe(
            self.nonce, self.seed_bytes(SEED_BYTES), self.client_seed, deck_count, set_aside
        )
        self.opened.append(self.current.commitment())
        return self.current

    # ------------------------------------------------------------------ storage

    def to_json(self) -> dict[str, Any]:
        """The stored state (server side only: it holds the open shoe's secret seed)."""
        current = self.current
        return {
            "client_seed": self.client_seed,
            "nonce": self.nonce,
            "current": None
            if current is None
            else {
                "nonce": current.nonce,
                "server_seed": current.server_seed.hex(),
                "client_seed": current.client_seed,
                "deck_count": current.deck_count,
                "set_aside": list(current.set_aside),
                "dice_used": current.dice_used,
            },
        }

    @classmethod
    def from_json(
        cls, data: dict[str, Any], *, seed_bytes: Callable[[int], bytes] = secrets.token_bytes
    ) -> CommittedShoes:
        stored = data.get("current")
        current = (
            None
            if stored is None
            else OpenShoe(
                stored["nonce"],
                bytes.fromhex(stored["server_seed"]),
                stored["client_seed"],
                stored["deck_count"],
                list(stored["set_aside"]),
                stored["dice_used"],
            )
        )
        return cls(data["client_seed"], nonce=data["nonce"], current=current, seed_bytes=seed_bytes)
