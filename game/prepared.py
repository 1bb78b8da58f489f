"""A hot query compiled once per database connection and run again with new values (issue 14).

Building and compiling a queryset costs Django far more than running it: the lock of
every game action (the game row, its pending question joined, its latest round's key
as a subquery) took ~2 ms of Python on SQLite to build and compile and 0.25 ms to run.
:class:`PreparedQuery` compiles the queryset once per connection, with stand-in values
for the parameters, and then runs the same SQL with the values of each call, turning the
row into model instances exactly as Django's ``ModelIterable`` does (the same converters,
the same ``select_related`` populators, the annotations set as attributes).

Only for queries whose SQL does not depend on the values (plain ``=`` lookups on
integers), which the stand-ins check: each must appear exactly once among the compiled
parameters.

On PostgreSQL the statements of :class:`PreparedQuery`, :class:`PreparedUpdate` and
:class:`PreparedInsert` are also prepared on the server, once per database session
(psycopg's protocol-level prepared statements, with server-side binding): PostgreSQL then
plans them once instead of at every run. The game's lock (three joins and a subquery)
took ~0.4 ms a run, ~0.3 of it planning, and ~0.1 ms prepared (issue 14, fourth pass).
They run through Django's cursor wrapper all the same (query logging, execute wrappers,
error translation). Django leaves psycopg's prepared statements off by default for
connection poolers that do not know them (PgBouncer before 1.21 in transaction mode):
behind such a pooler, set ``GAME_PREPARED_STATEMENTS = False`` in the settings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.sql.subqueries import InsertQuery
from django.db.transaction import TransactionManagementError

# Stand-in values: integers no real parameter takes (primary keys are positive).
_STAND_IN_BASE = -7_919_000_001


# psycopg prepares a statement after this many runs unless asked to at once (prepare=True);
# set on a connection whose prepared statements Django left off (prepare_threshold None),
# so that only the statements asked for here are prepared there.
_ONLY_WHEN_ASKED = 2**31 - 1


class _PostgreSQL:
    """What a prepared statement's cursor needs of Django's PostgreSQL backend, imported
    the first time one is made (the module imports no database driver itself)."""

    def __init__(self) -> None:
        from django.db.backends.postgresql.base import TIMESTAMPTZ_OID, ServerBindingCursor
        from django.db.backends.postgresql.psycopg_any import register_tzloader
        from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
        from psycopg import Error
        from psycopg.pq import Format

        class PreparingCursor(ServerBindingCursor):
            """Django's server-binding cursor, every statement run prepared."""

            def execute(self, query: Any, params: Any = None, *, prepare: Any = None, **kw: Any):
                return super().execute(query, params, prepare=True, **kw)

        class DebugWrapper(CursorDebugWrapper):
            """Logs a statement with its values in place, as Django logs its client-side
            cursors' (psycopg keeps no such text of a prepared statement)."""

            def execute(self, sql: str, params: Any = None) -> Any:
                text = sql
                if params is not None:
                    # A value psycopg cannot write as text is logged as its placeholder.
                    with suppress(Error):
                        text = self.db.ops.compose_sql(sql, params)
                with self.debug_sql(text, params):
                    return CursorWrapper.execute(self, sql, params)

        self.cursor = PreparingCursor
        self.debug_wrapper = DebugWrapper
        self.timestamptz = (TIMESTAMPTZ_OID, Format.TEXT)
        self.register_tzloader = register_tzloader


_postgresql: _PostgreSQL | None = None


def _prepares(connection: Any) -> bool:
    return connection.vendor == "postgresql" and getattr(settings, "GAME_PREPARED_STATEMENTS", True)


# The open sent_together() block of a connection, kept on Django's connection object.
_PIPELINE = "_game_sent_together"


@dataclass
class _Batch:
    """A sent_together() block: its psycopg pipeline, and the row counts to check once its
    statements are sent."""

    pipeline: Any
    checks: list[tuple[Any, int, Callable[[], Exception]]]

    def check(self) -> None:
        for cursor, rows, error in self.checks:
            try:
                if cursor.rowcount != rows:
                    raise error()
            finally:
                cursor.close()


