"""The operation log: where previews wait for a member's confirmation.

A write tool proposes an operation (stored pending, with its arguments and preview), and
confirms it later inside `log.confirming(...)`, the confirmation's unit of work. The log decides,
atomically, which single confirmation writes: the winner applies the aggregate's change, its
ledger entries and the receipt in that one unit; every other confirmation gets the earlier
receipt. A SQL log makes the unit one database transaction that the repositories join.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import secrets
from collections.abc import AsyncIterator, Collection, Mapping
from contextlib import asynccontextmanager, nullcontext
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from decimal import Decimal
from enum import StrEnum
from typing import Any, Protocol

from domain.clock import Clock, utc_now
from domain.errors import AlreadyUndone, OperationClosed, OperationConflict, PreviewNotShown, UnknownOperation
from domain.ledger import Stamp, stamped
from domain.operations.receipts import ToolReceipt
from domain.text import fold

DEFAULT_TTL = timedelta(hours=48)
KEY_BYTES = 12  # 16 url-safe characters: unguessable, and short enough for callback data
UNDO_TOOL = "undoOperation"  # an undo is an operation too, and is never undone itself


class OperationStatus(StrEnum):
    PENDING = "pending"
    CONFIRMED = "confirmed"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


@dataclass(frozen=True)
class Operation:
    operation_id: str
    tool: str
    arguments: dict[str, Any]
    fingerprint: str
    preview: dict[str, Any]
    status: OperationStatus
    created_at: datetime
    key: str = ""
    receipt: ToolReceipt | None = None
    decided_by: str | None = None
    decided_at: datetime | None = None
    message_id: int | None = None
    undone_by: str | None = None  # the operation that undid this one

    def expired(self, now: datetime, ttl: timedelta) -> bool:
        return self.status is OperationStatus.PENDING and now - self.created_at > ttl


def fingerprint(arguments: Mapping[str, Any]) -> str:
    """Arguments that mean the same thing hash alike: names folded, amounts normalized."""

    def canonical(value: Any) -> Any:
        if isinstance(value, Mapping):
            return {str(k): canonical(v) for k, v in sorted(value.items())}
        if isinstance(value, list | tuple):
            return [canonical(v) for v in value]
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, Decimal | int):
            return f"{Decimal(value).normalize():f}"
        if isinstance(value, date | datetime):
            return value.isoformat()
        return fold(str(value))

    text = json.dumps(canonical(arguments), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


# What a key looks like: anything else (a forged button, a NUL byte PostgreSQL refuses in text)
# is refused before it reaches a query.
_KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,32}")


def is_key(text: str) -> bool:
    """Whether `text` could be a key `new_key` made."""
    return bool(_KEY_SHAPE.fullmatch(text))


class Confirmation:
    """Handed to the confirming tool: `earlier` is set when another confirmation already won."""

    def __init__(self, earlier: ToolReceipt | None) -> None:
        self.earlier = earlier
        self.receipt: ToolReceipt | None = None

    def record(self, receipt: ToolReceipt) -> None:
        self.receipt = receipt


class OperationLog(Protocol):
    async def get(self, operation_id: str) -> Operation | None:
        ...

    async def get_by_key(self, key: str) -> Operation | None:
        """The operation a button's key names, in this log's scope only."""
        ...

    async def get_by_message(self, message_id: int) -> Operation | None:
        """The operation whose preview is the chat message `message_id`, in this log's scope only."""
        ...

    async def propose(self, operation: Operation) -> Operation:
        """Stores a pending operation, replacing a pending one with the same id; a fresh key each time.

        Raises OperationConflict if the id is already confirmed, OperationClosed if it was
        cancelled or has expired.
        """
        ...

    def confirming(self, operation_id: str, fingerprint: str, *, stamp: Stamp | None = None) -> Any:
        """The confirmation's unit of work: an async context manager yielding a Confirmation.

        On entry, the pending operation becomes confirmed if, and only if, it is still pending
        (exactly one caller wins); a loser gets `earlier`. The winner applies its change inside
        the block: every repository load and save there joins this unit, and each change saved
        becomes a ledger entry under `stamp` (the operation, its tool, who confirmed it). The
        winner calls `record(receipt)`; on a clean exit the change, its entries and the receipt
        commit together, and on an exception none of it is written and the operation is pending
        again.
        """
        ...

    async def cancel(self, operation_id: str, *, cancelled_by: str | None = None) -> Operation:
        """Closes a pending operation for good and returns it.

        A decided one (confirmed, cancelled, expired) comes back unchanged, so the caller can
        tell a late Cancelar from a real one by its status; UnknownOperation if absent.
        """
        ...

    async def attach_message(self, operation_id: str, message_id: int) -> None:
        """Remembers the chat message that shows the operation's preview."""
        ...

    async def mark_undone(self, operation_id: str, *, by: str) -> None:
        """Records that `by` undid the confirmed operation, exactly once: raises AlreadyUndone if
        another undo got there first. Inside a confirmation, it commits or rolls back with it."""
        ...

    async def last_undoable(self, *, besides: Collection[str] = ()) -> Operation | None:
        """The latest confirmed operation not undone, an undo (and the tools named in `besides`,
        which change no totals: joining the household, say) excluded."""
        ...

    async def pending(self) -> list[Operation]:
        """The operations still waiting for a confirmation (not expired), oldest first."""
        ...


