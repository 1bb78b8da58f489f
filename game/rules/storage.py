"""The game's state as plain JSON-able data, and back: the copy the server stores.

:func:`game_to_json` holds everything, the hole card and the shoe order included, so it
must never reach a browser (the page gets :func:`game.rules.public.public_view`).
:func:`game_from_json` reads any state this module ever wrote: a field stored before it
existed keeps its default.

A round of one box stores that box's fields flat among its own, as rounds always have;
a round of several boxes stores them as a ``"boxes"`` list, and a shared round also
its ``"wallets"``, the answers given ahead and the open stage.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from typing import Any, Final

from game.rules.clock import Clock
from game.rules.daily import DailyShoes
from game.rules.engine import BOX_FIELDS, HAND_FIELDS, ROUND_FIELDS, Box, Engine, Hand, Round
from game.rules.fair import CommittedShoes, new_client_seed
from game.rules.options import Options
from game.rules.shoe import Rng, Shoe
from game.rules.wallets import WALLET_FIELDS, Wallet

# The round's own fields stored as they are (boxes, hands and the shared round's fields
# have their own forms).
_ROUND_STATE: Final = tuple(
    name
    for name in ROUND_FIELDS
    if name not in ("boxes", "offer_box", "hands", "wallets", "answers_ahead", "open_stage")
)
# A hand's fields read as stored: all but its cards, bet and box, given to Hand().
_HAND_STATE: Final = HAND_FIELDS[2:-1]


def game_to_json(game: Engine) -> dict[str, Any]:
    """The whole state as plain JSON-able data (hole card and shoe order included: this
    is the server-side copy the database stores)."""
    options = game.options
    round_ = game.round
    queue = game.dice_queue
    source = game.source
    data: dict[str, Any] = {
        "options": options.to_dict(),
        "implied": list(options.implied),
        "bank": game.bank,
        "credits": game.credits,
        "round_number": game.round_number,
        "game_over": game.game_over,
        "game_over_reason": game.game_over_reason,
        "shoe": game.shoe.to_json(),
        "round": None if round_ is None else round_to_json(round_),
        "dice_queue": None if queue is None else list(queue),
    }
    if isinstance(source, CommittedShoes):
        # The open shoe's server seed: secret until the shoe is finished (F-6).
        data["fair"] = source.to_json()
    elif isinstance(source, DailyShoes):
        # The day's server seed: secret until the day ends (D-8).
        data["daily"] = source.to_json()
    return data


def game_from_json(
    data: Mapping[str, Any],
    *,
    rng: Rng | None = None,
    seed_bytes: Callable[[int], bytes] | None = None,
    record_events: bool = True,
    clock: Clock | None = None,
) -> Engine:
    """The game :func:`game_to_json` stored, with events on or off and a clock of the
    caller's.

    A game with committed shoes goes on with them, new server seeds from ``seed_bytes``
    (``secrets`` by default); a Daily Shoe's attempt goes on with the day's shoes. A game
    stored before shoes were committed plays its shoe out with ``rng``'s draws, or, given
    ``seed_bytes``, committed shoes from its next shoe.
    """
    options = Options.from_stored(data["options"], data["implied"])
    fair = data.get("fair")
    daily = data.get("daily")
    source: CommittedShoes | DailyShoes | None = None
    if daily is not None:
        source = DailyShoes.from_json(daily)
    elif fair is not None:
        source = CommittedShoes.from_json(fair, seed_bytes=seed_bytes or secrets.token_bytes)
    elif seed_bytes is not None:
        source = CommittedShoes(new_client_seed(), seed_bytes=seed_bytes)
    # Through Game() (which a compiled build needs), then the stored state on top.
    game = Engine(
        options,
        rng=rng,
        source=source,
        bank=data["bank"],
        credits=data["credits"],
        shoe=Shoe.from_json(data["shoe"]),
        record_events=record_events,
        clock=clock,
    )
    game.round_number = data["round_number"]
    game.game_over = data["game_over"]
    game.game_over_reason = data["game_over_reason"]
    game.round = None if data["round"] is None else round_from_json(data["round"])
    queue = data.get("dice_queue")
    game.dice_queue = None if queue is None else list(queue)
    return game


def round_to_json(round_: Round) -> dict[str, Any]:
    data = {name: _plain(getattr(round_, name)) for name in _ROUND_STATE}
    data["hands"] = [_hand_to_json(hand) for hand in round_.hands]
    wallets = round_.wallets
    if len(round_.boxes) == 1 and wallets is None:
        data.update(_box_to_json(round_.boxes[0]))  # the one-box form rounds always had
    else:
        data["boxes"] = [_box_to_json(box) for box in round_.boxes]
        data["offer_box"] = round_.offer_box
    if wallets is not None:
        data["wallets"] = [_wallet_to_json(wallet) for wallet in wallets]
        data["answers_ahead"] = {str(box): answer for box, answer in round_.answers_ahead.items()}
        data["open_stage"] = round_.open_stage
    return data


def round_from_json(data: Mapping[str, Any]) -> Round:
    stored_boxes = data.get("boxes")
    boxes = (
        [_box_from_json(data)]
        if stored_boxes is None
        else [_box_from_json(box) for box in stored_boxes]
    )
    round_ = Round(data["number"], 0, data["bank_before"], data["credits_before"], boxes=boxes)
    for name in _ROUND_STATE:
        # A round stored before a field existed keeps that field's default.
        if name in data:
            setattr(round_, name, _plain(data[name]))
    round_.offer_box = data.get("offer_box", 0)
    round_.hands = [_hand_from_json(hand) for hand in data["hands"]]
    wallets = data.get("wallets")
    if wallets is not None:
        round_.wallets = [_wallet_from_json(wallet) for wallet in wallets]
        ahead = data.get("answers_ahead") or {}
        round_.answers_ahead = {int(box): str(answer) for box, answer in ahead.items()}
        round_.open_stage = data.get("open_stage")
    return round_


def _hand_to_json(hand: Hand) -> dict[str, Any]:
    data = {name: getattr(hand, name) for name in HAND_FIELDS}
    data["cards"] = list(hand.cards)
    if not hand.box:
        del data["box"]  # box 1: the one-box form hands always had
    return data


def _hand_from_json(data: Mapping[str, Any]) -> Hand:
    hand = Hand(list(data["cards"]), data["bet"], box=data.get("box", 0))
    for name in _HAND_STATE:
        setattr(hand, name, data[name])
    return hand


def _box_to_json(box: Box) -> dict[str, Any]:
    return {name: _plain(getattr(box, name)) for name in BOX_FIELDS}


def _box_from_json(data: Mapping[str, Any]) -> Box:
    box = Box(data.get("bet", 0))
    for name in BOX_FIELDS:
        if name in data:  # a round stored before a field existed keeps its default
            setattr(box, name, _plain(data[name]))
    return box


def _wallet_to_json(wallet: Wallet) -> dict[str, Any]:
    return {name: getattr(wallet, name) for name in WALLET_FIELDS}


def _wallet_from_json(data: Mapping[str, Any]) -> Wallet:
    wallet = Wallet(data["bank"], data["credits"])
    for name in WALLET_FIELDS:
        if name in data:
            setattr(wallet, name, data[name])
    return wallet


def _plain(value: Any) -> Any:
    """A copy of JSON-like data, so stored state never aliases the live objects."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value