@contextmanager
def sent_together(using: str = "default") -> Iterator[None]:
    """The writes run inside are sent to PostgreSQL together when the block ends (a psycopg
    pipeline, one round trip for all: a round's UPDATE and its hands' INSERT, an attempt's
    UPDATE, with the game's UPDATE, issue 14); the row counts :meth:`PreparedUpdate.run_checked`
    asks for are checked then, before the block is left. Reading a result inside (a fetch,
    :meth:`PreparedUpdate.run`) sends what waits first, a round trip of its own. Only for
    this module's statements: the ORM reads an UPDATE's row count without sending what
    waits (-1 in a pipeline), so no ORM write may run inside. Elsewhere (SQLite, or
    ``GAME_PREPARED_STATEMENTS`` off) each statement is sent at once, as usual. Not for
    a transaction's first statement: psycopg sends BEGIN on its own in a pipeline."""
    with _pipeline_block(connections[using], commit=False):
        yield


@contextmanager
def sent_with_commit(using: str = "default") -> Iterator[None]:
    """:func:`sent_together` for the rest of a transaction, its COMMIT sent with its last
    writes: one round trip where the writes and the COMMIT took two (issue 14).

    For the body of the outermost ``atomic`` block, as its last work: a successful body
    queues COMMIT behind what waits, and ``atomic`` then finds the transaction committed
    (psycopg skips a COMMIT with no transaction open). The row counts asked for by
    :meth:`PreparedUpdate.run_checked` are read with the COMMIT's answer, so only for
    updates that cannot miss: :func:`game.services.locked_game` holds the game row's
    lock since the transaction began, so its version check cannot fail there (and is
    checked all the same). A body that raises sends no COMMIT and ``atomic`` rolls
    back. Inside an enclosing ``atomic`` (a test's): a plain :func:`sent_together` block,
    committed by ``atomic`` as usual."""
    connection = connections[using]
    with _pipeline_block(connection, commit=_outermost_atomic(connection)):
        yield


@contextmanager
def _pipeline_block(connection: Any, *, commit: bool) -> Iterator[None]:
    """The psycopg pipeline of a sent_together() block, and COMMIT queued at its end if
    ``commit``; a plain block where statements are not sent together (or one is open)."""
    if not _prepares(connection) or _batch(connection) is not None or not _pipelines_supported():
        yield
        return
    connection.ensure_connection()
    raw = connection.connection
    # An error of a statement sent together surfaces when they are sent: translated
    # into Django's database errors like any other.
    with connection.wrap_database_errors, raw.pipeline() as pipeline:
        batch = _Batch(pipeline, [])
        setattr(connection, _PIPELINE, batch)
        try:
            yield
            if commit:
                # Queued, not sent: it goes with the writes and the pipeline's closing Sync.
                raw.execute(b"COMMIT")
        finally:
            setattr(connection, _PIPELINE, None)
    batch.check()


def _outermost_atomic(connection: Any) -> bool:
    """Whether the connection is in its outermost ``atomic`` block, with nothing amiss."""
    return (
        connection.in_atomic_block
        and not connection.savepoint_ids
        and connection.commit_on_exit
        and not connection.needs_rollback
    )


@lru_cache(maxsize=1)
def _pipelines_supported() -> bool:
    """psycopg's pipeline mode needs libpq 14 or newer (psycopg[binary] brings its own);
    with an older one each statement is sent at once."""
    from psycopg import Pipeline

    return Pipeline.is_supported()


def _batch(connection: Any) -> _Batch | None:
    return getattr(connection, _PIPELINE, None)


def _send_waiting(connection: Any) -> None:
    """Send the statements of a sent_together() block that wait, and take their results."""
    batch = _batch(connection)
    if batch is not None:
        with connection.wrap_database_errors:
            batch.pipeline.sync()


