"""Outgoing rate limits: PTB's AIORateLimiter as before (overall rate, its per-process group
bucket, 429 retries), plus a per-group window of new messages kept in the database
(infra.db.stores.group_sends), so that at most 20 messages a minute reach a group across workers."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from telegram.ext import AIORateLimiter, BaseRateLimiter

from infra.db.stores.group_sends import GroupSendWindow

log = logging.getLogger(__name__)


class SharedGroupLimiter(BaseRateLimiter[int]):
    """At most 20 new messages in any minute to one group, whichever worker sends them.

    Only methods that post a new message count (sendMessage, sendPhoto, ...): an edit or a
    "typing" action is no new message, and counting the edits that repeated presses make would
    hold a group's next real message back for a minute. Those stay under AIORateLimiter's own
    per-process group bucket, as before. `window` is attached once the database is open
    (post_init); until then only AIORateLimiter applies.
    """

    def __init__(self, *, max_retries: int = 3,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        """`sleep` waits for the window to move on: controllable in tests."""
        self._inner = AIORateLimiter(max_retries=max_retries)
        self.window: GroupSendWindow | None = None
        self._sleep = sleep

    async def initialize(self) -> None:
        await self._inner.initialize()

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
        if posts and group is not None and self.window is not None:
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


def _group_of(chat_id: Any) -> int | None:
    """A group or channel chat id (negative), as PTB's AIORateLimiter tells them apart."""
    try:
        value = int(chat_id)
    except (TypeError, ValueError):
        return None
    return value if value < 0 else None
