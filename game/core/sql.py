"""The explicit SQL of an action's hot path: the game row read with all an action needs,
and the action's writes.

Every action locks its game row and reads with it the pending trivia attempt, its question
and category, the key of the latest round, the question bank's stamp and the owner's trivia
rating row (the rating, its count of rated answers, the questions since a review); the table
page reads the same row without the lock. Built with the ORM (``select_related`` of three
models and a few subqueries), building and compiling that queryset took ~3 ms of Python a
call on the bench machine, running it under a tenth of that, and an action's own work is
about 1 ms: measured, it was the cost of an action. So it is written here as SQL once per
database vendor, from the models' own field lists, run through ``connection.cursor()``, and
its row turned into model instances as the ORM's reads turn theirs: each field's
``from_db_value`` and ``to_python``, then ``Model.from_db``; the joined rows are set on
their foreign keys, so reading them runs no query.

The writes (:func:`update`, :func:`insert`, :func:`insert_all`, and the statements
:func:`update_game` sends along with a game's save) are the statements the ORM's
``update()``, ``save()`` of a new row and ``bulk_create()`` make, with the values
prepared as the ORM prepares them (each field's ``pre_save`` and ``get_db_prep_save``):
the ORM built and compiled each anew, ~0.1 ms of Python a statement where running it
took a tenth of that, and a round's end writes four (an action 15 to 25 % slower on the
web bench). They send no ``pre_save``/``post_save`` signal: no receiver listens to the
game's models.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any, cast

from django.conf import settings
from django.db import connection
from django.db.models import Field, Model
from django.utils import timezone

from game.models import Game, Round, TriviaAttempt
from trivia.models import Category, PlayerRating, Question, QuestionPoolStamp


@dataclass(frozen=True)
class GameRead:
    """What :func:`read_game` returns: the game (its pending attempt, with question and
    category, set on it) and what was read beside it."""

    game: Game
    # The primary key of the game's latest Round row, if any.
    round_row_id: int | None
    # The question bank's stamp ("" while its row is missing).
    question_pool_stamp: str
    # The owner's trivia rating, the first attempts it was learned from and the questions
    # asked since their last spaced review (None, 0, 0: no rating row yet), for a question
    # chosen by rating and an answer rated.
    player_rating: float | None = None
    player_rated_answers: int = 0
    asked_since_review: int = 0


def read_game(*, game_id: int, owner_id: int, lock: bool) -> GameRead | None:
    """The owner's game (None: no such game of theirs), locked for the transaction when
    ``lock`` (call inside ``atomic``)."""
    statement = _statement(connection.vendor, lock=lock)
    params: list[Any] = [QuestionPoolStamp.SINGLETON_ID, game_id, owner_id]
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    return statement.read(row)


def update_game(
    *,
    game_id: int,
    version: int,
    values: dict[str, Any],
    along: Sequence[Write] = (),
    new_row: Model | None = None,
) -> bool:
    """The save of an action: False when the row no longer has ``version``.

    ``along``: the action's other writes (:func:`update_write`, :func:`insert_all_write`),
    sent first. ``new_row``: a row to insert first, its key set on it once written; a
    value of ``values`` may be that row (the game's foreign key to it), and no write of
    ``along`` may need its key.

    On PostgreSQL all of it is one statement, each write a data-modifying ``WITH`` query
    (PostgreSQL runs every one of them, to completion, whatever the main statement reads):
    one round trip to the server instead of one a write, where a round trip costs more
    than the statement itself. Elsewhere they run one after the other."""
    if connection.vendor != "postgresql" or not (along or new_row is not None):
        for write in along:
            _run(write)
        if new_row is not None:
            insert(new_row)
        return _run(update_write(Game, values, id=game_id, version=version)) == 1
    queries = [f"w{number} AS ({write.sql})" for number, write in enumerate(along)]
    params = [param for write in along for param in write.params]
    new_key = None
    if new_row is not None:
        insert_sql, fields = _insert_statement(type(new_row), connection.vendor)
        queries.append(f"new_row AS ({insert_sql})")
        params += _insert_values(new_row, fields)
        new_key = next((name for name, value in values.items() if value is new_row), "")
        values = {name: value for name, value in values.items() if value is not new_row}
    game_write = update_write(Game, values, id=game_id, version=version, new_key=new_key)
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {', '.join(queries)} {game_write.sql}", params + game_write.params)
        if new_row is None:
            rowcount: int = cursor.rowcount  # the DB-API cursor is untyped
            return rowcount == 1
        row = cursor.fetchone()
    if row is None:
        return False
    _inserted(new_row, row[0])
    return True


def _run(write: Write) -> int:
    with connection.cursor() as cursor:
        cursor.execute(write.sql, write.params)
        rowcount: int = cursor.rowcount  # the DB-API cursor is untyped
        return rowcount


# --------------------------------------------------------------------- the writes


@dataclass(frozen=True)
class Write:
    """One write statement and its parameters, to run now or along with a game's save."""

    sql: str
    params: list[Any]


def update_write(
    model: type[Model], values: dict[str, Any], *, new_key: str | None = None, **where: Any
) -> Write:
    """``model.objects.filter(**where).update(**values)`` for plain values (a model
    instance for a foreign key stands for its key), as a statement. ``new_key``: a
    foreign key (by field name) set to the key of the ``new_row`` query of the same
    statement, which the statement returns (:func:`update_game`)."""
    sql, fields, where_fields = _update_statement(model, tuple(values), tuple(where), new_key)
    params = [_db_value(field, value) for field, value in zip(fields, values.values(), strict=True)]
    params += [
        _db_value(field, value) for field, value in zip(where_fields, where.values(), strict=True)
    ]
    return Write(sql, params)


def add_write(model: type[Model], amounts: dict[str, int], **where: Any) -> Write:
    """``model.objects.filter(**where).update(name=F(name) + amount, ...)`` as a statement:
    each counter moves by its amount in the row itself, so concurrent saves never lose one."""
    sql, where_fields = _add_statement(model, tuple(amounts), tuple(where))
    params: list[Any] = list(amounts.values())
    params += [
        _db_value(field, value) for field, value in zip(where_fields, where.values(), strict=True)
    ]
    return Write(sql, params)


def insert_all_write(instances: Sequence[Model], *, ignore_conflicts: bool = False) -> Write | None:
    """``bulk_create(instances)`` of one model's new rows whose keys nobody reads, as one
    statement (None: nothing to insert); ``ignore_conflicts``: a row clashing with one
    already there (a unique key) is skipped, as ``bulk_create(ignore_conflicts=True)``."""
    if not instances:
        return None
    columns, fields = _insert_columns(type(instances[0]))
    row = f"({', '.join('%s' for _ in fields)})"
    # Only names from the model's metadata; every value is a parameter.
    sql = f"INSERT INTO {_table(type(instances[0]))} ({columns}) VALUES "  # noqa: S608
    sql += ", ".join(row for _ in instances)
    if ignore_conflicts:
        # The same words on SQLite (3.24 on) and PostgreSQL.
        sql += " ON CONFLICT DO NOTHING"
    params = [value for instance in instances for value in _insert_values(instance, fields)]
    return Write(sql, params)


def review_count_write(*, player_id: int, review: bool, rating: float) -> Write:
    """The player's count of questions asked since their last spaced review (R-8.10): one
    more, or back to 0 when this question is a review; a player with no rating row gets one
    (at ``rating``). One upsert (INSERT ... ON CONFLICT, SQLite and PostgreSQL alike), its
    count moved in the row itself so concurrent games lose none."""
    table = _table(PlayerRating)
    counted = "0" if review else f'{table}."asked_since_review" + 1'
    # Only names from the model's metadata and a literal; every value is a parameter.
    sql = (
        f'INSERT INTO {table} ("player_id", "rating", "rated_answers", "asked_since_review")'  # noqa: S608
        f' VALUES (%s, %s, 0, %s) ON CONFLICT ("player_id")'
        f' DO UPDATE SET "asked_since_review" = {counted}'
    )
    return Write(sql, [player_id, rating, 0 if review else 1])


def run_all(writes: Sequence[Write]) -> None:
    """Run ``writes`` now, in order."""
    for write in writes:
        _run(write)


def update(model: type[Model], values: dict[str, Any], **where: Any) -> int:
    """:func:`update_write`'s statement run now: the number of rows updated."""
    return _run(update_write(model, values, **where))


def insert(instance: Model) -> None:
    """``instance.save()`` of a new row: its primary key is set, the instance saved."""
    sql, fields = _insert_statement(type(instance), connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, _insert_values(instance, fields))
        key = cursor.fetchone()[0] if connection.vendor == "postgresql" else cursor.lastrowid
    _inserted(instance, key)


def _inserted(instance: Model, key: Any) -> None:
    """Mark ``instance`` saved under ``key``, as ``save()`` does."""
    instance.pk = key
    instance._state.adding = False
    instance._state.db = connection.alias


def insert_all(instances: Sequence[Model]) -> None:
    """:func:`insert_all_write`'s statement run now."""
    write = insert_all_write(instances)
    if write is not None:
        _run(write)


def _db_value(field: Field[Any, Any], value: Any) -> Any:
    if isinstance(value, Model):
        value = value.pk
    return field.get_db_prep_save(value, connection)


def _insert_values(instance: Model, fields: tuple[Field[Any, Any], ...]) -> list[Any]:
    return [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]


def _concrete_field(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    if not isinstance(field, Field):
        raise TypeError(f"{model.__name__}.{name} is no column")
    return field


@cache
def _update_statement(
    model: type[Model], names: tuple[str, ...], where: tuple[str, ...], new_key: str | None = None
) -> tuple[str, tuple[Field[Any, Any], ...], tuple[Field[Any, Any], ...]]:
    fields = tuple(_concrete_field(model, name) for name in names)
    where_fields = tuple(_concrete_field(model, name) for name in where)
    assignments = [f'"{_column(field)}" = %s' for field in fields]
    if new_key:
        column = _column(_concrete_field(model, new_key))
        assignments.append(f'"{column}" = (SELECT * FROM new_row)')  # noqa: S608 - a column name
    condition = " AND ".join(f'"{_column(field)}" = %s' for field in where_fields)
    # Only names from the model's metadata; every value is a parameter.
    sql = f"UPDATE {_table(model)} SET {', '.join(assignments)} WHERE {condition}"  # noqa: S608
    if new_key is not None:
        sql += " RETURNING (SELECT * FROM new_row)"
    return sql, fields, where_fields


@cache
def _add_statement(
    model: type[Model], names: tuple[str, ...], where: tuple[str, ...]
) -> tuple[str, tuple[Field[Any, Any], ...]]:
    columns = [_column(_concrete_field(model, name)) for name in names]
    where_fields = tuple(_concrete_field(model, name) for name in where)
    assignments = [f'"{column}" = "{column}" + %s' for column in columns]
    condition = " AND ".join(f'"{_column(field)}" = %s' for field in where_fields)
    # Only names from the model's metadata; every value is a parameter.
    sql = f"UPDATE {_table(model)} SET {', '.join(assignments)} WHERE {condition}"  # noqa: S608
    return sql, where_fields


@cache
def _insert_columns(model: type[Model]) -> tuple[str, tuple[Field[Any, Any], ...]]:
    """Every field but the generated key, and their column list."""
    meta = model._meta
    fields = tuple(field for field in meta.concrete_fields if field is not meta.pk)
    return ", ".join(f'"{_column(field)}"' for field in fields), fields


@cache
def _insert_statement(model: type[Model], vendor: str) -> tuple[str, tuple[Field[Any, Any], ...]]:
    """The INSERT of one row (and its key read back on PostgreSQL, ``vendor``; SQLite's
    cursor tells it)."""
    columns, fields = _insert_columns(model)
    placeholders = ", ".join("%s" for _ in fields)
    # Only names from the model's metadata; every value is a parameter.
    sql = f"INSERT INTO {_table(model)} ({columns}) VALUES ({placeholders})"  # noqa: S608
    if vendor == "postgresql":
        sql += f' RETURNING "{_column(model._meta.pk)}"'
    return sql, fields


# --------------------------------------------------------------------- the read


@dataclass(frozen=True)
class _Part:
    """One model's columns in the statement, under a table alias."""

    model: type[Model]
    alias: str
    fields: tuple[Field[Any, Any], ...]
    names: tuple[str, ...]

    @classmethod
    def of(cls, model: type[Model], alias: str) -> _Part:
        fields = tuple(model._meta.concrete_fields)
        return cls(model, alias, fields, tuple(field.attname for field in fields))

    @property
    def columns(self) -> str:
        return ", ".join(f'{self.alias}."{_column(field)}"' for field in self.fields)


def _column(field: Field[Any, Any]) -> str:
    return field.db_column or field.attname


def _table(model: type[Model]) -> str:
    return f'"{model._meta.db_table}"'


@dataclass(frozen=True)
class _Statement:
    sql: str
    parts: tuple[_Part, ...]
    # Per part, per column: how its value (not NULL) becomes the field's value.
    converters: tuple[tuple[Callable[[Any], Any], ...], ...]

    def read(self, row: Sequence[Any]) -> GameRead:
        instances: list[Model | None] = []
        start = 0
        for part, converters in zip(self.parts, self.converters, strict=True):
            end = start + len(part.fields)
            columns = zip(converters, row[start:end], strict=True)
            values = [None if value is None else convert(value) for convert, value in columns]
            start = end
            # A LEFT JOIN that found no row gives NULL keys: no instance.
            instances.append(None if values[0] is None else _instance(part, values))
        round_row_id, stamp = row[start], row[start + 1]
        player_rating, rated_answers, asked_since_review = row[start + 2 : start + 5]
        game = cast(Game, instances[0])  # the locked row itself: never NULL
        attempt = cast(TriviaAttempt | None, instances[1])
        question = cast(Question | None, instances[2])
        category = cast(Category | None, instances[3])
        if question is not None and category is not None:
            question.category = category
        if attempt is not None and question is not None:
            attempt.question = question
        game.pending_trivia = attempt
        return GameRead(
            game,
            round_row_id,
            stamp or "",
            player_rating=None if player_rating is None else float(player_rating),
            player_rated_answers=rated_answers or 0,
            asked_since_review=asked_since_review or 0,
        )


def _instance(part: _Part, values: list[Any]) -> Model:
    return part.model.from_db(connection.alias, part.names, values)


# Written once per vendor from a template: only the models' table and column names (from
# their metadata) are filled in; every value is a parameter.
_SQL = """
SELECT {columns},
    (SELECT r."id" FROM {round} r WHERE r."game_id" = g."id" ORDER BY r."number" DESC LIMIT 1),
    (SELECT s."stamp" FROM {stamp} s WHERE s."id" = %s),
    pr."rating", pr."rated_answers", pr."asked_since_review"
FROM {game} g
    LEFT JOIN {attempt} t ON t."id" = g."pending_trivia_id"
    LEFT JOIN {question} q ON q."id" = t."question_id"
    LEFT JOIN {category} c ON c."id" = q."category_id"
    LEFT JOIN {rating} pr ON pr."player_id" = g."owner_id"
WHERE g."id" = %s AND g."owner_id" = %s
"""


@cache
def _statement(vendor: str, *, lock: bool) -> _Statement:
    parts = [
        _Part.of(Game, "g"),
        _Part.of(TriviaAttempt, "t"),
        _Part.of(Question, "q"),
        _Part.of(Category, "c"),
    ]
    tables = {
        "game": _table(Game),
        "round": _table(Round),
        "stamp": _table(QuestionPoolStamp),
        "rating": _table(PlayerRating),
        "attempt": _table(TriviaAttempt),
        "question": _table(Question),
        "category": _table(Category),
    }
    columns = ", ".join(part.columns for part in parts)
    sql = _SQL.format(columns=columns, **tables)
    if lock and vendor != "sqlite":
        # The game row only: the joined rows are read, not locked. (SQLite has no row
        # locks: its transactions take the database's write lock at BEGIN.)
        sql += "FOR UPDATE OF g"
    converters = tuple(tuple(_converter(field) for field in part.fields) for part in parts)
    return _Statement(sql, tuple(parts), converters)


def _converter(field: Field[Any, Any]) -> Callable[[Any], Any]:
    """How a column's value (not NULL) becomes the field's Python value, as the ORM's reads
    convert it: the field's ``from_db_value`` (JSON text parsed), ``to_python`` (SQLite's
    integers as booleans, its text as datetimes), and a datetime stored in UTC made
    aware."""
    from_db_value = getattr(field, "from_db_value", None)
    aware = settings.USE_TZ

    def convert(value: Any) -> Any:
        if from_db_value is not None:
            value = from_db_value(value, None, connection)
        value = field.to_python(value)
        if aware and isinstance(value, datetime) and timezone.is_naive(value):
            value = timezone.make_aware(value, UTC)
        return value

    return convert