def statement_cursor(connection: Any) -> Any:
    """A cursor for one of this module's statements: Django's own, except on PostgreSQL
    (psycopg 3), where it prepares each statement on the server the first time the session
    runs it (psycopg keeps the names, and forgets them after a rollback). Wrapped as
    Django wraps its cursors, so each statement is logged and counted like any other."""
    global _postgresql
    if not _prepares(connection):
        return connection.cursor()
    if _postgresql is None:
        _postgresql = _PostgreSQL()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:
        raw.prepare_threshold = _ONLY_WHEN_ASKED
    with connection.wrap_database_errors:
        cursor = _postgresql.cursor(raw)
    # What Django's create_cursor does: times read in the connection's zone when the
    # connection's loader disagrees (normally it agrees, and nothing is copied).
    if raw.adapters.get_loader(*_postgresql.timestamptz).timezone != connection.timezone:
        _postgresql.register_tzloader(connection.timezone, cursor)
    connection.validate_thread_sharing()
    if connection.queries_logged:
        return _postgresql.debug_wrapper(cursor, connection)
    return connection.make_cursor(cursor)


@dataclass
class _Compiled:
    sql: str
    params: list[Any]
    # Where each named value goes in ``params``.
    slots: dict[str, int]
    compiler: Any
    converters: Any
    model: type[Model]
    fields_start: int
    fields_end: int
    init_list: list[str]
    # Where the primary key is among the model's own columns.
    pk_index: int
    annotation_col_map: dict[str, int]
    populators: list[Any]


class PreparedQuery:
    """``build(**values)`` returns the queryset; :meth:`first` runs it for ``values``."""

    def __init__(self, build: Callable[..., QuerySet], *names: str, using: str = "default"):
        self.build = build
        self.names = names
        self.using = using
        self._attribute = f"_prepared_query_{id(self)}"
        self._by_vendor: dict[str, _Compiled] = {}

    def _compile(self, connection: Any) -> _Compiled:
        stand_ins = {name: _STAND_IN_BASE - number for number, name in enumerate(self.names)}
        queryset = self.build(**stand_ins)
        compiler = queryset.query.get_compiler(using=self.using)
        sql, params = compiler.as_sql()
        params = list(params)
        slots = {}
        for name, value in stand_ins.items():
            if params.count(value) != 1:
                raise ValueError(f"{name} must appear once among the query's parameters")
            slots[name] = params.index(value)
        select, klass_info = compiler.select, compiler.klass_info
        fields_start = klass_info["select_fields"][0]
        fields_end = klass_info["select_fields"][-1] + 1
        columns = [column for column, _, _ in select[: compiler.col_count]]
        init_list = [column[0].target.attname for column in select[fields_start:fields_end]]
        return _Compiled(
            sql=sql,
            params=params,
            slots=slots,
            compiler=compiler,
            converters=compiler.get_converters(columns),
            model=klass_info["model"],
            fields_start=fields_start,
            fields_end=fields_end,
            init_list=init_list,
            pk_index=init_list.index(klass_info["model"]._meta.pk.attname),
            annotation_col_map=dict(compiler.annotation_col_map or {}),
            populators=get_related_populators(klass_info, select, self.using),
        )

    def first(self, **values: Any) -> Any:
        """The first row as a model instance (with what it selects related), or None."""
        compiled, rows = self._fetch(values, first_only=True)
        return self._instance(compiled, rows[0]) if rows else None

    def all(self, **values: Any) -> list[Any]:
        """Every row (as many as the queryset's own slice allows) as model instances."""
        compiled, rows = self._fetch(values, first_only=False)
        return [self._instance(compiled, row) for row in rows]

    def first_in_order(self, order: list[Any], **values: Any) -> Any:
        """Of the rows found, the one whose primary key comes first in ``order``, as a model
        instance, or None. Only that row is converted and built: a question pick reads
        eight candidates and keeps one (issue 14)."""
        compiled, rows = self._fetch(values, first_only=False)
        by_key = {row[compiled.fields_start + compiled.pk_index]: row for row in rows}
        chosen = next((by_key[key] for key in order if key in by_key), None)
        return None if chosen is None else self._instance(compiled, chosen)

    def _fetch(self, values: dict[str, Any], *, first_only: bool) -> tuple[_Compiled, list[Any]]:
        connection = connections[self.using]
        compiled = getattr(connection, self._attribute, None)
        if compiled is None:
            # Once per process and kind of database too: under ASGI each request's sync
            # view runs in a thread of its own, with a connection object of its own. The
            # compiler and its converters then belong to the first connection of that kind:
            # they only read settings (the time zone), never the connection's state, and
            # the SQL runs on the caller's own connection below.
            compiled = self._by_vendor.get(connection.vendor)
            if compiled is None:
                compiled = self._by_vendor[connection.vendor] = self._compile(connection)
            setattr(connection, self._attribute, compiled)
        if (
            compiled.compiler.query.select_for_update
            and connection.features.has_select_for_update
            and connection.get_autocommit()
        ):
            # What Django's compiler says for select_for_update() outside atomic().
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(compiled.params)
        for name, slot in compiled.slots.items():
            params[slot] = values[name]
        with statement_cursor(connection) as cursor:
            cursor.execute(compiled.sql, params)
            if first_only:
                row = cursor.fetchone()
                rows = [] if row is None else [row]
            else:
                rows = cursor.fetchall()
        return compiled, rows

    def _instance(self, compiled: _Compiled, row: Any) -> Any:
        """One row as ``ModelIterable`` makes it: converted, built, related rows populated,
        annotations set."""
        if compiled.converters:
            row = next(iter(compiled.compiler.apply_converters([row], compiled.converters)))
        instance = compiled.model.from_db(
            self.using, compiled.init_list, row[compiled.fields_start : compiled.fields_end]
        )
        for populator in compiled.populators:  # select_related (they keep no row's state)
            populator.populate(row, instance)
        for name, position in compiled.annotation_col_map.items():
            setattr(instance, name, row[position])
        return instance


