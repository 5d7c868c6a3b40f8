"""Statement imports over SQLite and PostgreSQL: confirmed once, all or nothing, with the lines'
fingerprints unique per household in the confirmation's own transaction. Races start at a barrier."""

from __future__ import annotations

import asyncio
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import func, select

from domain.budget import Budget
from domain.errors import DomainError
from domain.money import Money, Period
from domain.operations.receipts import ToolReceipt
from domain.statements import AlreadyImported, StatementLine, plan_import
from domain.tools.confirmer import Confirmer
from domain.tools.statements import ImportStatementTool
from infra.db import Database, SqlBudgetRepository, SqlOperationLog
from infra.db.stores.statement_imports import SqlStatementImports
from infra.db.tables import statement_imports
from tests.integration.conftest import Backend

BUDGET_ID = "orc-1"
HOUSEHOLD = "casa-1"
SCOPE = "chat:1"
JUNE = Period(2026, 6)


def a_budget() -> Budget:
    budget = Budget.create("BRL", id=BUDGET_ID, household_id=HOUSEHOLD)
    budget.register("Farmácia", Money.of(300, "BRL"), aliases=["drogaria"])
    budget.register("Mercado", Money.of(1500, "BRL"), aliases=["supermercado"])
    return budget


LINES = [StatementLine(date(2026, 6, day), Decimal(amount), text, f"fit-{day}")
         for day, amount, text in [(2, "-180.50", "FARMACIA SAO JOAO"), (3, "-412.30", "SUPERMERCADO"),
                                   (7, "-60.00", "DROGARIA RAIA"), (8, "5000", "SALARIO")]]


def import_args(operation_id: str, lines: list[StatementLine] = LINES, *, confirm: bool = False) -> dict[str, Any]:
    plan = plan_import(a_budget(), lines, set())
    return {"operationId": operation_id, "file": "itau.ofx", "confirm": confirm,
            "lines": [{"date": p.line.on.isoformat(), "amount": -p.line.amount, "description": p.line.description,
                       "expense": p.expense, "fingerprint": p.fingerprint} for p in plan.to_import],
            "credits": [{"date": c.on.isoformat(), "amount": c.amount, "description": c.description}
                        for c in plan.credits]}


def import_tool(database: Database) -> ImportStatementTool:
    return ImportStatementTool.create(budget_repo=SqlBudgetRepository(database), budget_id=BUDGET_ID,
                                      household_id=HOUSEHOLD, imports=SqlStatementImports(database),
                                      operations=SqlOperationLog(database, SCOPE))


async def actuals(database: Database) -> dict[str, Money]:
    budget = await SqlBudgetRepository(database).load(BUDGET_ID)
    return {e.name: e.actual_for(JUNE) for e in budget.expenses}


async def imported_rows(database: Database) -> int:
    async with database.reading() as connection:
        return int((await connection.execute(select(func.count()).select_from(statement_imports))).scalar_one())


async def test_an_import_is_previewed_without_writing_and_confirmed_with_its_fingerprints(database: Database) -> None:
    await SqlBudgetRepository(database).save(a_budget())
    tool = import_tool(database)
    preview = await tool.invoke(import_args("doc-1"))
    assert not preview.persisted and await imported_rows(database) == 0
    receipt = await tool.invoke(import_args("doc-1", confirm=True))
    assert receipt.persisted
    assert await actuals(database) == {"Farmácia": Money.of("240.50", "BRL"), "Mercado": Money.of("412.30", "BRL")}
    assert await imported_rows(database) == 3
    keys = [line["fingerprint"] for line in import_args("x")["lines"]]
    assert await SqlStatementImports(database).already_imported(HOUSEHOLD, keys) == set(keys)
    assert await SqlStatementImports(database).already_imported("another", keys) == set()


async def test_two_members_confirming_the_same_import_at_once_write_it_once(backend: Backend) -> None:
    first, second = backend.open(), backend.open()
    try:
        await SqlBudgetRepository(first).save(a_budget())
        await import_tool(first).invoke(import_args("doc-1"))
        barrier = asyncio.Barrier(2)

        async def press(database: Database) -> ToolReceipt:
            tool = import_tool(database)
            await barrier.wait()
            return await Confirmer([tool], tool.operations).confirm("doc-1", by="Ana")

        receipts = await asyncio.gather(press(first), press(second))
        assert sorted(r.persisted for r in receipts) == [False, True]
        assert await actuals(first) == {"Farmácia": Money.of("240.50", "BRL"), "Mercado": Money.of("412.30", "BRL")}
        assert await imported_rows(first) == 3
    finally:
        await first.dispose()
        await second.dispose()


async def test_the_same_file_proposed_twice_and_both_confirmed_at_once_writes_once(backend: Backend) -> None:
    first, second = backend.open(), backend.open()
    try:
        await SqlBudgetRepository(first).save(a_budget())
        await import_tool(first).invoke(import_args("doc-1"))
        await import_tool(first).invoke(import_args("doc-2"))
        barrier = asyncio.Barrier(2)

        async def press(database: Database, operation_id: str) -> ToolReceipt | DomainError:
            tool = import_tool(database)
            await barrier.wait()
            try:
                return await Confirmer([tool], tool.operations).confirm(operation_id, by="Ana")
            except DomainError as refused:
                return refused

        outcomes = await asyncio.gather(press(first, "doc-1"), press(second, "doc-2"))
        assert sum(isinstance(o, ToolReceipt) and o.persisted for o in outcomes) == 1
        assert sum(isinstance(o, AlreadyImported) for o in outcomes) == 1
        assert await actuals(first) == {"Farmácia": Money.of("240.50", "BRL"), "Mercado": Money.of("412.30", "BRL")}
        assert await imported_rows(first) == 3
    finally:
        await first.dispose()
        await second.dispose()


async def test_recording_a_line_twice_fails_and_leaves_nothing_of_the_transaction(database: Database) -> None:
    await SqlBudgetRepository(database).save(a_budget())
    imports = SqlStatementImports(database)
    await imports.record(HOUSEHOLD, "doc-1", ["a", "b"])
    with pytest.raises(AlreadyImported):
        async with database.transaction():
            await imports.record(HOUSEHOLD, "doc-2", ["c", "b"])
    assert await imports.already_imported(HOUSEHOLD, ["a", "b", "c"]) == {"a", "b"}
