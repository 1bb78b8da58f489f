#!/usr/bin/env python3
"""Check a revealed Blackjack Trivia shoe without trusting the site (FAIRNESS.md F-7).

Python's standard library only, so it runs anywhere Python 3.11+ does: download it,
read it, run it. It rebuilds a shoe from its revealed server seed, client seed, nonce
and deck count exactly as FAIRNESS.md F-3 to F-5 describe, and compares the cards the
site says it dealt with that order.

Usage::

    python verify_shoe.py shoes.json
    python verify_shoe.py 'https://example.org/games/12/fairness/?format=json'
    python verify_shoe.py - < shoes.json

The input is one shoe object or ``{"shoes": [shoe, ...]}`` (other keys are ignored).
A shoe has ``nonce``, ``commitment``, ``client_seed``, ``server_seed`` (null until
revealed), ``deck_count`` (1 to 8, or ``"infinite"``) and ``cards_dealt``.

Exit status: 0 when at least one shoe was verified and none differs, 1 when any shoe
differs, 2 when the input cannot be read or no shoe is revealed yet.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import io
import json
import sys
import urllib.request
from typing import Any, Protocol

# One deck in the order of SUITS then RANKS (F-5), written out so that this file stands
# alone: ranks 2-9, 0 (ten), J, Q, K, A, for spades, clubs, diamonds, hearts.
# fmt: off
DECK: tuple[str, ...] = (
    "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "0S", "JS", "QS", "KS", "AS",
    "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "0C", "JC", "QC", "KC", "AC",
    "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "0D", "JD", "QD", "KD", "AD",
    "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "0H", "JH", "QH", "KH", "AH",
)
# fmt: on

INFINITE = "infinite"
BATCH_SIZE = 52  # an infinite-deck shoe is one batch of 52 draws (F-5)
MAX_DECKS = 8
JACKPOT_ACE = "AS"
JACKPOT_MARK = "*"
JACKPOT_ODDS = 6  # an integer in [0, 6); 0 marks the ace
SEED_BYTES = 32
SHOE_KEYS = ("nonce", "commitment", "client_seed", "server_seed", "deck_count", "cards_dealt")

Nonce = int | str
DeckCount = int | str


def commitment(seed: bytes) -> str:
    """The commitment to a server seed: SHA-256 of its raw bytes, lower-case hex (F-1)."""
    return hashlib.sha256(seed).hexdigest()


def stream_block(seed: bytes, client_seed: str, nonce: Nonce, purpose: str, k: int) -> bytes:
    """Block ``k`` of a stream: HMAC-SHA256 keyed by the server seed over the ASCII
    message ``"{client_seed}:{nonce}:{purpose}:{k}"`` (F-3). The nonce is written as
    ``str()`` writes it: ``7`` or ``"2026-11-28:7"``."""
    message = f"{client_seed}:{nonce}:{purpose}:{k}".encode("ascii")
    return hmac.new(seed, message, hashlib.sha256).digest()


class ByteStream:
    """The stream of one purpose (``"shoe"`` or ``"dice"``), read front to back; blocks
    are made as they are needed."""

    def __init__(self, seed: bytes, client_seed: str, nonce: Nonce, purpose: str) -> None:
        self.seed = seed
        self.client_seed = client_seed
        self.nonce = nonce
        self.purpose = purpose
        self._buffer = b""
        self._next_block = 0

    def read(self, count: int) -> bytes:
        while len(self._buffer) < count:
            block = stream_block(
                self.seed, self.client_seed, self.nonce, self.purpose, self._next_block
            )
            self._buffer += block
            self._next_block += 1
        taken, self._buffer = self._buffer[:count], self._buffer[count:]
        return taken


def stream_bytes(seed: bytes, client_seed: str, nonce: Nonce, purpose: str, count: int) -> bytes:
    """The first ``count`` bytes of a stream."""
    return ByteStream(seed, client_seed, nonce, purpose).read(count)


class Readable(Protocol):
    """Anything bytes are read from in order: a ByteStream, or io.BytesIO in a test."""

    def read(self, size: int, /) -> bytes: ...


class IntegerReader:
    """Uniform integers from a byte stream (F-4).

    ``below(n)`` takes the next 4 bytes as an unsigned big-endian ``x``; ``x % n`` is
    uniform only when ``x`` is below the largest multiple of ``n`` that fits in 32 bits,
    so 4 bytes at or above it are dropped and the next 4 tried. ``draws`` keeps each
    integer given, as ``(n, value)``, to show (and test) the order they were taken in.
    """

    def __init__(self, source: Readable) -> None:
        self.source = source
        self.draws: list[tuple[int, int]] = []

    def below(self, n: int) -> int:
        if n < 1:
            raise ValueError(f"no integer in [0, {n})")
        limit = 2**32 - (2**32 % n)
        while True:
            chunk = self.source.read(4)
            if len(chunk) != 4:
                raise EOFError("the byte stream ended")
            x = int.from_bytes(chunk, "big")
            if x < limit:
                value = x % n
                self.draws.append((n, value))
                return value


def unshuffled(deck_count: int) -> list[str]:
    """``deck_count`` decks, one after another, each in DECK order."""
    return list(DECK) * deck_count


def mark_jackpot_aces(cards: list[str], reader: IntegerReader) -> None:
    """For each ace of spades in ``cards``, in order, an integer in [0, 6); 0 makes it
    the Jackpot Ace ``"AS*"`` (F-5, R-SB-11)."""
    for position, card in enumerate(cards):
        if card == JACKPOT_ACE and reader.below(JACKPOT_ODDS) == 0:
            cards[position] = JACKPOT_ACE + JACKPOT_MARK


def fisher_yates(cards: list[str], reader: IntegerReader) -> None:
    """From the last position down to 1: swap position ``i`` with ``j`` in [0, i + 1)."""
    for i in range(len(cards) - 1, 0, -1):
        j = reader.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def shoe_reader(server_seed_hex: str, client_seed: str, nonce: Nonce) -> IntegerReader:
    """The integer reader over a shoe's ``"shoe"`` stream."""
    return IntegerReader(ByteStream(bytes.fromhex(server_seed_hex), client_seed, nonce, "shoe"))