class PreparedUpdate:
    """``Model.objects.filter(**where).update(**values)`` for a row known by plain values,
    with its SQL made once per set of fields written (the ORM builds and compiles it anew
    each time). Values are prepared for the database as the ORM's update prepares them
    (``get_db_prep_save``; a model instance given for a foreign key stands for its key).
    Returns the number of rows updated."""

    def __init__(self, model: type[Model], *where: str, using: str = "default") -> None:
        self.model = model
        self.where = where
        self.using = using
        self._sql: dict[tuple[str, ...], tuple[str, list[Any]]] = {}

    def _statement(self, names: tuple[str, ...], connection: Any) -> tuple[str, list[Any]]:
        meta = self.model._meta
        quote = connection.ops.quote_name
        fields = [meta.get_field(name) for name in names]
        for field in fields:
            if not field.concrete or field.many_to_many or hasattr(field, "get_placeholder"):
                raise ValueError(f"{field.name} cannot be written by a prepared update")
        where = [meta.get_field(name) for name in self.where]
        # Only names from the model's own metadata, quoted: no value is ever in the SQL.
        sql = "UPDATE {} SET {} WHERE {}".format(  # noqa: S608
            quote(meta.db_table),
            ", ".join(f"{quote(field.column)} = %s" for field in fields),
            " AND ".join(f"{quote(field.column)} = %s" for field in where),
        )
        return sql, fields + where

    def run(self, values: dict[str, Any], **where: Any) -> int:
        connection = connections[self.using]
        if any(hasattr(value, "resolve_expression") for value in values.values()):
            # An expression (F(), Case …) is the ORM's to compile; the ORM's row count
            # would be wrong in a pipeline (sent_together).
            if _batch(connection) is not None:
                raise ValueError("an ORM update cannot run inside sent_together()")
            return self.model._default_manager.filter(**where).update(**values)
        sql, params = self._sql_and_params(connection, values, where)
        with statement_cursor(connection) as cursor:
            cursor.execute(sql, params)
            _send_waiting(connection)
            return cursor.rowcount

    def run_checked(
        self, values: dict[str, Any], *, rows: int, error: Callable[[], Exception], **where: Any
    ) -> None:
        """:meth:`run`, raising ``error()`` unless ``rows`` rows were updated: at once, or
        inside :func:`sent_together` when the block's statements are sent (before the block
        is left, so the transaction is still open and rolls back)."""
        connection = connections[self.using]
        batch = _batch(connection)
        if batch is None:
            if self.run(values, **where) != rows:
                raise error()
            return
        sql, params = self._sql_and_params(connection, values, where)
        cursor = statement_cursor(connection)  # closed by the batch's check
        try:
            cursor.execute(sql, params)
        except BaseException:
            cursor.close()
            raise
        batch.checks.append((cursor, rows, error))

    def send(self, values: dict[str, Any], **where: Any) -> None:
        """:meth:`run` for a caller that does not read the row count: inside
        :func:`sent_together` the UPDATE waits to be sent with the block's others."""
        connection = connections[self.using]
        if any(hasattr(value, "resolve_expression") for value in values.values()):
            raise ValueError("an UPDATE sent together takes plain values only")
        sql, params = self._sql_and_params(connection, values, where)
        with statement_cursor(connection) as cursor:
            cursor.execute(sql, params)

    def _sql_and_params(
        self, connection: Any, values: dict[str, Any], where: dict[str, Any]
    ) -> tuple[str, list[Any]]:
        names = tuple(values)
        statement = self._sql.get((connection.vendor, *names))
        if statement is None:
            statement = self._sql[(connection.vendor, *names)] = self._statement(names, connection)
        sql, fields = statement
        params = []
        given = [*values.values(), *(where[name] for name in self.where)]
        for field, value in zip(fields, given, strict=True):
            if field.remote_field is not None and hasattr(value, "prepare_database_save"):
                value = value.prepare_database_save(field)
            params.append(field.get_db_prep_save(value, connection=connection))
        return sql, params


