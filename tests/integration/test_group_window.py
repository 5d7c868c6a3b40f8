"""The per-group window of new messages (infra/db/group_sends.py) and the limiter in front of PTB
(bot/rate_limit.py): room for a turn's messages reserved in one go, and only used as meant."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

import bot.rate_limit
from bot.rate_limit import SharedGroupLimiter
from infra.db import Database
from infra.db.group_sends import GroupSendWindow
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


@pytest.fixture
async def limiter(database: Database) -> Any:
    limiter = SharedGroupLimiter()
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


async def test_room_ahead_goes_stale_and_the_message_reserves_afresh(
        database: Database, limiter: SharedGroupLimiter, monkeypatch: pytest.MonkeyPatch) -> None:
    window = limiter.window
    assert isinstance(window, CountingWindow)
    monkeypatch.setattr(bot.rate_limit, "RESERVED_AHEAD_FOR", timedelta(seconds=0.05))

    async with limiter.ahead(GROUP, 3):
        await post(limiter, GROUP)
        await asyncio.sleep(0.1)
        await post(limiter, GROUP)
        await post(limiter, GROUP)

    assert window.writes == 3  # ahead, then each late message on its own
    assert await counted(database, GROUP) == 5  # the unused room stays counted: only stricter


async def test_without_room_ahead_a_message_waits_as_before(database: Database) -> None:
    limiter = SharedGroupLimiter()
    await limiter.initialize()
    limiter.window = GroupSendWindow(database, limit=2, window=timedelta(seconds=0.3))
    try:
        await post(limiter, GROUP)
        async with limiter.ahead(GROUP, 2):  # one room left of two
            started = asyncio.get_running_loop().time()
            await post(limiter, GROUP)
            await post(limiter, GROUP)  # waits for the window to move on
            waited = asyncio.get_running_loop().time() - started
    finally:
        await limiter.shutdown()

    assert waited >= 0.2


async def test_private_chats_and_single_messages_reserve_nothing_ahead(database: Database,
                                                                      limiter: SharedGroupLimiter) -> None:
    window = limiter.window
    assert isinstance(window, CountingWindow)

    async with limiter.ahead(4242, 2):
        await post(limiter, 4242)
    async with limiter.ahead(GROUP, 1):
        await post(limiter, GROUP)

    assert window.writes == 1  # the single message, on its own
