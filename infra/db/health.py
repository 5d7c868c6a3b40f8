"""What `household-bot doctor` asks the database: does it answer, which migration is it at, and
how big have the inbox and the operation log grown (they grow without bound if the purge stops)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from alembic.runtime.migration import MigrationContext
from sqlalchemy import func, select, text

from infra.db.engine import Database
from infra.db.tables import operations, processed_updates

UNFINISHED = ("queued", "processing")


@dataclass(frozen=True)
class OldestUnfinished:
    update_id: int
    chat_id: int | None
    received_at: datetime


@dataclass(frozen=True)
class StoreSizes:
    """The inbox (updates by status, the oldest not yet done) and the operation log."""

    updates: int
    unfinished: int
    failed: int
    oldest_unfinished: OldestUnfinished | None
    operations: int
    pending: int


async def ping(database: Database) -> None:
    """Raises unless the database answers a query."""
    async with database.engine.connect() as connection:
        await connection.execute(text("SELECT 1"))


async def revision(database: Database) -> str | None:
    """The migration the database is at (None: never migrated)."""
    async with database.engine.connect() as connection:
        return await connection.run_sync(lambda sync: MigrationContext.configure(sync).get_current_revision())


async def store_sizes(database: Database) -> StoreSizes:
    async with database.reading() as connection:
        by_status: dict[str, int] = {status: count for status, count in await connection.execute(
            select(processed_updates.c.status, func.count()).group_by(processed_updates.c.status))}
        oldest = (await connection.execute(
            select(processed_updates.c.update_id, processed_updates.c.chat_id, processed_updates.c.received_at)
            .where(processed_updates.c.status.in_(UNFINISHED))
            .order_by(processed_updates.c.received_at, processed_updates.c.update_id).limit(1))).first()
        by_decision: dict[str, int] = {status: count for status, count in await connection.execute(
            select(operations.c.status, func.count()).group_by(operations.c.status))}
    return StoreSizes(
        updates=sum(by_status.values()),
        unfinished=sum(by_status.get(status, 0) for status in UNFINISHED),
        failed=by_status.get("failed", 0),
        oldest_unfinished=OldestUnfinished(*oldest) if oldest is not None else None,
        operations=sum(by_decision.values()),
        pending=by_decision.get("pending", 0),
    )
