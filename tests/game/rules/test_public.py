"""The public view's records: frozen, built as their dataclass declares, and their
JSON-shaped form (``to_dict``) the view's keys."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle

import pytest

from game.rules.public import (
    HiddenDealer,
    PublicBox,
    PublicHand,
    RevealedDealer,
    public_view,
)
from game.rules.records import BoxBet
from tests.game.rules.test_seats import table
from tests.game.rules.test_shared_round import INSURANCE_NATURAL, THREE_WALLETS, shared_game


def _hand(**changes: object) -> PublicHand:
    hand = PublicHand(("9S", "7D"), 1000, 16, False, "open", False, False, None, None, None, 0)
    return dataclasses.replace(hand, **changes)  # type: ignore[arg-type]


def test_a_record_is_frozen_and_compares_by_its_fields() -> None:
    hand = _hand()
    with pytest.raises(dataclasses.FrozenInstanceError):
        hand.bet = 5  # type: ignore[misc]
    assert type(hand) is PublicHand and hand.box is None  # the default
    assert hand == _hand() and hand != _hand(bet=500)
    assert repr(hand).startswith("PublicHand(cards=('9S', '7D'), bet=1000, total=16")
    by_name = PublicHand(
        cards=("9S",),
        bet=1,
        total=9,
        soft=False,
        status="open",
        doubled=False,
        split=False,
        stand_reason=None,
        result=None,
        how=None,
        winnings=0,
        box=2,
    )
    assert by_name.box == 2 and dataclasses.asdict(by_name)["cards"] == ("9S",)
    assert dataclasses.replace(hand, box=3).box == 3 and hand.box is None
    with pytest.raises(TypeError):
        PublicHand(("9S",), 1000)  # type: ignore[call-arg]


def test_a_view_copies_and_pickles_whole() -> None:
    game = shared_game(INSURANCE_NATURAL + ["2D", "3D", "4D"])
    game.start_shared_round(THREE_WALLETS)
    view = public_view(game)
    assert copy.copy(view) == view and copy.deepcopy(view) == view
    assert pickle.loads(pickle.dumps(view)) == view  # noqa: S301 (our own bytes)


def test_the_hole_card_has_no_field_until_it_is_shown() -> None:
    game = table(["9S", "8H", "7D", "0C"], seats=1)
    game.start_round(1000)
    shown = public_view(game).round
    assert shown is not None and isinstance(shown.dealer, HiddenDealer)
    assert not shown.dealer.hole_revealed and shown.dealer.cards == (None, "0C")
    assert not hasattr(shown.dealer, "total") and "8H" not in json.dumps(shown.to_dict())
    game.stand()
    shown = public_view(game).round
    assert shown is not None and isinstance(shown.dealer, RevealedDealer)
    assert shown.dealer.hole_revealed and shown.dealer.cards[:2] == ("8H", "0C")


def test_several_boxes_share_their_hands_with_the_round() -> None:
    game = table(["9S", "8H", "7D", "0C", "6C", "5D", "4H", "3S"], seats=2)
    game.start_round(boxes=[BoxBet(1000), BoxBet(2000)])
    shown = public_view(game).round
    assert shown is not None and shown.boxes is not None
    assert [box.hands[0] for box in shown.boxes] == list(shown.hands)
    assert all(box.hands[0] is shown.hands[i] for i, box in enumerate(shown.boxes))
    assert not any(box.shared for box in shown.boxes) and not shown.shared
    data = shown.to_dict()
    assert [box["box"] for box in data["boxes"]] == [1, 2] and "bank" not in data["boxes"][0]
    assert isinstance(shown.boxes[0], PublicBox)
