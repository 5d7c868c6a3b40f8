"""One database, and the unit of work that repositories and the operation log share.

A confirmation must load, save and record its receipt in ONE transaction. Rather than hand a
session through the domain's ports (which know nothing of SQL), the open transaction sits in a
context variable: a repository called inside `Database.transaction()` joins it, and one called
outside opens its own short transaction.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from infra.db.engine import BEGIN_MODE, create_engine, is_sqlite

_names = itertools.count()


@dataclass
class UnitOfWork:
    """The open write transaction: its connection, and what to undo in memory on rollback."""

    connection: AsyncConnection
    _undo: list[Callable[[], None]] = field(default_factory=list)

    def on_rollback(self, undo: Callable[[], None]) -> None:
        """Runs `undo` if the transaction rolls back (e.g. a saved aggregate's version bump)."""
        self._undo.append(undo)

    def rolled_back(self) -> None:
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()


class Database:
    """An engine, the current unit of work, and what each loaded aggregate looked like."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._current: ContextVar[UnitOfWork | None] = ContextVar(
            f"household_unit_of_work_{next(_names)}", default=None)
        # The state each aggregate had when loaded or last saved, by object identity, so a
        # save writes only what changed. Weak: a forgotten aggregate takes its snapshot along.
        self.snapshots: WeakKeyDictionary[Any, Any] = WeakKeyDictionary()

    @classmethod
    def connect(cls, url: str | None = None, **engine_options: Any) -> Database:
        """A Database for `url` (see `infra.db.engine.database_url`); opens no connection yet."""
        return cls(create_engine(url, **engine_options))

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @property
    def current(self) -> UnitOfWork | None:
        """The write transaction this task is inside, if any."""
        return self._current.get()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[UnitOfWork]:
        """A write transaction, or the one this task is already inside (joined, not nested).

        Commits on a clean exit; on an exception rolls back and undoes in-memory effects.
        """
        joined = self._current.get()
        if joined is not None:
            yield joined
            return
        async with self.engine.connect() as connection:
            if is_sqlite(self.engine):
                await connection.execution_options(**{BEGIN_MODE: "IMMEDIATE"})
            unit = UnitOfWork(connection)
            token = self._current.set(unit)
            try:
                async with connection.begin():
                    yield unit
            except BaseException:
                unit.rolled_back()
                raise
            finally:
                self._current.reset(token)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncConnection]:
        """A connection to read from: the current write transaction's, or a read-only snapshot."""
        joined = self._current.get()
        if joined is not None:
            yield joined.connection
            return
        async with self.engine.connect() as connection:
            if self.dialect == "postgresql":
                # One snapshot for the several SELECTs that rebuild an aggregate.
                await connection.execution_options(isolation_level="REPEATABLE READ")
            async with connection.begin():
                yield connection

    async def dispose(self) -> None:
        """Closes every pooled connection (at shutdown, or after the server dropped them)."""
        await self.engine.dispose()
