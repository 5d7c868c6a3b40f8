"""The bot's storage port in memory: the domain's in-memory repositories plus the bot's own tables.

    storage = InMemoryStorage(clock=clock, ttl=timedelta(hours=48))
    service = HouseholdService(storage, clock=clock)

`operations(scope)` hands out one `InMemoryOperationLog` per scope, the same object every time,
so a preview made by one call of the service can be confirmed by the next (as the SQL log does
across requests and processes).
"""

from __future__ import annotations

import contextlib
from contextlib import AbstractAsyncContextManager
from datetime import timedelta

from bot.ports import ChatLink
from domain.agent.clock import Clock, utc_now
from domain.agent.conversation import InMemoryConversationStore
from domain.agent.operations import DEFAULT_TTL, InMemoryOperationLog
from domain.ledger import InMemoryLedger
from domain.memory import InMemoryBudgetRepository, InMemoryGoalRepository, InMemoryHouseholdRepository


class InMemoryChatDirectory:
    """Which household a chat is, and which member a user is in a chat (bot.ports.ChatDirectory)."""

    def __init__(self) -> None:
        self._chats: dict[int, ChatLink] = {}
        self._members: dict[tuple[int, int], str] = {}

    async def link_chat(self, chat_id: int, household_id: str, budget_id: str) -> ChatLink:
        return self._chats.setdefault(chat_id, ChatLink(household_id, budget_id))

    async def household_of_chat(self, chat_id: int) -> ChatLink | None:
        return self._chats.get(chat_id)

    async def link_member(self, chat_id: int, user_id: int, member_id: str) -> str:
        return self._members.setdefault((chat_id, user_id), member_id)

    async def member_of_user(self, chat_id: int, user_id: int) -> str | None:
        return self._members.get((chat_id, user_id))


class InMemoryStorage:
    """Everything HouseholdService stores, in memory (bot.ports.Storage)."""

    def __init__(self, *, clock: Clock = utc_now, ttl: timedelta = DEFAULT_TTL) -> None:
        self.clock = clock
        self.ttl = ttl
        self.households = InMemoryHouseholdRepository()
        self.ledger = InMemoryLedger(clock=clock)
        self.budgets = InMemoryBudgetRepository(self.ledger)
        self.goals = InMemoryGoalRepository(self.ledger)
        self.conversations = InMemoryConversationStore()
        self.directory = InMemoryChatDirectory()
        self.logs: dict[str, InMemoryOperationLog] = {}

    def operations(self, scope: str) -> InMemoryOperationLog:
        log = self.logs.get(scope)
        if log is None:
            log = self.logs[scope] = InMemoryOperationLog(clock=self.clock, ttl=self.ttl)
        return log

    def reading_together(self) -> AbstractAsyncContextManager[None]:
        """Nothing to share in memory."""
        return contextlib.nullcontext()
