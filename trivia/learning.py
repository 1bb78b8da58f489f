"""What the bank learns from the questions players are shown and answer (RULES.md R-8.10):
the questions each player has seen, ratings moved by first attempts only (trivia/ratings.py
has the formulas), and the spaced review of missed questions.

Called inside the caller's transaction (a game's action), so that a refused action rolls
all of it back with the rest.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import F, Model

from trivia import ratings
from trivia.models import PlayerRating, Question, SeenQuestion

__all__ = ["record_answer_for_rating", "record_shown", "shown_row"]


def _player_id(player: Model | int) -> int:
    key: Any = player.pk if isinstance(player, Model) else player
    return int(key)


def shown_row(*, player: Model | int, question_id: int, now: datetime) -> SeenQuestion:
    """The row saying ``player`` was first shown the question at ``now``, not yet saved:
    for a caller that inserts it along with its own writes, ignoring a row already there
    (the pair is unique)."""
    return SeenQuestion(player_id=_player_id(player), question_id=question_id, first_seen=now)


def record_shown(*, player: Model | int, question_id: int, now: datetime) -> None:
    """Remember that ``player`` was shown the question (once: a row already there, even one
    inserted by a concurrent request, is kept as it is)."""
    SeenQuestion.objects.bulk_create(
        [shown_row(player=player, question_id=question_id, now=now)], ignore_conflicts=True
    )


def record_answer_for_rating(
    *,
    player: Model | int,
    question: Question,
    correct: bool,
    now: datetime,
    shown_at: datetime | None = None,
    player_rated: ratings.Rated | None = None,
) -> bool:
    """Record an answer: True when it was the player's first attempt at the question, which
    then moves the player's rating and the question's (``question`` as read by the caller:
    its rating, answers and type). ``shown_at``: when this asking showed the question; an
    answer then counts as a first attempt only if the player had not seen the question
    before (a question shown earlier and left unanswered, its time run out or swapped, is
    no first attempt when it comes again). A later attempt (a resumed or repeated
    question) moves no rating; if it is a missed question's review falling due, it moves
    the review on (learned when right). A first attempt answered wrong is due for review
    after REVIEW_DAYS[0] days.

    ``player_rated``: the player's rating row as the caller read it (a game's lock reads
    it), a player with none at START_RATING with no answers; None: read here. Either way
    the player's rating is written only if the row still holds what was read, else it is
    read again, locked, and both changes worked out anew."""
    player_id = _player_id(player)
    if player_rated is None:
        player_rated = _read_player_rating(player_id)
    if _rate_if_first_attempt(
        player_id=player_id,
        question=question,
        correct=correct,
        now=now,
        shown_at=shown_at,
        player_rated=player_rated,
    ):
        return True
    seen = (
        SeenQuestion.objects.select_for_update()
        .filter(player_id=player_id, question_id=question.pk)
        .first()
    )
    if seen is None:
        # Asked before its showing was recorded: this answer is its first attempt.
        record_shown(player=player_id, question_id=question.pk, now=now)
        return _rate_if_first_attempt(
            player_id=player_id,
            question=question,
            correct=correct,
            now=now,
            shown_at=None,
            player_rated=player_rated,
        )
    if seen.first_correct is None:
        # Seen before this asking and never answered: its answer now is kept (a miss comes
        # back for review) but is no first attempt, and moves no rating.
        fields = next_review_after(step=0, correct=correct, now=now)
        SeenQuestion.objects.filter(pk=seen.pk).update(first_correct=correct, **fields)
    elif not seen.learned and seen.review_due is not None and seen.review_due <= now:
        # A missed question's review that fell due: on to its next step, or learned.
        review = next_review_after(step=seen.review_step, correct=correct, now=now)
        SeenQuestion.objects.filter(pk=seen.pk).update(**review)
    return False


def next_review_after(*, step: int, correct: bool, now: datetime) -> dict[str, Any]:
    """The SeenQuestion fields an answer at review ``step`` (0: the first attempt) sets."""
    review = ratings.next_review(step=step, correct=correct)
    due = None if review.due_in_days is None else now + timedelta(days=review.due_in_days)
    return {"review_step": review.step, "review_due": due, "learned": review.learned}


def _rate_if_first_attempt(
    *,
    player_id: int,
    question: Question,
    correct: bool,
    now: datetime,
    shown_at: datetime | None,
    player_rated: ratings.Rated,
) -> bool:
    """Record the answer as the first attempt if none was and then move both ratings
    (trivia/ratings.py): True when this is it.

    The first attempt is set once: the condition ``first_correct IS NULL`` makes any later
    answer (a repeated post that got this far, the question asked again) update nothing,
    and the row count says which one this is; with ``shown_at``, only the asking that
    first showed the question qualifies. A first attempt missed is due for review. The
    question's change is added to its row as it stands, not written over it, so answers
    of many players at once all count: it is worked out from the question's rating as the
    caller read it. The player's row is written only if it still holds ``player_rated``
    (made if they have none): their answer in another game or at a table meanwhile makes
    this one read it again (:func:`_rate_again`).

    On PostgreSQL the three writes are one statement of data-modifying ``WITH`` queries,
    the ratings' gated by the seen row's (one round trip instead of four); on SQLite,
    whose transaction holds the database's write lock from its start, they run one after
    the other once the seen row's says this is the first attempt."""
    update = _rated(player=player_rated, question=question, correct=correct)
    first = next_review_after(step=0, correct=correct, now=now)
    if connection.vendor == "postgresql":
        first_attempt, player_written = _rate_in_one_statement(
            player_id=player_id,
            question_id=question.pk,
            correct=correct,
            first=first,
            shown_at=shown_at,
            question_change=update.question.rating - question.rating,
            player_rated=player_rated,
            update=update,
        )
    else:
        rows = SeenQuestion.objects.filter(
            player_id=player_id, question_id=question.pk, first_correct__isnull=True
        )
        if shown_at is not None:
            rows = rows.filter(first_seen__gte=shown_at)
        first_attempt = bool(rows.update(first_correct=correct, **first))
        player_written = False
        if first_attempt:
            Question.objects.filter(pk=question.pk).update(
                rating=F("rating") + (update.question.rating - question.rating),
                rated_answers=F("rated_answers") + 1,
            )
            with connection.cursor() as cursor:
                cursor.execute(
                    _player_write_sql(source="VALUES (%s, %s, %s, 0)"),
                    _player_write_params(player_id, player_rated, update),
                )
                player_written = cursor.rowcount == 1
    if first_attempt and not player_written:
        _rate_again(player_id=player_id, question=question, correct=correct, written=update)
    return first_attempt


