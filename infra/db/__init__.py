"""SQL persistence: repositories for the domain's ports, the durable operation log, migrations."""

from infra.db.budgets import SqlBudgetRepository
from infra.db.chats import ChatDirectory, ChatLink
from infra.db.conversations import SqlConversationStore
from infra.db.engine import DEFAULT_DATABASE_URL, Database, UnitOfWork, create_engine, database_url
from infra.db.goals import SqlGoalRepository
from infra.db.households import SqlHouseholdRepository
from infra.db.inbox import InboxItem, UpdateInbox
from infra.db.operations import SqlOperationLog
from infra.db.storage import SqlStorage

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
