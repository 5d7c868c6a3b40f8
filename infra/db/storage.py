"""Everything the bot stores, over one Database (the shape of bot.ports.Storage)."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta

from domain.agent.conversation import ConversationStore
from domain.clock import Clock, utc_now
from domain.ledger import Ledger
from domain.operations.log import DEFAULT_TTL
from domain.ports import BudgetRepository, GoalRepository, HouseholdRepository
from infra.db.engine import Database, UnitOfWork
from infra.db.stores.budgets import SqlBudgetRepository
from infra.db.stores.chats import ChatDirectory
from infra.db.stores.conversations import SqlConversationStore
from infra.db.stores.goals import SqlGoalRepository
from infra.db.stores.households import SqlHouseholdRepository
from infra.db.stores.ledger import SqlLedger
from infra.db.stores.lifecycle import erase_household, is_departed, mark_departed, migrate_chat
from infra.db.stores.operations import SqlOperationLog
from infra.db.stores.statement_imports import SqlStatementImports


class SqlStorage:
    def __init__(self, database: Database, *, clock: Clock = utc_now, ttl: timedelta = DEFAULT_TTL) -> None:
        self.database = database
        self.clock = clock
        self.ttl = ttl
        # Typed as the ports: bot.ports.Storage declares them so, and protocol attributes must match.
        self.households: HouseholdRepository = SqlHouseholdRepository(database)
        self.budgets: BudgetRepository = SqlBudgetRepository(database)
        self.goals: GoalRepository = SqlGoalRepository(database)
        self.conversations: ConversationStore = SqlConversationStore(database)
        self.directory = ChatDirectory(database)
        self.statement_imports = SqlStatementImports(database, clock=clock)
        self.ledger: Ledger = SqlLedger(database)

    def unit_of_work(self) -> AbstractAsyncContextManager[UnitOfWork]:
        """One database transaction that every repository called inside joins."""
        return self.database.transaction()

    def operations(self, scope: str) -> SqlOperationLog:
        """The operation log of one chat: operation ids and button keys are unique within it."""
        # posted_only: the bot confirms only previews whose message reached the chat.
        return SqlOperationLog(self.database, scope, clock=self.clock, ttl=self.ttl, posted_only=True)

    async def erase_household(self, household_id: str) -> None:
        """Deletes every record of the household (infra.db.stores.lifecycle.ERASED), in the caller's
        transaction when there is one (a confirmation's)."""
        await erase_household(self.database, household_id)

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> bool:
        return await migrate_chat(self.database, old_chat_id, new_chat_id)

    async def set_departed(self, chat_id: int, departed: bool, *, now: datetime) -> None:
        await mark_departed(self.database, chat_id, departed, now=now)

    async def is_departed(self, chat_id: int) -> bool:
        return await is_departed(self.database, chat_id)
