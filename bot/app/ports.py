"""What the use cases need from outside: storage beyond the domain's repositories, and a way to
speak to a chat on their own (reminders, the closing, expired previews)."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Protocol

from domain.agent.conversation import ConversationStore
from domain.ledger import Ledger
from domain.operations.log import OperationLog
from domain.ports import BudgetRepository, GoalRepository, HouseholdRepository
from domain.statements import StatementImports
from infra.db.stores.chats import ChatLink

__all__ = ["ChatDirectory", "ChatLink", "Sender", "Storage"]


class ChatDirectory(Protocol):
    """Which household a Telegram chat is, and which member a Telegram user is in it."""

    async def link_chat(self, chat_id: int, household_id: str, budget_id: str,
                        *, created_at: datetime | None = None) -> ChatLink:
        """Links the chat once; returns the link that holds (the first one, if two raced)."""
        ...

    async def household_of_chat(self, chat_id: int) -> ChatLink | None:
        ...

    async def link_member(self, chat_id: int, user_id: int, member_id: str) -> str:
        """Links the user once; returns the member id that holds."""
        ...

    async def member_of_user(self, chat_id: int, user_id: int) -> str | None:
        ...


class Storage(Protocol):
    # Read-only properties: an implementation may hold more specific types.
    @property
    def households(self) -> HouseholdRepository: ...

    @property
    def budgets(self) -> BudgetRepository: ...

    @property
    def goals(self) -> GoalRepository: ...

    @property
    def conversations(self) -> ConversationStore: ...

    @property
    def directory(self) -> ChatDirectory: ...

    @property
    def statement_imports(self) -> StatementImports: ...

    @property
    def ledger(self) -> Ledger: ...

    def unit_of_work(self) -> AbstractAsyncContextManager[object]:
        """One transaction for the writes inside the block: they commit together at its end, or
        none does (the repositories, directory and logs called inside join it)."""
        ...

    def operations(self, scope: str) -> OperationLog:
        """The operation log of one chat: operation ids and button keys are only unique within it."""
        ...

    async def erase_household(self, household_id: str) -> None:
        """Deletes every record of the household; joins the caller's transaction."""
        ...

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> bool:
        """Moves the chat's household, links, operations and conversation to the new chat id."""
        ...

    async def set_departed(self, chat_id: int, departed: bool, *, now: datetime) -> None:
        """The bot was removed from the chat (departed) or added back."""
        ...

    async def is_departed(self, chat_id: int) -> bool:
        ...


class Sender(Protocol):
    """How the bot speaks to a chat unasked; the adapter decides how (Telegram, the console)."""

    async def send_text(self, chat_id: int, text: str) -> None:
        """Sends `text`, split into several messages when it is long."""
        ...

    async def send_photo(self, chat_id: int, png: bytes, caption: str) -> None:
        ...

    async def edit_text(self, chat_id: int, message_id: int, text: str) -> None:
        """Replaces a posted message's text and drops its buttons."""
        ...
