"""What every aggregate repository shares: the version check, and remembering what was loaded."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from sqlalchemy import Table, update
from sqlalchemy.ext.asyncio import AsyncConnection

from domain.errors import ConcurrentModification
from infra.db.engine import Database, UnitOfWork
from infra.db.upsert import insert_for

T = TypeVar("T")


class Versioned(Protocol):
    id: str
    version: int


async def insert_root(connection: AsyncConnection, table: Table, values: dict[str, Any],
                      kind: str) -> None:
    """Inserts a never-saved aggregate's row at version 1; someone else's row there is a conflict."""
    statement = insert_for(connection.dialect.name, table).values(**values, version=1)
    result = await connection.execute(statement.on_conflict_do_nothing(index_elements=[table.c.id]))
    if result.rowcount != 1:
        raise ConcurrentModification(kind, str(values["id"]))


async def bump_version(connection: AsyncConnection, table: Table, aggregate: Versioned,
                       values: dict[str, Any], kind: str) -> None:
    """Writes the root row only if nobody saved since `aggregate` was loaded.

    The root row is updated on every save, even when only child rows changed: that row is what
    two concurrent savers collide on (and, on PostgreSQL, queue on).
    """
    result = await connection.execute(
        update(table)
        .where(table.c.id == aggregate.id, table.c.version == aggregate.version)
        .values(**values, version=table.c.version + 1)
    )
    if result.rowcount != 1:
        raise ConcurrentModification(kind, aggregate.id)


def remember_saved(database: Database, unit: UnitOfWork, aggregate: Versioned, state: object) -> None:
    """After a save: the aggregate is one version newer, and `state` is what the store now holds.

    Both are undone if the transaction rolls back, so a retried save diffs against the truth.
    """
    old_version = aggregate.version
    old_state = database.snapshots.get(aggregate)
    aggregate.version += 1
    database.snapshots[aggregate] = state

    def undo() -> None:
        aggregate.version = old_version
        if old_state is None:
            database.snapshots.pop(aggregate, None)
        else:
            database.snapshots[aggregate] = old_state

    unit.on_rollback(undo)


def appended_since(before: Sequence[T], after: Sequence[T]) -> int | None:
    """len(before) if `after` only appended to `before`, else None (rewrite everything).

    The comparison is C-level and short-circuits on identity, so it stays cheap on a long history.
    """
    count = len(before)
    if len(after) >= count and list(after[:count]) == list(before):
        return count
    return None
