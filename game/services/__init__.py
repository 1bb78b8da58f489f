"""One function per player action: lock the game row, check the version, run the engine,
save. Views call them as ``services.hit(...)``; each takes keyword-only arguments, raises
the domain errors of game/core/errors.py and returns what it played (results.Played: the
saved game, the engine run on it, the answer revealed and the coach's note).

By area: the bet panel (bet.py), the decisions of a round (play.py), trivia in play
(trivia.py), side bets (side_bets.py), a game's start, options and end (options.py); the
lock and version check every action runs in (locking.py), the deadlines it applies first
(deadlines.py), the save (saving.py) and what an action returns (results.py), the shared
checks (guards.py) and the randomness a game is made with (randomness.py, which tests
replace); a game's committed shoes between rounds (fairness.py) and their records
(shoe_records.py).
"""

from game.services.bet import (
    add_chip,
    clear_bet,
    next_round,
    place_bet_and_deal,
    rebet,
    same_bet_on_every_box,
    select_box,
)
from game.services.fairness import change_client_seed, shuffle_now
from game.services.lifelines import swap_question, use_fifty_fifty
from game.services.locking import catch_up_deadlines, locked_game
from game.services.options import apply_options, default_options_for, end_game, new_game
from game.services.play import (
    OFFERS,
    PLAY_SERVICES,
    answer_early_surrender,
    answer_insurance,
    answer_insurance_for_every_box,
    answer_offer,
    choose_insurance_box_by_box,
    double,
    hit,
    split,
    stand,
    surrender,
)
from game.services.results import Played
from game.services.side_bets import (
    activate_extra_bet,
    add_side_chip,
    clear_side_bet,
    clear_side_bets,
    parlay,
    place_extra_bet,
    roll,
    toggle_side_bet_menu,
)
from game.services.starting import resume_or_new_game, start_new_game
from game.services.trivia import answer_question, choose_difficulty, continue_after_reveal

__all__ = [
    "OFFERS",
    "PLAY_SERVICES",
    "Played",
    "activate_extra_bet",
    "add_chip",
    "add_side_chip",
    "answer_early_surrender",
    "answer_insurance",
    "answer_insurance_for_every_box",
    "answer_offer",
    "answer_question",
    "change_client_seed",
    "shuffle_now",
    "apply_options",
    "catch_up_deadlines",
    "choose_difficulty",
    "choose_insurance_box_by_box",
    "clear_bet",
    "clear_side_bet",
    "clear_side_bets",
    "continue_after_reveal",
    "default_options_for",
    "double",
    "end_game",
    "hit",
    "swap_question",
    "use_fifty_fifty",
    "locked_game",
    "new_game",
    "next_round",
    "rebet",
    "parlay",
    "place_bet_and_deal",
    "place_extra_bet",
    "resume_or_new_game",
    "roll",
    "same_bet_on_every_box",
    "select_box",
    "split",
    "stand",
    "start_new_game",
    "surrender",
    "toggle_side_bet_menu",
]
