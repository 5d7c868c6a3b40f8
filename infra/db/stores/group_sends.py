"""The bot's recent new messages to each group, shared by every worker process.

Telegram allows about 20 messages a minute in one group. PTB's AIORateLimiter counts in each
process's memory (and its leaky bucket lets 20 through at once and then one every 3 s, up to ~40
in a minute): with several webhook workers a busy group got more than 20 (32 in the reliability
soak, case 19). Here the count lives in the database, so every worker sees the same minute.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, func, select

from domain.clock import Clock, utc_now
from infra.db.engine import Database
from infra.db.tables import group_sends

GROUP_LIMIT = 20
# A second more than Telegram's minute: a message reserved at t can reach Telegram a little later
# than one reserved at t + 60 s reaches it, and both would then fall in one minute.
GROUP_WINDOW = timedelta(seconds=61)


class GroupSendWindow:
    def __init__(self, database: Database, *, limit: int = GROUP_LIMIT, window: timedelta = GROUP_WINDOW,
                 clock: Clock = utc_now) -> None:
        self._db = database
        self.limit = limit
        self.window = window
        self._clock = clock

    def _now(self) -> datetime:
        moment = self._clock()
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)

    async def reserve(self, chat_id: int) -> float:
        """0.0 if a message to `chat_id` may go now (and it is counted); otherwise the seconds to
        wait before asking again (and nothing is counted)."""
        async with self._db.transaction() as unit:
            connection = unit.connection
            if connection.dialect.name == "postgresql":
                # One reservation per group at a time (SQLite's BEGIN IMMEDIATE already serializes).
                await connection.execute(select(func.pg_advisory_xact_lock(chat_id)))
            now = self._now()  # read once the lock is held: the rows then go in time order
            await connection.execute(delete(group_sends).where(
                group_sends.c.chat_id == chat_id, group_sends.c.sent_at <= now - self.window))
            recent = (await connection.execute(
                select(group_sends.c.sent_at).where(group_sends.c.chat_id == chat_id)
                .order_by(group_sends.c.sent_at))).scalars().all()
            if len(recent) < self.limit:
                await connection.execute(group_sends.insert().values(chat_id=chat_id, sent_at=now))
                return 0.0
        frees_at = recent[-self.limit] + self.window
        return max(0.05, (frees_at - now).total_seconds())
