"""The in-round side-bet panels' view model (RULES.md §9, UI.md "Phase panels").

Built from the engine's public view (plus the engine's own pay-table functions in
``game.rules.sidebets`` for what a choice *would* give): the side-bet results, the
Perfect 11s dice, the extra-bet offer, the House Money parlay and the per-bet summary of
the round outcome. Nothing here looks at the hole card: a bet that needs it (Perfect
Pair, Lucky Ladies, the extra bet) is shown as pending until the engine has settled it,
and the engine settles those only once the hole card is turned over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from game.presentation.lookup import TemplateLookup
from game.presentation.side_bet_menu import SIDE_BET_LABELS
from game.rules import sidebets as sb
from game.rules.engine import Engine
from game.rules.money import CHIP_DOLLARS, display_cents
from game.rules.public import PublicRound, SideBetRecord
from game.rules.records import (
    ALLOWED,
    DEALING,
    EXTRA_BET,
    HOUSE_MONEY_PARLAY,
    LOSE,
    PUSH,
    WIN,
)
from game.rules_pages.content import CONDITION_TEXT, ratio_text, rules_url

# The names the player reads, the same as in the side-bet menu.
SIDE_BET_TITLES: dict[str, str] = SIDE_BET_LABELS

# Side-bet results a player reads: won / lost / push / pending / not played.
WON, LOST, PUSHED, PENDING, NOT_PLAYED = "won", "lost", "push", "pending", "not_played"
STATUS_LABELS = {
    WON: "Won",
    LOST: "Lost",
    PUSHED: "Push",
    PENDING: "Pending",
    NOT_PLAYED: "Not played",
}
_RESULT_STATUS = {WIN: WON, LOSE: LOST, PUSH: PUSHED}

# Why an unsettled bet is still waiting (it must not hint at the hole card).
WAITING_NOTES = {
    sb.PERFECT_PAIR: "Settled when the dealer's hole card is shown.",
    sb.LUCKY_LADIES: "Settled at the end of the round, on hand 1's final cards.",
    sb.EXTRA_BET_BLACKJACK: "Follows hand 1's result: settled at the end of the round.",
}

# The four House Money choices of R-SB-31, as the engine spells them, in the order shown.
PARLAY_LABELS = {
    "collect": "Collect",
    "bet": "Parlay the bet",
    "winnings": "Parlay the profit",
    "all": "Parlay all",
}

DIE_INFINITY_TEXT = "infinity"


def condition_text(bet: str, condition: str | None) -> str:
    """The player's words for a pay line, e.g. ``("21+3", "flush")`` -> "Flush"."""
    if not condition:
        return ""
    return CONDITION_TEXT[bet][condition][0]


@dataclass
class Die(TemplateLookup):
    number: int
    face: int

    @property
    def infinity(self) -> bool:
        return self.face == sb.INFINITY_FACE

    @property
    def label(self) -> str:
        """Accessible text, e.g. "Die 1: infinity" or "Die 2: 4"."""
        shown = DIE_INFINITY_TEXT if self.infinity else str(self.face)
        return f"Die {self.number}: {shown}"


def dice_of(faces: Sequence[int]) -> list[Die]:
    return [Die(number, face) for number, face in enumerate(faces, start=1)]


@dataclass
class SideBetRow(TemplateLookup):
    """One side bet of the round as the results panel and the outcome summary show it."""

    name: str
    title: str
    stake: int
    status: str
    condition: str = ""
    condition_text: str = ""
    ratio_text: str = ""
    winnings: int = 0  # paid into the bank
    parlayed: int = 0  # House Money moved onto hand 1's bet
    fee: int = 0  # the extra bet's fee (never returned)
    cards: list[str] = field(default_factory=list)
    note: str = ""
    dice: list[Die] = field(default_factory=list)
    # Won on the first two cards but paid later (House Money before its parlay choice,
    # Perfect 11s before its dice).
    awaiting_payment: bool = False

    @property
    def status_label(self) -> str:
        return STATUS_LABELS[self.status]

    @property
    def rules_url(self) -> str:
        return rules_url(self.name)

    @property
    def settled(self) -> bool:
        return self.status in (WON, LOST, PUSHED) and not self.awaiting_payment


