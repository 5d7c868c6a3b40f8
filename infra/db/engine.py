"""Connecting to the database: engines for SQLite (aiosqlite) and PostgreSQL (asyncpg), and the
unit of work that repositories and the operation log share.

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

from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.engine.url import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./household.db"
SQLITE_BUSY_TIMEOUT_SECONDS = 30.0
BEGIN_MODE = "household_sqlite_begin"  # execution option read by the SQLite "begin" hook


def database_url(url: str | None = None) -> str:
    """The async URL for `url`: hosting platforms hand out postgres:// and postgresql://."""
    if not url:
        return DEFAULT_DATABASE_URL
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix):]
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url[len("sqlite://"):]
    return url


def is_sqlite(engine: AsyncEngine) -> bool:
    return engine.dialect.name == "sqlite"


def create_engine(url: str | None = None, **options: Any) -> AsyncEngine:
    """An async engine for `url` (mapped by `database_url`); `options` go to SQLAlchemy."""
    resolved = database_url(url)
    if make_url(resolved).get_backend_name() != "sqlite":
        options.setdefault("pool_pre_ping", True)
        return create_async_engine(resolved, **options)
    connect_args = dict(options.pop("connect_args", {}))
    connect_args.setdefault("timeout", SQLITE_BUSY_TIMEOUT_SECONDS)
    engine = create_async_engine(resolved, connect_args=connect_args, **options)
    _take_over_sqlite_transactions(engine)
    return engine


def _take_over_sqlite_transactions(engine: AsyncEngine) -> None:
    """SQLAlchemy's recipe for real SQLite transactions, with BEGIN IMMEDIATE for writers.

    The sqlite3 driver would start transactions lazily, at the first write: two writers that
    both read first then deadlock on the upgrade to a write lock, and one fails at once with
    "database is locked". A writer that takes the write lock at BEGIN waits (busy timeout)
    instead, so concurrent writers serialize. WAL lets readers go on while one writes.
    """

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the driver must not BEGIN behind our back
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        mode = connection.get_execution_options().get(BEGIN_MODE, "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")


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

    def __init__(self, target: str | AsyncEngine | None = None, **engine_options: Any) -> None:
        """On an engine, or on a database URL (None: the SQLite default; see `database_url`).

        Opens no connection yet; `engine_options` go to SQLAlchemy's create_async_engine.
        """
        self.engine = (target if isinstance(target, AsyncEngine)
                       else create_engine(target, **engine_options))
        name = next(_names)
        self._current: ContextVar[UnitOfWork | None] = ContextVar(
            f"household_unit_of_work_{name}", default=None)
        # The state each aggregate had when loaded or last saved, by object identity, so a
        # save writes only what changed. Weak: a forgotten aggregate takes its snapshot along.
        self.snapshots: WeakKeyDictionary[Any, Any] = WeakKeyDictionary()

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
        """A connection to read from: the current write transaction's, or a read-only snapshot
        of its own."""
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
