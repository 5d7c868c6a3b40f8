"""Outgoing rate limits: PTB's AIORateLimiter as before (overall rate, its per-process group
bucket, 429 retries), plus a per-group window of new messages kept in the database
(infra.db.group_sends), so that at most 20 messages a minute reach a group across workers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from telegram.ext import AIORateLimiter, BaseRateLimiter

from infra.db.group_sends import RESERVED_AHEAD_FOR, GroupSendWindow

log = logging.getLogger(__name__)


@dataclass
class _Ahead:
    """Room reserved in one go for the next new messages of one task to one group."""

    group: int
    left: int
    until: float  # time.monotonic(): past it, a message reserves afresh
    task: asyncio.Task[Any] | None


_ahead: ContextVar[_Ahead | None] = ContextVar("household_group_room_ahead", default=None)


class SharedGroupLimiter(BaseRateLimiter[int]):
    """At most 20 new messages in any minute to one group, whichever worker sends them.

    Only methods that post a new message count (sendMessage, sendPhoto, ...): an edit or a
    "typing" action is no new message, and counting the edits that repeated presses make would
    hold a group's next real message back for a minute. Those stay under AIORateLimiter's own
    per-process group bucket, as before. `window` is attached once the database is open
    (post_init); until then only AIORateLimiter applies.
    """

    def __init__(self, *, max_retries: int = 3, monotonic: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        """`monotonic` tells when reserved room goes stale, `sleep` waits for the window to move
        on: both are controllable in tests."""
        self._inner = AIORateLimiter(max_retries=max_retries)
        self.window: GroupSendWindow | None = None
        self._monotonic = monotonic
        self._sleep = sleep

    async def initialize(self) -> None:
        await self._inner.initialize()

    @contextlib.asynccontextmanager
    async def ahead(self, chat_id: int, messages: int) -> AsyncIterator[None]:
        """Inside the block, the next `messages` new messages this task sends to `chat_id` (a
        turn's text and its preview, sent one after the other) use room reserved for them all
        at once: one write to the window instead of one per message.

        What the window could not hold, and any message sent more than RESERVED_AHEAD_FOR after
        the reservation, reserves on its own as outside the block (the window is that much longer,
        infra.db.group_sends.GROUP_WINDOW, so every message keeps its second of margin). Room
        left unused stays counted: the window only gets stricter.
        """
        group = _group_of(chat_id)
        window = self.window
        if group is None or window is None or messages < 2:
            yield
            return
        asked = self._monotonic()  # no later than the time the rows are stamped with
        try:
            granted = await window.reserve_many(group, messages)
        except Exception:
            log.warning("group rate window unavailable; sending anyway", exc_info=True)
            granted = 0
        token = _ahead.set(_Ahead(group, granted, asked + RESERVED_AHEAD_FOR.total_seconds(),
                                  asyncio.current_task()))
        try:
            yield
        finally:
            _ahead.reset(token)

    async def shutdown(self) -> None:
        await self._inner.shutdown()

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        group = _group_of(data.get("chat_id"))
        posts = endpoint.startswith("send") and endpoint != "sendChatAction"
        if (posts and group is not None and self.window is not None
                and not _take_room_ahead(group, self._monotonic())):
            await self._wait_for_room(self.window, group)
        return await self._inner.process_request(callback, args, kwargs, endpoint, data, rate_limit_args)

    async def _wait_for_room(self, window: GroupSendWindow, group: int) -> None:
        while True:
            try:
                wait = await window.reserve(group)
            except Exception:
                # Best effort: a message is worth more than the limit (Telegram answers 429 past
                # it, and the inner limiter waits that out).
                log.warning("group rate window unavailable; sending anyway", exc_info=True)
                return
            if wait <= 0:
                return
            await self._sleep(wait)


def _take_room_ahead(group: int, now: float) -> bool:
    """Whether this message uses room reserved ahead (see SharedGroupLimiter.ahead)."""
    ahead = _ahead.get()
    if ahead is None or ahead.group != group or ahead.task is not asyncio.current_task():
        return False
    if ahead.left <= 0 or now > ahead.until:
        ahead.left = 0  # late: this message and the rest reserve afresh
        return False
    ahead.left -= 1
    return True


def _group_of(chat_id: Any) -> int | None:
    """A group or channel chat id (negative), as PTB's AIORateLimiter tells them apart."""
    try:
        value = int(chat_id)
    except (TypeError, ValueError):
        return None
    return value if value < 0 else None
