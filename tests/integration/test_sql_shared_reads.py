"""Database.reading_together(): the reads of a block share one read transaction, up to the first
write, and nothing a read inside it does (or fails to do) leaks past it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event, text

from domain.budget import Budget
from domain.errors import NotFound
from domain.household import Household
from domain.money import Money, Period
from infra.db import Database, SqlBudgetRepository, SqlHouseholdRepository

JUNE = Period(2026, 6)


@contextmanager
def checkouts(database: Database) -> Iterator[list[object]]:
    """Connections taken from the pool while the block runs."""
    taken: list[object] = []

    def count(*_: object) -> None:
        taken.append(object())

    event.listen(database.engine.sync_engine.pool, "checkout", count)
    try:
        yield taken
    finally:
        event.remove(database.engine.sync_engine.pool, "checkout", count)


async def seeded(database: Database) -> tuple[Household, Budget]:
    household = Household.create("Casa", "BRL")
    household.add_member("Ana")
    await SqlHouseholdRepository(database).save(household)
    budget = Budget.create("BRL", household_id=household.id)
    budget.register("Mercado", Money.of("1500", "BRL"))
    await SqlBudgetRepository(database).save(budget)
    return household, budget


async def test_the_reads_of_a_block_share_one_connection(database: Database) -> None:
    household, budget = await seeded(database)
    households, budgets = SqlHouseholdRepository(database), SqlBudgetRepository(database)

    with checkouts(database) as apart:
        await households.load(household.id)
        await budgets.load(budget.id)
        await budgets.load(budget.id, periods=[JUNE])
    with checkouts(database) as together:
        async with database.reading_together():
            loaded = await households.load(household.id)
            await budgets.load(budget.id)
            async with database.reading_together():  # nested: joins
                await budgets.load(budget.id, periods=[JUNE])

    assert (len(apart), len(together)) == (3, 1)
    assert [m.name for m in loaded.members] == ["Ana"]


async def test_a_read_after_a_write_in_the_block_sees_the_write(database: Database) -> None:
    _, budget = await seeded(database)
    budgets = SqlBudgetRepository(database)

    async with database.reading_together():
        before = await budgets.load(budget.id, periods=[JUNE])
        before.find_by_name("Mercado").replace_actual(JUNE, Money.of("10", "BRL"))
        await budgets.save(before)  # ends the shared transaction
        after = await budgets.load(budget.id, periods=[JUNE])
        async with database.reading_together():  # a new one, after the write
            again = await budgets.load(budget.id, periods=[JUNE])

    assert after.find_by_name("Mercado").actual_for(JUNE) == Money.of("10", "BRL")
    assert again.find_by_name("Mercado").actual_for(JUNE) == Money.of("10", "BRL")


async def test_a_failed_read_does_not_spoil_the_reads_after_it(database: Database) -> None:
    household, _ = await seeded(database)
    households = SqlHouseholdRepository(database)

    async with database.reading_together():
        with pytest.raises(Exception, match="no_such_table"):
            async with database.reading() as connection:
                await connection.execute(text("SELECT * FROM no_such_table"))
        with pytest.raises(NotFound):
            await households.load("nobody")
        loaded = await households.load(household.id)

    assert loaded.id == household.id


async def test_tasks_started_in_a_block_read_on_their_own(database: Database) -> None:
    household, budget = await seeded(database)
    households, budgets = SqlHouseholdRepository(database), SqlBudgetRepository(database)

    with checkouts(database) as taken:
        async with database.reading_together():
            await households.load(household.id)
            loaded = await asyncio.gather(*(budgets.load(budget.id) for _ in range(3)))

    assert len(taken) == 4  # the block's, and one for each task
    assert all(b.find_by_name("Mercado").name == "Mercado" for b in loaded)


async def test_inside_a_write_transaction_the_block_reads_in_it(database: Database) -> None:
    household, _ = await seeded(database)
    households = SqlHouseholdRepository(database)

    async with database.transaction():
        loaded = await households.load(household.id)
        loaded.add_member("Bruno")
        await households.save(loaded)
        async with database.reading_together():
            seen = await households.load(household.id)

    assert [m.name for m in seen.members] == ["Ana", "Bruno"]
