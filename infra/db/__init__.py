"""SQL persistence: repositories for the domain's ports, the durable operation log, migrations."""

from infra.db.engine import DEFAULT_DATABASE_URL, Database, UnitOfWork, create_engine, database_url
from infra.db.storage import SqlStorage
from infra.db.stores.budgets import SqlBudgetRepository
from infra.db.stores.chats import ChatDirectory, ChatLink
from infra.db.stores.conversations import SqlConversationStore
from infra.db.stores.goals import SqlGoalRepository
from infra.db.stores.households import SqlHouseholdRepository
from infra.db.stores.inbox import InboxItem, UpdateInbox
from infra.db.stores.operations import SqlOperationLog

__all__ = [
    "DEFAULT_DATABASE_URL",
    "ChatDirectory",
    "ChatLink",
    "Database",
    "InboxItem",
    "SqlBudgetRepository",
    "SqlConversationStore",
    "SqlGoalRepository",
    "SqlHouseholdRepository",
    "SqlOperationLog",
    "SqlStorage",
    "UnitOfWork",
    "UpdateInbox",
    "create_engine",
    "database_url",
]
