"""Trivia in play (RULES.md §8): a Hit or Double Down in trivia mode asks a question, and
its answer deals the card or stands the hand.

The question is chosen by rating (R-8.10, trivia/selection.py): the lock reads the
player's rating and review count with the game (game/core/sql.py), the pick is one query,
and the review count's write goes with the game's save. A first attempt is rated from the
player's rating as the lock read it too: on PostgreSQL its writes (the seen row, both
ratings) are one statement (trivia/learning.py).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from django.db.models import QuerySet
from django.utils import timezone

from game.core import sql
from game.core.clock import from_epoch_ms, now_ms
from game.core.errors import ActionRefused
from game.models import DailyAttempt, Game, TriviaAttempt
from game.rules.daily import QuestionListExhausted, is_daily, nth_question
from game.rules.lifelines import lifeline_kinds
from game.rules.records import TriviaOutcome, review_may_be_asked
from game.rules.shoe import Rng
from game.services import randomness
from game.services.guards import (
    refuse_if_trivia_open,
    require_allowed,
    require_answer_shown,
    require_choice_waiting,
    require_difficulty,
)
from game.services.locking import locked_game
from game.services.results import Played
from game.services.saving import LockedGame, StatusNote, play_and_save, save_attempt, save_game
from trivia import learning, ratings, selection
from trivia import services as question_bank
from trivia.models import RATING_SEEDS, PlayerRating, Question

if TYPE_CHECKING:
    from game.services.saving import Player


# The category choice meaning "any category" (beside the id of one).
ANY_CATEGORY = "any"


def choose_difficulty(
    *,
    game_id: int,
    user: Player,
    version: int,
    difficulty: str,
    category: int | Literal["any"] | None = None,
) -> Played:
    """Pick the question for the Hit/Double waiting on trivia and keep it pending (R-8.6).
    ``category``: the category chosen with it, remembered for the game's next questions
    (an id, or ANY_CATEGORY; None: the one remembered); one with no active question is
    refused (``no_such_category``)."""
    require_difficulty(difficulty)
    rng = randomness.make_rng()
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        game = locked.game
        refuse_if_trivia_open(game)
        action = game.trivia_choice_for
        require_choice_waiting(action)
        require_allowed(locked.engine, action)
        if category is not None:
            _choose_category(locked, category)
        return ask_question(
            locked,
            action=action,
            difficulty=difficulty,
            rng=rng,
            category_chosen=category is not None,
        )


def ask_question(
    locked: LockedGame, *, action: str, difficulty: str, rng: Rng, category_chosen: bool = False
) -> Played:
    """Choose a question not yet asked in this game (R-8.10) and keep it pending (R-8.6);
    the difficulty is remembered for the next Hit or Double Down, and the category when
    ``category_chosen`` (set on the game by :func:`choose_difficulty`)."""
    game, engine = locked.game, locked.engine
    assert engine.round is not None  # a question is asked in a hand's turn
    if is_daily(engine):
        question = _daily_question(locked, difficulty)  # D-3: the day's n-th, for everyone
    else:
        question = _rated_question(locked, difficulty, rng)
    attempt = TriviaAttempt(
        game=game,
        # The round in play is the game's latest (its row is written at the deal).
        round_id=locked.round_row_id,
        hand_index=engine.round.current,
        action=action,
        question=question,
        difficulty=difficulty,
        answers_shown=question_bank.shuffled_answers(question, rng=rng),
        # the answer's clock starts now, and a reload does not restart it.
        shown_at=from_epoch_ms(now_ms()),
    )
    # Inserted with the game's save, which points the game at it.
    locked.new_row = attempt
    # the player has seen it (once a row), written with the game's save too.
    record_shown_with_save(locked, question, attempt.shown_at)
    # The decision is made (Hit or Double): the turn's clock waits for the answer.
    engine.pause_turn_clock()
    return save_game(
        locked,
        pending_trivia=attempt,
        trivia_choice_for="",
        trivia_difficulty=difficulty,
        note={"kind": "question_asked"},
        **_category_fields(game, category_chosen),
    )


def answer_question(*, game_id: int, user: Player, version: int, answer: str) -> Played:
    """Record the answer to the pending question (a second answer is refused) and carry it
    into the round at once (R-8.2): right, the card is dealt; wrong, the hand stands. Either
    way its reveal shows beside the hand and the round goes on with no extra click."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        pending = locked.game.pending_trivia
        waiting = None if pending is None or pending.is_answered else pending
        attempt = require_answer_shown(waiting, answer)
        correct = answer == attempt.question.correct_answer
        outcome = TriviaOutcome(
            attempt.difficulty, correct, lifelines=lifeline_kinds(attempt.lifelines)
        )
        attempt.answer_given = answer
        attempt.correct = correct
        attempt.credits_change = outcome.credit_change
        attempt.answered_at = timezone.now()
        # Applied in this same action: one UPDATE says both.
        attempt.applied = True
        note = {
            "kind": "answered",
            "correct": correct,
            "credits_change": outcome.credit_change,
            "attempt": attempt.pk,
        }
        # The question's answer counters are kept by the database, in the attempt's UPDATE
        # (trivia/migrations/0003_count_answers_in_the_database.py).
        save_attempt(
            locked, attempt, "answer_given", "correct", "credits_change", "answered_at", "applied"
        )
        # a first attempt moves the player's and the question's ratings, worked out
        # from both as the lock read them.
        learning.record_answer_for_rating(
            player=locked.game.owner_id,
            question=attempt.question,
            correct=correct,
            now=from_epoch_ms(now_ms()),
            shown_at=attempt.shown_at,
            player_rated=_player_rated(locked),
        )
        return _apply_answer(locked, attempt, note=note)


