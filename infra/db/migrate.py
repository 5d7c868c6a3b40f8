"""`alembic upgrade head`, configured from the installed package rather than the working directory."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate.api import AutogenContext
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.pool import NullPool

from infra.db.engine import DEFAULT_DATABASE_URL, Database, database_url
from infra.db.health import revision
from infra.db.values import UtcDateTime

HERE = Path(__file__).resolve().parent


def alembic_config(url: str | None = None) -> Config:
    """Alembic's configuration; the URL is `url`, else DATABASE_URL (and `.env`), else SQLite."""
    config = Config(str(HERE / "alembic.ini"))
    config.set_main_option("script_location", str(HERE / "migrations"))
    if url is None:
        from infra.settings import Settings

        url = Settings().database_url
    # Kept out of the ini options: configparser would read a '%' in a password as interpolation.
    config.attributes["url"] = database_url(url)
    return config


def upgrade(url: str | None = None, revision: str = "head") -> list[str]:
    """Upgrades the database at `url` (default DATABASE_URL); the revisions it applied, oldest
    first (none when it was up to date). Not for a running event loop."""
    config = alembic_config(url)
    before = asyncio.run(current_revision(config.attributes["url"]))
    command.upgrade(config, revision)
    script = ScriptDirectory.from_config(config)
    applied = [r.revision for r in script.iterate_revisions(revision, before or "base")]
    return list(reversed(applied))


def head_revision() -> str:
    """The revision the migrations end at (what `household-bot migrate` brings a database to)."""
    head = ScriptDirectory.from_config(alembic_config(DEFAULT_DATABASE_URL)).get_current_head()
    assert head is not None
    return head


async def current_revision(url: str) -> str | None:
    """The revision the database at `url` is at (None: never migrated)."""
    database = Database(url, poolclass=NullPool)
    try:
        return await revision(database)
    finally:
        await database.dispose()


async def upgrade_database(database: Database, revision: str = "head") -> None:
    """The same upgrade through an open Database, for callers already inside an event loop."""
    async with database.engine.connect() as connection:
        await connection.run_sync(_upgrade_on, revision)
        await connection.commit()


def _upgrade_on(connection: Connection, revision: str) -> None:
    config = alembic_config(connection.engine.url.render_as_string(hide_password=False))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def render_item(kind: str, item: Any, context: AutogenContext) -> str | bool:
    """Migrations spell UtcDateTime as the plain column type it stores as."""
    if kind == "type" and isinstance(item, UtcDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def context_options(dialect: str) -> dict[str, Any]:
    """The options env.py and the drift check both give Alembic."""
    return {"render_as_batch": dialect == "sqlite", "compare_type": True, "render_item": render_item}