def shuffled_decks(deck_count: int, reader: IntegerReader) -> list[str]:
    """A finite shoe from ``reader``: the marks, then Fisher-Yates."""
    cards = unshuffled(deck_count)
    mark_jackpot_aces(cards, reader)
    fisher_yates(cards, reader)
    return cards


def infinite_cards(reader: IntegerReader) -> list[str]:
    """An infinite-deck batch from ``reader``: 52 draws from one deck, then the marks."""
    cards = [DECK[reader.below(len(DECK))] for _ in range(BATCH_SIZE)]
    mark_jackpot_aces(cards, reader)
    return cards


def infinite_batch(server_seed_hex: str, client_seed: str, nonce: Nonce) -> list[str]:
    """The 52 cards of an infinite-deck shoe (one batch, with its own nonce)."""
    return infinite_cards(shoe_reader(server_seed_hex, client_seed, nonce))


def shoe_order(
    server_seed_hex: str, client_seed: str, nonce: Nonce, deck_count: DeckCount
) -> list[str]:
    """Every card of the shoe in the order it is dealt (position 0 first)."""
    reader = shoe_reader(server_seed_hex, client_seed, nonce)
    if deck_count == INFINITE:
        return infinite_cards(reader)
    if not valid_deck_count(deck_count):
        raise ValueError(f"deck_count must be 1 to {MAX_DECKS} or {INFINITE!r}: {deck_count!r}")
    assert isinstance(deck_count, int)
    return shuffled_decks(deck_count, reader)


def dice(server_seed_hex: str, client_seed: str, nonce: Nonce, count: int) -> list[int]:
    """The first ``count`` die faces (1 to 6) of the ``"dice"`` stream, in rolling order."""
    seed = bytes.fromhex(server_seed_hex)
    reader = IntegerReader(ByteStream(seed, client_seed, nonce, "dice"))
    return [reader.below(6) + 1 for _ in range(count)]


def valid_deck_count(deck_count: object) -> bool:
    if deck_count == INFINITE:
        return True
    # bool is an int in Python; true/false in the JSON is not a number of decks.
    return (
        isinstance(deck_count, int)
        and not isinstance(deck_count, bool)
        and 1 <= deck_count <= MAX_DECKS
    )


def is_hex_seed(value: object) -> bool:
    if not isinstance(value, str) or len(value) != 2 * SEED_BYTES:
        return False
    return all(character in "0123456789abcdefABCDEF" for character in value)


def is_revealed(shoe: dict[str, Any]) -> bool:
    return shoe.get("server_seed") is not None


