"""The operation log and the repositories under misuse (cases 9 and 11), on SQLite and PostgreSQL:
an operation id reused with other arguments, and a save of an aggregate someone saved since."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from domain.budget import Budget
from domain.errors import ConcurrentModification, OperationConflict
from domain.goals import Goal
from domain.household import Household
from domain.money import Money, Period
from domain.tools.budget import RecordSpendTool, RegisterExpenseTool
from domain.tools.confirmer import Confirmer
from infra.db import Database, SqlBudgetRepository, SqlGoalRepository, SqlHouseholdRepository, SqlOperationLog
from tests.integration.conftest import Backend
from tests.reliability.report import Figures

BUDGET = "orc-1"
JUNE = Period(2026, 6)


def spend(amount: str, operation_id: str = "op-1", *, confirm: bool = False,
          expense: str = "Mercado") -> dict[str, Any]:
    return {"expense": expense, "period": "2026-06", "operationId": operation_id, "confirm": confirm,
            "amount": {"amount": Decimal(amount), "currency": "BRL"}}


async def groceries(database: Database) -> Decimal:
    budget = await SqlBudgetRepository(database).load(BUDGET)
    return budget.find_by_name("Mercado").actual_for(JUNE).amount


async def test_the_same_operation_id_with_other_arguments_is_a_conflict_and_writes_nothing(
        backend: Backend, database: Database, figures: Figures) -> None:
    budget = Budget.create("BRL", id=BUDGET)
    budget.register("Mercado", Money.of("1500", "BRL"))
    budget.register("Feira", Money.of("300", "BRL"))
    await SqlBudgetRepository(database).save(budget)
    log = SqlOperationLog(database, "chat:1")

    def tool() -> RecordSpendTool:  # a fresh tool per call, as each request builds its own
        built: RecordSpendTool = RecordSpendTool.create(
            budget_repo=SqlBudgetRepository(database), budget_id=BUDGET, operations=log)
        return built

    # Before a confirmation a new preview replaces the pending one: the press writes the new one.
    await tool().invoke(spend("10"))
    await tool().invoke(spend("20"))
    first = await Confirmer([tool()], log).confirm("op-1")
    assert first.persisted and first.preview["delta"]["amount"] == Decimal("20")

    reuses: list[dict[str, Any]] = [
        spend("30"), spend("30", confirm=True), spend("20", expense="Feira"),
        spend("20", expense="Feira", confirm=True), spend("20.01", confirm=True),
    ]
    conflicts = 0
    for arguments in reuses:
        with pytest.raises(OperationConflict):
            await tool().invoke(arguments)
        conflicts += 1
    register = RegisterExpenseTool.create(budget_repo=SqlBudgetRepository(database), budget_id=BUDGET,
                                          operations=log)
    with pytest.raises(OperationConflict):  # another tool under the same id
        await register.invoke({"name": "Luz", "expected": {"amount": 200, "currency": "BRL"},
                               "operationId": "op-1", "confirm": True})
    conflicts += 1
    repeat = await tool().invoke(spend("20", confirm=True))  # the same arguments: a repeat

    stored = await log.get("op-1")
    assert stored is not None and stored.receipt is not None
    actual = await groceries(database)
    loaded = await SqlBudgetRepository(database).load(BUDGET)
    held = figures.add(9, backend.name, attempts=len(reuses) + 1,
                       expected=f"{len(reuses) + 1} conflicts, 0 writes, R$ 20 kept",
                       seen=f"{conflicts} conflicts, {len(loaded.expenses) - 2} writes, R$ {actual:.0f} kept")
    assert held
    assert not repeat.persisted and repeat.confirmed
    assert stored.receipt.preview == first.preview and loaded.find_by_name("Feira").actual_for(JUNE).is_zero


async def test_a_stale_aggregate_saved_is_refused_and_never_silently_overwrites(
        backend: Backend, database: Database, figures: Figures) -> None:
    budgets, goals, households = (SqlBudgetRepository(database), SqlGoalRepository(database),
                                  SqlHouseholdRepository(database))
    household = Household.create("Casa", "BRL", id="casa-1")
    ana = household.add_member("Ana")
    await households.save(household)
    budget = Budget.create("BRL", id=BUDGET, household_id="casa-1")
    budget.register("Mercado", Money.of("1500", "BRL"))
    await budgets.save(budget)
    await goals.save(Goal.create("Viagem", Money.of("6000", "EUR"), members=[ana],
                                 created_at=date(2026, 6, 1), id="meta-1"))

    refused = 0
    # A budget: two copies loaded, both changed; the second save must be refused.
    first, stale = await budgets.load(BUDGET), await budgets.load(BUDGET)
    first.find_by_name("Mercado").add_to_actual(JUNE, Money.of("10", "BRL"))
    stale.find_by_name("Mercado").add_to_actual(JUNE, Money.of("99", "BRL"))
    await budgets.save(first)
    with pytest.raises(ConcurrentModification):
        await budgets.save(stale)
    refused += 1
    # A goal.
    goal_first, goal_stale = await goals.load("meta-1"), await goals.load("meta-1")
    goal_first.contribute(ana, Money.of("100", "EUR"), date(2026, 6, 2))
    goal_stale.contribute(ana, Money.of("999", "EUR"), date(2026, 6, 2))
    await goals.save(goal_first)
    with pytest.raises(ConcurrentModification):
        await goals.save(goal_stale)
    refused += 1
    # A household.
    house_first, house_stale = await households.load("casa-1"), await households.load("casa-1")
    house_first.add_member("Bruno")
    house_stale.add_member("Intruso")
    await households.save(house_first)
    with pytest.raises(ConcurrentModification):
        await households.save(house_stale)
    refused += 1
    # A budget saved from a copy that never came from this database, at an old version.
    outsider = Budget.create("BRL", id=BUDGET, household_id="casa-1")
    outsider.register("Mercado", Money.of("1", "BRL"))
    outsider.version = 1
    with pytest.raises(ConcurrentModification):
        await budgets.save(outsider)
    refused += 1

    kept = (await groceries(database), (await goals.load("meta-1")).saved_by_currency(),
            [m.name for m in (await households.load("casa-1")).members],
            (await budgets.load(BUDGET)).find_by_name("Mercado").expected)
    first_writes_kept = kept == (Decimal("10"), {"EUR": Money.of("100", "EUR")}, ["Ana", "Bruno"],
                                 Money.of("1500", "BRL"))
    held = figures.add(11, backend.name, attempts=4,
                       expected="4 refused, the first writer's state kept",
                       seen=f"{refused} refused, the first writer's state "
                            f"{'kept' if first_writes_kept else f'lost: {kept}'}")
    assert held
