"""Exactly once and no lost updates, with confirmations racing in tasks and in processes.

Every race starts at a barrier, never after a sleep.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select

from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.money import Money, Period
from domain.operations.receipts import ToolReceipt
from domain.tools.budget import RecordSpendTool
from domain.tools.confirmer import Confirmer
from domain.tools.goals import ContributeToGoalTool
from infra.db import Database, SqlBudgetRepository, SqlGoalRepository, SqlOperationLog
from infra.db.tables import ledger_entries as entries
from tests.integration.confirm_worker import confirm_in_process
from tests.integration.conftest import Backend

BUDGET_ID = "orc-1"
GOAL_ID = "meta-1"
SCOPE = "chat-1"
JUNE = Period(2026, 6)


def spend(amount: Decimal, operation_id: str, *, confirm: bool = False) -> dict[str, Any]:
    return {"expense": "Mercado", "period": "2026-06", "amount": {"amount": amount, "currency": "BRL"},
            "operationId": operation_id, "confirm": confirm}


async def market_budget(database: Database) -> None:
    budget = Budget.create("BRL", id=BUDGET_ID)
    budget.register("Mercado", Money.of("1500", "BRL"))
    await SqlBudgetRepository(database).save(budget)


async def groceries(database: Database) -> Money:
    return (await SqlBudgetRepository(database).load(BUDGET_ID)).expenses[0].actual_for(JUNE)


def spend_tool(database: Database, repo: SqlBudgetRepository | None = None) -> RecordSpendTool:
    """Fresh tool objects, as each request (or worker) builds its own."""
    tool: RecordSpendTool = RecordSpendTool.create(
        budget_repo=repo or SqlBudgetRepository(database), budget_id=BUDGET_ID,
        operations=SqlOperationLog(database, SCOPE))
    return tool


async def press_confirm(database: Database, operation_id: str, barrier: asyncio.Barrier) -> ToolReceipt:
    tool = spend_tool(database)
    await barrier.wait()
    return await Confirmer([tool], tool.operations).confirm(operation_id)


async def test_ten_concurrent_confirmations_of_one_operation_write_once(database: Database) -> None:
    await market_budget(database)
    await spend_tool(database).invoke(spend(Decimal("37.90"), "op-1"))
    barrier = asyncio.Barrier(10)

    receipts = await asyncio.gather(*(press_confirm(database, "op-1", barrier) for _ in range(10)))

    assert [r.persisted for r in receipts].count(True) == 1
    assert all(r.confirmed and r.preview == receipts[0].preview for r in receipts)
    assert await groceries(database) == Money.of("37.90", "BRL")


async def test_three_processes_confirming_one_operation_write_once(backend: Backend,
                                                                   database: Database) -> None:
    await market_budget(database)
    await spend_tool(database).invoke(spend(Decimal("37.90"), "op-1"))
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(3), context.Queue()
    workers = [context.Process(target=confirm_in_process,
                               args=(backend.url, backend.engine_options, SCOPE, BUDGET_ID, "op-1",
                                     barrier, results))
               for _ in range(3)]

    for worker in workers:
        worker.start()
    loop = asyncio.get_running_loop()
    outcomes = [await loop.run_in_executor(None, results.get, True, 60) for _ in workers]
    for worker in workers:
        await loop.run_in_executor(None, worker.join, 30)

    assert [w.exitcode for w in workers] == [0, 0, 0]
    assert sorted(outcomes) == [False, False, True]
    assert await groceries(database) == Money.of("37.90", "BRL")


async def test_twelve_different_operations_confirmed_at_once_on_one_budget_give_the_exact_sum(
        database: Database) -> None:
    await market_budget(database)
    cents = [Decimal(n) / 100 for n in range(1, 13)]  # 0.01 .. 0.12
    for n, amount in enumerate(cents, start=1):
        await spend_tool(database).invoke(spend(amount, f"op-{n}"))
    barrier = asyncio.Barrier(12)

    receipts = await asyncio.gather(*(press_confirm(database, f"op-{n}", barrier) for n in range(1, 13)))

    assert all(r.persisted for r in receipts)
    assert await groceries(database) == Money.of("0.78", "BRL")
    assert sorted(r.preview["newActual"]["amount"] for r in receipts)[-1] == Decimal("0.78")


async def test_twelve_contributions_confirmed_at_once_on_one_goal_all_land(database: Database) -> None:
    household = Household.create("Casa", "BRL")
    ana = household.add_member("Ana")
    await SqlGoalRepository(database).save(Goal.create(
        "Reserva", Money.of("1000", "BRL"), members=[ana], created_at=date(2026, 6, 1), id=GOAL_ID))

    def contribution_tool() -> ContributeToGoalTool:
        return ContributeToGoalTool.create(goal_repo=SqlGoalRepository(database), goal_id=GOAL_ID,
                                           operations=SqlOperationLog(database, SCOPE))

    for n in range(1, 13):
        await contribution_tool().invoke({"goal": "Reserva", "paidBy": "Ana", "date": "2026-06-15",
                                          "amount": {"amount": Decimal(n) / 100, "currency": "BRL"},
                                          "operationId": f"op-{n}"})
    barrier = asyncio.Barrier(12)

    async def press(n: int) -> ToolReceipt:
        tool = contribution_tool()
        await barrier.wait()
        return await Confirmer([tool], tool.operations).confirm(f"op-{n}")

    receipts = await asyncio.gather(*(press(n) for n in range(1, 13)))

    assert all(r.persisted for r in receipts)
    goal = await SqlGoalRepository(database).load(GOAL_ID)
    assert len(goal.contributions) == 12
    assert goal.saved_by_currency() == {"BRL": Money.of("0.78", "BRL")}
    # The tool loads the goal without its history: each save appended one ledger entry, with
    # no update lost.
    assert (await SqlGoalRepository(database).load(GOAL_ID, history=False)).saved_by_currency() == {
        "BRL": Money.of("0.78", "BRL")}
    async with database.reading() as connection:
        summed = (await connection.execute(
            select(entries.c.currency, func.sum(entries.c.amount_minor), func.count())
            .where(entries.c.goal_id == GOAL_ID, entries.c.kind == "contribution")
            .group_by(entries.c.currency))).all()
    assert [(currency, int(total), count) for currency, total, count in summed] == [("BRL", 78, 12)]


async def test_a_confirmation_that_meets_a_newer_save_reloads_and_both_changes_land(
        database: Database) -> None:
    await market_budget(database)
    stale = await SqlBudgetRepository(database).load(BUDGET_ID)

    class StaleOnce(SqlBudgetRepository):
        """Hands out, once, a copy loaded before another operation was saved."""

        async def load(self, budget_id: str, **options: Any) -> Budget:
            nonlocal stale
            if stale is not None:
                handed, stale = stale, None
                return handed
            return await super().load(budget_id, **options)

    await spend_tool(database).invoke(spend(Decimal("10"), "op-1"))
    await spend_tool(database).invoke(spend(Decimal("5"), "op-2"))
    await spend_tool(database).invoke(spend(Decimal("5"), "op-2", confirm=True))

    receipt = await spend_tool(database, StaleOnce(database)).invoke(spend(Decimal("10"), "op-1", confirm=True))

    assert receipt.persisted
    assert receipt.preview["newActual"]["amount"] == Decimal("15")
    assert await groceries(database) == Money.of("15", "BRL")
