"""What each viewer sees of a shared table, and every word the shared-table pages say.

One view model per viewer (T-4, T-11): a seated player sees their own pending question,
offer and buttons; everyone else (other seats, watchers) sees that the player is
answering, and the question with both answers only once revealed. Built from the
engine's public view, which never holds the hole card or the shoe (R-2.3).

``scene.py`` (what every viewer shares at one revision: seats, dealer, headline, shoe,
events), ``view.py`` (the table as one viewer sees it, with their own controls),
``seats.py`` (a seat on the felt: hands, side-bet lines, revealed question),
``offers.py`` (the offers' buttons and words, T-7), ``log.py`` (the event log, T-10),
``notices.py`` (the table's refusals, the live stream's notices, the invitation) and
``lobby.py`` (a table's rules in one line). The names the views, the scenes and the
tests use are re-exported here.
"""

from game.tables.presentation.lobby import rules_text
from game.tables.presentation.log import EVENT_LINES, HOST_SHUFFLED_LINE, event_text, in_log
from game.tables.presentation.notices import (
    LIVE_ENDED_NOTICES,
    LIVE_PAUSED_NOTICE,
    NOT_ALLOWED,
    REFUSALS,
    TABLE_REFUSALS,
    invitation_line,
    refusal_text,
)
from game.tables.presentation.offers import OFFER_QUESTIONS, PHASE_OFFERS
from game.tables.presentation.scene import TableScene, table_scene
from game.tables.presentation.seats import RevealView, SeatView
from game.tables.presentation.view import SharedTableView, view_for

__all__ = [
    "EVENT_LINES",
    "HOST_SHUFFLED_LINE",
    "LIVE_ENDED_NOTICES",
    "LIVE_PAUSED_NOTICE",
    "NOT_ALLOWED",
    "OFFER_QUESTIONS",
    "PHASE_OFFERS",
    "REFUSALS",
    "TABLE_REFUSALS",
    "RevealView",
    "SeatView",
    "SharedTableView",
    "TableScene",
    "event_text",
    "in_log",
    "invitation_line",
    "refusal_text",
    "rules_text",
    "table_scene",
    "view_for",
]
