"""SQL persistence: repositories for the domain's ports, the durable operation log, migrations."""

from infra.db.budgets import SqlBudgetRepository
from infra.db.engine import DEFAULT_DATABASE_URL, Database, UnitOfWork, create_engine, database_url
from infra.db.goals import SqlGoalRepository
from infra.db.households import SqlHouseholdRepository
from infra.db.operations import SqlOperationLog

__all__ = [
    "DEFAULT_DATABASE_URL",
    "Database",
    "SqlBudgetRepository",
    "SqlGoalRepository",
    "SqlHouseholdRepository",
    "SqlOperationLog",
    "UnitOfWork",
    "create_engine",
    "database_url",
]