def _rated(*, player: ratings.Rated, question: Question, correct: bool) -> ratings.Update:
    return ratings.rate_answer(
        player=player,
        question=ratings.Rated(question.rating, question.rated_answers),
        correct=correct,
        guess=ratings.guess_chance(question.type),
    )


def _read_player_rating(player_id: int) -> ratings.Rated:
    """The player's rating and rated answers (START_RATING and none without a row)."""
    row = PlayerRating.objects.filter(player_id=player_id).values_list("rating", "rated_answers")
    found = row.first()
    return ratings.Rated(*found) if found else ratings.Rated(ratings.START_RATING, 0)


def _rate_again(
    *, player_id: int, question: Question, correct: bool, written: ratings.Update
) -> None:
    """The player's row changed since it was read: both changes worked out again from
    their row, locked now (their other answers wait), and the question's own corrected by
    the difference (it was added already)."""
    rated = _locked_player_rating(player_id)
    update = _rated(
        player=ratings.Rated(rated.rating, rated.rated_answers), question=question, correct=correct
    )
    correction = update.question.rating - written.question.rating
    if correction:
        Question.objects.filter(pk=question.pk).update(rating=F("rating") + correction)
    PlayerRating.objects.filter(player_id=player_id).update(
        rating=update.player.rating, rated_answers=update.player.answers
    )


