"""The migrations build the schema the code uses, on an empty database, with no drift."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from domain.money import Money
from infra.db import DEFAULT_DATABASE_URL, SqlGoalRepository, database_url
from infra.db.migrate import alembic_config, context_options, upgrade, upgrade_database
from infra.db.tables import metadata
from tests.integration.conftest import Backend


def drift(connection: Connection) -> list[Any]:
    """What `alembic check` would report: the differences between the database and the models."""
    context = MigrationContext.configure(connection, opts=context_options(connection.dialect.name))
    return list(compare_metadata(context, metadata))


def table_names(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


def downgrade_to_base(connection: Connection) -> None:
    config = alembic_config(connection.engine.url.render_as_string(hide_password=False))
    config.attributes["connection"] = connection
    command.downgrade(config, "base")


async def test_migrations_upgrade_an_empty_database_and_match_the_models(blank_backend: Backend) -> None:
    database = blank_backend.open()
    try:
        async with database.engine.connect() as connection:
            assert await connection.run_sync(table_names) == set()

        await upgrade_database(database)
        await upgrade_database(database)  # a second run is a no-op

        async with database.engine.connect() as connection:
            assert await connection.run_sync(table_names) == set(metadata.tables) | {"alembic_version"}
            assert await connection.run_sync(drift) == []
    finally:
        await database.dispose()


async def test_migration_0003_sums_the_existing_contributions_into_goal_savings(
        blank_backend: Backend) -> None:
    database = blank_backend.open()
    try:
        await upgrade_database(database, "0002")
        async with database.engine.begin() as connection:
            await connection.execute(text(
                "INSERT INTO goals (id, household_id, name, target_minor, target_currency, created_at, "
                "version) VALUES (:id, 'casa-1', :id, 100000, 'BRL', :day, 1)"),
                [{"id": goal_id, "day": date(2026, 6, 1)} for goal_id in ("trip", "reserve", "empty")])
            await connection.execute(text(
                "INSERT INTO contributions (goal_id, position, member_id, member_name, amount_minor, "
                "currency, date) VALUES (:goal, :position, 'm-ana', 'Ana', :units, :currency, :day)"),
                [{"goal": goal, "position": n, "units": units, "currency": currency, "day": date(2026, 6, 2)}
                 for n, (goal, units, currency) in enumerate([
                     ("trip", 10, "BRL"), ("trip", 20, "BRL"), ("trip", 1, "EUR"),
                     ("reserve", 9_000_000_000_000, "BRL"), ("reserve", 1, "BRL")])])

        await upgrade_database(database)

        async with database.engine.connect() as connection:
            rows = (await connection.execute(text(
                "SELECT goal_id, currency, amount_minor FROM goal_savings ORDER BY goal_id, currency"
            ))).all()
            assert await connection.run_sync(drift) == []
        assert [tuple(row) for row in rows] == [
            ("reserve", "BRL", 9_000_000_000_001), ("trip", "BRL", 30), ("trip", "EUR", 1)]
        light = await SqlGoalRepository(database).load("trip", history=False)
        assert light.saved_by_currency() == {"BRL": Money.of("0.30", "BRL"), "EUR": Money.of("0.01", "EUR")}
    finally:
        await database.dispose()


async def test_migrations_downgrade_to_an_empty_database(backend: Backend) -> None:
    database = backend.open()
    try:
        async with database.engine.connect() as connection:
            await connection.run_sync(downgrade_to_base)
            await connection.commit()
            assert await connection.run_sync(table_names) == {"alembic_version"}
    finally:
        await database.dispose()


async def test_migrate_by_url_creates_a_sqlite_file_from_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.db'}"  # as a person would write it: mapped to aiosqlite
    # `household-bot migrate` runs outside any event loop; so does this, in a thread of its own.
    await asyncio.get_running_loop().run_in_executor(None, upgrade, url)

    assert (tmp_path / "fresh.db").exists()
    backend = Backend("sqlite", database_url(url))
    database = backend.open()
    try:
        async with database.engine.connect() as connection:
            assert await connection.run_sync(drift) == []
    finally:
        await database.dispose()


def test_database_urls_from_hosting_platforms_use_the_async_drivers() -> None:
    assert database_url(None) == DEFAULT_DATABASE_URL == "sqlite+aiosqlite:///./household.db"
    assert database_url("postgres://u:p%40ss@db:5432/app") == "postgresql+asyncpg://u:p%40ss@db:5432/app"
    assert database_url("postgresql://u@db/app") == "postgresql+asyncpg://u@db/app"
    assert database_url("postgresql+asyncpg://u@db/app") == "postgresql+asyncpg://u@db/app"
    assert database_url("sqlite:///tmp/x.db") == "sqlite+aiosqlite:///tmp/x.db"