def _player_rated(locked: LockedGame) -> ratings.Rated:
    """The owner's rating and rated answers as the lock read them (a player with no rating
    row yet starts at START_RATING)."""
    if locked.player_rating is None:
        return ratings.Rated(ratings.START_RATING, 0)
    return ratings.Rated(locked.player_rating, locked.player_rated_answers)


def continue_after_reveal(*, game_id: int, user: Player, version: int) -> Played:
    """A wrong answer recorded but not yet carried into the round (a game saved while its
    reveal waited for Continue, before answers were applied at once): the hand stands."""
    with locked_game(game_id=game_id, user=user, version=version) as locked:
        attempt = locked.game.pending_trivia
        if attempt is None or not attempt.is_answered:
            raise ActionRefused("no_answered_question")
        return _apply_answer(locked, attempt)


def _apply_answer(
    locked: LockedGame, attempt: TriviaAttempt, *, note: StatusNote | None = None
) -> Played:
    """Carry an answer into the round: the card is dealt, or the hand stands (R-8.2)."""
    outcome = TriviaOutcome(
        attempt.difficulty, bool(attempt.correct), lifelines=lifeline_kinds(attempt.lifelines)
    )
    engine = locked.engine
    action = engine.hit if attempt.action == TriviaAttempt.Action.HIT else engine.double
    # A right answer was applied by its own UPDATE (answer_question): its reveal shows on
    # the felt with the card just dealt. Else it is applied now.
    revealed = attempt.applied
    if not revealed:
        attempt.applied = True
        save_attempt(locked, attempt, "applied")
    played = play_and_save(locked, lambda: action(outcome), note=note, pending_trivia=None)
    return replace(played, revealed=attempt) if revealed else played


def _category_fields(game: Game, chosen: bool) -> dict[str, Any]:
    """The game's category to save when one was chosen with the difficulty."""
    return {"trivia_category": game.trivia_category} if chosen else {}


def _choose_category(locked: LockedGame, category: int | Literal["any"]) -> None:
    """Set the game's category for its questions (saved by :func:`ask_question`): one
    with no active question (or none at all) is refused."""
    if not isinstance(category, int):  # ANY_CATEGORY
        locked.game.trivia_category = None
        return
    chosen = question_bank.category_with_questions(category)
    if chosen is None:
        raise ActionRefused("no_such_category")
    locked.game.trivia_category = chosen


def _rated_question(locked: LockedGame, difficulty: str, rng: Rng) -> Question:
    """The question chosen for this player by rating, in the game's category (R-8.10): a
    missed question due for review when one may be asked (at most one in five), else the
    nearest the difficulty's target chance. The player's count since the last review is
    written with the game's save."""
    game = locked.game
    rating = RATING_SEEDS["medium"] if locked.player_rating is None else locked.player_rating
    review_due_by = (
        from_epoch_ms(now_ms()) if review_may_be_asked(locked.asked_since_review) else None
    )
    pick = _rated_pick(
        difficulty=difficulty,
        asked_ids=_asked_in(game.pk),
        swapped_away_ids=swapped_away_in(game.pk),
        rng=rng,
        player_id=game.owner_id,
        player_rating=rating,
        category_id=game.trivia_category_id,
        review_due_by=review_due_by,
    )
    locked.pending_writes.append(
        sql.review_count_write(player_id=game.owner_id, review=pick.review, rating=rating)
    )
    return pick.question


