"""Which statement lines each household imported (domain.statements.StatementImports over SQL)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from domain.clock import Clock, utc_now
from domain.statements import AlreadyImported
from infra.db.engine import Database
from infra.db.tables import statement_imports

CHUNK = 1000  # bound parameters per statement, well under SQLite's and asyncpg's limits


class SqlStatementImports:
    def __init__(self, database: Database, *, clock: Clock = utc_now) -> None:
        self._db = database
        self._clock = clock

    async def already_imported(self, household_id: str, fingerprints: Collection[str]) -> set[str]:
        keys = sorted(set(fingerprints))
        found: set[str] = set()
        async with self._db.reading() as connection:
            for start in range(0, len(keys), CHUNK):
                rows = await connection.execute(
                    select(statement_imports.c.fingerprint).where(
                        statement_imports.c.household_id == household_id,
                        statement_imports.c.fingerprint.in_(keys[start:start + CHUNK])))
                found.update(rows.scalars())
        return found

    async def record(self, household_id: str, operation_id: str, fingerprints: Sequence[str]) -> None:
        """Inside the confirmation's transaction: a line already there fails the whole import."""
        now = self._clock()
        now = now.replace(tzinfo=UTC) if now.tzinfo is None else now
        rows = [{"household_id": household_id, "fingerprint": key, "operation_id": operation_id,
                 "imported_at": now} for key in fingerprints]
        if not rows:
            return
        async with self._db.transaction() as unit:
            try:
                await unit.connection.execute(statement_imports.insert(), rows)
            except IntegrityError:
                # The transaction rolls back as the error leaves it: nothing of the import stays.
                raise AlreadyImported(len(rows)) from None

    async def release(self, household_id: str, operation_id: str) -> int:
        """Inside the undo's confirmation: the undone import's lines may be imported again."""
        async with self._db.transaction() as unit:
            result = await unit.connection.execute(delete(statement_imports).where(
                statement_imports.c.household_id == household_id,
                statement_imports.c.operation_id == operation_id))
        return max(0, result.rowcount or 0)
