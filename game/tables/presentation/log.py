"""The table's event log (T-10): one line per event, from its public data."""

from __future__ import annotations

from typing import Any

from game.presentation.side_bet_menu import SIDE_BET_LABELS
from game.presentation.side_bet_panels import DIE_INFINITY_TEXT, condition_text
from game.presentation.table import hand_badge
from game.rules import sidebets as sb
from game.rules.cards import card_name
from game.rules.money import display_cents
from game.rules_pages.content import ratio_text
from game.tables.models import TableEvent
from game.tables.presentation.notices import a_or_an
from game.tables.presentation.offers import OFFER_NAMES
from trivia.models import DIFFICULTY_LABELS


def _who(data: dict[str, Any]) -> str:
    player = data.get("player")
    seat = data.get("seat")
    if player and seat:
        return f"{player} (seat {seat})"
    if seat:
        return f"Seat {seat}"
    return "A player"


# Events that are news for the pages (the table changed) but say nothing worth a line:
# betting starting over after an intermission nobody bet in (T-5).
SILENT_EVENTS = frozenset({"betting_reopened"})


def in_log(event: TableEvent) -> bool:
    """Whether ``event`` has a line in the table's log."""
    return event.kind not in SILENT_EVENTS


def log_lines(events: list[TableEvent]) -> list[str]:
    """The log's lines for ``events``, in their order, the silent ones left out (T-10)."""
    return [event_text(event) for event in events if in_log(event)]


def event_text(event: TableEvent) -> str:
    """One line of the table's log, from an event's public data ("" for a silent one)."""
    data, kind = event.data, event.kind
    if kind in SILENT_EVENTS:
        return ""
    who = _who(data)
    if kind == "card_dealt":
        if data.get("to") == "dealer":
            if data.get("face_down"):
                return "The dealer takes a card face down."
            return f"The dealer shows {card_name(data['card'])}."
        return f"{who} gets {card_name(data['card'])}."
    if kind == "hole_card_revealed":
        return f"The dealer turns over {card_name(data['card'])}: {data['total']}."
    if kind == "hand_settled":
        paid = int(data.get("winnings") or 0)
        result = hand_badge(data["result"], data.get("how")) or data["result"]
        # A lost hand pays nothing: "paid $0.00" would read as if something were owed.
        return f"{who}: {result}, paid {display_cents(paid)}." if paid else f"{who}: {result}."
    if kind == "question_revealed":
        verdict = (
            "right" if data.get("correct") else ("too late" if data.get("timed_out") else "wrong")
        )
        given = data.get("answer_given") or "no answer"
        return (
            f"{who} was asked “{data['question']}” and answered “{given}”: {verdict}. "
            f"The answer: “{data['correct_answer']}”."
        )
    if kind == "question_asked":
        level = DIFFICULTY_LABELS.get(data.get("difficulty", ""), "")
        return f"{who} is answering {a_or_an(level)} {level} question."
    if kind == "shoe_shuffled" and data.get("reason") == SHUFFLED_BY_HOST:
        return HOST_SHUFFLED_LINE
    if kind == "trivia_answered":
        return f"{who}: {int(data.get('credits_change') or 0):+d} trivia credits."
    side_bet_line = _side_bet_event_text(kind, data, who)
    if side_bet_line is not None:
        return side_bet_line
    simple = EVENT_LINES.get(kind)
    if simple is not None:
        words = {**data, "who": who}
        if "bet" in data:
            words["bet"] = display_cents(int(data["bet"]))
        try:
            return simple.format(**words)
        except (KeyError, ValueError):
            return simple.split("{")[0].strip() or kind.replace("_", " ")
    return kind.replace("_", " ").capitalize() + "."


def _side_bet_event_text(kind: str, data: dict[str, Any], who: str) -> str | None:
    """The log's line for the side bets' and the offers' events (None: not one of them)."""
    if kind not in SIDE_BET_EVENT_LINES:
        return None
    name = str(data.get("name", ""))
    words: dict[str, Any] = {
        "who": who,
        "title": SIDE_BET_LABELS.get(name, name),
        "condition": condition_text(name, data.get("condition")) if name in sb.PAY_TABLES else "",
        "offer": OFFER_NAMES.get(str(data.get("offer", "")), "the offer"),
    }
    for key in ("winnings", "stake", "fee", "parlayed", "amount", "bet"):
        words[key] = display_cents(int(data.get(key) or 0))
    # The deal's event has the stakes by name, Ready's their total.
    side_bets = data.get("side_bets") or 0
    side_total = sum(side_bets.values()) if isinstance(side_bets, dict) else int(side_bets)
    words["side_bets"] = display_cents(side_total)
    line = SIDE_BET_EVENT_LINES[kind]
    if kind == "side_bet_settled":
        if name == sb.EXTRA_BET_BLACKJACK:
            words["condition"] = condition_text(name, data.get("condition"))
        line = SIDE_BET_RESULT_LINES.get(str(data.get("result")), SIDE_BET_RESULT_LINES["lose"])
        words["ratio"] = ratio_text(data.get("ratio"))
        if data.get("parlayed"):
            paid = bool(data.get("winnings"))
            line = SIDE_BET_RESULT_LINES["parlayed" if paid else "all_parlayed"]
    elif kind == "dice_rolled":
        words["dice"] = ", ".join(
            DIE_INFINITY_TEXT if face == sb.INFINITY_FACE else str(face)
            for face in data.get("dice") or ()
        )
    elif kind == "offer_answered":
        line = OFFER_ANSWER_LINES[bool(data.get("accept"))]
    elif kind == "offer_timed_out":
        line = OFFER_TIMEOUT_LINES.get(str(data.get("offer")), line)
    elif kind == "insurance_settled":
        words["title"] = OFFER_NAMES.get(str(data.get("kind")), "insurance").capitalize()
        line = INSURANCE_RESULT_LINES[data.get("result") == "win"]
    elif kind in ("bets_placed", "bet_placed") and not side_total:
        line = EVENT_LINES[kind]
    try:
        return line.format(**words)
    except (KeyError, ValueError, IndexError):
        return line.split("{")[0].strip() or kind.replace("_", " ")


