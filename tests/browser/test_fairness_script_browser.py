"""static/js/fairness_check.js in Chromium: Web Crypto gives the shared vectors'
streams, shoes and dice (the same as tools/verify_shoe.py), and the page check writes
each revealed shoe's verdict and re-checks what a player edits.

The script is served with a tiny page by a local http.server on 127.0.0.1 (a secure
context, so Web Crypto is there) under a policy as strict as the site's: scripts only
from files. No Django page is involved, so no database either.
"""

from __future__ import annotations

import html
import io
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.browser.helpers import csp_violations
from tests.tools.helpers import ROOT, fairness_vectors, load_verify_shoe, revealed_shoe

SCRIPT = ROOT / "static" / "js" / "fairness_check.js"
SCRIPT_URL = "/static/js/fairness_check.js"
POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'"
VECTORS = fairness_vectors()
DAILY = VECTORS[1]
vs = load_verify_shoe()


def _vector_id(vector: dict[str, Any]) -> str:
    return f"{vector['deck_count']}-{vector['nonce']}"


def _page_html(body: str) -> bytes:
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Fairness</title>"
        f"<script src='{SCRIPT_URL}' defer></script></head><body>{body}</body></html>"
    ).encode()


@pytest.fixture(scope="module")
def fairness_server() -> Iterator[tuple[str, dict[str, bytes]]]:
    """A server of the script and of the pages a test puts in the dict (path -> HTML)."""
    pages: dict[str, bytes] = {"/": _page_html("<main><h1>Fairness</h1></main>")}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path == SCRIPT_URL:
                # Read on each request: the file as it is in the work tree now.
                self._send(SCRIPT.read_bytes(), "text/javascript; charset=utf-8")
            elif self.path in pages:
                self._send(pages[self.path], "text/html; charset=utf-8")
            elif self.path == "/favicon.ico":
                # Chromium asks for one on its own; a 404 would read as a console error.
                self._send(b"", "image/x-icon")
            else:
                self.send_error(404)

        def _send(self, body: bytes, content_type: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Content-Security-Policy", POLICY)
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", pages
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def open_page(browser, fairness_server) -> Iterator[Callable[..., Any]]:
    """``open_page(path="/", init_script=None)``: a new page at ``path`` with the script
    loaded. CSP reports, console errors and page errors are checked empty at the end."""
    base, _ = fairness_server
    contexts, problems = [], []

    def open_(path: str = "/", init_script: str | None = None) -> Any:
        context = browser.new_context(base_url=base)
        context.set_default_timeout(10_000)
        if init_script:
            context.add_init_script(init_script)
        contexts.append(context)
        page = context.new_page()
        problems.append(csp_violations(page))
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
        problems.append(errors)
        page.goto(path)
        page.wait_for_function("() => window.BlackjackFairness !== undefined")
        return page

    yield open_
    for context in contexts:
        context.close()
    found = [line for lines in problems for line in lines]
    assert not found, "Console errors or CSP reports:\n" + "\n".join(found)


# -- The pure functions against the shared vectors -------------------------------------------

VECTOR_SCRIPT = """async (v) => {
  const F = window.BlackjackFairness;
  const order = await F.shoeOrder(v.server_seed, v.client_seed, v.nonce, v.deck_count);
  const draws = await F.shoeDraws(v.server_seed, v.client_seed, v.nonce, v.deck_count);
  return {
    commitment: await F.commitment(v.server_seed),
    shoe_stream_hex: await F.streamBytes(v.server_seed, v.client_seed, v.nonce, "shoe", 64),
    dice_stream_hex: await F.streamBytes(v.server_seed, v.client_seed, v.nonce, "dice", 32),
    first_integers: draws.slice(0, 12),
    first_cards: order.slice(0, 10),
    jackpot_marks: order.flatMap((card, i) => card === "AS*" ? [i] : []),
    dice: await F.dice(v.server_seed, v.client_seed, v.nonce, 6),
    order: order,
  };
}"""


def test_each_vector_in_the_browser(open_page) -> None:
    page = open_page()
    for vector in VECTORS:
        found = page.evaluate(VECTOR_SCRIPT, vector)
        label = _vector_id(vector)
        for key in (
            "commitment",
            "shoe_stream_hex",
            "dice_stream_hex",
            "first_integers",
            "first_cards",
            "jackpot_marks",
            "dice",
        ):
            assert found[key] == vector[key], f"{label}: {key}"
        # The whole shoe, not only its first cards, is what the Python script computes.
        python_order = vs.shoe_order(
            vector["server_seed"], vector["client_seed"], vector["nonce"], vector["deck_count"]
        )
        assert found["order"] == python_order, label


def test_a_numeric_nonce_is_written_as_its_digits(open_page) -> None:
    page = open_page()
    vector = VECTORS[0]  # nonce 1
    as_string = page.evaluate(
        "v => window.BlackjackFairness.streamBytes(v.server_seed, v.client_seed, '1', 'shoe', 64)",
        vector,
    )
    assert as_string == vector["shoe_stream_hex"]


def test_the_integer_rule_drops_the_same_bytes_as_python(open_page) -> None:
    page = open_page()
    cases = [
        ("fffffffffffffffcfffffffb00000007", [6, 6]),
        ("ffffffd0ffffffcf", [52]),
        ("ffffffff", [4]),
        ("0000000100000002", [416, 2]),
    ]
    for hex_bytes, bounds in cases:
        reader = vs.IntegerReader(io.BytesIO(bytes.fromhex(hex_bytes)))
        expected = [reader.below(bound) for bound in bounds]
        found = page.evaluate(
            "([hex, bounds]) => window.BlackjackFairness.integersFromBytes(hex, bounds)",
            [hex_bytes, bounds],
        )
        assert found == expected, hex_bytes


# -- checkShoe ---------------------------------------------------------------------------------


def _check_in_browser(page, shoe: dict[str, Any]) -> list[str]:
    return page.evaluate("shoe => window.BlackjackFairness.checkShoe(shoe)", shoe)


def _with_card(shoe: dict[str, Any], position: int, card: str) -> dict[str, Any]:
    cards = list(shoe["cards_dealt"])
    cards[position] = card
    return shoe | {"cards_dealt": cards}


def _seed_byte_changed(shoe: dict[str, Any]) -> dict[str, Any]:
    seed = bytearray.fromhex(shoe["server_seed"])
    seed[0] ^= 0x80
    return shoe | {"server_seed": seed.hex()}


def test_check_shoe_verifies_a_true_shoe_and_names_what_differs(open_page) -> None:
    page = open_page()
    for vector in VECTORS:
        assert _check_in_browser(page, revealed_shoe(vector, 40)) == [], _vector_id(vector)

    shoe = revealed_shoe(DAILY, 40)
    true_card = shoe["cards_dealt"][11]
    other = "7H" if true_card != "7H" else "9C"
    assert _check_in_browser(page, _with_card(shoe, 11, other)) == [
        f"card 12 is {other}, the shuffle gives {true_card}"
    ]

    tampered_seed = _check_in_browser(page, _seed_byte_changed(shoe))
    assert tampered_seed
    assert tampered_seed[0].startswith("the seed's SHA-256 is ")


@pytest.mark.parametrize(
    "altered",
    [
        lambda shoe: _with_card(shoe, 15, "AS"),  # the Jackpot Ace without its mark
        _seed_byte_changed,
        lambda shoe: shoe | {"client_seed": "someone else"},
        lambda shoe: shoe | {"nonce": "2026-11-28:8"},
        lambda shoe: shoe | {"cards_dealt": shoe["cards_dealt"][1:]},
        lambda shoe: shoe | {"deck_count": 9},
        lambda shoe: shoe | {"server_seed": "00ff"},
        lambda shoe: shoe | {"server_seed": None},
        lambda shoe: {key: value for key, value in shoe.items() if key != "commitment"},
    ],
)
def test_check_shoe_words_each_difference_as_the_python_script(open_page, altered) -> None:
    shoe = altered(revealed_shoe(DAILY, 60))
    page = open_page()
    assert _check_in_browser(page, shoe) == vs.check_shoe(shoe)


def test_too_many_cards_for_an_infinite_batch(open_page) -> None:
    shoe = revealed_shoe(VECTORS[3], 52)
    shoe["cards_dealt"].append("2S")
    page = open_page()
    assert _check_in_browser(page, shoe) == ["53 cards listed, the shoe holds only 52"]


# -- The page check ----------------------------------------------------------------------------


def _shoe_html(shoe: dict[str, Any], *, fields: bool = False, element_id: str) -> str:
    attributes = {
        "data-server-seed": shoe["server_seed"] or "",
        "data-client-seed": shoe["client_seed"],
        "data-nonce": str(shoe["nonce"]),
        "data-deck-count": str(shoe["deck_count"]),
        "data-commitment": shoe["commitment"],
        "data-cards": " ".join(shoe["cards_dealt"]),
    }
    if shoe["server_seed"] is None:
        del attributes["data-server-seed"]
    written = " ".join(f'{name}="{html.escape(value)}"' for name, value in attributes.items())
    inner = f"<h2>Shoe {html.escape(str(shoe['nonce']))}</h2>"
    if fields:
        inner += (
            "<label>Server seed <input name='server_seed' "
            f"value='{html.escape(shoe['server_seed'])}'></label>"
            "<label>Client seed <input name='client_seed' "
            f"value='{html.escape(shoe['client_seed'])}'></label>"
            "<label>Cards <textarea name='cards_dealt'>"
            f"{html.escape(' '.join(shoe['cards_dealt']))}</textarea></label>"
        )
    inner += "<button type='button' data-fairness-verify>Verify</button>"
    inner += "<p data-fairness-verdict>Not checked yet</p>"
    return f'<section id="{element_id}" data-fairness-shoe {written}>{inner}</section>'


@pytest.fixture
def fairness_page(fairness_server) -> str:
    """A page of four shoes: two true (one with editable fields), one whose listed cards
    differ, one not revealed yet."""
    _, pages = fairness_server
    true_daily = revealed_shoe(DAILY, 47)
    true_infinite = revealed_shoe(VECTORS[3], 30)
    altered = revealed_shoe(VECTORS[2], 25)
    altered["cards_dealt"][4], altered["cards_dealt"][9] = (
        altered["cards_dealt"][9],
        altered["cards_dealt"][4],
    )
    assert altered["cards_dealt"][4] != altered["cards_dealt"][9]
    unrevealed = revealed_shoe(VECTORS[0], 3) | {"server_seed": None}
    body = "".join(
        [
            _shoe_html(true_daily, fields=True, element_id="daily"),
            _shoe_html(true_infinite, element_id="infinite"),
            _shoe_html(altered, element_id="altered"),
            _shoe_html(unrevealed, element_id="unrevealed"),
        ]
    )
    pages["/fairness"] = _page_html(f"<main>{body}</main>")
    return "/fairness"


def test_the_page_writes_each_revealed_shoes_verdict(open_page, fairness_page) -> None:
    page = open_page(fairness_page)
    page.wait_for_selector("#altered[data-verdict]")
    page.wait_for_selector("#daily[data-verdict]")
    page.wait_for_selector("#infinite[data-verdict]")

    verdict = "[data-fairness-verdict]"
    assert page.get_attribute("#daily", "data-verdict") == "ok"
    assert page.text_content(f"#daily {verdict}") == (
        "\u2714 Verified: these 47 cards are the shuffle of this seed"
    )
    assert page.get_attribute("#infinite", "data-verdict") == "ok"
    assert page.text_content(f"#infinite {verdict}") == (
        "\u2714 Verified: these 30 cards are the shuffle of this seed"
    )
    assert page.get_attribute("#altered", "data-verdict") == "differs"
    assert page.text_content(f"#altered {verdict}").startswith("\u2718 card 5 is ")
    # Not revealed: nothing to check, the server's words stay.
    assert page.get_attribute("#unrevealed", "data-verdict") is None
    assert page.text_content(f"#unrevealed {verdict}") == "Not checked yet"


def test_verify_rechecks_what_the_player_edited(open_page, fairness_page) -> None:
    page = open_page(fairness_page)
    shoe = page.locator("#daily")
    verdict = shoe.locator("[data-fairness-verdict]")
    page.wait_for_selector("#daily[data-verdict='ok']")
    verify = shoe.get_by_role("button", name="Verify")
    assert verify.get_attribute("type") == "button"

    cards = shoe.locator("textarea[name=cards_dealt]")
    listed = cards.input_value().split()
    other = "KH" if listed[2] != "KH" else "QH"
    cards.fill(" ".join([*listed[:2], other, *listed[3:]]))
    verify.click()
    page.wait_for_selector("#daily[data-verdict='differs']")
    assert verdict.text_content() == f"\u2718 card 3 is {other}, the shuffle gives {listed[2]}"

    cards.fill(" ".join(listed))
    verify.click()
    page.wait_for_selector("#daily[data-verdict='ok']")

    seed = shoe.locator("input[name=server_seed]")
    true_seed = seed.input_value()
    seed.fill(("1" if true_seed[0] != "1" else "2") + true_seed[1:])
    verify.click()
    page.wait_for_selector("#daily[data-verdict='differs']")
    assert verdict.text_content().startswith("\u2718 the seed's SHA-256 is ")

    seed.fill(true_seed)
    shoe.locator("input[name=client_seed]").fill("not daily")
    verify.click()
    page.wait_for_selector("#daily[data-verdict='differs']")
    assert verdict.text_content().startswith("\u2718 card 1 is ")


def test_verify_without_fields_rechecks_the_published_values(open_page, fairness_page) -> None:
    page = open_page(fairness_page)
    page.wait_for_selector("#altered[data-verdict='differs']")
    first = page.text_content("#altered [data-fairness-verdict]")
    page.locator("#altered").get_by_role("button", name="Verify").click()
    page.wait_for_selector("#altered[data-verdict='differs']")
    assert page.text_content("#altered [data-fairness-verdict]") == first


def test_without_web_crypto_the_page_says_where_to_check(open_page, fairness_page) -> None:
    # An insecure context (plain HTTP on a public address) has no crypto.subtle.
    page = open_page(
        fairness_page,
        init_script="Object.defineProperty(window.crypto, 'subtle', {value: undefined});",
    )
    message = "Your browser can check this only over HTTPS; use tools/verify_shoe.py"
    page.wait_for_selector("#daily[data-verdict='unavailable']")
    assert page.text_content("#daily [data-fairness-verdict]") == message
    assert page.text_content("#altered [data-fairness-verdict]") == message