@dataclass
class ChipButton(TemplateLookup):
    dollars: int
    allowed: bool
    reason: str

    @property
    def cents(self) -> int:
        return self.dollars * 100


@dataclass
class ExtraBetPanel(TemplateLookup):
    """R-SB-20: up to 5× the base bet, 20 % fee rounded down, bet + fee within the bank."""

    bank: int
    base_bet: int
    cap: int  # 5× the base bet
    largest: int  # the most the cap and the bank both allow
    smallest: int
    amount: int  # the amount the field shows
    place_reason: str  # "" when Place Extra Bet is allowed
    chips: list[ChipButton]
    fee_numerator: int = sb.EXTRA_BET_FEE_RATIO[0]
    fee_denominator: int = sb.EXTRA_BET_FEE_RATIO[1]

    @property
    def fee(self) -> int:
        return sb.extra_bet_fee(self.amount)

    def set_amount(self, amount: int) -> None:
        """Show ``amount`` in the field; the chips follow (one more chip must still fit)."""
        self.amount = amount
        self.chips = [
            _extra_chip(chip.dollars, amount, self.base_bet, self.bank) for chip in self.chips
        ]

    @property
    def cost(self) -> int:
        return sb.extra_bet_cost(self.amount)


@dataclass
class ParlayChoice(TemplateLookup):
    value: str
    label: str
    paid_now: int
    parlayed: int
    new_base_bet: int

    @property
    def description(self) -> str:
        return (
            f"Base bet {display_cents(self.new_base_bet)}; "
            f"{display_cents(self.paid_now)} paid into your bank now."
        )


@dataclass
class ParlayPanel(TemplateLookup):
    cards: list[str]
    condition_text: str
    ratio_text: str
    stake: int
    winnings: int
    base_bet: int
    choices: list[ParlayChoice]


@dataclass
class DiceRollPanel(TemplateLookup):
    """Perfect 11s won with a suited 11: the dice decide how much (R-SB-12)."""

    cards: list[str]
    stake: int
    pay_lines: list[tuple[str, str]]


@dataclass
class DiceResult(TemplateLookup):
    dice: list[Die]
    condition_text: str
    ratio_text: str
    winnings: int


@dataclass
class SideBetPanels(TemplateLookup):
    results: list[SideBetRow] = field(default_factory=list)
    dice_roll: DiceRollPanel | None = None
    dice_result: DiceResult | None = None
    extra_bet: ExtraBetPanel | None = None
    parlay: ParlayPanel | None = None

    @property
    def summary(self) -> list[SideBetRow]:
        """The rows of the round-outcome table: every side bet that was played."""
        return [row for row in self.results if row.status != NOT_PLAYED]

    @property
    def won_count(self) -> int:
        """How many of the round's side bets have won so far (the results' summary line)."""
        return sum(1 for row in self.results if row.status == WON)


def build_side_bet_panels(
    round_: PublicRound | None,
    engine: Engine,
    legal: Mapping[str, str],
) -> SideBetPanels:
    """The side-bet panels for the round in the public view ``round_`` (None: no round)."""
    panels = SideBetPanels()
    if round_ is None:
        return panels
    panels.results = result_rows(round_)
    phase = round_.phase
    if phase == DEALING and sb.PERFECT_11S in round_.pending_side_bets:
        panels.dice_roll = dice_roll_panel(round_)
    if round_.dice and engine.round_in_progress and _last_action(engine) == "roll":
        panels.dice_result = _dice_result(round_)
    if phase == EXTRA_BET:
        panels.extra_bet = extra_bet_panel(round_, engine, legal)
    if phase == HOUSE_MONEY_PARLAY:
        panels.parlay = parlay_panel(round_)
    return panels


def _last_action(engine: Engine) -> str:
    # The player's own actions, not hidden information: "roll" right after the dice.
    actions = engine.round.actions if engine.round is not None else []
    return actions[-1] if actions else ""


