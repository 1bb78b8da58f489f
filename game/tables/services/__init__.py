"""Every write at a shared table (TABLES.md): one function per action, keyword-only.
Views, the clock process and tests call them as ``services.sit(...)``; each raises the
domain errors of game/core/errors.py and returns the saved seat or table.

Each runs in :func:`locked_table`: one transaction with the table row locked
(``select_for_update``), every deadline that ran out applied first (T-13: whichever comes
first, a request or the clock process, applies it, and only once: the row lock
serialises them and an applied deadline is gone), then the seat, phase, turn and posted
version checked (T-12). What changed is written back with the events everyone may see,
and the live channel is told after the commit (T-10). A refused action raises and the
transaction rolls back: nothing changes. The exception: a player's bet being built
(chips, side chips, Extra Bet activation, Clear) runs in :func:`seat_only`, the table row
share-locked and only the player's seat written, so a table's players bet at once.

The seat's posted version (``Seat.version``) catches a repeated or stale post of that
player's; other players' actions never make it stale. The host's actions (options, a new
invitation link, closing) post the table's own version, its last event's seq.

By area: a table's creation, options and closing (lifecycle.py), sitting down and leaving
(seats.py), the bet panel (bet.py), side bets (side_bets.py), the decisions of a round
(play.py), trivia in play (trivia.py) and the committed shoes (fairness.py); the lock
every action runs in and the clock's entry points (locking.py), the deadlines it applies
first (deadlines.py), the round's steps under the lock (rounds.py), the save
(saving.py), the shared checks (guards.py), the table's rules (options.py), a seat's bets
as they ride (boxes.py) and the players' seeds in the shoes (seeds.py).
"""

from game.core.clock import now_ms
from game.tables.services.bet import add_chip, clear_bet, ready, sit_out
from game.tables.services.boxes import bets_for_deal, seat_side_stakes, shared_box
from game.tables.services.fairness import set_seat_client_seed, shuffle_now
from game.tables.services.lifecycle import change_options, close_table, create_table, renew_invite
from game.tables.services.locking import (
    apply_due_deadlines,
    apply_due_deadlines_of,
    committed_tables,
    locked_table,
    seat_only,
)
from game.tables.services.options import (
    ANSWER_FOR_TURN,
    DEFAULT_TURN_SECONDS,
    INTERMISSION_SECONDS,
    side_bets_offered,
    table_options,
)
from game.tables.services.play import (
    EXTRA_BET_ANSWER,
    OFFER_ANSWERS,
    PLAYS,
    TRIVIA_PLAYS,
    answer_offer,
    play,
)
from game.tables.services.saving import (
    EMPTY_TABLE_CLOSES_AFTER,
    SEAT_STATE_FIELDS,
    TABLE_ROW_FIELDS,
    TABLE_STATE_FIELDS,
    LockedTable,
    seats_of_table,
)
from game.tables.services.seats import NO_SEAT_VERSION, STARTING_CREDITS, leave, sit
from game.tables.services.seeds import seats_client_seed
from game.tables.services.side_bets import activate_extra_bet, add_side_chip, clear_side_bet
from game.tables.services.trivia import answer_question, choose_difficulty, revealed_questions

__all__ = [
    "ANSWER_FOR_TURN",
    "DEFAULT_TURN_SECONDS",
    "EMPTY_TABLE_CLOSES_AFTER",
    "EXTRA_BET_ANSWER",
    "INTERMISSION_SECONDS",
    "NO_SEAT_VERSION",
    "OFFER_ANSWERS",
    "PLAYS",
    "SEAT_STATE_FIELDS",
    "STARTING_CREDITS",
    "TABLE_ROW_FIELDS",
    "TABLE_STATE_FIELDS",
    "TRIVIA_PLAYS",
    "LockedTable",
    "activate_extra_bet",
    "add_chip",
    "add_side_chip",
    "answer_offer",
    "answer_question",
    "apply_due_deadlines",
    "apply_due_deadlines_of",
    "bets_for_deal",
    "change_options",
    "choose_difficulty",
    "clear_bet",
    "clear_side_bet",
    "close_table",
    "committed_tables",
    "create_table",
    "leave",
    "locked_table",
    # The table clock the deadlines read, for the pages that compare a deadline with now.
    "now_ms",
    "play",
    "ready",
    "renew_invite",
    "revealed_questions",
    "seat_only",
    "seat_side_stakes",
    "seats_client_seed",
    "seats_of_table",
    "set_seat_client_seed",
    "shared_box",
    "shuffle_now",
    "side_bets_offered",
    "sit",
    "sit_out",
    "table_options",
]
