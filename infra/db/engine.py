"""Connecting to the database: engines for SQLite (aiosqlite) and PostgreSQL (asyncpg), and the
unit of work that repositories and the operation log share.

A confirmation must load, save and record its receipt in ONE transaction. Rather than hand a
session through the domain's ports (which know nothing of SQL), the open transaction sits in a
context variable: a repository called inside `Database.transaction()` joins it, and one called
outside opens its own short transaction. Reads work alike inside `Database.reading_together()`:
they share one read transaction, until the first write.
"""

from __future__ import annotations

import asyncio
import contextlib
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


class SharedRead:
    """The read transaction that the reads of one task share inside `Database.reading_together()`.

    Opened at the first read, ended at the end of the block, at the first write transaction
    (so a read after a write sees it, in a transaction of its own as outside the block), or
    when a read inside it fails (so a failed statement never poisons the reads after it).
    """

    def __init__(self, database: Database) -> None:
        self._database = database
        self._task = asyncio.current_task()
        self._connection: AsyncConnection | None = None
        self._over = False

    def serves(self) -> bool:
        """Whether a read here joins this transaction: only in the task that opened the block
        (a task started inside it has a copy of the context, never the right to this
        connection), and only until the transaction ended."""
        return not self._over and asyncio.current_task() is self._task

    async def connection(self) -> AsyncConnection:
        if self._connection is None:
            connection = await self._database.engine.connect()
            try:
                await _begin_read(self._database, connection)
            except BaseException:
                await connection.close()
                raise
            self._connection = connection
        return self._connection

    async def end(self, *, failed: bool = False) -> None:
        """Ends the shared transaction (if any was opened); later reads are on their own."""
        self._over = True
        connection, self._connection = self._connection, None
        if connection is None:
            return
        try:
            if failed:
                await connection.rollback()
            else:
                await connection.commit()
        finally:
            await connection.close()


async def _begin_read(database: Database, connection: AsyncConnection) -> None:
    if database.dialect == "postgresql":
        await connection.execution_options(isolation_level="REPEATABLE READ")  # as `reading()`
    await connection.begin()


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
        self._shared: ContextVar[SharedRead | None] = ContextVar(
            f"household_shared_read_{name}", default=None)
        # The state each aggregate had when loaded or last saved, by object identity, so a
        # save writes only what changed. Weak: a forgotten aggregate takes its snapshot along.
        self.snapshots: WeakKeyDictionary[Any, Any] = WeakKeyDictionary()
        self._writers: WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = WeakKeyDictionary()

    def _writer_lock(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """SQLite: this process's writers take turns here, in order, before BEGIN IMMEDIATE.

        SQLite admits one writer at a time; the others wait in its busy handler, which sleeps
        1, 2, 5, 10, 15, 20, 25... ms between tries. With 100 webhook requests at once each
        inbox write then took ~110 ms instead of ~1 ms (bench/run.py, issue 9). Writers of other
        processes still meet in the busy handler. One lock per event loop; none on PostgreSQL.
        """
        if not is_sqlite(self.engine):
            return contextlib.nullcontext()
        loop = asyncio.get_running_loop()
        lock = self._writers.get(loop)
        if lock is None:
            lock = self._writers[loop] = asyncio.Lock()
        return lock

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
        shared = self._shared.get()
        if shared is not None and shared.serves():
            await shared.end()  # reads from here on must see this write
        async with self._writer_lock(), self.engine.connect() as connection:
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
        """A connection to read from: the current write transaction's, the shared read
        transaction of `reading_together()`, or a read-only snapshot of its own."""
        joined = self._current.get()
        if joined is not None:
            yield joined.connection
            return
        shared = self._shared.get()
        if shared is not None and shared.serves():
            connection = await shared.connection()
            try:
                yield connection
            except BaseException:
                await shared.end(failed=True)
                raise
            return
        async with self.engine.connect() as connection:
            if self.dialect == "postgresql":
                # One snapshot for the several SELECTs that rebuild an aggregate.
                await connection.execution_options(isolation_level="REPEATABLE READ")
            async with connection.begin():
                yield connection

    @asynccontextmanager
    async def reading_together(self) -> AsyncIterator[None]:
        """The reads of this task inside the block share one read transaction: one connection,
        one BEGIN and one COMMIT instead of one each, and one snapshot for all of them.

        It ends at the first write transaction: a read after a write opens its own, as outside
        the block, and sees the write (a block opened after the write shares reads again).
        Inside a write transaction nothing changes; nested inside a block whose transaction is
        still open, the reads join it. Keep waits for anything but the database (a model,
        Telegram) out of the block: a read after them would see the data as before them.
        """
        outer = self._shared.get()
        if self._current.get() is not None or (outer is not None and outer.serves()):
            yield
            return
        shared = SharedRead(self)
        token = self._shared.set(shared)
        try:
            yield
        finally:
            self._shared.reset(token)
            await shared.end()

    async def dispose(self) -> None:
        """Closes every pooled connection (at shutdown, or after the server dropped them)."""
        await self.engine.dispose()
