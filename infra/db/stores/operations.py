"""The durable operation log: pending previews, and exactly one write per confirmation.

Operations live per scope (the chat): the model's ids ("op-1") repeat across chats, and a
button's key is only looked up inside the chat it was pressed in.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager, nullcontext
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, select, true, update
from sqlalchemy.ext.asyncio import AsyncConnection

from domain.clock import Clock, utc_now
from domain.errors import AlreadyUndone, OperationClosed, UnknownOperation
from domain.ledger import Stamp, stamped
from domain.operations.log import (
    DEFAULT_TTL,
    UNDO_TOOL,
    Confirmation,
    Operation,
    OperationStatus,
    check_can_propose,
    new_key,
    receipt_of_decided,
)
from domain.operations.receipts import ToolReceipt
from infra.db.engine import Database
from infra.db.tables import ledger_entries, operations
from infra.db.upsert import insert_for
from infra.db.values import dumps, loads

PENDING = OperationStatus.PENDING.value


class SqlOperationLog:
    """The OperationLog port over SQL, for one scope (a chat).

    `confirming` runs in one transaction that the repositories join: the conditional UPDATE
    that moves the operation from pending to confirmed, the aggregate's save and the receipt
    commit together or not at all.
    """

    def __init__(self, database: Database, scope: str, *, household_id: str | None = None,
                 clock: Clock = utc_now, ttl: timedelta = DEFAULT_TTL, posted_only: bool = False) -> None:
        """`posted_only=True` (the bot's logs): only an operation whose preview message is
        attached can be confirmed (domain.operations.log.receipt_of_decided)."""
        self._db = database
        self.scope = scope
        self.household_id = household_id
        self._clock = clock
        self._ttl = ttl
        self.posted_only = posted_only

    def _now(self) -> datetime:
        moment = self._clock()
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)

    def _this(self, operation_id: str) -> ColumnElement[bool]:
        return (operations.c.scope == self.scope) & (operations.c.operation_id == operation_id)

    async def get(self, operation_id: str) -> Operation | None:
        async with self._db.reading() as connection:
            return await self._read(connection, operation_id)

    async def get_by_key(self, key: str) -> Operation | None:
        """The operation a button's key names, in this scope only."""
        async with self._db.reading() as connection:
            row = (await connection.execute(select(operations).where(
                operations.c.scope == self.scope, operations.c.key == key))).one_or_none()
        return _operation(row) if row is not None else None

    async def get_by_message(self, message_id: int) -> Operation | None:
        """The operation whose preview is the chat message `message_id`, in this scope only
        (message ids are per chat, like scopes)."""
        async with self._db.reading() as connection:
            row = (await connection.execute(select(operations).where(
                operations.c.scope == self.scope, operations.c.message_id == message_id)
                .order_by(operations.c.created_at.desc()).limit(1))).one_or_none()
        return _operation(row) if row is not None else None

    async def propose(self, operation: Operation) -> Operation:
        """Stores a pending operation, replacing a pending one with the same id; a fresh key each time."""
        values = {
            "household_id": self.household_id, "tool": operation.tool,
            "arguments": dumps(operation.arguments), "fingerprint": operation.fingerprint,
            "preview": dumps(operation.preview), "status": PENDING, "receipt": None,
            "created_at": self._now(), "decided_at": None, "decided_by": None,
            "message_id": operation.message_id, "key": new_key(),
        }
        async with self._db.transaction() as unit:
            connection = unit.connection
            # The row as stored comes back from the write itself (RETURNING), not a second read.
            row = (await connection.execute(
                insert_for(connection.dialect.name, operations)
                .values(scope=self.scope, operation_id=operation.operation_id, **values)
                .on_conflict_do_nothing(index_elements=[operations.c.scope, operations.c.operation_id])
                .returning(*operations.c))).one_or_none()
            if row is None:
                # Only a pending one may be replaced; a decided one stays as it was decided.
                row = (await connection.execute(
                    update(operations).where(self._this(operation.operation_id),
                                             operations.c.status == PENDING).values(**values)
                    .returning(*operations.c))).one_or_none()
                if row is None:
                    existing = await self._read(connection, operation.operation_id)
                    assert existing is not None
                    check_can_propose(existing, operation.fingerprint)
                    raise AssertionError(f"operation {operation.operation_id} is neither pending nor decided")
        return _operation(row)

    @asynccontextmanager
    async def confirming(self, operation_id: str, fingerprint: str, *,
                         stamp: Stamp | None = None) -> AsyncIterator[Confirmation]:
        """Exactly one caller wins the pending -> confirmed UPDATE; the rest get the earlier receipt.

        On PostgreSQL a second UPDATE of the same row waits for the first transaction and then
        sees it confirmed; on SQLite the whole transaction waits at BEGIN IMMEDIATE.
        """
        now = self._now()
        confirmed_by = stamp.confirmed_by if stamp is not None else None
        async with self._db.transaction() as unit:
            connection = unit.connection
            # A row without its message is never claimed here when posted_only: the read below
            # then refuses it with PreviewNotShown.
            shown = operations.c.message_id.is_not(None) if self.posted_only else true()
            claimed = await connection.execute(
                update(operations)
                .where(self._this(operation_id), operations.c.status == PENDING,
                       operations.c.fingerprint == fingerprint,
                       operations.c.created_at >= now - self._ttl, shown)
                .values(status=OperationStatus.CONFIRMED.value, decided_by=confirmed_by,
                        decided_at=now))
            if claimed.rowcount == 1:
                confirmation = Confirmation(None)
                # The repositories join this transaction (Database.current) and write each change
                # they save as ledger rows under the stamp (infra.db.stores.ledger.entry_row).
                with stamped(stamp) if stamp is not None else nullcontext():
                    yield confirmation
                if confirmation.receipt is None:
                    raise RuntimeError("a winning confirmation must record its receipt")
                await connection.execute(update(operations).where(self._this(operation_id))
                                         .values(receipt=dumps(_receipt_json(confirmation.receipt))))
                return
            operation = await self._read(connection, operation_id)
        if operation is None:
            raise UnknownOperation(operation_id)
        if operation.expired(now, self._ttl):
            await self._expire(operation_id, now)
            raise OperationClosed(operation_id, OperationStatus.EXPIRED)
        earlier = receipt_of_decided(operation, fingerprint, posted_only=self.posted_only)
        if earlier is None:  # pending with these arguments, yet not claimed: cannot happen
            raise RuntimeError(f"operation {operation_id} could not be claimed")
        yield Confirmation(earlier)

    async def _expire(self, operation_id: str, now: datetime) -> None:
        async with self._db.transaction() as unit:
            await unit.connection.execute(
                update(operations).where(self._this(operation_id), operations.c.status == PENDING)
                .values(status=OperationStatus.EXPIRED.value, decided_at=now))

    async def cancel(self, operation_id: str, *, cancelled_by: str | None = None) -> Operation:
        """Closes a pending operation for good; a decided one is returned as it is."""
        async with self._db.transaction() as unit:
            connection = unit.connection
            await connection.execute(
                update(operations).where(self._this(operation_id), operations.c.status == PENDING)
                .values(status=OperationStatus.CANCELLED.value, decided_by=cancelled_by,
                        decided_at=self._now()))
            operation = await self._read(connection, operation_id)
        if operation is None:
            raise UnknownOperation(operation_id)
        return operation

    async def attach_message(self, operation_id: str, message_id: int) -> None:
        async with self._db.transaction() as unit:
            await unit.connection.execute(
                update(operations).where(self._this(operation_id)).values(message_id=message_id))

    async def pending(self) -> list[Operation]:
        """The scope's operations still waiting for a confirmation, oldest first."""
        async with self._db.reading() as connection:
            rows = (await connection.execute(select(operations).where(
                operations.c.scope == self.scope, operations.c.status == PENDING,
                operations.c.created_at >= self._now() - self._ttl)
                .order_by(operations.c.created_at))).all()
        return [_operation(row) for row in rows]

    async def mark_undone(self, operation_id: str, *, by: str) -> None:
        """The same rule as a confirmation: one conditional UPDATE, and its row count decides."""
        async with self._db.transaction() as unit:
            claimed = await unit.connection.execute(
                update(operations)
                .where(self._this(operation_id), operations.c.status == OperationStatus.CONFIRMED.value,
                       operations.c.undone_by.is_(None))
                .values(undone_by=by))
            if claimed.rowcount != 1:
                if await self._read(unit.connection, operation_id) is None:
                    raise UnknownOperation(operation_id)
                raise AlreadyUndone(operation_id)

    async def last_undoable(self, *, besides: Collection[str] = ()) -> Operation | None:
        """The operation whose ledger entry is the chat's newest: entry ids are the order in which
        confirmations committed (two confirmed in the same instant are still ordered)."""
        async with self._db.reading() as connection:
            row = (await connection.execute(
                select(operations)
                .join(ledger_entries, (ledger_entries.c.scope == operations.c.scope)
                      & (ledger_entries.c.operation_id == operations.c.operation_id))
                .where(operations.c.scope == self.scope,
                       operations.c.status == OperationStatus.CONFIRMED.value,
                       operations.c.undone_by.is_(None), operations.c.tool != UNDO_TOOL,
                       operations.c.tool.not_in(list(besides)) if besides else true())
                .order_by(ledger_entries.c.id.desc()).limit(1))).one_or_none()
        return _operation(row) if row is not None else None

    async def _read(self, connection: AsyncConnection, operation_id: str) -> Operation | None:
        row = (await connection.execute(
            select(operations).where(self._this(operation_id)))).one_or_none()
        return _operation(row) if row is not None else None


def _receipt_json(receipt: ToolReceipt) -> dict[str, Any]:
    return {"operation_id": receipt.operation_id, "preview": receipt.preview,
            "confirmed": receipt.confirmed, "persisted": receipt.persisted}


def _operation(row: Any) -> Operation:
    receipt = None
    if row.receipt is not None:
        stored = loads(row.receipt)
        receipt = ToolReceipt(stored["operation_id"], stored["preview"], confirmed=stored["confirmed"],
                              persisted=stored["persisted"])
    return Operation(
        operation_id=row.operation_id, tool=row.tool, arguments=loads(row.arguments),
        fingerprint=row.fingerprint, preview=loads(row.preview), status=OperationStatus(row.status),
        created_at=row.created_at, key=row.key, receipt=receipt, decided_by=row.decided_by,
        decided_at=row.decided_at, message_id=row.message_id, undone_by=row.undone_by)