class InMemoryOperationLog:
    """The default log: one process, one lock. Good for tests, the eval and a single console.

    `posted_only=True` (the bot's logs) makes an operation confirmable only once its preview's
    message is attached: see `receipt_of_decided`."""

    def __init__(self, *, clock: Clock = utc_now, ttl: timedelta = DEFAULT_TTL,
                 posted_only: bool = False) -> None:
        self._clock = clock
        self._ttl = ttl
        self.posted_only = posted_only
        self._operations: dict[str, Operation] = {}
        self._lock = asyncio.Lock()
        self._confirmed: list[str] = []  # ids in the order they were confirmed

    async def get(self, operation_id: str) -> Operation | None:
        return self._operations.get(operation_id)

    async def get_by_key(self, key: str) -> Operation | None:
        return next((op for op in self._operations.values() if op.key == key), None)

    async def get_by_message(self, message_id: int) -> Operation | None:
        return next((op for op in self._operations.values() if op.message_id == message_id), None)

    async def propose(self, operation: Operation) -> Operation:
        async with self._lock:
            existing = self._operations.get(operation.operation_id)
            if existing is not None:
                check_can_propose(existing, operation.fingerprint)
            stored = replace(operation, status=OperationStatus.PENDING, key=new_key(),
                             created_at=self._clock())
            self._operations[operation.operation_id] = stored
            return stored

    @asynccontextmanager
    async def confirming(self, operation_id: str, fingerprint: str, *,
                         stamp: Stamp | None = None) -> AsyncIterator[Confirmation]:
        async with self._lock:
            operation = self._operations.get(operation_id)
            if operation is None:
                raise UnknownOperation(operation_id)
            now = self._clock()
            if operation.expired(now, self._ttl):
                self._operations[operation_id] = replace(
                    operation, status=OperationStatus.EXPIRED, decided_at=now)
                raise OperationClosed(operation_id, OperationStatus.EXPIRED)
            earlier = receipt_of_decided(operation, fingerprint, posted_only=self.posted_only)
            confirmation = Confirmation(earlier)
            # In memory there is no transaction to roll back: the in-memory repositories save
            # only what the block hands them, and the ledger takes the stamp from here.
            with stamped(stamp) if stamp is not None else nullcontext():
                yield confirmation
            if earlier is None:
                if confirmation.receipt is None:
                    raise RuntimeError("a winning confirmation must record its receipt")
                self._operations[operation_id] = replace(
                    operation, status=OperationStatus.CONFIRMED, receipt=confirmation.receipt,
                    decided_by=stamp.confirmed_by if stamp is not None else None, decided_at=now)
                self._confirmed.append(operation_id)

    async def cancel(self, operation_id: str, *, cancelled_by: str | None = None) -> Operation:
        async with self._lock:
            operation = self._operations.get(operation_id)
            if operation is None:
                raise UnknownOperation(operation_id)
            if operation.status is OperationStatus.PENDING:
                operation = replace(operation, status=OperationStatus.CANCELLED,
                                    decided_by=cancelled_by, decided_at=self._clock())
                self._operations[operation_id] = operation
            return operation

    async def attach_message(self, operation_id: str, message_id: int) -> None:
        async with self._lock:
            operation = self._operations.get(operation_id)
            if operation is not None:
                self._operations[operation_id] = replace(operation, message_id=message_id)

    async def mark_undone(self, operation_id: str, *, by: str) -> None:
        # No lock: it runs inside `confirming`, which holds it, and nothing awaits in between.
        operation = self._operations.get(operation_id)
        if operation is None or operation.status is not OperationStatus.CONFIRMED:
            raise UnknownOperation(operation_id)
        if operation.undone_by is not None:
            raise AlreadyUndone(operation_id)
        self._operations[operation_id] = replace(operation, undone_by=by)

    async def last_undoable(self, *, besides: Collection[str] = ()) -> Operation | None:
        for operation_id in reversed(self._confirmed):
            operation = self._operations[operation_id]
            if operation.undone_by is None and operation.tool != UNDO_TOOL and operation.tool not in besides:
                return operation
        return None

    async def pending(self) -> list[Operation]:
        now = self._clock()
        return sorted((op for op in self._operations.values()
                       if op.status is OperationStatus.PENDING and not op.expired(now, self._ttl)),
                      key=lambda op: op.created_at)


def check_can_propose(existing: Operation, new_fingerprint: str) -> None:
    """A pending operation may be replaced by a new preview; a decided one never."""
    if existing.status is OperationStatus.CONFIRMED:
        raise OperationConflict(existing.operation_id)
    if existing.status in (OperationStatus.CANCELLED, OperationStatus.EXPIRED):
        raise OperationClosed(existing.operation_id, existing.status)


def receipt_of_decided(operation: Operation, fingerprint: str, *,
                       posted_only: bool = False) -> ToolReceipt | None:
    """None when `operation` is pending with these arguments and may be confirmed now;
    the earlier receipt when it is already confirmed with them; an error otherwise.

    With `posted_only` (the bot), a pending operation whose preview message was never stored is
    PreviewNotShown: a preview nobody saw is never written, whether a button, a reply or the
    model asks. This is the one check every confirmation path goes through."""
    if operation.status is OperationStatus.CONFIRMED:
        if operation.fingerprint != fingerprint:
            raise OperationConflict(operation.operation_id)
        assert operation.receipt is not None
        return operation.receipt.repeated()
    if operation.status is not OperationStatus.PENDING:
        raise OperationClosed(operation.operation_id, operation.status)
    if operation.fingerprint != fingerprint:
        raise OperationConflict(operation.operation_id)
    if posted_only and operation.message_id is None:
        raise PreviewNotShown(operation.operation_id)
    return None
