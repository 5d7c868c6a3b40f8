"""Engines for the two supported stores: SQLite through aiosqlite, PostgreSQL through asyncpg."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.engine.url import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

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
