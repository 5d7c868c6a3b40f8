"""The bot's storage port in memory: the domain's in-memory repositories plus the bot's own tables.

    storage = InMemoryStorage(clock=clock, ttl=timedelta(hours=48))
    service = HouseholdService(storage, clock=clock)

`operations(scope)` hands out one `InMemoryOperationLog` per scope, the same object every time,
so a preview made by one call of the service can be confirmed by the next (as the SQL log does
across requests and processes).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import datetime, timedelta

from bot.app.ports import ChatLink
from domain.agent.conversation import InMemoryConversationStore
from domain.clock import Clock, utc_now
from domain.in_memory import InMemoryBudgetRepository, InMemoryGoalRepository, InMemoryHouseholdRepository
from domain.ledger import InMemoryLedger
from domain.operations.log import DEFAULT_TTL, InMemoryOperationLog
from domain.statements import InMemoryStatementImports


class InMemoryChatDirectory:
    """Which household a chat is, and which member a user is in a chat (bot.app.ports.ChatDirectory)."""

    def __init__(self) -> None:
        self._chats: dict[int, ChatLink] = {}
        self._members: dict[tuple[int, int], str] = {}

    async def link_chat(self, chat_id: int, household_id: str, budget_id: str,
                        *, created_at: datetime | None = None) -> ChatLink:
        return self._chats.setdefault(chat_id, ChatLink(household_id, budget_id, created_at))

    async def household_of_chat(self, chat_id: int) -> ChatLink | None:
        return self._chats.get(chat_id)

    async def link_member(self, chat_id: int, user_id: int, member_id: str) -> str:
        return self._members.setdefault((chat_id, user_id), member_id)

    async def member_of_user(self, chat_id: int, user_id: int) -> str | None:
        return self._members.get((chat_id, user_id))

    def unlink_chat(self, chat_id: int) -> None:
        self._chats.pop(chat_id, None)
        for key in [key for key in self._members if key[0] == chat_id]:
            del self._members[key]

    def move_chat(self, old: int, new: int) -> bool:
        if old not in self._chats or new in self._chats:
            return False
        self._chats[new] = self._chats.pop(old)
        for (chat_id, user_id) in [key for key in self._members if key[0] == old]:
            self._members[(new, user_id)] = self._members.pop((chat_id, user_id))
        return True

    def chats_of(self, household_id: str) -> list[int]:
        return [chat_id for chat_id, link in self._chats.items() if link.household_id == household_id]


class InMemoryStorage:
    """Everything HouseholdService stores, in memory (bot.app.ports.Storage)."""

    def __init__(self, *, clock: Clock = utc_now, ttl: timedelta = DEFAULT_TTL) -> None:
        self.clock = clock
        self.ttl = ttl
        self.ledger = InMemoryLedger(clock=clock)
        self.households = InMemoryHouseholdRepository(self.ledger)
        self.budgets = InMemoryBudgetRepository(self.ledger)
        self.goals = InMemoryGoalRepository(self.ledger)
        self.conversations = InMemoryConversationStore()
        self.directory = InMemoryChatDirectory()
        self.statement_imports = InMemoryStatementImports()
        self.logs: dict[str, InMemoryOperationLog] = {}
        self.departed: set[int] = set()

    @contextlib.asynccontextmanager
    async def unit_of_work(self) -> AsyncIterator[None]:
        """In memory, each save stands on its own: nothing to roll back."""
        yield

    def operations(self, scope: str) -> InMemoryOperationLog:
        log = self.logs.get(scope)
        if log is None:
            log = self.logs[scope] = InMemoryOperationLog(clock=self.clock, ttl=self.ttl, posted_only=True)
        return log

    async def erase_household(self, household_id: str) -> None:
        # The test doubles' own dicts: the domain's repositories have no verb to delete.
        self.households._items.pop(household_id, None)
        for store in (self.budgets._items, self.goals._items):
            for key in [k for k, v in store.items() if v.household_id == household_id]:
                del store[key]
        for chat_id in self.directory.chats_of(household_id):
            self.logs.pop(f"chat:{chat_id}", None)
            self.conversations._conversations.pop(f"chat:{chat_id}", None)
            self.directory.unlink_chat(chat_id)

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> bool:
        if not self.directory.move_chat(old_chat_id, new_chat_id):
            return False
        log = self.logs.pop(f"chat:{old_chat_id}", None)
        if log is not None:
            self.logs[f"chat:{new_chat_id}"] = log
        held = self.conversations._conversations.pop(f"chat:{old_chat_id}", None)
        if held is not None:
            self.conversations._conversations[f"chat:{new_chat_id}"] = held
        return True

    async def set_departed(self, chat_id: int, departed: bool, *, now: datetime) -> None:
        (self.departed.add if departed else self.departed.discard)(chat_id)

    async def is_departed(self, chat_id: int) -> bool:
        return chat_id in self.departed
