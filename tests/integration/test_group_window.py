"""The per-group window of new messages (infra/db/group_sends.py) and the limiter in front of PTB
(bot/rate_limit.py): room for a turn's messages reserved in one go, and only used as meant."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.rate_limit import SharedGroupLimiter
from infra.db import Database
from infra.db.group_sends import RESERVED_AHEAD_FOR, GroupSendWindow
from infra.db.tables import group_sends

GROUP = -1001
OTHER_GROUP = -1002


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class CountingWindow(GroupSendWindow):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.writes = 0

    async def _reserve(self, chat_id: int, count: int) -> tuple[int, float]:
        self.writes += 1
        return await super()._reserve(chat_id, count)


async def counted(database: Database, chat_id: int) -> int:
    async with database.reading() as connection:
        return int((await connection.execute(
            select(func.count()).select_from(group_sends).where(group_sends.c.chat_id == chat_id))).scalar_one())


async def test_room_for_several_messages_is_counted_in_one_go_up_to_the_limit(database: Database) -> None:
    clock = Clock()
    window = GroupSendWindow(database, limit=5, clock=clock)

    assert await window.reserve_many(GROUP, 2) == 2
    assert await window.reserve_many(GROUP, 4) == 3  # only 3 left in the minute
    assert await window.reserve_many(GROUP, 2) == 0
    assert await window.reserve(GROUP) > 0
    assert await counted(database, GROUP) == 5

    clock.now += window.window
    assert await window.reserve(GROUP) == 0.0  # the minute moved on


async def post(limiter: SharedGroupLimiter, chat_id: int, endpoint: str = "sendMessage") -> None:
    async def callback(*_: Any, **__: Any) -> bool:
        return True

    await limiter.process_request(callback, (), {}, endpoint, {"chat_id": chat_id}, None)


class Monotonic:
    """A time.monotonic that only moves when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def limiter(database: Database) -> Any:
    # A clock that stands still: room reserved ahead never goes stale because the database was
    # slow (it did, once in 600 runs on a loaded machine, with the real clock).
    limiter = SharedGroupLimiter(monotonic=Monotonic())
    await limiter.initialize()
    limiter.window = CountingWindow(database, limit=20)
    yield limiter
    await limiter.shutdown()


async def test_a_turns_messages_take_one_write_to_the_window(database: Database,
                                                              limiter: SharedGroupLimiter) -> None:
    window = limiter.window
    assert isinstance(window, CountingWindow)

    async with limiter.ahead(GROUP, 2):
        await post(limiter, GROUP)
        await post(limiter, GROUP, "editMessageText")  # no new message: not counted
        await post(limiter, GROUP)
        await post(limiter, GROUP)  # a third message: reserved on its own

    assert (window.writes, await counted(database, GROUP)) == (2, 3)


async def test_room_ahead_serves_only_its_group_and_its_task(database: Database,
                                                             limiter: SharedGroupLimiter) -> None:
    window = limiter.window
    assert isinstance(window, CountingWindow)

    async with limiter.ahead(GROUP, 2):
        await asyncio.gather(post(limiter, GROUP))  # another task: reserves on its own
        await post(limiter, OTHER_GROUP)
        await post(limiter, GROUP)
        await post(limiter, GROUP)
    await post(limiter, GROUP)  # after the block

    assert window.writes == 4  # ahead, gathered, other group, and the one after the block
    assert (await counted(database, GROUP), await counted(database, OTHER_GROUP)) == (4, 1)


async def test_room_ahead_goes_stale_and_the_message_reserves_afresh(database: Database) -> None:
    # A controllable clock, not a short window against a sleep: the first message is always in
    # time and the later ones always late, however slow the database is (the old form failed
    # 3 times in 11 on a loaded machine).
    monotonic = Monotonic()
    limiter = SharedGroupLimiter(monotonic=monotonic)
    await limiter.initialize()
    window = limiter.window = CountingWindow(database, limit=20)
    try:
        async with limiter.ahead(GROUP, 3):
            await post(limiter, GROUP)
            monotonic.now += RESERVED_AHEAD_FOR.total_seconds() + 1
            await post(limiter, GROUP)
            await post(limiter, GROUP)
    finally:
        await limiter.shutdown()

    assert window.writes == 3  # ahead, then each late message on its own
    assert await counted(database, GROUP) == 5  # the unused room stays counted: only stricter


async def test_without_room_ahead_a_message_waits_as_before(database: Database) -> None:
    # The window's clock moves only when the limiter sleeps: what is asserted is the wait the
    # window asked for, not how long a loaded machine took.
    clock = Clock()
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        clock.now += timedelta(seconds=seconds)

    limiter = SharedGroupLimiter(sleep=sleep)
    await limiter.initialize()
    limiter.window = GroupSendWindow(database, limit=2, window=timedelta(seconds=60), clock=clock)
    try:
        await post(limiter, GROUP)
        clock.now += timedelta(seconds=10)
        async with limiter.ahead(GROUP, 2):  # one room left of two
            await post(limiter, GROUP)
            await post(limiter, GROUP)  # waits for the window to move on
    finally:
        await limiter.shutdown()

    assert waits == [50.0]  # until the first message leaves the minute, 60 s after it
    assert await counted(database, GROUP) == 2  # the first left the window; two in it now


async def test_private_chats_and_single_messages_reserve_nothing_ahead(database: Database,
                                                                      limiter: SharedGroupLimiter) -> None:
    window = limiter.window
    assert isinstance(window, CountingWindow)

    async with limiter.ahead(4242, 2):
        await post(limiter, 4242)
    async with limiter.ahead(GROUP, 1):
        await post(limiter, GROUP)

    assert window.writes == 1  # the single message, on its own
