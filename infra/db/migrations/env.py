"""Alembic's environment: async engines, the project's metadata, batch mode on SQLite."""

import asyncio
import logging
from logging.config import fileConfig

from alembic import context
from sqlalchemy import pool
from sqlalchemy.engine import Connection

from infra.db.engine import create_engine
from infra.db.migrate import context_options
from infra.db.tables import metadata

config = context.config

# Configure logging only when nobody else did (the `alembic` command line), and never
# silence the application's own loggers.
if config.config_file_name is not None and not logging.getLogger().handlers:
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def run_migrations_offline() -> None:
    url = config.attributes.get("url") or config.get_main_option("sqlalchemy.url")
    context.configure(url=url, target_metadata=metadata, literal_binds=True,
                      dialect_opts={"paramstyle": "named"},
                      **context_options(str(url).split(":", 1)[0].split("+", 1)[0]))
    with context.begin_transaction():
        context.run_migrations()


def do_run_migrations(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata,
                      **context_options(connection.dialect.name))
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations() -> None:
    engine = create_engine(config.attributes.get("url"), poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(do_run_migrations)
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    shared = config.attributes.get("connection")
    if shared is not None:  # infra.db.migrate.upgrade_database: a connection already open
        do_run_migrations(shared)
    else:
        asyncio.run(run_async_migrations())


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
