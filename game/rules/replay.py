"""Round replays (REPLAY.md): run a replay file through the engine, or write one out."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from game.rules import sidebets as sb
from game.rules.cards import InvalidCard, parse_card
from game.rules.clock import FakeClock
from game.rules.engine import Engine, Round
from game.rules.hands import hand_total
from game.rules.money import format_cents, parse_amount
from game.rules.options import Options
from game.rules.records import (
    DEALING,
    EARLY_SURRENDER,
    EVEN_MONEY,
    EXTRA_BET,
    HOUSE_MONEY_PARLAY,
    INSURANCE,
    BoxBet,
    Event,
    IllegalAction,
    TriviaOutcome,
)
from game.rules.shoe import Shoe, ShoeExhausted
from game.rules.storage import round_from_json

_AWAITING = {
    DEALING: "the Perfect 11s dice were not rolled",
    EXTRA_BET: "the extra bet offer was not answered",
    INSURANCE: "the insurance offer was not answered",
    EVEN_MONEY: "the even money offer was not answered",
    EARLY_SURRENDER: "the early surrender offer was not answered",
    HOUSE_MONEY_PARLAY: "the House Money parlay choice was not made",
}


class ReplayError(Exception):
    """A malformed replay, an illegal action or cards running out.

    ``round_index`` and ``action_index`` count from 1 (what a person reads in the
    file); either is None when the error is not tied to one.
    """

    def __init__(
        self, message: str, round_index: int | None = None, action_index: int | None = None
    ) -> None:
        self.message = message
        self.round_index = round_index
        self.action_index = action_index
        super().__init__(self.describe())

    def describe(self) -> str:
        where = []
        if self.round_index is not None:
            where.append(f"round {self.round_index}")
        if self.action_index is not None:
            where.append(f"action {self.action_index}")
        prefix = ", ".join(where) if where else "replay"
        return f"{prefix}: {self.message}"


def run_replay(data: Any) -> dict[str, Any]:
    """Play a REPLAY.md input through the engine and return the REPLAY.md output."""
    if not isinstance(data, Mapping):
        raise ReplayError("a replay must be a JSON object")
    unknown = sorted(set(data) - {"options", "bank", "credits", "rounds"})
    if unknown:
        raise ReplayError(f"unknown key(s): {', '.join(unknown)}")
    game = _new_game(data)
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise ReplayError("rounds must be a non-empty list")
    records = [_play_round(game, entry, index) for index, entry in enumerate(rounds, start=1)]
    return {
        "bank": format_cents(game.bank),
        "credits": game.credits,
        "game_over": game.game_over,
        "rounds": records,
    }


def _new_game(data: Mapping[str, Any]) -> Engine:
    try:
        options = Options.from_dict(data.get("options") or {})
    except (ValueError, TypeError) as error:
        raise ReplayError(f"options: {error}") from None
    bank = options.starting_bank
    if "bank" in data:
        try:
            bank = parse_amount(data["bank"])
        except ValueError as error:
            raise ReplayError(f"bank: {error}") from None
    credits = data.get("credits", Engine.STARTING_CREDITS)
    if isinstance(credits, bool) or not isinstance(credits, int) or credits < 0:
        raise ReplayError(f"credits must be a whole number ≥ 0, not {credits!r}")
    # Every card comes from the rounds' own shoes: the game never shuffles in a replay.
    return Engine(
        options,
        bank=bank,
        credits=credits,
        shoe=Shoe.from_cards([], options.shoe_decks),
        record_events=False,
        # A file says when a deadline ran out (``timeout``): the clock never decides.
        clock=FakeClock(),
    )


def _play_round(game: Engine, entry: Any, index: int) -> dict[str, Any]:
    boxes, cards, dice, actions = _parse_round(entry, index)
    if game.game_over:
        raise ReplayError(f"the game is over ({game.game_over_reason})", index)
    seats = game.options.seats
    if len(boxes) != seats and (seats > 1 or "seats" in entry):
        raise ReplayError(
            f"seats: the table has {seats} seat(s), the round bets on {len(boxes)}", index
        )
    _check_cards_fit_the_shoe(cards, game.options.shoe_decks, index)
    game.shoe = Shoe.from_cards(cards, game.options.shoe_decks)
    game.dice_queue = dice
    try:
        if "seats" in entry:
            game.start_round(boxes=boxes)
        else:
            only = boxes[0]
            game.start_round(only.bet, only.side_bets, extra_bet=only.extra_bet)
    except (IllegalAction, ShoeExhausted) as error:
        raise ReplayError(str(error), index) from None
    round_ = game.round
    assert round_ is not None  # the deal above made it; the actions play it in place
    for number, action in enumerate(actions, start=1):
        if not isinstance(action, str):
            raise ReplayError(f"an action must be a string, not {action!r}", index, number)
        if round_.over:
            raise ReplayError(f"the round is already over: {action!r}", index, number)
        try:
            apply_action(game, action)
        except (IllegalAction, ShoeExhausted) as error:
            raise ReplayError(str(error), index, number) from None
    if not round_.over:
        waiting = _AWAITING.get(round_.phase, "the player's turn is not finished")
        raise ReplayError(f"the round is not over: {waiting}", index, len(actions) + 1)
    return round_record(round_)


def _parse_round(entry: Any, index: int) -> tuple[list[BoxBet], list[str], list[int], list[Any]]:
    """A round's bets (one box, or one per seat), shoe, dice and actions."""
    if not isinstance(entry, Mapping):
        raise ReplayError("a round must be a JSON object", index)
    known = {"shoe", "dice", "actions"} | ({"seats"} if "seats" in entry else {"bet", "side_bets"})
    unknown = sorted(set(entry) - known)
    if unknown:
        if "seats" in entry and {"bet", "side_bets"} & set(unknown):
            raise ReplayError("give the bets either as bet / side_bets or as seats", index)
        raise ReplayError(f"unknown key(s): {', '.join(unknown)}", index)
    if "seats" in entry:
        boxes = _parse_seats(entry["seats"], index)
    else:
        boxes = [_parse_box(entry, index, "")]
    cards = entry.get("shoe")
    if not isinstance(cards, list):
        raise ReplayError("shoe must be a list of card codes", index)
    try:
        cards = [parse_card(card) for card in cards]
    except InvalidCard as error:
        raise ReplayError(f"shoe: {error}", index) from None
    dice = entry.get("dice", [])
    if not isinstance(dice, list) or not all(
        isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= 6 for face in dice
    ):
        raise ReplayError("dice must be a list of faces 1-6", index)
    actions = entry.get("actions", [])
    if not isinstance(actions, list):
        raise ReplayError("actions must be a list", index)
    return boxes, cards, list(dice), actions


