"""Choosing a question by rating (R-8.10): the one nearest the chance a difficulty aims at
for this player, among the active questions of the chosen category (or any) the player has
not seen and this game has not asked; or, at most one in five, a missed question due for
its spaced review.

One query: each way from the target rating, up and down, short reads of the rating index
from the target and from edges 16, 32, ... 1,024 points out (``WINDOWS``), the seen,
asked and swapped away questions dropped from the rows read and the nearest SCAN kept,
joined by UNION ALL (and a third part, the player's earliest review due, when a review may
be asked), then the rows found read whole. Its cost does not grow with the questions the
player has seen: it asks the nearest unseen question, or, past a run of seen ones longer
than a window reads, the first unseen beyond the next edge. The ORM cannot
say it in one statement on SQLite (no LIMIT in a compound statement's parts), so it is SQL
written here once, run through ``Question.objects.raw`` (which turns the rows into
questions), valid on SQLite and PostgreSQL; only table and column names come from the
models' metadata, every value is a parameter. The few rows found are ranked in Python by
each question's own predicted chance (its own guess by its type), and one of the nearest
is drawn at random, so two players at the same rating do not get the same question.

When every question is seen, the nearest seen but not asked in this game is asked; when
every question of the category was asked in this game, the usual random pick of the
difficulty (R-8.5, trivia.services.choose_question).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import QuerySet

from trivia import services
from trivia.models import Category, Question, SeenQuestion
from trivia.ratings import GUESS, TARGET_CHANCE, chance_right, target_rating

__all__ = ["RatedPick", "choose_rated_question", "pick_rated_question"]

# Rows kept each way, up and down from the target.
SCAN = 8
# Where each direction reads the rating index: (rating points from the target, rows read
# from there). Every pick costs the same few rows however many questions near the target
# the player has seen: a scan stepping over each seen one grew with them (6x today's pick
# with 5,000 seen round the target, bench/RESULTS.md). The first window reads enough for a
# player who has seen a few; the farther ones, each twice as far, find the nearest unseen
# past a run of seen ones, at most about twice as far out as it lies.
WINDOWS = ((0, 16), (16, 8), (32, 8), (64, 8), (128, 8), (256, 8), (512, 8), (1024, 8))
# Drawn among this many of the nearest by predicted chance, those within TOLERANCE of
# the nearest's chance: enough that players at one rating get different questions, never
# one much farther from the aim when a nearer one is there.
NEAREST = 3
TOLERANCE = 0.05
# The scan's target is for a four-answer question (most of the bank); a True/False
# question found is ranked by its own chance.
_SCAN_GUESS = GUESS["multiple"]


@dataclass(frozen=True)
class RatedPick:
    """The question chosen, and whether it is a spaced review of one the player missed."""

    question: Question
    review: bool = False


def choose_rated_question(
    *,
    player_rating: float,
    difficulty: str,
    category_id: int | None,
    player_id: int | None,
    asked_in_game: QuerySet[Any, Any],
    rng: services.RandomSource,
    swapped_away_in_game: QuerySet[Any, Any] | None = None,
) -> Question:
    """The question nearest the difficulty's target chance for a player rated
    ``player_rating`` (no review). See :func:`pick_rated_question`."""
    return pick_rated_question(
        player_rating=player_rating,
        difficulty=difficulty,
        category_id=category_id,
        player_id=player_id,
        asked_in_game=asked_in_game,
        swapped_away_in_game=swapped_away_in_game,
        rng=rng,
    ).question


def pick_rated_question(
    *,
    player_rating: float,
    difficulty: str,
    category_id: int | None,
    player_id: int | None,
    asked_in_game: QuerySet[Any, Any],
    rng: services.RandomSource,
    review_due_by: datetime | None = None,
    swapped_away_in_game: QuerySet[Any, Any] | None = None,
) -> RatedPick:
    """The question to ask: with ``review_due_by``, the player's missed question whose
    review is due by then (earliest due first, not learned, active, of the category, not
    asked in this game) if there is one; else the active question of the category (any
    when ``category_id`` is None) nearest the difficulty's target chance, not seen by the
    player (``player_id`` None: no player's record, only this game's) and not asked in
    this game (``asked_in_game``: a values queryset of question ids, used as a subquery)
    nor swapped away in it by a lifeline (``swapped_away_in_game``, the same kind of
    queryset, no NULL; the nearest seen fallback leaves them out too). One query while the
    player has unseen questions left. Raises trivia.services.NoQuestionsAvailable when the
    bank has none of the difficulty."""
    if difficulty not in TARGET_CHANCE:
        raise ValueError(f"Unknown difficulty {difficulty!r}")
    target = target_rating(player_rating, TARGET_CHANCE[difficulty], _SCAN_GUESS)
    rows = _nearest(
        target,
        category_id=category_id,
        unseen_by=player_id,
        left_out=_left_out(asked_in_game, swapped_away_in_game),
        review=None if player_id is None or review_due_by is None else (player_id, review_due_by),
    )
    reviews = [row for row in rows if getattr(row, "pick_part", None) == _REVIEW]
    if reviews:
        return RatedPick(_with_category(reviews[0]), review=True)
    if not rows and player_id is not None:
        # Every question of the category seen: the nearest seen but not asked here.
        rows = _nearest(
            target,
            category_id=category_id,
            unseen_by=None,
            left_out=_left_out(asked_in_game, swapped_away_in_game),
            review=None,
        )
    if rows:
        return RatedPick(_with_category(_draw(rows, player_rating, difficulty, rng)))
    # Every question of the category asked (or swapped away) in this game: R-8.5's pick
    # starts over, among them all only once the difficulty has none left either.
    shown: services.Asked = asked_in_game
    if swapped_away_in_game is not None:
        shown = _ids(asked_in_game) | _ids(swapped_away_in_game)
    return RatedPick(services.choose_question(difficulty=difficulty, asked_ids=shown, rng=rng))


def _ids(values: QuerySet[Any, Any]) -> set[int]:
    """The ids a values (or values_list) queryset of one column reads."""
    return {next(iter(row.values())) if isinstance(row, dict) else row for row in values}


def _left_out(
    asked_in_game: QuerySet[Any, Any], swapped_away_in_game: QuerySet[Any, Any] | None
) -> list[QuerySet[Any, Any]]:
    return (
        [asked_in_game] if swapped_away_in_game is None else [asked_in_game, swapped_away_in_game]
    )


def _draw(
    rows: Sequence[Question], player_rating: float, difficulty: str, rng: services.RandomSource
) -> Question:
    """One of the NEAREST rows by predicted chance within TOLERANCE of the nearest, drawn
    at random (ties by id)."""
    wanted = TARGET_CHANCE[difficulty]

    def distance(question: Question) -> tuple[float, int]:
        guess = GUESS.get(question.type, _SCAN_GUESS)
        return abs(chance_right(player_rating, question.rating, guess) - wanted), question.pk

    ranked = sorted(rows, key=distance)
    best = distance(ranked[0])[0]
    nearest = [row for row in ranked[:NEAREST] if distance(row)[0] <= best + TOLERANCE]
    return nearest[rng.randrange(len(nearest))]


def _with_category(question: Question) -> Question:
    """The question with its category set from the columns read with it (no query)."""
    category = Category.from_db(
        question._state.db,
        ["id", "name"],
        [question.category_id, getattr(question, "pick_category", "")],
    )
    question.category = category
    return question


# The parts of the statement, told apart by a column of their own.
_UP, _DOWN, _REVIEW = 0, 1, 2


# The statement's parts, from templates: only the models' table names (quoted by the
# connection) and this module's literals are filled in; every value is a parameter. The row
# counts are literals, so that PostgreSQL's plan of the prepared statement, made once for
# any values, is the plan made for given ones, and each run is not planned anew.
# A window: the first rows of the rating index from its edge (read from the index alone on
# PostgreSQL: ids and ratings), then the ones left out and seen dropped.
_WINDOW_UP = (
    'SELECT * FROM (SELECT w."id", w."rating" FROM (SELECT q."id", q."rating" FROM {question} q'
    ' WHERE {scan} AND q."rating" >= %s ORDER BY q."rating", q."id" LIMIT {rows:d}) w'
    " WHERE {keep}) w{n}"
)
_WINDOW_DOWN = (
    'SELECT * FROM (SELECT w."id", w."rating" FROM (SELECT q."id", q."rating" FROM {question} q'
    ' WHERE {scan} AND q."rating" < %s ORDER BY q."rating" DESC, q."id" DESC LIMIT {rows:d}) w'
    " WHERE {keep}) w{n}"
)
# A direction: its windows' rows (each once), the nearest SCAN kept.
_NEAREST_UP = (
    'SELECT * FROM (SELECT u."id", {part} AS "pick_part" FROM ({windows}) u'
    ' ORDER BY u."rating", u."id" LIMIT {scan:d}) d{part}'
)
_NEAREST_DOWN = (
    'SELECT * FROM (SELECT u."id", {part} AS "pick_part" FROM ({windows}) u'
    ' ORDER BY u."rating" DESC, u."id" DESC LIMIT {scan:d}) d{part}'
)
_UNSEEN = (
    'NOT EXISTS (SELECT 1 FROM {seen} s WHERE s."player_id" = %s AND s."question_id" = w."id")'
)
_REVIEW_SQL = (
    'SELECT * FROM (SELECT q."id", {part} AS "pick_part" FROM {question} q'
    ' JOIN {seen} r ON r."question_id" = q."id"'
    ' WHERE r."player_id" = %s AND r."review_due" IS NOT NULL AND r."review_due" <= %s'
    ' AND NOT r."learned" AND {where} ORDER BY r."review_due", q."id" LIMIT 1) review'
)
# The rows found, read whole with their category's name.
_FOUND_SQL = (
    'SELECT q.*, c."name" AS "pick_category", f."pick_part" FROM ({found}) f'
    ' JOIN {question} q ON q."id" = f."id" JOIN {category} c ON c."id" = q."category_id"'
)


def _nearest(
    target: float,
    *,
    category_id: int | None,
    unseen_by: int | None,
    left_out: Sequence[QuerySet[Any, Any]],
    review: tuple[int, datetime] | None,
) -> list[Question]:
    """Up to SCAN active questions either side of ``target`` found in the windows (and
    the review due), with the filters said, in one statement; ``left_out``: values
    querysets of question ids (asked or swapped away in the game), each a subquery."""
    connection = connections[Question.objects.db]
    left_out_sql, left_out_params = [], list[Any]()
    for ids in left_out:
        # Compiled as the ORM compiles a queryset it nests.
        try:
            # Unordered, as the ORM nests a subquery: a model's default ordering would
            # join and sort for nothing.
            query = ids.order_by().query
            ids_sql, ids_params = query.get_compiler(connection=connection).as_sql()
        except EmptyResultSet:
            continue  # a queryset that can match nothing (``pk__in=[]``): none left out
        left_out_sql.append(f"NOT IN ({ids_sql})")
        left_out_params += ids_params
    question, category, seen = (
        connection.ops.quote_name(model._meta.db_table)
        for model in (Question, Category, SeenQuestion)
    )
    scan, scan_params = 'q."active"', list[Any]()
    if category_id is not None:
        scan += ' AND q."category_id" = %s'
        scan_params.append(category_id)
    kept = [f'w."id" {sql}' for sql in left_out_sql]
    keep_params = list(left_out_params)
    if unseen_by is not None:
        kept.append(_UNSEEN.format(seen=seen))
        keep_params.append(unseen_by)
    keep = " AND ".join(kept) or "1 = 1"

    parts, params = [], list[Any]()
    for part, template, sign in ((_UP, _WINDOW_UP, 1), (_DOWN, _WINDOW_DOWN, -1)):
        windows = []
        for n, (edge, rows) in enumerate(WINDOWS):
            windows.append(template.format(question=question, scan=scan, keep=keep, n=n, rows=rows))
            params += [*scan_params, target + sign * edge, *keep_params]
        nearest = _NEAREST_UP if part == _UP else _NEAREST_DOWN
        parts.append(nearest.format(part=part, windows=" UNION ".join(windows), scan=SCAN))
    if review is not None:
        player_id, due_by = review
        where = " AND ".join([scan, *(f'q."id" {sql}' for sql in left_out_sql)])
        parts.append(_REVIEW_SQL.format(part=_REVIEW, question=question, seen=seen, where=where))
        params += [
            player_id,
            connection.ops.adapt_datetimefield_value(due_by),
            *scan_params,
            *left_out_params,
        ]
    found = " UNION ALL ".join(parts)
    sql = _FOUND_SQL.format(found=found, question=question, category=category)
    return list(Question.objects.raw(sql, params))
