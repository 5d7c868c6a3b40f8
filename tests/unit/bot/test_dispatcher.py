"""The webhook's inbox dispatcher (bot/telegram/webhook.py) stops when asked, even when the cancel
meets a wake-up: Python 3.11's asyncio.wait_for then returns the inner result and swallows the
cancel (fixed in 3.12), and a loop that only relied on it polled on and held the shutdown for good."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

import pytest

from bot.telegram import webhook
from bot.telegram.webhook import Dispatcher


class EmptyInbox:
    def __init__(self) -> None:
        self.claims = 0

    async def claim(self, owner: str, lease: Any) -> None:
        self.claims += 1
        return None


async def swallowing_wait_for(awaitable: Awaitable[Any], timeout: float) -> Any:
    """asyncio.wait_for as 3.11 behaves when its task is cancelled just as the awaited event is set."""
    try:
        return await awaitable
    except asyncio.CancelledError:
        return True


async def test_the_dispatcher_stops_even_when_its_cancel_is_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(webhook.asyncio, "wait_for", swallowing_wait_for)
    inbox = EmptyInbox()
    dispatcher = Dispatcher(app=None, inbox=inbox)  # type: ignore[arg-type]  # nothing is claimed
    dispatcher.start()
    while inbox.claims == 0:  # idle now, waiting for a wake-up
        await asyncio.sleep(0)
    stopping = asyncio.ensure_future(dispatcher.stop())
    for _ in range(50):  # loop turns, not time: the stop needs a handful
        await asyncio.sleep(0)
        if stopping.done():
            break
    done = stopping.done()
    monkeypatch.undo()  # asyncio's own wait_for again, so that what is left can be cancelled
    loop = dispatcher._loop
    assert loop is not None
    while not loop.done():  # a cancel the patched wait_for swallowed is asked again
        loop.cancel()
        await asyncio.sleep(0)
    await asyncio.gather(stopping, return_exceptions=True)
    assert done, "the dispatcher kept polling after stop()"