def _parse_seats(seats: Any, index: int) -> list[BoxBet]:
    """REPLAY.md's ``"seats": [{"bet": …, "side_bets": …}, …]``, box 1 first."""
    if not isinstance(seats, list) or not 1 <= len(seats) <= 3:
        raise ReplayError("seats must be a list of 1 to 3 boxes, each with its bet", index)
    boxes = []
    for number, seat in enumerate(seats, start=1):
        if not isinstance(seat, Mapping):
            raise ReplayError(f"seat {number} must be a JSON object", index)
        unknown = sorted(set(seat) - {"bet", "side_bets"})
        if unknown:
            raise ReplayError(f"seat {number}: unknown key(s): {', '.join(unknown)}", index)
        boxes.append(_parse_box(seat, index, f"seat {number}: "))
    return boxes


def _parse_box(entry: Mapping[str, Any], index: int, where: str) -> BoxBet:
    try:
        bet = parse_amount(entry.get("bet"))
    except ValueError as error:
        raise ReplayError(f"{where}bet: {error}", index) from None
    side_bets = entry.get("side_bets")
    stakes, extra_bet = _parse_side_bets({} if side_bets is None else side_bets, index)
    return BoxBet(bet, stakes, extra_bet)


def _check_cards_fit_the_shoe(cards: list[str], decks: int, index: int) -> None:
    """A round deals each card at most once per deck: its cards stay on the table, and a
    mid-round refill leaves them out (R-2.2). An infinite shoe (``decks`` 0) has no limit:
    every card comes from a fresh deck (REPLAY.md)."""
    if decks == 0:
        return
    counts = Counter(card[:2] for card in cards)
    for card, count in sorted(counts.items()):
        if count > decks:
            held = "1 deck holds" if decks == 1 else f"{decks} decks hold"
            raise ReplayError(f"shoe: {card} dealt {count} times, but {held} {decks}", index)