def pick_for_locked(locked: LockedGame, *, difficulty: str, rng: Rng) -> Question:
    """The question nearest ``difficulty``'s target for the locked game's player (their
    rating read with the lock), of the game's category, unseen by them, neither asked nor
    swapped away in the game; no review (a Swap's question)."""
    game = locked.game
    rating = RATING_SEEDS["medium"] if locked.player_rating is None else locked.player_rating
    return _rated_pick(
        difficulty=difficulty,
        asked_ids=_asked_in(game.pk),
        swapped_away_ids=swapped_away_in(game.pk),
        rng=rng,
        player_id=game.owner_id,
        player_rating=rating,
        category_id=game.trivia_category_id,
    ).question


def record_shown_with_save(locked: LockedGame, question: Question, shown_at: datetime) -> None:
    """That the player has seen ``question`` (R-8.10, once a row), written with the game's
    save."""
    seen = learning.shown_row(player=locked.game.owner_id, question_id=question.pk, now=shown_at)
    locked.pending_writes.extend(
        filter(None, [sql.insert_all_write([seen], ignore_conflicts=True)])
    )


def pick_question(
    *,
    difficulty: str,
    asked_ids: QuerySet[Any, Any],
    rng: Rng,
    player_id: int | None = None,
    category_id: int | None = None,
) -> Question:
    """The active question of ``difficulty`` nearest its target chance for the player
    (R-8.10; their rating read here, one query; none: the bank's middle), of the category
    (None: any), unseen by them and not among ``asked_ids`` (a subquery of the questions
    asked so far); refused with ``no_questions`` when the bank has none of that
    difficulty (R-8.5). A shared table's seat picks its questions here (any category, no
    review)."""
    rating = None
    if player_id is not None:
        rows = PlayerRating.objects.filter(player_id=player_id)
        rating = rows.values_list("rating", flat=True).first()
    return _rated_pick(
        difficulty=difficulty,
        asked_ids=asked_ids,
        rng=rng,
        player_id=player_id,
        player_rating=RATING_SEEDS["medium"] if rating is None else rating,
        category_id=category_id,
    ).question


def _rated_pick(
    *,
    difficulty: str,
    asked_ids: QuerySet[Any, Any],
    rng: Rng,
    player_id: int | None,
    player_rating: float,
    category_id: int | None,
    review_due_by: datetime | None = None,
    swapped_away_ids: QuerySet[Any, Any] | None = None,
) -> selection.RatedPick:
    try:
        return selection.pick_rated_question(
            player_rating=player_rating,
            difficulty=difficulty,
            category_id=category_id,
            player_id=player_id,
            asked_in_game=asked_ids,
            swapped_away_in_game=swapped_away_ids,
            rng=rng,
            review_due_by=review_due_by,
        )
    except question_bank.NoQuestionsAvailable as error:
        raise ActionRefused("no_questions", difficulty=error.difficulty) from None


def _daily_question(locked: LockedGame, difficulty: str) -> Question:
    """The n-th question a Daily Shoe attempt asks of a difficulty: the n-th of the day's
    list for it (D-3)."""
    game = locked.game
    attempt = DailyAttempt.objects.select_related("day").get(game_id=game.pk)
    asked = TriviaAttempt.objects.filter(game_id=game.pk, difficulty=difficulty).count()
    try:
        question_id = nth_question(attempt.day.questions, difficulty, asked + 1)
    except QuestionListExhausted:
        raise ActionRefused("no_questions", difficulty=difficulty) from None
    return Question.objects.get(pk=question_id)


def _asked_in(game_id: int) -> QuerySet[TriviaAttempt, Any]:
    """The ids of the questions a game has asked (its trivia attempts'), as a subquery."""
    return TriviaAttempt.objects.filter(game_id=game_id).values("question_id")


def swapped_away_in(game_id: int) -> QuerySet[TriviaAttempt, Any]:
    """The ids of the questions a Swap took away in a game (R-8.11), as a subquery: read
    from the same attempt rows as the asked ones, by the same index."""
    # No NULL among them: ``NOT IN`` a list holding NULL would leave every question out.
    attempts = TriviaAttempt.objects.filter(game_id=game_id, swapped_away__isnull=False)
    return attempts.values("swapped_away_id")
