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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

# Stand-in values: integers no real parameter takes (primary keys are positive).
_STAND_IN_BASE = -7_919_000_001


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
    annotation_col_map: dict[str, int]
    populators: list[Any]


class PreparedQuery:
    """``build(**values)`` returns the queryset; :meth:`first` runs it for ``values``."""

    def __init__(self, build: Callable[..., QuerySet], *names: str, using: str = "default"):
        self.build = build
        self.names = names
        self.using = using
        self._attribute = f"_prepared_query_{id(self)}"

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
        return _Compiled(
            sql=sql,
            params=params,
            slots=slots,
            compiler=compiler,
            converters=compiler.get_converters(columns),
            model=klass_info["model"],
            fields_start=fields_start,
            fields_end=fields_end,
            init_list=[column[0].target.attname for column in select[fields_start:fields_end]],
            annotation_col_map=dict(compiler.annotation_col_map or {}),
            populators=get_related_populators(klass_info, select, self.using),
        )

    def first(self, **values: Any) -> Any:
        """The first row as a model instance (with what it selects related), or None."""
        connection = connections[self.using]
        compiled = getattr(connection, self._attribute, None)
        if compiled is None:
            compiled = self._compile(connection)
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
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            row = cursor.fetchone()
        if row is None:
            return None
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
        if any(hasattr(value, "resolve_expression") for value in values.values()):
            # An expression (F(), Case …) is the ORM's to compile.
            return self.model._default_manager.filter(**where).update(**values)
        connection = connections[self.using]
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
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.rowcount
