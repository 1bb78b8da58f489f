#!/usr/bin/env python3
"""Write tools/fairness_vectors.json: shared test vectors for FAIRNESS.md F-3 to F-5.

Three implementations check these same vectors, so they can never drift apart: the
engine's shuffle, tools/verify_shoe.py (whose functions this script calls to make them)
and the Fairness page's JavaScript (static/js/fairness_check.js, driven in Chromium by
tests/browser/test_fairness_script_browser.py). A change to any of them that changes a
shoe fails the other two's tests against this file.

Every seed is fixed (no randomness here), so running the script again writes the same
file; ``--check`` says whether the committed file is what the script writes.

    python tools/make_fairness_vectors.py          # rewrite the file
    python tools/make_fairness_vectors.py --check  # exit 1 if the file is out of date
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from verify_shoe import (
    DeckCount,
    IntegerReader,
    Nonce,
    commitment,
    dice,
    infinite_cards,
    shoe_reader,
    shuffled_decks,
    stream_bytes,
)

OUTPUT = Path(__file__).resolve().with_name("fairness_vectors.json")
SHOE_STREAM_BYTES = 64
DICE_STREAM_BYTES = 32
FIRST_INTEGERS = 12
FIRST_CARDS = 10
DICE_FACES = 6
JACKPOT_CARD = "AS*"

ABOUT = (
    "Test vectors for FAIRNESS.md F-3 to F-5, written by tools/make_fairness_vectors.py "
    "from tools/verify_shoe.py. The engine, tools/verify_shoe.py and "
    "static/js/fairness_check.js are each tested against them. shoe_stream_hex: the first "
    f"{SHOE_STREAM_BYTES} bytes of the 'shoe' stream; dice_stream_hex: the first "
    f"{DICE_STREAM_BYTES} bytes of the 'dice' stream; first_integers: the first "
    f"{FIRST_INTEGERS} integers the shoe draws as [bound, value], in draw order (marks, "
    "then Fisher-Yates; for an infinite deck the 52 card draws, then the marks); "
    f"first_cards: the first {FIRST_CARDS} cards dealt; jackpot_marks: the 0-based "
    "positions of AS* in the dealing order (in the batch for an infinite deck); dice: "
    f"the first {DICE_FACES} die faces."
)


def labelled_seed(label: str) -> str:
    """A fixed server seed anyone can recompute: the SHA-256 of a label, in hex."""
    return hashlib.sha256(label.encode("ascii")).hexdigest()


def shoe_and_reader(
    seed_hex: str, client_seed: str, nonce: Nonce, deck_count: DeckCount
) -> tuple[list[str], IntegerReader]:
    reader = shoe_reader(seed_hex, client_seed, nonce)
    if deck_count == "infinite":
        return infinite_cards(reader), reader
    assert isinstance(deck_count, int)
    return shuffled_decks(deck_count, reader), reader


def vector(
    seed_hex: str, client_seed: str, nonce: Nonce, deck_count: DeckCount, note: str = ""
) -> dict[str, Any]:
    seed = bytes.fromhex(seed_hex)
    cards, reader = shoe_and_reader(seed_hex, client_seed, nonce, deck_count)
    made: dict[str, Any] = {
        "server_seed": seed_hex,
        "client_seed": client_seed,
        "nonce": nonce,
        "deck_count": deck_count,
        "commitment": commitment(seed),
        "shoe_stream_hex": stream_bytes(seed, client_seed, nonce, "shoe", SHOE_STREAM_BYTES).hex(),
        "dice_stream_hex": stream_bytes(seed, client_seed, nonce, "dice", DICE_STREAM_BYTES).hex(),
        "first_integers": [list(draw) for draw in reader.draws[:FIRST_INTEGERS]],
        "first_cards": cards[:FIRST_CARDS],
        "jackpot_marks": [index for index, card in enumerate(cards) if card == JACKPOT_CARD],
        "dice": dice(seed_hex, client_seed, nonce, DICE_FACES),
    }
    if note:
        made["note"] = note
    return made


def first_marked_client_seed(seed_hex: str, prefix: str, nonce: Nonce) -> str:
    """The first client seed ``prefix-0``, ``prefix-1``, ... whose infinite-deck batch
    holds a Jackpot Ace. Each of a batch's 52 cards is the ace of spades one time in 52,
    and marked one time in 6, so only about one batch in seven has one: the vector needs
    a client seed that gives one, found the same way every run."""
    for attempt in range(10_000):
        client_seed = f"{prefix}-{attempt}"
        cards, _ = shoe_and_reader(seed_hex, client_seed, nonce, "infinite")
        if JACKPOT_CARD in cards:
            return client_seed
    raise RuntimeError("no marked batch found")  # pragma: no cover - found within a few


def vectors() -> list[dict[str, Any]]:
    infinite_seed = labelled_seed("blackjack-trivia fairness vector: infinite")
    infinite_client = first_marked_client_seed(infinite_seed, "infinite", 3)
    return [
        vector(bytes(range(32)).hex(), "client-seed", 1, 1),
        vector(
            labelled_seed("blackjack-trivia fairness vector: daily, 6 decks"),
            "daily",
            "2026-11-28:7",
            6,
            note="A Daily Shoe round (D-2): client seed 'daily', a string nonce.",
        ),
        vector(
            labelled_seed("blackjack-trivia fairness vector: 8 decks"),
            "ann|Bob 2|c~!@#$%^&*()",
            42,
            8,
            note="A shared table's client seed: seats' seeds joined with '|' (F-2).",
        ),
        vector(
            infinite_seed,
            infinite_client,
            3,
            "infinite",
            note=(
                "The client seed is the first of infinite-0, infinite-1, ... whose batch "
                "holds a Jackpot Ace (searched in that order by make_fairness_vectors.py)."
            ),
        ),
    ]


def document() -> str:
    return json.dumps({"about": ABOUT, "vectors": vectors()}, indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if the file differs from what is written"
    )
    arguments = parser.parse_args(argv)
    text = document()
    if arguments.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT} is out of date: run {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