def _inserted_fields(model: type[Model]) -> list[Any]:
    """The fields an INSERT of ``model`` writes, as the ORM's own: not generated, not
    returned by the database (the primary key)."""
    meta = model._meta
    return [
        field
        for field in meta.local_concrete_fields
        if not field.generated and field not in meta.db_returning_fields
    ]


class PreparedInsert:
    """``instance.save()`` of a new row (``Model.objects.create``) with the INSERT's SQL
    made once per database connection: the ORM builds and compiles an ``InsertQuery`` per
    row (~0.3 ms of Python for a trivia attempt). Values are prepared as the ORM's insert
    prepares them (each field's ``pre_save`` and ``get_db_prep_save``), the primary key is
    read back as the ORM reads it (``RETURNING`` where the database has it). Sends no
    ``pre_save``/``post_save`` signal: only for models that no receiver listens to."""

    def __init__(self, model: type[Model], using: str = "default") -> None:
        self.model = model
        self.using = using
        self._attribute = f"_prepared_insert_{id(self)}"

    def _compile(
        self, connection: Any, instance: Model, *, keyed: bool = False
    ) -> tuple[str, list[Any], Any]:
        fields = _inserted_fields(self.model)
        if keyed:
            fields = [self.model._meta.pk, *fields]
        query = InsertQuery(self.model)
        query.insert_values(fields, [instance])
        compiler = query.get_compiler(using=self.using)
        compiler.returning_fields = None if keyed else self.model._meta.db_returning_fields
        statements = compiler.as_sql()
        if len(statements) != 1:  # pragma: no cover - one row, one statement
            raise ValueError("a prepared insert must be one statement")
        sql, params = statements[0]
        if any(hasattr(value, "as_sql") for value in params):  # pragma: no cover
            raise ValueError("a prepared insert takes plain values only")
        return sql, fields, compiler

    def send(self, instance: Model) -> None:
        """:meth:`save` for a caller that does not need the new row's key: inside
        :func:`sent_together` the INSERT waits to be sent with the block's others
        (the key it returns is not read; ``instance`` keeps none)."""
        connection, sql, params, _ = self._sql_and_params(instance)
        with statement_cursor(connection) as cursor:
            cursor.execute(sql, params)

    def send_keyed(self, instance: Model) -> None:
        """:meth:`send` of an instance given its primary key beforehand (drawn from the
        table's sequence by a query that ran anyway: game.services' lock), so that no
        statement waits for the INSERT's answer. Marks the instance saved."""
        connection, sql, params, _ = self._sql_and_params(instance, keyed=True)
        with statement_cursor(connection) as cursor:
            cursor.execute(sql, params)
        instance._state.adding = False
        instance._state.db = self.using

    def _sql_and_params(
        self, instance: Model, *, keyed: bool = False
    ) -> tuple[Any, str, list[Any], Any]:
        if type(instance) is not self.model or not instance._state.adding:
            raise ValueError("a prepared insert saves a new instance of its own model")
        if bool(instance.pk) != keyed:
            raise ValueError("a prepared insert's key is the database's unless sent keyed")
        connection = connections[self.using]
        attribute = f"{self._attribute}_keyed" if keyed else self._attribute
        compiled = getattr(connection, attribute, None)
        if compiled is None:
            compiled = self._compile(connection, instance, keyed=keyed)
            setattr(connection, attribute, compiled)
        sql, fields, compiler = compiled
        params = [
            field.get_db_prep_save(field.pre_save(instance, True), connection=connection)
            for field in fields
        ]
        params.extend(compiler.returning_params)
        return connection, sql, params, compiler

    def save(self, instance: Model) -> Model:
        connection, sql, params, compiler = self._sql_and_params(instance)
        with statement_cursor(connection) as cursor:
            cursor.execute(sql, params)
            if connection.features.can_return_columns_from_insert:
                returned = connection.ops.fetch_returned_insert_columns(
                    cursor, compiler.returning_params
                )
            else:
                meta = self.model._meta
                returned = (connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column),)
        for value, field in zip(returned, self.model._meta.db_returning_fields, strict=True):
            setattr(instance, field.attname, value)
        instance._state.adding = False
        instance._state.db = self.using
        return instance


