"""The per-group window of new messages (infra/db/stores/group_sends.py) and the limiter in front of PTB
(bot/telegram/rate_limit.py): each new message to a group reserves its room, edits and private chats none."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.telegram.rate_limit import SharedGroupLimiter
from infra.db import Database
from infra.db.stores.group_sends import GroupSendWindow
from infra.db.tables import group_sends

GROUP = -1001


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class CountingWindow(GroupSendWindow):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.writes = 0

    async def reserve(self, chat_id: int) -> float:
        self.writes += 1
        return await super().reserve(chat_id)


async def counted(database: Database, chat_id: int) -> int:
    async with database.reading() as connection:
        return int((await connection.execute(
            select(func.count()).select_from(group_sends).where(group_sends.c.chat_id == chat_id))).scalar_one())


async def test_a_group_gets_room_up_to_the_limit_then_waits_for_the_minute_to_move_on(
        database: Database) -> None:
    clock = Clock()
    window = GroupSendWindow(database, limit=3, clock=clock)

    assert [await window.reserve(GROUP) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert await window.reserve(GROUP) > 0
    assert await counted(database, GROUP) == 3

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


async def test_only_new_messages_to_a_group_take_room_in_the_window(database: Database,
                                                                    limiter: SharedGroupLimiter) -> None:
    window = limiter.window
    assert isinstance(window, CountingWindow)

    await post(limiter, GROUP)
    await post(limiter, GROUP, "editMessageText")  # no new message: not counted
    await post(limiter, GROUP, "sendChatAction")  # "typing": not counted
    await post(limiter, 4242)  # a private chat: no group window
    await post(limiter, GROUP)

    assert (window.writes, await counted(database, GROUP)) == (2, 2)


async def test_a_message_past_the_limit_waits_for_the_window_to_move_on(database: Database) -> None:
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
        await post(limiter, GROUP)
        await post(limiter, GROUP)  # waits for the window to move on
    finally:
        await limiter.shutdown()

    assert waits == [50.0]  # until the first message leaves the minute, 60 s after it
    assert await counted(database, GROUP) == 2  # the first left the window; two in it now
