"""What the page may see of a game: its public view.

Nothing derived from the hole card before it is shown, and never the shoe order (R-2.3):
the server keeps both in the state (:mod:`game.rules.storage`), this view leaves them
out. The presentation layer words and draws the table from this view alone.
"""

from __future__ import annotations

from typing import Any

from game.rules.engine import Box, Engine, Hand, Round
from game.rules.fair import CommittedShoes
from game.rules.hands import hand_total
from game.rules.wallets import public_wallet


def public_view(game: Engine) -> dict[str, Any]:
    """The game as the page may see it.

    ``round``: ``hands`` (every hand, box by box) and ``current_hand`` (an index into
    them); ``bet``, ``side_stakes``, ``extra_bet_active``, ``extra_bet``, ``insurance``
    and ``pending_side_bets`` of the box in play. With several boxes also
    ``current_box`` (0-based, as current_hand) and ``boxes``: per box, left to right,
    those same keys plus ``box`` (1, 2, 3), ``hand_indices``, its ``hands`` and its
    settled ``side_bets``; every hand and side-bet record then carries ``box``.

    A shared round also has ``shared`` (True), ``box_in_turn`` (0-based or None),
    ``open_stage`` (an offer stage is open to every box, T-7) and, per box, its
    wallet — ``bank``, ``credits``, ``credits_change``, ``out_of_credits``, ``staked``,
    ``paid`` — with ``offer`` (:meth:`~game.rules.engine.Engine.offer_for_box`) and
    ``answered_ahead``.
    """
    options = game.options
    round_ = game.round
    return {
        "bank": game.bank,
        "credits": game.credits if options.trivia_mode else None,
        "options": options.to_dict(),
        "round_number": game.round_number,
        "game_over": game.game_over,
        "game_over_reason": game.game_over_reason,
        "cards_in_shoe": game.shoe.cards_left(),  # None: an infinite shoe (∞)
        # F-1: the open shoe's commitment (never its seed); None for an older game's shoe.
        "shoe_commitment": _shoe_commitment(game),
        "round": None if round_ is None else _public_round(game, round_),
        "legal_actions": game.legal_actions(),
    }


def _shoe_commitment(game: Engine) -> dict[str, Any] | None:
    source = game.source
    shown = source.showing() if isinstance(source, CommittedShoes) else None
    if shown is None:
        return None
    return {"nonce": shown.nonce, "commitment": shown.commitment, "client_seed": shown.client_seed}


def _public_round(game: Engine, round_: Round) -> dict[str, Any]:
    several = round_.several
    in_play = round_.box_in_play()
    view = {
        "number": round_.number,
        "phase": round_.phase,
        # The bet, side bets and offers of the box in play: the one-box game's keys.
        **_public_box(round_.boxes[in_play]),
        "current_hand": round_.current,
        "hands": [_public_hand(hand, several) for hand in round_.hands],
        "dealer": _public_dealer(round_),
        # Only "no natural" can be known while play goes on.
        "dealer_peeked_no_natural": round_.peeked,
        "side_bets": [dict(record) for record in round_.side_bets],
        "dice": list(round_.dice),
        "credits_change": round_.credits_change,
        "staked": round_.staked,
        "paid": round_.paid,
        "bank_after": round_.bank_after,
        "ended": round_.ended,
        "deadline": round_.deadline,  # the page counts down to it
    }
    if several:
        # §10 Extensions, seats: every box, left to right, with its own hands (global
        # indices into "hands", as current_hand is) and its settled side bets.
        view["current_box"] = in_play
        view["boxes"] = [
            _public_box_with_hands(round_, index, several) for index in range(len(round_.boxes))
        ]
    wallets = round_.wallets
    if wallets is not None:
        # A shared round (TABLES.md): every box's wallet, the offer each box may answer
        # now (T-7) and whose turn it is (T-8).
        view["shared"] = True
        view["box_in_turn"] = game.box_in_turn()
        view["open_stage"] = round_.open_stage is not None
        for index, box_view in enumerate(view["boxes"]):
            box_view.update(public_wallet(wallets[index], index))
            box_view["offer"] = game.offer_for_box(index)
            box_view["answered_ahead"] = index in round_.answers_ahead
    return view


def _public_dealer(round_: Round) -> dict[str, Any]:
    """The dealer's hand: the upcard alone until the hole card is turned over."""
    if round_.hole_revealed:
        total, soft = hand_total(round_.dealer)
        return {
            "cards": list(round_.dealer),
            "hole_revealed": True,
            "total": total,
            "soft": soft,
            "result": round_.dealer_result,
        }
    upcard = round_.dealer[1:2]
    total, soft = hand_total(upcard)
    return {
        "cards": [None, *upcard],
        "hole_revealed": False,
        "upcard_total": total,
        "upcard_soft": soft,
    }


def _public_box(box: Box) -> dict[str, Any]:
    return {
        "bet": box.bet,
        "side_stakes": dict(box.side_stakes),
        "extra_bet_active": box.extra_bet_active,
        "extra_bet": None if box.extra_bet is None else dict(box.extra_bet),
        "insurance": None if box.insurance is None else dict(box.insurance),
        "pending_side_bets": sorted(box.pending_side_bets),
    }


def _public_box_with_hands(round_: Round, index: int, several: bool) -> dict[str, Any]:
    view = _public_box(round_.boxes[index])
    number = index + 1
    view["box"] = number
    view["hand_indices"] = [i for i, hand in enumerate(round_.hands) if hand.box == index]
    view["hands"] = [_public_hand(hand, several) for hand in round_.hands if hand.box == index]
    view["side_bets"] = [dict(r) for r in round_.side_bets if r.get("box", 1) == number]
    return view


def _public_hand(hand: Hand, several: bool = False) -> dict[str, Any]:
    total, soft = hand.total()
    view = {
        "cards": list(hand.cards),
        "bet": hand.bet,
        "total": total,
        "soft": soft,
        "status": hand.status,
        "doubled": hand.doubled,
        "split": hand.split,
        "stand_reason": hand.stand_reason,
        "result": hand.result,
        "how": hand.how,
        "winnings": hand.winnings,
    }
    if several:
        view["box"] = hand.box + 1
    return view
