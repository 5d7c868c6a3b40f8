"""Everything the bot stores, over one Database (the shape of bot.ports.Storage)."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from datetime import timedelta

from domain.agent.clock import Clock, utc_now
from domain.agent.conversation import ConversationStore
from domain.agent.operations import DEFAULT_TTL
from domain.ledger import Ledger
from domain.ports import BudgetRepository, GoalRepository, HouseholdRepository
from infra.db.budgets import SqlBudgetRepository
from infra.db.chats import ChatDirectory
from infra.db.conversations import SqlConversationStore
from infra.db.engine import Database
from infra.db.goals import SqlGoalRepository
from infra.db.households import SqlHouseholdRepository
from infra.db.ledger import SqlLedger
from infra.db.operations import SqlOperationLog


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
        self.ledger: Ledger = SqlLedger(database)

    def operations(self, scope: str) -> SqlOperationLog:
        """The operation log of one chat: operation ids and button keys are unique within it."""
        return SqlOperationLog(self.database, scope, clock=self.clock, ttl=self.ttl)

    def reading_together(self) -> AbstractAsyncContextManager[None]:
        """Reads share one transaction until the first write (Database.reading_together)."""
        return self.database.reading_together()