def _parse_side_bets(side_bets: Any, index: int) -> tuple[dict[str, int], bool]:
    if not isinstance(side_bets, Mapping):
        raise ReplayError("side_bets must be an object", index)
    stakes: dict[str, int] = {}
    extra_bet = False
    for name, value in side_bets.items():
        if name == sb.EXTRA_BET_BLACKJACK:
            if not isinstance(value, bool):
                raise ReplayError("side bet extra_bet_blackjack must be true or false", index)
            extra_bet = value
        elif name in sb.STAKED_SIDE_BETS:
            try:
                stakes[name] = parse_amount(value)
            except ValueError as error:
                raise ReplayError(f"side bet {name}: {error}", index) from None
        else:
            raise ReplayError(f"unknown side bet: {name}", index)
    return stakes, extra_bet


def export_rounds(rounds: Iterable[Round | Mapping[str, Any]]) -> dict[str, Any]:
    """Consecutive played rounds (objects or their stored form,
    :func:`~game.rules.storage.round_to_json`) as one replay file.

    The options, bank and credits come from the first round; later rounds must have
    been played with the same options (options change only between rounds, §10).
    """
    loaded = [r if isinstance(r, Round) else round_from_json(r) for r in rounds]
    if not loaded:
        raise ValueError("no round to export")
    replay = round_replay(loaded[0])
    for round_ in loaded[1:]:
        if round_.options != loaded[0].options:
            raise ValueError(f"round {round_.number} was played with other options")
        replay["rounds"].extend(round_replay(round_)["rounds"])
    return replay


def export_round(round_: Round | Mapping[str, Any]) -> dict[str, Any]:
    """One played round (object or its stored form) as a replay file (``export_round``)."""
    return export_rounds([round_])


# --------------------------------------------------------------- writing REPLAY.md files


def round_record(round_: Round) -> dict[str, Any]:
    """The round's result in REPLAY.md output form (amounts as dollar strings).

    A round of several boxes (seats): every hand and side bet carries its ``"box"`` (1, 2,
    3), hands box by box as the round holds them, side bets box by box; ``insurance`` is
    a list of the boxes' insurance or even money taken (``[]`` when none was)."""
    dealer_total = hand_total(round_.dealer)[0] if round_.dealer else 0
    several = len(round_.boxes) > 1
    hands = []
    for hand in round_.hands:
        output: dict[str, Any] = {
            "cards": list(hand.cards),
            "bet": format_cents(hand.bet),
            "result": hand.result,
            "how": hand.how,
            "winnings": format_cents(hand.winnings),
        }
        if several:
            output["box"] = hand.box + 1
        hands.append(output)
    insurance: Any = _insurance_output(round_.boxes[0].insurance)
    if several:
        insurance = [
            {"box": number, **_insurance_output(box.insurance)}
            for number, box in enumerate(round_.boxes, start=1)
            if box.insurance is not None
        ]
    return {
        "dealer": {
            "cards": list(round_.dealer),
            "total": dealer_total,
            "result": round_.dealer_result,
        },
        "hands": hands,
        "side_bets": [_side_bet_output(record) for record in _ordered(round_.side_bets)],
        "insurance": insurance,
        "credits_change": round_.credits_change,
        "bank_after": None if round_.bank_after is None else format_cents(round_.bank_after),
    }


def round_replay(round_: Round) -> dict[str, Any]:
    """REPLAY.md input for one round, from its own record (options, bank, credits before)."""
    entry: dict[str, Any] = {"shoe": list(round_.dealt)}
    bets = [_box_bets(round_, index) for index in range(len(round_.boxes))]
    if len(bets) == 1:
        # The one-box form, its keys in the order export files have always had.
        entry["bet"] = bets[0]["bet"]
        entry["actions"] = list(round_.actions)
        if "side_bets" in bets[0]:
            entry["side_bets"] = bets[0]["side_bets"]
    else:
        entry["seats"] = bets
        entry["actions"] = list(round_.actions)
    if round_.dice:
        entry["dice"] = list(round_.dice)
    return {
        "options": dict(round_.options),
        "bank": format_cents(round_.bank_before),
        "credits": round_.credits_before,
        "rounds": [entry],
    }


