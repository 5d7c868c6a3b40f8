"""The service as the handlers drive it: every preview it returns is posted (its message id
stored), as bot.telegram.delivery.deliver does. Only a posted preview can be confirmed (issue 17), so
service-level tests that press what they proposed use this instead of HouseholdService."""

from __future__ import annotations

import itertools
from typing import Any

from bot.app.outcomes import Decision, Outcome, PressResult, Preview
from bot.app.service import HouseholdService

_message_ids = itertools.count(10_001)


class PostingService(HouseholdService):
    async def _posted(self, chat_id: int, outcomes: list[Outcome]) -> list[Outcome]:
        for outcome in outcomes:
            if isinstance(outcome, Preview):
                await self.preview_posted(chat_id, outcome.operation_id, next(_message_ids))
        return outcomes

    async def command(self, chat_id: int, *args: Any, **kwargs: Any) -> list[Outcome]:
        return await self._posted(chat_id, await super().command(chat_id, *args, **kwargs))

    async def talk(self, chat_id: int, *args: Any, **kwargs: Any) -> list[Outcome]:
        return await self._posted(chat_id, await super().talk(chat_id, *args, **kwargs))

    async def start(self, chat_id: int, *args: Any, **kwargs: Any) -> list[Outcome]:
        return await self._posted(chat_id, await super().start(chat_id, *args, **kwargs))

    async def join(self, chat_id: int, *args: Any, **kwargs: Any) -> list[Outcome]:
        return await self._posted(chat_id, await super().join(chat_id, *args, **kwargs))

    async def leave(self, chat_id: int, *args: Any, **kwargs: Any) -> list[Outcome]:
        return await self._posted(chat_id, await super().leave(chat_id, *args, **kwargs))

    async def erase(self, chat_id: int, *args: Any, **kwargs: Any) -> list[Outcome]:
        return await self._posted(chat_id, await super().erase(chat_id, *args, **kwargs))

    async def undo_last(self, chat_id: int, *args: Any, **kwargs: Any) -> list[Outcome]:
        return await self._posted(chat_id, await super().undo_last(chat_id, *args, **kwargs))

    async def press(self, chat_id: int, user_id: int, decision: Decision, key: str) -> PressResult:
        """A press whose answer is a new preview to post (↩️ Desfazer's undo) posts it too."""
        result = await super().press(chat_id, user_id, decision, key)
        if result.post is not None:
            await self._posted(chat_id, [result.post])
        return result
