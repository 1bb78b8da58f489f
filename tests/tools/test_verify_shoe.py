"""tools/verify_shoe.py: FAIRNESS.md F-3 to F-5 against the shared vectors, and its CLI.

The first vector worked out by hand (server seed 00 01 02 ... 1f, client seed
"client-seed", nonce 1, one deck), to show how each number comes about:

- Commitment: SHA-256 of the 32 seed bytes =
  630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd.
- Block 0 of the shoe stream: HMAC-SHA256(key = the 32 seed bytes,
  message = b"client-seed:1:shoe:0") =
  b9ddcdb0e0e39b6bc3c63d20bcc5da3889c1380ef4934cf0c8bb4b4c596c2ce8.
- The first draw is the mark of the deck's only ace of spades, an integer in [0, 6):
  bytes b9 dd cd b0 -> x = 3118321072. The bound check: 2**32 % 6 = 4, so
  x < 2**32 - 4 = 4294967292 is accepted, and x % 6 = 4 (not 0: the ace is not marked).
- The second draw is Fisher-Yates' first, i = 51, an integer in [0, 52):
  bytes e0 e3 9b 6b -> x = 3773012843; 2**32 % 52 = 48, x < 4294967248 is accepted,
  and x % 52 = 15: positions 51 (AH) and 15 (4C) swap. Nothing moves position 51
  again, so the shoe's last card is 4C.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.tools.helpers import (
    TOOLS,
    VERIFY_SHOE,
    fairness_vectors,
    load_verify_shoe,
    revealed_shoe,
)

SCRIPT = VERIFY_SHOE
VECTORS = fairness_vectors()
vs = load_verify_shoe()


def _vector_id(vector: dict[str, Any]) -> str:
    return f"{vector['deck_count']}-{vector['client_seed']}-{vector['nonce']}"


# -- The shared vectors --------------------------------------------------------------------


@pytest.mark.parametrize("vector", VECTORS, ids=_vector_id)
def test_each_vector_is_what_the_functions_give(vector: dict[str, Any]) -> None:
    seed_hex, client, nonce, decks = (
        vector["server_seed"],
        vector["client_seed"],
        vector["nonce"],
        vector["deck_count"],
    )
    seed = bytes.fromhex(seed_hex)
    assert vs.commitment(seed) == vector["commitment"]
    assert hashlib.sha256(seed).hexdigest() == vector["commitment"]
    assert vs.stream_bytes(seed, client, nonce, "shoe", 64).hex() == vector["shoe_stream_hex"]
    assert vs.stream_bytes(seed, client, nonce, "dice", 32).hex() == vector["dice_stream_hex"]

    reader = vs.shoe_reader(seed_hex, client, nonce)
    if decks == "infinite":
        cards = vs.infinite_cards(reader)
        assert cards == vs.infinite_batch(seed_hex, client, nonce)
    else:
        cards = vs.shuffled_decks(decks, reader)
    assert [list(draw) for draw in reader.draws[:12]] == vector["first_integers"]

    order = vs.shoe_order(seed_hex, client, nonce, decks)
    assert order == cards
    assert order[:10] == vector["first_cards"]
    assert [i for i, card in enumerate(order) if card == "AS*"] == vector["jackpot_marks"]
    assert vs.dice(seed_hex, client, nonce, 6) == vector["dice"]


def test_the_vectors_cover_every_kind_of_shoe_and_a_jackpot_ace() -> None:
    assert {vector["deck_count"] for vector in VECTORS} >= {1, 6, 8, "infinite"}
    assert any(isinstance(vector["nonce"], str) for vector in VECTORS)
    assert any(vector["jackpot_marks"] for vector in VECTORS)
    assert all(len(vector["first_integers"]) == 12 for vector in VECTORS)


def test_the_vectors_file_is_what_its_script_writes() -> None:
    result = subprocess.run(
        [sys.executable, str(TOOLS / "make_fairness_vectors.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_the_first_vector_by_hand() -> None:
    seed = bytes(range(32))
    block = vs.stream_block(seed, "client-seed", 1, "shoe", 0)
    expected_block = "b9ddcdb0e0e39b6bc3c63d20bcc5da3889c1380ef4934cf0c8bb4b4c596c2ce8"
    assert block.hex() == expected_block
    assert block == hmac.new(seed, b"client-seed:1:shoe:0", hashlib.sha256).digest()
    assert int.from_bytes(block[0:4], "big") == 3118321072 < 2**32 - 4
    assert int.from_bytes(block[4:8], "big") == 3773012843 < 2**32 - 48
    order = vs.shoe_order(seed.hex(), "client-seed", 1, 1)
    assert "AS" in order and "AS*" not in order
    assert order[51] == "4C"
    assert VECTORS[0]["first_integers"][:2] == [[6, 4], [52, 15]]


# -- Pieces of the rules -------------------------------------------------------------------


def test_the_written_out_deck_is_suits_then_ranks() -> None:
    ranks = ("2", "3", "4", "5", "6", "7", "8", "9", "0", "J", "Q", "K", "A")
    assert list(vs.DECK) == [rank + suit for suit in "SCDH" for rank in ranks]


def test_a_nonce_is_written_as_str_writes_it() -> None:
    seed = bytes(range(32))
    assert vs.stream_block(seed, "c", 7, "shoe", 0) == vs.stream_block(seed, "c", "7", "shoe", 0)
    daily = hmac.new(seed, b"daily:2026-11-28:7:dice:1", hashlib.sha256).digest()
    assert vs.stream_block(seed, "daily", "2026-11-28:7", "dice", 1) == daily


def test_the_stream_is_its_blocks_one_after_another() -> None:
    seed = bytes(range(32))
    blocks = b"".join(vs.stream_block(seed, "c", 1, "shoe", k) for k in range(3))
    assert vs.stream_bytes(seed, "c", 1, "shoe", 80) == blocks[:80]
    stream = vs.ByteStream(seed, "c", 1, "shoe")
    assert stream.read(5) + stream.read(40) + stream.read(35) == blocks[:80]


def test_four_bytes_at_or_above_the_limit_are_dropped() -> None:
    # n = 6: 2**32 % 6 = 4, so 0xfffffffc (= 2**32 - 4) and above are dropped.
    reader = vs.IntegerReader(io.BytesIO(bytes.fromhex("fffffffffffffffcfffffffb00000007")))
    assert reader.below(6) == 0xFFFFFFFB % 6
    assert reader.below(6) == 7 % 6
    assert reader.draws == [(6, 0xFFFFFFFB % 6), (6, 1)]


def test_the_limit_for_52_and_for_a_power_of_two() -> None:
    # 2**32 % 52 = 48: 0xffffffd0 is the first value dropped, 0xffffffcf the last kept.
    reader = vs.IntegerReader(io.BytesIO(bytes.fromhex("ffffffd0ffffffcf")))
    assert reader.below(52) == 0xFFFFFFCF % 52 == 51
    # A power of two divides 2**32: nothing is dropped.
    assert vs.IntegerReader(io.BytesIO(bytes.fromhex("ffffffff"))).below(4) == 3


def test_a_stream_that_ends_is_an_error_not_a_short_read() -> None:
    with pytest.raises(EOFError):
        vs.IntegerReader(io.BytesIO(b"\x00\x01")).below(6)


@pytest.mark.parametrize("decks", range(1, 9))
def test_a_shoe_holds_every_card_of_its_decks_once_per_deck(decks: int) -> None:
    order = vs.shoe_order(hashlib.sha256(b"decks").hexdigest(), "c", decks, decks)
    unmarked = Counter(card.rstrip("*") for card in order)
    assert unmarked == Counter(dict.fromkeys(vs.DECK, decks))
    assert all(card in ("AS", "AS*") or "*" not in card for card in order)


def test_an_infinite_batch_is_52_cards_and_marks_only_the_ace_of_spades() -> None:
    batch = vs.infinite_batch(VECTORS[-1]["server_seed"], VECTORS[-1]["client_seed"], 3)
    assert len(batch) == 52
    assert {card.rstrip("*") for card in batch} <= set(vs.DECK)
    assert {card for card in batch if card.endswith("*")} <= {"AS*"}


def test_dice_are_faces_one_to_six_from_the_dice_stream() -> None:
    faces = vs.dice(bytes(range(32)).hex(), "c", 1, 200)
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    stream = vs.stream_bytes(bytes(range(32)), "c", 1, "dice", 4)
    assert faces[0] == int.from_bytes(stream, "big") % 6 + 1  # accepted: below 2**32 - 4


# -- check_shoe ----------------------------------------------------------------------------


DAILY = VECTORS[1]  # six decks, Jackpot Aces at positions 15 and 53 among the first 60


@pytest.mark.parametrize("vector", VECTORS, ids=_vector_id)
def test_a_true_prefix_is_verified(vector: dict[str, Any]) -> None:
    assert vs.check_shoe(revealed_shoe(vector, 47)) == []
    assert vs.check_shoe(revealed_shoe(vector, 0)) == []


def test_a_whole_shoe_is_verified_and_one_more_card_is_too_many() -> None:
    shoe = revealed_shoe(VECTORS[0], 52)
    assert vs.check_shoe(shoe) == []
    shoe["cards_dealt"].append("2S")
    assert vs.check_shoe(shoe) == ["53 cards listed, the shoe holds only 52"]


def test_the_first_differing_card_is_named() -> None:
    shoe = revealed_shoe(DAILY, 60)
    expected = shoe["cards_dealt"][11]
    shoe["cards_dealt"][11] = "7H" if expected != "7H" else "9C"
    assert vs.check_shoe(shoe) == [
        f"card 12 is {shoe['cards_dealt'][11]}, the shuffle gives {expected}"
    ]


def test_a_jackpot_ace_dealt_without_its_mark_differs() -> None:
    shoe = revealed_shoe(DAILY, 60)
    assert shoe["cards_dealt"][15] == "AS*"
    shoe["cards_dealt"][15] = "AS"
    assert vs.check_shoe(shoe) == ["card 16 is AS, the shuffle gives AS*"]


def test_a_seed_that_does_not_match_its_commitment_differs() -> None:
    shoe = revealed_shoe(DAILY, 60)
    shoe["commitment"] = vs.commitment(b"\x00" * 32)
    assert vs.check_shoe(shoe)[0].startswith(f"the seed's SHA-256 is {DAILY['commitment']}")


def test_an_upper_case_seed_or_commitment_is_the_same_value() -> None:
    shoe = revealed_shoe(DAILY, 60)
    shoe["server_seed"] = shoe["server_seed"].upper()
    shoe["commitment"] = shoe["commitment"].upper()
    assert vs.check_shoe(shoe) == []


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("server_seed", "abc", "server_seed is not 64 hexadecimal characters"),
        ("server_seed", "zz" * 32, "server_seed is not 64 hexadecimal characters"),
        ("deck_count", 9, "deck_count is not 1 to 8 or 'infinite'"),
        ("deck_count", True, "deck_count is not 1 to 8 or 'infinite'"),
        ("client_seed", "café", "client_seed is not a string of ASCII characters"),
        ("cards_dealt", "AS KS", "cards_dealt is not a list of card codes"),
    ],
)
def test_a_shoe_that_cannot_be_checked_says_why(field: str, value: object, problem: str) -> None:
    shoe = revealed_shoe(DAILY, 5)
    shoe[field] = value
    assert vs.check_shoe(shoe) == [problem]


def test_a_missing_field_is_named() -> None:
    shoe = revealed_shoe(DAILY, 5)
    del shoe["commitment"]
    assert vs.check_shoe(shoe) == ["commitment is missing"]


def test_an_unrevealed_shoe_is_not_verified() -> None:
    shoe = revealed_shoe(DAILY, 5) | {"server_seed": None}
    assert not vs.is_revealed(shoe)
    assert vs.check_shoe(shoe) == ["the server seed is not revealed yet"]


# -- The command line ----------------------------------------------------------------------


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    # A proxy in the environment must not take the local test server's requests.
    env = os.environ | {"NO_PROXY": "127.0.0.1,localhost", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        check=False,
        timeout=60,
    )


def _write(tmp_path: Path, document: object) -> str:
    path = tmp_path / "shoes.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def test_cli_verifies_a_correct_shoe(tmp_path: Path) -> None:
    result = _run(_write(tmp_path, revealed_shoe(DAILY, 47)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == "shoe 2026-11-28:7: \u2714 verified, 47 cards\n"


def _tampered_card(shoe: dict[str, Any]) -> None:
    cards = shoe["cards_dealt"]
    cards[20] = "2H" if cards[20] != "2H" else "3H"


def _tampered_seed_byte(shoe: dict[str, Any]) -> None:
    seed = bytearray.fromhex(shoe["server_seed"])
    seed[31] ^= 0x01
    shoe["server_seed"] = seed.hex()


def _tampered_seed_and_commitment(shoe: dict[str, Any]) -> None:
    # A site that swapped seeds and published the new one's commitment: the cards tell.
    _tampered_seed_byte(shoe)
    shoe["commitment"] = vs.commitment(bytes.fromhex(shoe["server_seed"]))


def _swapped_positions(shoe: dict[str, Any]) -> None:
    cards = shoe["cards_dealt"]
    first = 3
    second = next(i for i in range(first + 1, len(cards)) if cards[i] != cards[first])
    cards[first], cards[second] = cards[second], cards[first]


def _wrong_client_seed(shoe: dict[str, Any]) -> None:
    shoe["client_seed"] = "not-daily"


def _wrong_nonce(shoe: dict[str, Any]) -> None:
    shoe["nonce"] = "2026-11-28:8"


@pytest.mark.parametrize(
    "tamper",
    [
        _tampered_card,
        _tampered_seed_byte,
        _tampered_seed_and_commitment,
        _swapped_positions,
        _wrong_client_seed,
        _wrong_nonce,
    ],
)
def test_cli_fails_an_altered_shoe(tmp_path: Path, tamper: Any) -> None:
    shoe = revealed_shoe(DAILY, 47)
    tamper(shoe)
    result = _run(_write(tmp_path, shoe))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "\u2718" in result.stdout


def test_cli_names_the_card_that_differs(tmp_path: Path) -> None:
    shoe = revealed_shoe(DAILY, 47)
    expected = shoe["cards_dealt"][20]
    _tampered_card(shoe)
    result = _run(_write(tmp_path, {"shoes": [shoe]}))
    found = shoe["cards_dealt"][20]
    assert f"card 21 is {found}, the shuffle gives {expected}" in result.stdout


@pytest.mark.parametrize(
    "content",
    ["not json at all", "[1, 2, 3]", '{"shoes": [1]}', '{"about": "no shoe here"}', ""],
)
def test_cli_unreadable_input_exits_2(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = _run(str(path))
    assert result.returncode == 2
    assert result.stderr.startswith("error:")


def test_cli_missing_file_exits_2(tmp_path: Path) -> None:
    result = _run(str(tmp_path / "nowhere.json"))
    assert result.returncode == 2
    assert "cannot read" in result.stderr


def test_cli_reads_stdin(tmp_path: Path) -> None:
    result = _run("-", stdin=json.dumps({"shoes": [revealed_shoe(VECTORS[0], 30)]}))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "shoe 1: \u2714 verified, 30 cards\n"


def test_cli_reports_an_unrevealed_shoe_without_failing(tmp_path: Path) -> None:
    unrevealed = revealed_shoe(VECTORS[2], 12) | {"server_seed": None}
    shoes = [revealed_shoe(VECTORS[0], 52), unrevealed, revealed_shoe(VECTORS[3], 9)]
    document = {"game": 12, "shoes": shoes}
    result = _run(_write(tmp_path, document))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        "shoe 1: \u2714 verified, 52 cards",
        "shoe 42: not revealed yet",
        "shoe 3: \u2714 verified, 9 cards",
    ]


def test_cli_with_nothing_revealed_exits_2(tmp_path: Path) -> None:
    unrevealed = revealed_shoe(DAILY, 3) | {"server_seed": None}
    result = _run(_write(tmp_path, {"shoes": [unrevealed]}))
    assert result.returncode == 2
    assert "not revealed yet" in result.stdout


def test_cli_one_differing_shoe_among_good_ones_exits_1(tmp_path: Path) -> None:
    bad = revealed_shoe(VECTORS[0], 10)
    _swapped_positions(bad)
    result = _run(_write(tmp_path, {"shoes": [revealed_shoe(DAILY, 10), bad]}))
    assert result.returncode == 1
    assert result.stdout.splitlines()[0].endswith("\u2714 verified, 10 cards")
    assert result.stdout.splitlines()[1].startswith("shoe 1: \u2718 card 4 is ")


@pytest.fixture
def served_json() -> Iterator[tuple[str, dict[str, bytes]]]:
    """A local HTTP server in a thread; the test puts each path's body in the dict."""
    bodies: dict[str, bytes] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = bodies.get(self.path)
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass  # the test's output is the script's, not the server's log

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", bodies
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_cli_reads_a_url(served_json: tuple[str, dict[str, bytes]]) -> None:
    base, bodies = served_json
    document = {"shoes": [revealed_shoe(VECTORS[2], 100), revealed_shoe(VECTORS[3], 52)]}
    bodies["/games/12/fairness/?format=json"] = json.dumps(document).encode()
    result = _run(f"{base}/games/12/fairness/?format=json")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        "shoe 42: \u2714 verified, 100 cards",
        "shoe 3: \u2714 verified, 52 cards",
    ]


def test_cli_a_url_that_fails_exits_2(served_json: tuple[str, dict[str, bytes]]) -> None:
    base, _ = served_json
    result = _run(f"{base}/missing")
    assert result.returncode == 2
    assert "cannot read" in result.stderr
