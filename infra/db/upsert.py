"""INSERT ... ON CONFLICT for the two dialects (both spell it the same way, from different modules)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite


def insert_for(dialect: str, table: Table) -> Any:
    """An INSERT with `.on_conflict_do_nothing` / `.on_conflict_do_update` and `.excluded`."""
    if dialect == "postgresql":
        return postgresql.insert(table)
    if dialect == "sqlite":
        return sqlite.insert(table)
    raise NotImplementedError(f"unsupported database: {dialect}")