def shape_problems(shoe: dict[str, Any]) -> list[str]:
    """What makes a shoe object impossible to check at all (a field missing or of the
    wrong kind), worded for the player."""
    problems = [f"{key} is missing" for key in SHOE_KEYS if key not in shoe]
    if problems:
        return problems
    if not is_hex_seed(shoe["server_seed"]):
        problems.append("server_seed is not 64 hexadecimal characters")
    client_seed = shoe["client_seed"]
    if not isinstance(client_seed, str) or not client_seed.isascii():
        problems.append("client_seed is not a string of ASCII characters")
    nonce = shoe["nonce"]
    if isinstance(nonce, bool) or not isinstance(nonce, int | str):
        problems.append("nonce is not a number or a string")
    if not valid_deck_count(shoe["deck_count"]):
        problems.append(f"deck_count is not 1 to {MAX_DECKS} or {INFINITE!r}")
    if not isinstance(shoe["commitment"], str):
        problems.append("commitment is not a string")
    cards = shoe["cards_dealt"]
    if not isinstance(cards, list) or not all(isinstance(card, str) for card in cards):
        problems.append("cards_dealt is not a list of card codes")
    return problems


def check_shoe(shoe: dict[str, Any]) -> list[str]:
    """The differences between a revealed shoe and what its seed gives; an empty list
    means the shoe is verified. The seed must match the commitment, and ``cards_dealt``
    must be the first ``len(cards_dealt)`` cards of the recomputed order."""
    if not is_revealed(shoe):
        return ["the server seed is not revealed yet"]
    problems = shape_problems(shoe)
    if problems:
        return problems
    differences = []
    seed_hex: str = shoe["server_seed"]
    committed: str = shoe["commitment"]
    actual = commitment(bytes.fromhex(seed_hex))
    if actual != committed.lower():
        differences.append(f"the seed's SHA-256 is {actual}, the commitment was {committed}")
    order = shoe_order(seed_hex, shoe["client_seed"], shoe["nonce"], shoe["deck_count"])
    dealt: list[str] = shoe["cards_dealt"]
    for position, (found, expected) in enumerate(zip(dealt, order, strict=False), start=1):
        if found != expected:
            differences.append(f"card {position} is {found}, the shuffle gives {expected}")
            break
    if len(dealt) > len(order):
        differences.append(f"{len(dealt)} cards listed, the shoe holds only {len(order)}")
    return differences


def shoe_label(shoe: dict[str, Any], index: int) -> str:
    nonce = shoe.get("nonce")
    return f"shoe {nonce}" if isinstance(nonce, int | str) else f"shoe #{index}"


class UnreadableInput(Exception):
    """The input is not JSON of one shoe or of a list of shoes."""


def read_source(source: str) -> str:
    """The text of a file, of ``-`` (stdin) or of an http(s) address."""
    if source == "-":
        return sys.stdin.read()
    if source.startswith(("http://", "https://")):
        # Only http(s) reaches here (checked above), not file: or other schemes.
        request = urllib.request.Request(source, headers={"Accept": "application/json"})  # noqa: S310
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
            charset = response.headers.get_content_charset() or "utf-8"
            return str(response.read().decode(charset))
    with open(source, encoding="utf-8") as file:
        return file.read()


def shoes_of(document: object) -> list[dict[str, Any]]:
    """The shoes of a parsed document: ``{"shoes": [...]}`` or one shoe object."""
    shoes: list[Any]
    if isinstance(document, dict) and isinstance(document.get("shoes"), list):
        shoes = document["shoes"]
    elif isinstance(document, dict) and "server_seed" in document:
        shoes = [document]
    else:
        raise UnreadableInput('expected one shoe or {"shoes": [...]}')
    if not all(isinstance(shoe, dict) for shoe in shoes):
        raise UnreadableInput("every shoe must be a JSON object")
    return [dict(shoe) for shoe in shoes]


def load_shoes(source: str) -> list[dict[str, Any]]:
    try:
        text = read_source(source)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise UnreadableInput(f"cannot read {source}: {error}") from error
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        hint = " (a Fairness page's JSON is at its address with ?format=json)"
        raise UnreadableInput(f"{source} is not JSON: {error}{hint}") from error
    return shoes_of(document)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Check revealed Blackjack Trivia shoes against their seeds (FAIRNESS.md)."
    )
    parser.add_argument("source", help="a JSON file, an http(s) address, or - for stdin")
    arguments = parser.parse_args(argv)
    # The verdicts carry check marks; a console that cannot show them gets an escape
    # sequence rather than a crash.
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        shoes = load_shoes(arguments.source)
    except UnreadableInput as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    verified = differing = 0
    for index, shoe in enumerate(shoes, start=1):
        label = shoe_label(shoe, index)
        if not is_revealed(shoe):
            print(f"{label}: not revealed yet")
            continue
        differences = check_shoe(shoe)
        if differences:
            differing += 1
            print(f"{label}: \u2718 " + "; ".join(differences))
        else:
            verified += 1
            print(f"{label}: \u2714 verified, {len(shoe['cards_dealt'])} cards")
    if differing:
        return 1
    if not verified:
        print("error: no shoe is revealed yet, nothing to check", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