def _first_two(round_: PublicRound) -> tuple[str, ...]:
    """Hand 1's first two cards: what 21+3, Perfect 11s and House Money look at."""
    return round_.hands[0].cards[:2]


def _settled_row(record: SideBetRecord, dice: Sequence[int]) -> SideBetRow:
    name = record["name"]
    row = SideBetRow(
        name=name,
        title=SIDE_BET_TITLES[name],
        stake=record["stake"],
        status=_RESULT_STATUS.get(record["result"], LOST),
        condition=record["condition"] or "",
        condition_text=condition_text(name, record["condition"]),
        ratio_text=ratio_text(record["ratio"]),
        winnings=record["winnings"],
        parlayed=record["parlayed"],
        fee=record["fee"],
        cards=list(record["cards"]),
    )
    if name == sb.PERFECT_11S and dice:
        row.dice = dice_of(dice)
    if name == sb.HOUSE_MONEY and record["parlayed"]:
        row.note = f"{display_cents(record['parlayed'])} parlayed onto hand 1's bet."
    if name == sb.EXTRA_BET_BLACKJACK and record["fee"]:
        row.note = f"Fee {display_cents(record['fee'])} (not returned)."
    return row


def _pending_row(name: str, stake: int, round_: PublicRound) -> SideBetRow:
    row = SideBetRow(name=name, title=SIDE_BET_TITLES[name], stake=stake, status=PENDING)
    if name in round_.pending_side_bets:
        # Decided on hand 1's first two cards (never on the hole card), paid later.
        upcard = round_.dealer.cards[1]
        assert upcard is not None  # decided once dealt: the upcard is showing
        win = sb.evaluate_first_cards(name, _first_two(round_), upcard)
        if win is not None:
            row.status, row.awaiting_payment = WON, True
            row.condition, row.cards = win.condition, list(win.cards)
            row.condition_text = condition_text(name, win.condition)
            row.ratio_text = ratio_text(win.ratio)
        if name == sb.PERFECT_11S:
            row.note = "Won: roll the Infinity dice for the payout."
        elif round_.phase == HOUSE_MONEY_PARLAY:
            row.note = "Won: choose below whether to collect or parlay."
        else:
            row.note = "Won: paid once the dealer is known to have no blackjack."
    else:
        row.note = WAITING_NOTES.get(name, "Not settled yet.")
    return row


def _extra_bet_row(round_: PublicRound, settled: Mapping[str, SideBetRecord]) -> SideBetRow | None:
    name = sb.EXTRA_BET_BLACKJACK
    title = SIDE_BET_TITLES[name]
    if name in settled:
        return _settled_row(settled[name], ())
    placed = round_.extra_bet
    if placed is not None:
        return SideBetRow(
            name=name,
            title=title,
            stake=placed["stake"],
            status=PENDING,
            fee=placed["fee"],
            note=f"{WAITING_NOTES[name]} Fee {display_cents(placed['fee'])} (not returned).",
        )
    if not round_.extra_bet_active:
        return None
    status = NOT_PLAYED
    if not sb.extra_bet_offered(round_.hands[0].cards[0]):
        note = "Not offered: your first card is not a ten-card."
    elif round_.phase in (DEALING, EXTRA_BET):
        status, note = PENDING, "Offered: place it or decline it."
    else:
        note = "Declined."
    return SideBetRow(name=name, title=title, stake=0, status=status, note=note)


def result_rows(round_: PublicRound) -> list[SideBetRow]:
    """The side bets of the round as result rows, in menu order (the extra bet last).

    ``round_`` is a round's public view (``public_view(engine).round``), or one box's
    part of a shared round in the same form (game/tables/presentation/seats.py
    ``box_round``: the round with that box's bets, hands and settled side bets)."""
    settled = {record["name"]: record for record in round_.side_bets}
    rows: list[SideBetRow] = []
    for name in sb.STAKED_SIDE_BETS:
        stake = round_.side_stakes.get(name)
        if not stake:
            continue
        if name in settled:
            rows.append(_settled_row(settled[name], round_.dice))
        else:
            rows.append(_pending_row(name, stake, round_))
    extra = _extra_bet_row(round_, settled)
    if extra is not None:
        rows.append(extra)
    return rows


