"""The seats on the felt (T-4, T-11): each seat as the others see it, and as its own player
does, with its hands, its side bets in one short line each and its revealed question.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from game.presentation.fragments import FragmentModel
from game.presentation.side_bet_menu import SIDE_BET_LABELS
from game.presentation.side_bet_panels import LOST, NOT_PLAYED, SideBetRow, result_rows
from game.presentation.table import describe, hand_badge
from game.rules.money import display_cents
from game.rules.public import PublicHand, PublicRound
from game.tables import services
from game.tables.models import Seat, SharedTable
from game.tables.presentation.notices import a_or_an
from trivia.models import DIFFICULTY_LABELS

# A seat's side bets on the felt, one short line each.
SIDE_BET_STAKE_LINE = "{title} {stake}"
EXTRA_BET_ACTIVE_LINE = "Extra Bet Blackjack active"
SIDE_BET_FEE = " (fee {fee})"
SIDE_BET_PAID = ", paid {winnings}"
SIDE_BET_PARLAYED = ", {parlayed} parlayed"
SIDE_BET_TO_BE_PAID = ", payout to come"


@dataclass(frozen=True)
class HandView(FragmentModel):
    """One hand of a seat: its cards, total, result badge and what it won or lost."""

    cards: tuple[str | None, ...]
    total_text: str
    badge: str
    net: int
    message: str
    active: bool


@dataclass(frozen=True)
class RevealView(FragmentModel):
    """A seat's last question of the round once revealed (T-11): the question, the answer
    given ("" when none came in time) and the right one. Never built before the reveal."""

    question: str
    answer_given: str
    correct_answer: str
    correct: bool


@dataclass(frozen=True)
class SeatView(FragmentModel):
    """A seat on the felt as one viewer sees it. A taken seat's body is kept rendered per
    process under its ``fragment_key`` (every field's value), so it shows nothing else."""

    number: int
    player: str = ""
    is_viewer: bool = False
    bank: int = 0
    credits: int | None = None
    bet: int = 0
    # What rides on the seat's hands now (a double and a split included), else its bet.
    stake: int = 0
    status: str = ""
    hands: tuple[HandView, ...] = ()
    in_turn: bool = False
    can_sit: bool = False
    # One short line per side bet: its stake while betting, its result once settled.
    side_bets: tuple[str, ...] = ()
    # The seat's last question of the round, once revealed, shown at the seat to everyone.
    reveal: RevealView | None = None

    @property
    def empty(self) -> bool:
        return not self.player

    @property
    def label(self) -> str:
        return f"Seat {self.number}" + (f": {self.player}" if self.player else ", empty")


def hand_view(hand: PublicHand, active: bool) -> HandView:
    """One hand of a seat on the felt, from the round's public view: cards, total, result."""
    badge = hand_badge(hand.result, hand.how) if hand.result else ""
    return HandView(
        cards=tuple(hand.cards),
        total_text=describe(hand.total, hand.soft),
        badge=badge,
        net=hand.winnings - hand.bet if hand.result else 0,
        message="Doubled" if hand.doubled and not badge else "",
        active=active,
    )


def seat_status(table: SharedTable, seat: Seat, in_round: bool) -> str:
    """A seat's status line as everyone sees it: answering (how hard, never the question:
    T-11), its betting state between rounds (T-5), or sitting the round out."""
    question = seat.pending_question
    if question is not None:
        level = DIFFICULTY_LABELS.get(question.difficulty, question.difficulty)
        # T-11: the others see that a question is open and how hard, not the question.
        return f"{seat.player.get_username()} is answering {a_or_an(level)} {level} question"
    if table.phase == SharedTable.Phase.INTERMISSION:
        if seat.ready:
            return "Ready"
        if seat.sitting_out:
            return "Sitting out"
        return "Betting…"
    if not in_round:
        return "Sitting this round out"
    return ""


def seat_views_of(
    table: SharedTable,
    seats: list[Seat],
    round_: PublicRound | None,
    in_round: bool,
    turn_box: int | None,
    trivia_mode: bool,
    reveals: dict[int, RevealView],
) -> tuple[list[SeatView], dict[int, SeatView]]:
    """Every seat as a watcher sees it, and each taken seat as its own player sees it."""
    by_number = {s.number: s for s in seats if s.number is not None}
    # After a round, its boxes stay on the felt (seat.box) until the next deal.
    boxes_by_seat = {s.pk: s.box for s in seats if s.box is not None}
    side_bets_on = services.side_bets_offered(services.table_options(table.options))
    seat_views: list[SeatView] = []
    own_seat_views: dict[int, SeatView] = {}
    for number in range(1, table.seat_count + 1):
        seat = by_number.get(number)
        if seat is None:
            seat_views.append(SeatView(number, can_sit=True))
            continue
        box = boxes_by_seat.get(seat.pk)
        if round_ is not None and box is not None and round_.boxes and box >= len(round_.boxes):
            # The seats were read just after a newer deal than the round's state (a deal
            # committed between the two reads): the seat's box is not in this round yet.
            box = None
        dealt = round_ is not None and box is not None
        in_turn = False
        hands: tuple[HandView, ...] = ()
        bet = seat.bet_cents
        stake = 0
        reveal = None
        if round_ is not None and box is not None:
            in_turn = in_round and turn_box == box
            current = round_.current_hand
            hands = tuple(
                hand_view(hand, in_turn and index == current)
                for index, hand in enumerate(round_.hands)
                if (hand.box or 1) - 1 == box
            )
            bet = round_.boxes[box].bet if round_.boxes else round_.bet
            if in_round:
                stake = sum(hand.bet for hand in round_.hands if (hand.box or 1) - 1 == box)
            reveal = reveals.get(seat.pk)
        view = SeatView(
            number,
            player=seat.player.get_username(),
            bank=seat.bank_cents,
            credits=seat.credits if trivia_mode else None,
            bet=bet,
            # Between rounds: the bet being made for the next deal.
            stake=stake or seat.bet_cents,
            status=seat_status(table, seat, seat.pk in boxes_by_seat),
            hands=hands,
            in_turn=in_turn,
            side_bets=tuple(seat_side_bet_lines(round_, box, seat, offered=side_bets_on)),
            reveal=reveal,
        )
        own_seat_views[number] = replace(view, is_viewer=True)
        if not (dealt or seat.ready):
            # A bet still being built is its player's own until Ready places it: a chip
            # writes no event, so the others' felt, live or reloaded, shows it alike from
            # its Ready on (T-5, T-10).
            view = replace(view, bet=0, stake=0, side_bets=())
        seat_views.append(view)
    return seat_views, own_seat_views


def box_round(round_: PublicRound, box: int) -> PublicRound:
    """One box's part of a shared round's public view, under the one-box names the
    single-player panels read: the round with box ``box``'s (0-based) bet, side bets,
    offers, hands and settled records."""
    assert round_.boxes is not None  # a shared round lists its boxes
    mine = round_.boxes[box]
    return replace(
        round_,
        bet=mine.bet,
        side_stakes=mine.side_stakes,
        extra_bet_active=mine.extra_bet_active,
        extra_bet=mine.extra_bet,
        insurance=mine.insurance,
        pending_side_bets=mine.pending_side_bets,
        hands=mine.hands,
        side_bets=mine.side_bets,
    )


def seat_side_bet_lines(
    round_: PublicRound | None, box: int | None, seat: Seat, *, offered: bool
) -> list[str]:
    """A seat's side bets on the felt, one short line each (T-6, R-4.12): the round's bets
    and results for a seat dealt in (what a bet that needs the hole card waits for is
    never guessed: it is pending until the engine settles it), else its stakes for the
    next deal while the table's side bets are on (``offered``): the others see those from
    the seat's Ready (``seat_views_of``)."""
    if round_ is not None and box is not None and round_.boxes:
        rows = result_rows(box_round(round_, box))
        return [_side_bet_line(row) for row in rows if row.status != NOT_PLAYED]
    if not offered:
        return []
    lines = [
        SIDE_BET_STAKE_LINE.format(title=SIDE_BET_LABELS[name], stake=display_cents(stake))
        for name, stake in services.seat_side_stakes(seat).items()
    ]
    if seat.extra_bet:
        lines.append(EXTRA_BET_ACTIVE_LINE)
    return lines


def _side_bet_line(row: SideBetRow) -> str:
    """E.g. "21+3 $5.00: Won — Flush, paid $30.00" or "Perfect Pair $5.00: Pending"."""
    line = row.title  # the extra bet offered, not yet placed, has no stake
    if row.stake:
        line = SIDE_BET_STAKE_LINE.format(title=row.title, stake=display_cents(row.stake))
    if row.fee:
        line += SIDE_BET_FEE.format(fee=display_cents(row.fee))
    line += f": {row.status_label}"
    if row.condition_text:
        line += f" — {row.condition_text}"
    if row.awaiting_payment:
        return line + SIDE_BET_TO_BE_PAID
    if row.parlayed:
        # R-SB-31: what was paid into the bank and, separately, what rides on the hand.
        if row.winnings:
            line += SIDE_BET_PAID.format(winnings=display_cents(row.winnings))
        return line + SIDE_BET_PARLAYED.format(parlayed=display_cents(row.parlayed))
    if row.settled and row.status != LOST:
        line += SIDE_BET_PAID.format(winnings=display_cents(row.winnings))
    return line
