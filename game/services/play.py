"""The player's decisions in a round (RULES.md §5, R-4.5, R-4.6): Hit and Double Down
(which in trivia mode ask a question first), Stand, Split, Surrender, and the answers to
the insurance, even-money and early-surrender offers. The coach judges each decision
when it is made.

With several boxes (§10 seats) insurance and even money are one question for every box
waiting (:func:`answer_insurance_for_every_box`), or box by box when the player chooses
to differ (:func:`choose_insurance_box_by_box`, then :func:`answer_insurance`). Either
way the engine asks and records one answer per box, so a round replays the same."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from game.core.errors import ActionRefused
from game.rules.engine import Engine
from game.rules.records import DIFFICULTIES, Event, InsuranceOffer
from game.services import coach, randomness
from game.services.guards import refuse_if_trivia_open, require_allowed
from game.services.locking import locked_game
from game.services.results import Played
from game.services.saving import play_and_save, save_game
from game.services.trivia import ask_question

if TYPE_CHECKING:
    from game.services.saving import Player

OFFERS = ("insurance", "even_money", "early_surrender")
# The status note of a table whose player chose to answer insurance box by box.
INSURANCE_BOX_BY_BOX = "insurance_box_by_box"


def _trivia_action(
    *, game_id: int, user: Player, version: int, action: str, difficulty: str | None = None
) -> Played:
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise ActionRefused("no_such_difficulty")
    rng = randomness.make_rng()
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        refuse_if_trivia_open(locked.game)
        require_allowed(locked.engine, action)
        # The coach judges the move when it is chosen, before any trivia.
        deviation = coach.judge(locked.game, locked.engine, action)
        engine_action = locked.engine.hit if action == "hit" else locked.engine.double
        if not locked.engine.options.trivia_mode:
            played = play_and_save(locked, engine_action)
        elif difficulty is not None:
            # The difficulty came with the button (the one remembered, or changed beside
            # it): the question is asked at once, a hit in two steps.
            played = ask_question(locked, action=action, difficulty=difficulty, rng=rng)
        else:
            # in trivia mode the action first asks for a difficulty.
            note = {"kind": "choose_difficulty", "action": action}
            played = save_game(locked, trivia_choice_for=action, note=note)
        return coach.record(played, deviation)


def hit(*, game_id: int, user: Player, version: int, difficulty: str | None = None) -> Played:
    """Hit: the hand in play takes one card (R-5.1). In trivia mode the card must be earned
    first: this asks a question at ``difficulty``, or first asks which difficulty when none
    is given (R-8.1)."""
    return _trivia_action(
        game_id=game_id, user=user, version=version, action="hit", difficulty=difficulty
    )


def double(*, game_id: int, user: Player, version: int, difficulty: str | None = None) -> Played:
    """Double Down: the hand's bet is doubled, it takes exactly one card and stands
    (R-5.3). In trivia mode a question comes first, asked as :func:`hit` asks it; a wrong
    answer stands the hand with its bet not doubled (R-8.2)."""
    return _trivia_action(
        game_id=game_id, user=user, version=version, action="double", difficulty=difficulty
    )


def _simple_play(*, game_id: int, user: Player, version: int, action: str) -> Played:
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        refuse_if_trivia_open(locked.game)
        require_allowed(locked.engine, action)
        deviation = coach.judge(locked.game, locked.engine, action)
        played = play_and_save(locked, getattr(locked.engine, action))
        return coach.record(played, deviation)


def stand(*, game_id: int, user: Player, version: int) -> Played:
    """Stand (R-5.2)."""
    return _simple_play(game_id=game_id, user=user, version=version, action="stand")


def split(*, game_id: int, user: Player, version: int) -> Played:
    """Split the pair (R-5.4)."""
    return _simple_play(game_id=game_id, user=user, version=version, action="split")


def surrender(*, game_id: int, user: Player, version: int) -> Played:
    """Surrender the hand (R-5.7)."""
    return _simple_play(game_id=game_id, user=user, version=version, action="surrender")


def answer_offer(*, game_id: int, user: Player, version: int, offer: str, accept: bool) -> Played:
    """Insurance / Even Money (R-4.5) or Early Surrender (R-4.6): accept or decline."""
    if offer not in OFFERS:
        raise ActionRefused("no_such_offer")
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        return play_and_save(locked, lambda: locked.engine.answer_offer(offer, accept))


def answer_insurance(*, game_id: int, user: Player, version: int, accept: bool) -> Played:
    """Insurance or Even Money, whichever is on offer."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        round_ = locked.engine.round
        offer = round_.phase if round_ is not None and not round_.over else "insurance"
        if offer not in ("insurance", "even_money"):
            raise ActionRefused("insurance_not_offered")
        deviation = coach.judge(locked.game, locked.engine, offer) if accept else None
        played = play_and_save(locked, lambda: locked.engine.answer_offer(offer, accept))
        return coach.record(played, deviation)


def waiting_insurance_offers(engine: Engine) -> list[InsuranceOffer]:
    """The boxes the insurance stage (R-4.5) has still to ask, left to right."""
    return [offer for offer in engine.insurance_offers() if not offer.answered]


def answer_insurance_for_every_box(
    *, game_id: int, user: Player, version: int, accept: bool
) -> Played:
    """Accept or decline, in one request, the insurance or even money (R-4.5) of every box
    still waiting: each box its own offer, answered box by box as if asked one after the
    other (one answer recorded per box). Accepting needs the bank to cover the total; a
    refusal changes nothing."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        engine = locked.engine
        waiting = waiting_insurance_offers(engine)
        if not waiting:
            raise ActionRefused("insurance_not_offered")
        total = sum(offer.cost for offer in waiting)
        if accept and total > engine.bank:
            raise ActionRefused("insure_every_box_short", cost_cents=total, bank_cents=engine.bank)
        deviations: list[coach.Deviation] = []

        def answer_each() -> list[Event]:
            events: list[Event] = []
            for offer in waiting:
                # The stage has reached this box: the offers go left to right.
                if accept and (deviation := coach.judge(locked.game, engine, offer.offer)):
                    deviations.append(deviation)
                events += engine.answer_offer(offer.offer, accept)
            return events

        played = play_and_save(locked, answer_each)
        for deviation in deviations:
            played = coach.record(played, deviation)
        return played


def choose_insurance_box_by_box(*, game_id: int, user: Player, version: int) -> Played:
    """The player wants to answer insurance (or even money) box by box: the table asks
    each box on its own from now on. Only the table's note changes, not the round."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        if not waiting_insurance_offers(locked.engine):
            raise ActionRefused("insurance_not_offered")
        return save_game(locked, engine_changed=False, note={"kind": INSURANCE_BOX_BY_BOX})


def answer_early_surrender(*, game_id: int, user: Player, version: int, accept: bool) -> Played:
    """Accept or decline early surrender; the coach judges either answer (R-4.6)."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        # Out of its phase the engine refuses the answer below (its own message).
        deviation = coach.judge(locked.game, locked.engine, "surrender" if accept else "decline")
        played = play_and_save(
            locked, lambda: locked.engine.answer_offer("early_surrender", accept)
        )
        return coach.record(played, deviation)


PLAY_SERVICES: dict[str, Callable[..., Played]] = {
    "hit": hit,
    "stand": stand,
    "double": double,
    "split": split,
    "surrender": surrender,
}