# Side bets and the offers (T-6, T-7) in the log; amounts are shown in dollars.
SIDE_BET_EVENT_LINES = {
    "bet_placed": "{who} bets {bet} and {side_bets} on side bets, and is ready.",
    "bets_placed": "{who} bets {bet}, and {side_bets} on side bets.",
    "side_bet_settled": "",  # by its result: SIDE_BET_RESULT_LINES
    "side_bet_won": (
        "{who}: {title} wins — {condition}; paid once the dealer's blackjack is ruled out."
    ),
    "dice_needed": "{who}: {title} wins with a suited 11 — the Infinity dice decide how much.",
    "dice_rolled": "{who} rolls the Infinity dice: {dice}.",
    "extra_bet_placed": "{who} places an extra bet of {stake} (fee {fee}).",
    "bet_parlayed": "{who} parlays {amount} onto the hand: the bet is now {bet}.",
    "offer": "{who} is offered {offer}.",
    "offer_answered": "",  # accepted or declined: OFFER_ANSWER_LINES
    "offer_timed_out": "{who} ran out of time: {offer} is declined.",
    "insurance_settled": "",  # won or lost: SIDE_BET_RESULT_LINES
}
SIDE_BET_RESULT_LINES = {
    "win": "{who}: {title} wins — {condition}, {ratio}: paid {winnings}.",
    "push": "{who}: {title} pushes: {winnings} returned.",
    "lose": "{who}: {title} loses.",
    "parlayed": (
        "{who}: {title} wins — {condition}, {ratio}: paid {winnings}, {parlayed} parlayed."
    ),
    "all_parlayed": "{who}: {title} wins — {condition}, {ratio}: {parlayed} parlayed.",
}
INSURANCE_RESULT_LINES = {
    True: "{who}: {title} wins: paid {winnings}.",
    False: "{who}: {title} loses.",
}
OFFER_ANSWER_LINES = {True: "{who} accepts {offer}.", False: "{who} declines {offer}."}
# T-7: what a player who did not answer in time gets.
OFFER_TIMEOUT_LINES = {
    "roll": "{who} ran out of time: the Infinity dice roll by themselves.",
    "parlay": "{who} ran out of time: House Money is collected.",
}

# Shuffle now (F-6): the shoe the host finished is revealed on the table's Fairness page.
SHUFFLED_BY_HOST = "player"
HOST_SHUFFLED_LINE = "The host shuffles a new shoe: the last one's seed is on the Fairness page."
EVENT_LINES = {
    "table_opened": "The table “{name}” opened.",
    "seated": "{who} sat down.",
    "left": "{who} left the table.",
    "betting_open": "Place your bets: betting closes in {seconds} seconds.",
    "bet_placed": "{who} bets {bet} and is ready.",
    "sitting_out": "{who} sits this round out.",
    # A Ready bet the engine refused at the deal ("reason": the engine's words).
    "bet_refused": "{who} sits this round out: {reason}.",
    "round_dealt": "Round {round}: the cards are dealt.",
    "bets_placed": "{who} bets {bet}.",
    "timed_out": "{who} ran out of time: the hand stands.",
    "hand_stood": "{who} stands.",
    "hand_doubled": "{who} doubles down.",
    "hand_split": "{who} splits.",
    "hand_surrendered": "{who} surrenders.",
    "hand_busted": "{who} busts.",
    "hand_bust": "{who} busts.",
    "hand_charlie": "{who} makes a Charlie.",
    "hand_natural": "{who} has blackjack!",
    "dealer_peeked": "The dealer checks for blackjack.",
    "round_over": "The round is over.",
    "offers_opened": "Decisions for everyone concerned: answer now.",
    "offer_answer_recorded": "{who} has answered.",
    "options_changed": "The host changed the table's options.",
    "invite_renewed": "The host made a new invitation link: the old one no longer works.",
    "table_closed": "The table is closed.",
    "shoe_shuffled": "Shuffling a new shoe.",
    "client_seed_changed": "{who} chose a new client seed for the next shoe.",
    "credits_exhausted": "{who} has no trivia credits left.",
}