class PreparedBulkInsert:
    """``Model.objects.bulk_create(instances)`` for rows whose keys nobody reads back: one
    INSERT statement made once per kind of database and run with ``executemany`` (the
    ORM builds and compiles a many-row INSERT for every call: ~0.1 ms a row of Python).
    Values are prepared as the ORM's insert prepares them (each field's ``pre_save`` and
    ``get_db_prep_save``). Sends no signal; the instances are not given their keys. Run
    by the ordinary cursor, not ``statement_cursor``: psycopg sends ``executemany``'s
    rows as one pipeline already, and the statement is not the planning-heavy kind."""

    def __init__(self, model: type[Model], using: str = "default") -> None:
        self.model = model
        self.using = using
        self._by_vendor: dict[str, tuple[str, list[Any]]] = {}

    def _statement(self, connection: Any) -> tuple[str, list[Any]]:
        meta = self.model._meta
        quote = connection.ops.quote_name
        fields = _inserted_fields(self.model)
        # Only names from the model's own metadata, quoted: no value is ever in the SQL.
        sql = "INSERT INTO {} ({}) VALUES ({})".format(  # noqa: S608
            quote(meta.db_table),
            ", ".join(quote(field.column) for field in fields),
            ", ".join("%s" for _ in fields),
        )
        return sql, fields

    def insert(self, instances: list[Model]) -> None:
        if not instances:
            return
        connection = connections[self.using]
        statement = self._by_vendor.get(connection.vendor)
        if statement is None:
            statement = self._by_vendor[connection.vendor] = self._statement(connection)
        sql, fields = statement
        rows = [
            [
                field.get_db_prep_save(field.pre_save(instance, True), connection=connection)
                for field in fields
            ]
            for instance in instances
        ]
        with connection.cursor() as cursor:
            cursor.executemany(sql, rows)
