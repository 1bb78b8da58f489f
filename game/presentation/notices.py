"""The game's sentences: the status line after each action and the reason for each refusal.

Services say *what* happened as data — a status note stored on the game row
(``Game.status_note``: a ``kind`` and its details) and ``ActionRefused(reason, **details)`` —
and this module words them, so the wording lives here once. Amounts travel in cents
(details named ``*_cents``) and are written as money here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.core.errors import ActionRefused
from game.forms import NO_BOX_CHOSEN
from game.models import Game
from game.presentation.insurance import EVERY_BOX_SHORT, every_box_question
from game.presentation.side_bet_menu import SIDE_BET_LABELS
from game.rules.engine import Engine
from game.rules.money import display_cents
from game.rules.no_random import NoRandom
from game.rules.storage import game_from_json
from game.rules_pages.content import option_label
from game.selectors import pending_side_stakes

# ActionRefused.reason -> what the player reads. "rule" carries the engine's own reason
# (the rule book's wording, e.g. "Double only on the first two cards").
REFUSALS: dict[str, str] = {
    "rule": "{text}",
    "not_allowed": "{action} is not allowed now",
    "trivia_open": "Answer the trivia question first.",
    "game_over": "The game is over; start a new game.",
    "too_many_games": (
        "You have {limit} games in progress, the most one player may have: finish one, or "
        "end one from its table, before starting another."
    ),
    "bad_options": "{text}",
    "no_such_chip": "There is no such chip.",
    "bank_short": "Your bank of {bank} does not cover that.",
    "over_max_bet": "The maximum bet is {max_bet}.",
    "round_open": "Finish the current round first.",
    "round_begun": "The next round has already begun: place your bet.",
    "nothing_to_rebet": "There is no last bet to repeat: place your bet.",
    "side_bets_off": "Side bets are switched off at this table.",
    "side_bets_simple": "The simple game has no side bets (Hit and Stand only).",
    "no_such_box": "Choose a box from 1 to {seats}.",
    "no_box_chosen": NO_BOX_CHOSEN,
    "no_bet_to_copy": "Place a bet on this box first, then put the same on every box.",
    "side_bets_too_big": "{text}.",
    "no_such_side_bet": "There is no such side bet.",
    "no_such_offer": "There is no such offer.",
    "insurance_not_offered": "Insurance is not on offer now.",
    "insure_every_box_short": EVERY_BOX_SHORT,
    "no_such_difficulty": "Choose Easy, Medium or Hard.",
    "no_such_category": "There is no such category with questions: choose one from the list.",
    "no_choice_waiting": "No trivia question is waiting to be chosen.",
    "no_questions": (
        "No active trivia questions of difficulty '{difficulty}': "
        "import or activate some in the admin."
    ),
    "no_unanswered_question": "There is no unanswered trivia question.",
    "not_an_answer_shown": "Choose one of the answers shown.",
    "no_answered_question": "There is no answered trivia question to continue from.",
    # the lifelines, 50:50 and Swap.
    "lifelines_off": "Lifelines are switched off in this game.",
    "lifeline_used": "You have already used that lifeline on this question.",
    "fifty_fifty_two_answers": "50:50 needs a question with four answers.",
    "lifeline_last_credit": "A lifeline costs 1 credit, and you have only one left.",
    "lifeline_time_ran_out": "Time ran out on this question: no lifeline now.",
    "no_such_lifeline": "There is no such lifeline.",
    "report_before_reveal": "Answer the question first; you can report it once it is revealed.",
    "already_reported": "You have already reported this question.",
    "bad_report": "{text}",
    # the deadline was applied before the late post; the table shows it.
    "time_ran_out": "Time ran out: the table has moved on without that move.",
    "bad_client_seed": "{text}",
    "daily_options_locked": "The Daily Shoe's options are fixed: everyone plays the same game.",
    "daily_not_today": "Only today's Daily Shoe can be played.",
    "client_seed_mid_shoe": (
        "The client seed can change only between shoes: press Shuffle now, then set it "
        "for the new shoe."
    ),
}

PHASE_LINES: dict[str, str] = {
    "player_turn": "Player's turn.",
    "dealer_turn": "Dealer's turn.",
    "insurance": "Insurance?",
    "even_money": "Even money?",
    "early_surrender": "Early surrender?",
    "extra_bet": "Extra bet?",
    "house_money_parlay": "House Money: parlay?",
    "dealing": "Roll the Perfect 11s dice.",
}
ACTION_NAMES = {"hit": "Hit", "double": "Double Down"}


def _worded(details: dict[str, Any]) -> dict[str, Any]:
    """Details ready for str.format: ``bank_cents`` becomes ``bank`` written as money."""
    worded: dict[str, Any] = {}
    for name, value in details.items():
        if name.endswith("_cents"):
            worded[name.removesuffix("_cents")] = display_cents(value)
        else:
            worded[name] = value
    return worded


def refusal_text(error: ActionRefused, refusals: Mapping[str, str] = REFUSALS) -> str:
    """The sentence a refused action shows the player (``refusals``: these words with a
    caller's own, as a shared table's, game/tables/presentation/)."""
    return refusals[error.reason].format(**_worded(error.details))


# A post made from a page older than the row (a second tab, a double click, a lost race).
STALE_NOTICE = "This table changed since the page was shown; here it is now."


def phase_line(engine: Engine, *, shuffled: bool = False) -> str:
    """What is happening now, in words (UI.md "message line")."""
    parts = ["Shuffling a new shoe."] if shuffled else []
    round_ = engine.round
    if engine.game_over:
        parts.append("Game over.")
    elif round_ is None:
        parts.append("Place your bet.")
    elif round_.over:
        net = round_.paid - round_.staked
        if net > 0:
            parts.append(f"Round over: you won {display_cents(net)}.")
        elif net < 0:
            parts.append(f"Round over: you lost {display_cents(-net)}.")
        else:
            parts.append("Round over: you broke even.")
    else:
        line = PHASE_LINES.get(round_.phase, "Player's turn.")
        if engine.options.seats > 1 and round_.phase != "dealer_turn":
            # §10 seats: offers and turns go box by box; say whose it is.
            line = f"Box {round_.box_in_play() + 1}: {line}"
        parts.append(line)
    return " ".join(parts)


def _options_line(note: dict[str, Any], game: Game, engine: Engine) -> str:
    """Options applied, between rounds. The round before them has had its say: its result
    stays on the felt while it is shown, and the line does not tell it again."""
    needed = [f"{option_label(name)} switched on (needed)." for name in note["implied"]]
    parts = ["Options applied.", *needed]
    if note.get("shuffled"):
        parts.append("Shuffling a new shoe.")
    if engine.game_over:
        parts.append("Game over.")
    elif not game.showing_outcome:
        parts.append("Place your bet.")
    return " ".join(parts)


def _side_total(game: Game) -> str:
    total = f"Side bets {display_cents(sum(pending_side_stakes(game).values()))}"
    return f"{total}, Extra Bet Blackjack active." if game.pending_extra_bet else f"{total}."


def _side_bet_line(note: dict[str, Any], game: Game) -> str:
    kind = note["kind"]
    if kind == "side_stake":
        stake = pending_side_stakes(game).get(note["bet"], 0)
        first = f"{SIDE_BET_LABELS[note['bet']]} {display_cents(stake)}."
    elif kind == "side_cleared":
        first = f"{SIDE_BET_LABELS[note['bet']]} cleared."
    elif kind == "side_all_cleared":
        first = "Side bets cleared."
    elif kind == "extra_bet":
        first = f"Extra Bet Blackjack {'activated' if note['active'] else 'deactivated'}."
    else:  # side_menu
        first = "Side bets menu open." if note["open"] else "Side bets menu closed."
    return f"{first} {_side_total(game)}"


SIDE_BET_NOTES = ("side_stake", "side_cleared", "side_all_cleared", "extra_bet", "side_menu")


def status_line(game: Game, engine: Engine | None = None) -> str:
    """The status line of the table after the game's last action (its ``status_note``)."""
    if engine is None:
        engine = game_from_json(game.state, rng=NoRandom("wording the status line"))
    note = game.status_note or {}
    kind = note.get("kind", "phase")
    shuffled = bool(note.get("shuffled"))
    if kind in SIDE_BET_NOTES:
        return _side_bet_line(note, game)
    if kind == "options_applied":
        return _options_line(note, game, engine)
    lines = {
        "game_ended": "You ended the game.",
        "client_seed_changed": "Client seed set: the new shoe is shuffled with it.",
        "bet": f"Your bet {display_cents(note.get('bet_cents', 0))} — Deal, or add chips.",
        "bet_cleared": "Bet cleared. Place your bet.",
        "next_round": "Place your bet.",
        "box_selected": f"Box {note.get('box')}: bet {display_cents(note.get('bet_cents', 0))}.",
        "same_bet": f"{display_cents(note.get('bet_cents', 0))} on each of the "
        f"{note.get('boxes')} boxes.",
        "choose_difficulty": f"{ACTION_NAMES.get(note.get('action', ''), 'Hit')}: "
        "choose a trivia difficulty.",
        "question_asked": "Answer the trivia question.",
        "lifeline_used": (
            "50:50: two wrong answers gone."
            if note.get("lifeline") == "fifty_fifty"
            else "Swap: a new question."
        )
        + " Credits -1.",
        "answered": f"Correct! Credits {note.get('credits_change', 0):+d}. {phase_line(engine)}"
        if note.get("correct")
        else f"Incorrect: the hand stands. Credits {note.get('credits_change', 0):+d}. "
        f"{phase_line(engine)}",
        "time_ran_out": (
            f"Time ran out: the answer counts as wrong. Credits {note.get('credits_change', 0):+d}."
            if note.get("answer")
            else "Time ran out: the hand stands."
        )
        + f" {phase_line(engine)}",
    }
    if kind == "phase" and (question := every_box_question(game, engine)) is not None:
        # Insurance asked once for every box: no box is named (the panel says which).
        return " ".join(["Shuffling a new shoe."] * shuffled + [question.heading])
    return lines.get(kind) or phase_line(engine, shuffled=shuffled)