def _locked_player_rating(player_id: int) -> PlayerRating:
    """The player's rating row, locked; made at the start rating when they have none (a
    concurrent first answer making it too is no error: its row is then read)."""
    rows = PlayerRating.objects.select_for_update().filter(player_id=player_id)
    found = rows.first()
    if found is not None:
        return found
    PlayerRating.objects.bulk_create(
        [PlayerRating(player_id=player_id, rating=ratings.START_RATING)], ignore_conflicts=True
    )
    return rows.get()


def _rate_in_one_statement(
    *,
    player_id: int,
    question_id: int,
    correct: bool,
    first: dict[str, Any],
    shown_at: datetime | None,
    question_change: float,
    player_rated: ratings.Rated,
    update: ratings.Update,
) -> tuple[bool, bool]:
    """PostgreSQL: the seen row's first answer and, only when it was, the question's and
    the player's ratings, as one statement; whether the first answer was written and
    whether the player's row was (it held ``player_rated``). Each ``WITH`` query reads the
    one before it through its RETURNING rows, the only way they see each other's work."""
    seen = SeenQuestion._meta
    seen_sql = (
        f'UPDATE "{seen.db_table}" SET "first_correct" = %s, "review_step" = %s,'  # noqa: S608
        f' "review_due" = %s, "learned" = %s'
        f' WHERE "player_id" = %s AND "question_id" = %s AND "first_correct" IS NULL'
    )
    due = seen.get_field("review_due")
    params: list[Any] = [
        correct,
        first["review_step"],
        due.get_db_prep_save(first["review_due"], connection),
        first["learned"],
        player_id,
        question_id,
    ]
    if shown_at is not None:
        seen_sql += ' AND "first_seen" >= %s'
        params.append(seen.get_field("first_seen").get_db_prep_save(shown_at, connection))
    question_sql = (
        f'UPDATE "{Question._meta.db_table}" SET "rating" = "rating" + %s,'  # noqa: S608
        ' "rated_answers" = "rated_answers" + 1 FROM first_answer WHERE "id" = %s'
    )
    params += [question_change, question_id]
    player_sql = _player_write_sql(source="SELECT %s, %s, %s, 0 FROM first_answer")
    sql = (
        f'WITH first_answer AS ({seen_sql} RETURNING 1 AS "answered"),'  # noqa: S608 - names and parameters
        f" question_rated AS ({question_sql}),"
        f" player_rated AS ({player_sql} RETURNING 1)"
        " SELECT (SELECT count(*) FROM first_answer), (SELECT count(*) FROM player_rated)"
    )
    params += _player_write_params(player_id, player_rated, update)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        first_count, player_count = cursor.fetchone()
    return bool(first_count), bool(player_count)


def _player_write_sql(*, source: str) -> str:
    """The player's new rating and count of rated answers, from ``source`` (a VALUES row,
    or a SELECT, of player, rating, rated answers, questions since a review): their row
    made when they have none, else written over only if it still holds the rating and
    count the change was worked out from (two more parameters); its row count says
    whether it was written. One upsert on SQLite and PostgreSQL alike."""
    table = f'"{PlayerRating._meta.db_table}"'
    # Only names from the model's metadata; every value is a parameter.
    return (
        f'INSERT INTO {table} ("player_id", "rating", "rated_answers", "asked_since_review")'  # noqa: S608
        f' {source} ON CONFLICT ("player_id") DO UPDATE'
        ' SET "rating" = EXCLUDED."rating", "rated_answers" = EXCLUDED."rated_answers"'
        f' WHERE {table}."rating" = %s AND {table}."rated_answers" = %s'
    )


def _player_write_params(
    player_id: int, player_rated: ratings.Rated, update: ratings.Update
) -> list[Any]:
    return [
        player_id,
        update.player.rating,
        update.player.answers,
        player_rated.rating,
        player_rated.answers,
    ]