def _box_bets(round_: Round, index: int) -> dict[str, Any]:
    """A box's bets as placed at the deal (a House Money parlay raised its bet since)."""
    box = round_.boxes[index]
    bets: dict[str, Any] = {"bet": format_cents(box.bet - _parlayed(round_, index))}
    side_bets: dict[str, Any] = {
        name: format_cents(stake) for name, stake in box.side_stakes.items()
    }
    if box.extra_bet_active:
        side_bets[sb.EXTRA_BET_BLACKJACK] = True
    if side_bets:
        bets["side_bets"] = side_bets
    return bets


def export_round_replay(game: Engine, round_: Round | None = None) -> dict[str, Any]:
    """A played round as a REPLAY.md input file (its cards in deal order, its actions)."""
    round_ = round_ or game.round
    if round_ is None:
        raise ValueError("no round to export")
    return round_replay(round_)


def apply_action(game: Engine, action: str) -> list[Event]:
    """Apply one action in replay spelling (REPLAY.md), e.g. ``"hit:medium:correct"``."""
    kind, _, rest = action.partition(":")
    if kind in ("hit", "double"):
        trivia = _parse_trivia(rest) if rest else None
        if trivia is not None:
            # each lifeline's credit was taken when it was used, before the answer.
            for lifeline in trivia.lifelines:
                game.use_lifeline(lifeline)
        return game.hit(trivia) if kind == "hit" else game.double(trivia)
    if not rest:
        simple: dict[str, Callable[[], list[Event]]] = {
            "stand": game.stand,
            "split": game.split,
            "surrender": game.surrender,
            "roll": game.roll,
            "timeout": game.timeout,  # the pending decision's time ran out
        }
        if kind in simple:
            return simple[kind]()
    elif kind in ("insurance", "even_money", "early_surrender") and rest in (
        "accept",
        "decline",
    ):
        return game.answer_offer(kind, rest == "accept")
    elif kind == "extra_bet":
        if rest == "decline":
            return game.place_extra_bet(None)
        try:
            amount = parse_amount(rest)
        except ValueError as error:
            raise IllegalAction(f"Extra bet: {error}") from None
        return game.place_extra_bet(amount)
    elif kind == "parlay" and rest in sb.PARLAY_CHOICES:
        return game.parlay(rest)
    raise IllegalAction(f"Unknown action: {action!r}")


def _parse_trivia(text: str) -> TriviaOutcome:
    """``<difficulty>[:fifty_fifty][:swap]:<correct|wrong|timeout>`` (the lifelines, an
    extension of REPLAY.md, in the order they were used)."""
    difficulty, _, rest = text.partition(":")
    *lifelines, answer = rest.split(":")
    if answer not in ("correct", "wrong", "timeout"):
        raise IllegalAction(f"A trivia answer must be correct or wrong (or timeout), not {rest!r}")
    try:
        # a question left unanswered past its deadline counts as wrong.
        return TriviaOutcome(
            difficulty,
            answer == "correct",
            timed_out=answer == "timeout",
            lifelines=tuple(lifelines),
        )
    except ValueError as error:
        raise IllegalAction(str(error)) from None


def _parlayed(round_: Round, index: int) -> int:
    """What box ``index``'s House Money parlayed onto its bet (R-SB-31)."""
    return sum(
        r["parlayed"]
        for r in round_.side_bets
        if r["name"] == sb.HOUSE_MONEY and r.get("box", 1) == index + 1
    )


def _ordered(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Box by box (several boxes), each in the order of RULES.md §9."""
    order = {name: index for index, name in enumerate(sb.SIDE_BET_NAMES)}
    return sorted(records, key=lambda record: (record.get("box", 1), order[record["name"]]))


def _side_bet_output(record: Mapping[str, Any]) -> dict[str, Any]:
    output: dict[str, Any] = {"box": record["box"]} if "box" in record else {}
    output |= {
        "name": record["name"],
        "stake": format_cents(record["stake"]),
        "result": record["result"],
        "condition": record["condition"],
        "winnings": format_cents(record["winnings"]),
    }
    if record["parlayed"]:
        output["parlayed"] = format_cents(record["parlayed"])
    return output


def _insurance_output(insurance: Mapping[str, Any] | None) -> Any:
    """REPLAY.md's insurance record, or None when neither was taken."""
    if insurance is None:
        return None
    return {
        "kind": insurance["kind"],
        "stake": format_cents(insurance["stake"]),
        "result": insurance["result"],
        "winnings": format_cents(insurance["winnings"]),
    }
