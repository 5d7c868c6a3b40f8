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

from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.money import Money, Period
from infra.db import DEFAULT_DATABASE_URL, SqlBudgetRepository, SqlGoalRepository, database_url
from infra.db.migrate import alembic_config, context_options, upgrade, upgrade_database
from infra.db.stores.ledger import SqlLedger
from infra.db.tables import metadata
from tests.integration.conftest import Backend


def drift(connection: Connection) -> list[Any]:
    """What `alembic check` would report: the differences between the database and the models."""
    context = MigrationContext.configure(connection, opts=context_options(connection.dialect.name))
    return list(compare_metadata(context, metadata))


def table_names(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


def downgrade_to_base(connection: Connection) -> None:
    downgrade_to(connection, "base")


def downgrade_to(connection: Connection, revision: str) -> None:
    config = alembic_config(connection.engine.url.render_as_string(hide_password=False))
    config.attributes["connection"] = connection
    command.downgrade(config, revision)


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

        await upgrade_database(database, "0003")

        async with database.engine.connect() as connection:
            rows = (await connection.execute(text(
                "SELECT goal_id, currency, amount_minor FROM goal_savings ORDER BY goal_id, currency"
            ))).all()
        assert [tuple(row) for row in rows] == [
            ("reserve", "BRL", 9_000_000_000_001), ("trip", "BRL", 30), ("trip", "EUR", 1)]
        await upgrade_database(database)  # and on to the ledger (0014), which keeps the totals
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


async def test_migration_0014_carries_every_total_over_to_the_ledger_exactly(
        blank_backend: Backend) -> None:
    database = blank_backend.open()
    try:
        await upgrade_database(database, "0005")
        async with database.engine.begin() as connection:
            await connection.execute(text(
                "INSERT INTO budgets (id, household_id, currency, version) VALUES ('orc', 'casa-1', 'BRL', 3)"))
            await connection.execute(text(
                "INSERT INTO expenses (id, budget_id, name, expected_minor, currency, position) "
                "VALUES (:id, 'orc', :name, 150000, 'BRL', :position)"),
                [{"id": "e-mercado", "name": "Mercado", "position": 0},
                 {"id": "e-luz", "name": "Luz", "position": 1}])
            await connection.execute(text(
                "INSERT INTO expense_aliases (expense_id, position, alias) VALUES ('e-mercado', 0, 'feira')"))
            await connection.execute(text(
                "INSERT INTO actuals (expense_id, period, amount_minor, currency) "
                "VALUES (:expense, :period, :units, 'BRL')"),
                [{"expense": "e-mercado", "period": "2026-05", "units": 123_456},
                 {"expense": "e-mercado", "period": "2026-06", "units": 9_000_000_000_001},
                 {"expense": "e-luz", "period": "2026-06", "units": 1},
                 {"expense": "e-luz", "period": "2026-07", "units": 0}])
            await connection.execute(text(
                "INSERT INTO goals (id, household_id, name, target_minor, target_currency, created_at, "
                "version) VALUES (:id, 'casa-1', :id, 600000, 'EUR', :day, 1)"),
                [{"id": goal_id, "day": date(2026, 6, 1)} for goal_id in ("trip", "drifted")])
            await connection.execute(text(
                "INSERT INTO contributions (goal_id, position, member_id, member_name, amount_minor, "
                "currency, date) VALUES (:goal, :position, :member, :name, :units, :currency, :day)"),
                [{"goal": "trip", "position": 0, "member": "m-ana", "name": "Ana", "units": 50_000,
                  "currency": "EUR", "day": date(2026, 6, 2)},
                 {"goal": "trip", "position": 1, "member": "m-bruno", "name": "Bruno", "units": 1,
                  "currency": "BRL", "day": date(2026, 6, 3)},
                 {"goal": "drifted", "position": 0, "member": "m-ana", "name": "Ana", "units": 100,
                  "currency": "EUR", "day": date(2026, 6, 4)}])
            await connection.execute(text(
                "INSERT INTO goal_savings (goal_id, currency, amount_minor) VALUES (:goal, :currency, :units)"),
                [{"goal": "trip", "currency": "EUR", "units": 50_000},
                 {"goal": "trip", "currency": "BRL", "units": 1},
                 {"goal": "drifted", "currency": "EUR", "units": 350}])  # 250 more than its rows
            await connection.execute(text(
                "INSERT INTO goal_members (goal_id, position, member_id, member_name) "
                "VALUES ('trip', 0, 'm-ana', 'Ana')"))

        await upgrade_database(database)

        async with database.engine.connect() as connection:
            assert await connection.run_sync(drift) == []
            tables = await connection.run_sync(table_names)
        assert not {"actuals", "contributions", "goal_savings"} & tables
        budget = await SqlBudgetRepository(database).load("orc")
        mercado, luz = budget.expenses
        assert mercado.actuals == {Period(2026, 5): Money.of("1234.56", "BRL"),
                                   Period(2026, 6): Money.of("90000000000.01", "BRL")}
        assert luz.actuals == {Period(2026, 6): Money.of("0.01", "BRL")}
        assert (mercado.id, mercado.aliases, luz.archived, budget.version) == ("e-mercado", ("feira",), False, 3)
        trip = await SqlGoalRepository(database).load("trip")
        assert [(c.paid_by.name, c.amount, c.date) for c in trip.contributions] == [
            ("Ana", Money.of("500", "EUR"), date(2026, 6, 2)),
            ("Bruno", Money.of("0.01", "BRL"), date(2026, 6, 3))]
        assert [m.name for m in trip.members] == ["Ana"]
        drifted = await SqlGoalRepository(database).load("drifted", history=False)
        assert drifted.saved_by_currency() == {"EUR": Money.of("3.50", "EUR")}
        june = [e for e in await SqlLedger(database).month("casa-1", Period(2026, 6)) if e.period]
        assert sorted((e.kind.value, e.subject, e.amount) for e in june) == [  # type: ignore[type-var]
            ("opening", "Luz", Money.of("0.01", "BRL")),
            ("opening", "Mercado", Money.of("90000000000.01", "BRL"))]
    finally:
        await database.dispose()


async def test_migration_0014_downgraded_and_upgraded_again_keeps_aliases_members_and_totals(
        blank_backend: Backend) -> None:
    database = blank_backend.open()
    try:
        await upgrade_database(database)
        budget = Budget.create("BRL", id="orc", household_id="casa-1")
        budget.register("Mercado", Money.of("1500", "BRL"), aliases=("feira", "supermercado"))
        budget.find_by_name("Mercado").add_to_actual(Period(2026, 6), Money.of("37.90", "BRL"))
        await SqlBudgetRepository(database).save(budget)
        household = Household.create("Casa", "BRL", id="casa-1")
        ana, bruno = household.add_member("Ana"), household.add_member("Bruno")
        goal = Goal.create("Amsterdam", Money.of("6000", "EUR"), members=[ana, bruno],
                           created_at=date(2026, 6, 1), id="trip")
        goal.contribute(ana, Money.of("500", "EUR"), date(2026, 6, 2))
        await SqlGoalRepository(database).save(goal)

        async with database.engine.connect() as connection:
            await connection.run_sync(downgrade_to, "0017")
            await connection.commit()
            kept = {table: (await connection.execute(text(f"SELECT COUNT(*) FROM {table}"))).scalar_one()
                    for table in ("expense_aliases", "goal_members", "actuals", "contributions", "goal_savings")}
        assert kept == {"expense_aliases": 2, "goal_members": 2, "actuals": 1, "contributions": 1,
                        "goal_savings": 1}
        async with database.engine.connect() as connection:  # and 0018b's downgrade, before it
            await connection.run_sync(downgrade_to, "0018")
            await connection.commit()
            aliases = (await connection.execute(text("SELECT COUNT(*) FROM expense_aliases"))).scalar_one()
        assert aliases == 2

        await upgrade_database(database)

        mercado = (await SqlBudgetRepository(database).load("orc")).find_by_name("supermercado")
        assert (mercado.aliases, mercado.actual_for(Period(2026, 6))) == (
            ("feira", "supermercado"), Money.of("37.90", "BRL"))
        trip = await SqlGoalRepository(database).load("trip")
        assert [m.name for m in trip.members] == ["Ana", "Bruno"]
        assert trip.saved_by_currency() == {"EUR": Money.of("500", "EUR")}
    finally:
        await database.dispose()


async def test_migration_0024_downgraded_keeps_card_spends_as_spends_and_upgrades_again(
        blank_backend: Backend) -> None:
    database = blank_backend.open()
    try:
        await upgrade_database(database)
        budget = Budget.create("BRL", id="orc", household_id="casa-1")
        mercado = budget.register("Mercado", Money.of("1000", "BRL"))
        card = budget.register_card("Nubank", 3, 10)
        budget.record_purchase(mercado, Money.of("900", "BRL"), card=card, on=date(2026, 6, 15), installments=3)
        await SqlBudgetRepository(database).save(budget)

        async with database.engine.connect() as connection:
            await connection.run_sync(downgrade_to, "0019")
            await connection.commit()
            assert "cards" not in await connection.run_sync(table_names)
        await upgrade_database(database)

        loaded = await SqlBudgetRepository(database).load("orc")
        assert [loaded.find_by_name("Mercado").actual_for(Period(2026, m)) for m in (7, 8, 9)] == \
            [Money.of("300", "BRL")] * 3
        assert loaded.cards == []  # the card went with its table; what was spent stays spent
    finally:
        await database.dispose()


async def test_migration_0027_adds_former_chats_and_its_downgrade_drops_only_that(
        blank_backend: Backend) -> None:
    database = blank_backend.open()
    try:
        await upgrade_database(database, "0024")
        async with database.engine.begin() as connection:
            await connection.execute(text(
                "INSERT INTO chats (chat_id, household_id, budget_id, created_at) "
                "VALUES (-1001, 'casa-1', 'orc-1', :at)"), {"at": date(2026, 6, 1)})
            assert "former_chats" not in await connection.run_sync(table_names)
        await upgrade_database(database)
        async with database.engine.begin() as connection:
            await connection.execute(text(
                "INSERT INTO former_chats (chat_id, household_id) VALUES (-1000, 'casa-1')"))
        async with database.engine.connect() as connection:
            await connection.run_sync(downgrade_to, "0024")
            await connection.commit()
            assert "former_chats" not in await connection.run_sync(table_names)
            chats = (await connection.execute(text("SELECT COUNT(*) FROM chats"))).scalar_one()
        assert chats == 1
        await upgrade_database(database)
        async with database.engine.connect() as connection:
            assert await connection.run_sync(drift) == []
    finally:
        await database.dispose()
