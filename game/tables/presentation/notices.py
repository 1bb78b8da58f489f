"""What a shared table says besides its felt: the refusals only a table makes (every other
reason worded once by the single-player game), the live stream's notices, the invitation.
"""

from __future__ import annotations

from game.core.errors import ActionRefused
from game.presentation import notices
from game.rules.money import AMOUNT_FORMAT_REFUSAL

# What an invitation link says to whoever opens it (UI.md "Shared tables").
INVITATION_LINE = "{host} invited you to their table"


def invitation_line(host: str) -> str:
    return INVITATION_LINE.format(host=host)


# Shown above the table once its live stream has ended for good (table_live.js), by the


# reason the stream gave ("closed") or none (refused: logged out, no longer allowed in).
LIVE_ENDED_NOTICES = {
    "closed": "This table is closed: live updates have ended.",
    "gone": "Live updates have stopped: you may have logged out in another tab, or lost "
    "access to this table. Reload the page to carry on.",
}
# Shown above the table while its live updates cannot come (the server lost Redis, or the
# page lost its stream): the page still refreshes itself, a little later than live.
LIVE_PAUSED_NOTICE = (
    "Reconnecting: live updates are paused, the table refreshes every few seconds meanwhile."
)
# The refusals only a shared table makes; every other reason is one the single-player
# game makes too, worded once there (game/presentation/notices.py).
TABLE_REFUSALS = {
    "too_many_tables": (
        "You host {limit} open tables, the most one player may: close one before creating another."
    ),
    "not_seated": "Take a seat first.",
    "already_seated": "You already have a seat at this table.",
    "seat_taken": "That seat is taken.",
    "no_such_seat": "There is no such seat.",
    "betting_closed": "Betting is closed until the round is over.",
    "already_ready": "Your bet is placed for this round.",
    "no_round_in_play": "No round is in play.",
    "not_your_turn": "It is not your turn.",
    "question_open": "Answer the question first.",
    "no_such_action": "There is no such action.",
    "no_such_answer": "There is no such answer.",
    "host_only": "Only the table's host can do that.",
    "between_rounds_only": "That can be done only between rounds.",
    "bets_placed": "Options can change only before anyone has placed a bet.",
    "table_name_missing": "Give the table a name.",
    "seat_count_out_of_range": "A table has 2 to 7 seats.",
    "intermission_out_of_range": "Betting time is 10 to 60 seconds.",
    "no_amount": AMOUNT_FORMAT_REFUSAL,
    "shuffle_between_rounds": "The shoe can be shuffled only between rounds.",
    "shoe_new": "The shoe is new: no card has been dealt from it yet.",
}


REFUSALS = {**notices.REFUSALS, **TABLE_REFUSALS}
NOT_ALLOWED = "That is not allowed now."


def refusal_text(error: ActionRefused) -> str:
    """The sentence a refused action at a shared table shows: worded as the single-player
    game words it (``notices.refusal_text``), from the table's own words and the game's."""
    if error.reason not in REFUSALS:
        return NOT_ALLOWED
    try:
        return notices.refusal_text(error, REFUSALS)
    except (KeyError, IndexError):  # a detail missing: the sentence without it
        return REFUSALS[error.reason].split("{")[0].strip() or NOT_ALLOWED


def a_or_an(word: str) -> str:
    """The article before ``word`` (a difficulty, in a sentence): "an" before a vowel."""
    return "an" if word[:1].lower() in "aeiou" else "a"
