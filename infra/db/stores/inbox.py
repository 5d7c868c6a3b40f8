"""Telegram updates as they arrive, stored before Telegram gets its 200, then worked off in order.

`record` refuses a redelivered update_id atomically. Workers `claim` updates under a lease:
only the oldest unfinished update of a chat can be claimed, so one chat's updates run in order
while different chats run at once; a worker that dies lets its lease expire, and another
worker claims the update again.

An update is never allowed to hold its chat for good: one claimed more than MAX_ATTEMPTS times
(it crashed or hung every worker that took it), or whose stored payload cannot be read, is
marked `failed`, logged with its id, and the chat's next update becomes claimable. Payloads are
stored as plain JSON (not the exact-Decimal encoding of infra.db.values): an update is Telegram's
JSON, and a hostile `{"$decimal": "bad"}` in it must come back as the text it was.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, exists, select, update
from sqlalchemy.orm import aliased

from domain.clock import Clock, utc_now
from infra.db.engine import Database
from infra.db.tables import processed_updates as updates
from infra.db.upsert import insert_for

log = logging.getLogger(__name__)

QUEUED, PROCESSING, DONE, FAILED = "queued", "processing", "done", "failed"
CLAIM_ATTEMPTS = 5  # candidates tried per claim when other workers take them first
MAX_ATTEMPTS = 3  # claims of one update before it is marked failed and its chat moves on


@dataclass(frozen=True)
class InboxItem:
    update_id: int
    chat_id: int | None
    payload: dict[str, Any]
    attempts: int


class UpdateInbox:
    def __init__(self, database: Database, *, clock: Clock = utc_now) -> None:
        self._db = database
        self._clock = clock
        # Updates recorded through this inbox that no claim has looked for yet: a hint that
        # the next claim will find one (see `claim`).
        self._recorded = 0

    def _now(self) -> datetime:
        moment = self._clock()
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)

    async def record(self, update_id: int, chat_id: int | None, payload: dict[str, Any]) -> bool:
        """True if this update is new and now queued; False if it was already recorded."""
        async with self._db.transaction() as unit:
            connection = unit.connection
            result = await connection.execute(
                insert_for(connection.dialect.name, updates)
                .values(update_id=update_id, chat_id=chat_id, payload=json.dumps(payload), status=QUEUED,
                        received_at=self._now(), claimed_by=None, claimed_until=None, attempts=0)
                .on_conflict_do_nothing(index_elements=[updates.c.update_id]))
        fresh = bool(result.rowcount == 1)
        if fresh and self._db.current is None:  # committed
            self._recorded += 1
        return fresh

    async def claim(self, owner: str, lease: timedelta) -> InboxItem | None:
        """The oldest claimable update, now leased to `owner`; None when there is none."""
        for _ in range(CLAIM_ATTEMPTS):
            now = self._now()
            if self._recorded:
                # An update was just recorded through this inbox, so this claim will almost
                # surely find one: look and take in one write transaction, instead of a read
                # and then a write. The same conditions, so the same update is taken.
                self._recorded -= 1
                candidate: Any = _oldest_claimable(now).scalar_subquery()
            else:
                # Looked for in a read transaction: a poll that finds nothing (most of them) takes
                # no write lock, so it never makes a handler's write wait on SQLite (bench/run.py).
                async with self._db.reading() as connection:
                    candidate = (await connection.execute(_oldest_claimable(now))).scalar_one_or_none()
                if candidate is None:
                    return None
            # Another worker may have taken it, or an earlier update of its chat come in, since
            # the SELECT: the UPDATE checks both again, atomically, and returns the row it took.
            async with self._db.transaction() as unit:
                row = (await unit.connection.execute(
                    update(updates).where(updates.c.update_id == candidate, _claimable(updates, now),
                                          ~_blocked(updates))
                    .values(status=PROCESSING, claimed_by=owner, claimed_until=now + lease,
                            attempts=updates.c.attempts + 1)
                    .returning(updates.c.update_id, updates.c.chat_id, updates.c.payload,
                               updates.c.attempts))).one_or_none()
            if row is None:
                continue
            if row.attempts > MAX_ATTEMPTS:
                await self._fail(row.update_id, owner, f"claimed {row.attempts} times")
                continue
            try:
                payload = json.loads(row.payload)
            except (ValueError, RecursionError) as error:
                await self._fail(row.update_id, owner, f"payload unreadable: {error}")
                continue
            if not isinstance(payload, dict):
                await self._fail(row.update_id, owner, "payload is not an object")
                continue
            return InboxItem(row.update_id, row.chat_id, payload, row.attempts)
        return None

    async def fail(self, update_id: int, owner: str, reason: str) -> bool:
        """Gives up on `owner`'s update for good (logged with its id): its chat moves on."""
        return await self._fail(update_id, owner, reason)

    async def _fail(self, update_id: int, owner: str, reason: str) -> bool:
        log.error("update %s failed for good (%s); its chat moves on", update_id, reason)
        return await self._set(update_id, owner, status=FAILED, claimed_until=None)

    async def extend(self, update_id: int, owner: str, lease: timedelta) -> bool:
        """Renews `owner`'s lease; False if it had lapsed and another worker took the update."""
        return await self._set(update_id, owner, claimed_until=self._now() + lease)

    async def done(self, update_id: int, owner: str) -> bool:
        """Finishes the update, letting the chat's next one be claimed; False if not `owner`'s."""
        return await self._set(update_id, owner, status=DONE, claimed_until=None)

    async def _set(self, update_id: int, owner: str, **values: Any) -> bool:
        async with self._db.transaction() as unit:
            result = await unit.connection.execute(
                update(updates).where(and_(updates.c.update_id == update_id,
                                           updates.c.claimed_by == owner,
                                           updates.c.status == PROCESSING)).values(**values))
        return bool(result.rowcount == 1)


def _claimable(table: Any, now: datetime) -> ColumnElement[bool]:
    return (table.c.status == QUEUED) | ((table.c.status == PROCESSING) & (table.c.claimed_until < now))


def _blocked(table: Any) -> ColumnElement[bool]:
    """An earlier update of the same chat is unfinished."""
    earlier = aliased(updates)
    return exists().where(
        earlier.c.chat_id == table.c.chat_id,
        earlier.c.status.in_([QUEUED, PROCESSING]),
        earlier.c.update_id < table.c.update_id)


def _oldest_claimable(now: datetime) -> Select[tuple[int]]:
    candidate = aliased(updates)
    return (select(candidate.c.update_id)
            .where(candidate.c.status.in_([QUEUED, PROCESSING]), _claimable(candidate, now),
                   ~_blocked(candidate))
            .order_by(candidate.c.update_id).limit(1))