def dice_roll_panel(round_: PublicRound) -> DiceRollPanel:
    """The Perfect 11s dice panel (R-SB-12): the pay table and the stake that rolls.

    ``round_`` is a round's public view (``public_view(engine).round``), or one box's
    part of a shared round in the same form (game/tables/presentation/seats.py
    ``box_round``: the round with that box's bets, hands and settled side bets)."""
    lines = [
        (condition_text(sb.PERFECT_11S, condition), ratio_text(ratio))
        for condition, ratio in sb.PAY_TABLES[sb.PERFECT_11S]
        if condition.startswith("suited_11")
    ]
    return DiceRollPanel(
        cards=list(_first_two(round_)),
        stake=round_.side_stakes[sb.PERFECT_11S],
        pay_lines=lines,
    )


def _dice_result(round_: PublicRound) -> DiceResult | None:
    record = next((r for r in round_.side_bets if r["name"] == sb.PERFECT_11S), None)
    if record is None:
        return None
    return DiceResult(
        dice=dice_of(round_.dice[-sb.DICE_COUNT :]),
        condition_text=condition_text(sb.PERFECT_11S, record["condition"]),
        ratio_text=ratio_text(record["ratio"]),
        winnings=record["winnings"],
    )


def extra_bet_panel(
    round_: PublicRound,
    engine: Engine,
    legal: Mapping[str, str],
    amount: int | None = None,
) -> ExtraBetPanel:
    """The extra-bet offer; ``amount`` is what the field shows (default: the base bet)."""
    base_bet = round_.bet
    smallest, largest = engine.extra_bet_limits()
    if amount is None:
        amount = max(smallest, min(base_bet, largest))
    reason = legal.get("extra_bet", "")
    return ExtraBetPanel(
        bank=engine.bank,
        base_bet=base_bet,
        cap=sb.extra_bet_max(base_bet),
        largest=largest,
        smallest=smallest,
        amount=amount,
        place_reason="" if reason == ALLOWED else reason,
        chips=[_extra_chip(dollars, amount, base_bet, engine.bank) for dollars in CHIP_DOLLARS],
    )


def extra_chip_refusal(amount: int, base_bet: int, bank: int) -> str:
    """Why an extra bet of ``amount`` is not possible ("" when it is)."""
    cap = sb.extra_bet_max(base_bet)
    if amount > cap:
        return f"Over the limit of 5× your base bet ({display_cents(cap)})"
    if sb.extra_bet_cost(amount) > bank:
        fee = display_cents(sb.extra_bet_fee(amount))
        return f"Your bank does not cover {display_cents(amount)} and its fee of {fee}"
    return ""


def _extra_chip(dollars: int, amount: int, base_bet: int, bank: int) -> ChipButton:
    reason = extra_chip_refusal(amount + dollars * 100, base_bet, bank)
    return ChipButton(dollars=dollars, allowed=not reason, reason=reason)


def parlay_panel(round_: PublicRound) -> ParlayPanel | None:
    """The House Money parlay panel (R-SB-31); None when House Money did not win.

    ``round_`` is a round's public view (``public_view(engine).round``), or one box's
    part of a shared round in the same form (game/tables/presentation/seats.py
    ``box_round``: the round with that box's bets, hands and settled side bets)."""
    stake = round_.side_stakes.get(sb.HOUSE_MONEY, 0)
    win = sb.house_money(_first_two(round_))
    if win is None or not stake:
        return None
    base_bet = round_.bet
    choices = []
    for choice in sb.PARLAY_CHOICES:
        paid, parlayed = sb.house_money_parlay(stake, win, choice)
        choices.append(
            ParlayChoice(choice, PARLAY_LABELS[choice], paid, parlayed, base_bet + parlayed)
        )
    return ParlayPanel(
        cards=list(win.cards),
        condition_text=condition_text(sb.HOUSE_MONEY, win.condition),
        ratio_text=ratio_text(win.ratio),
        stake=stake,
        winnings=sb.side_bet_winnings(stake, win),
        base_bet=base_bet,
        choices=choices,
    )
