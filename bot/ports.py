"""What the bot needs from storage, beyond the domain's repositories."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from domain.agent.conversation import ConversationStore
from domain.agent.operations import OperationLog
from domain.ports import BudgetRepository, GoalRepository, HouseholdRepository


@dataclass(frozen=True)
class ChatLink:
    household_id: str
    budget_id: str


class ChatDirectory(Protocol):
    """Which household a Telegram chat is, and which member a Telegram user is in it."""

    async def link_chat(self, chat_id: int, household_id: str, budget_id: str) -> None:
        ...

    async def household_of_chat(self, chat_id: int) -> ChatLink | None:
        ...

    async def link_member(self, chat_id: int, user_id: int, member_id: str) -> None:
        ...

    async def member_of_user(self, chat_id: int, user_id: int) -> str | None:
        ...


class Storage(Protocol):
    households: HouseholdRepository
    budgets: BudgetRepository
    goals: GoalRepository
    conversations: ConversationStore
    directory: ChatDirectory

    def operations(self, scope: str) -> OperationLog:
        """The operation log of one chat: operation ids and button keys are only unique within it."""
        ...
