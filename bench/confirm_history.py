"""How long one confirmation takes with a short and a long history (not a test).

    python bench/confirm_history.py            # SQLite; PostgreSQL too when TEST_DATABASE_URL is set

For 10 and for 100,000 stored rows it times one confirmation (the median of 20) of:
  recordSpend        with that many actuals in the budget (the tool loads the whole budget)
  recordSpend/month  the same, with the budget loaded for the one month it changes
  contributeToGoal   with that many contributions in the goal
  recordSpend/log    with 10 actuals but that many operations in the log
"""

from __future__ import annotations

import asyncio
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.agent.confirmer import Confirmer
from domain.agent.tools import ContributeToGoalTool, RecordSpendTool
from domain.budget import Budget
from domain.goals import Goal
from domain.household import Member
from domain.money import Money, Period
from infra.db import Database, SqlBudgetRepository, SqlGoalRepository, SqlOperationLog
from infra.db.migrate import upgrade_database
from infra.db.tables import actuals, contributions, expenses, operations

SIZES = (10, 100_000)
RUNS = 20
EXPENSES = 50
JUNE = Period(2026, 6)
SCOPE = "bench"


def months(count: int) -> list[str]:
    return [str(Period(1900 + n // 12, n % 12 + 1)) for n in range(count)]


async def insert_rows(database: Database, table: Any, rows: list[dict[str, Any]]) -> None:
    async with database.transaction() as unit:
        for start in range(0, len(rows), 5000):
            await unit.connection.execute(table.insert(), rows[start:start + 5000])


async def seed(database: Database, size: int) -> None:
    budget = Budget.create("BRL", id="budget")
    for n in range(EXPENSES):
        budget.register(f"Despesa {n}", Money.of("100", "BRL"))
    budget.register("Mercado", Money.of("1500", "BRL"))
    await SqlBudgetRepository(database).save(budget)
    async with database.reading() as connection:
        ids = [row.id for row in await connection.execute(
            expenses.select().where(expenses.c.budget_id == "budget").order_by(expenses.c.position))]
    per_expense = max(1, size // EXPENSES)
    periods = months(per_expense)
    await insert_rows(database, actuals, [
        {"expense_id": expense_id, "period": period, "amount_minor": 1234, "currency": "BRL"}
        for expense_id in ids[:EXPENSES] for period in periods][:size])

    ana = Member("m-ana", "Ana")
    await SqlGoalRepository(database).save(Goal.create("Reserva", Money.of("1000000", "BRL"), members=[ana],
                                                       created_at=date(2000, 1, 1), id="goal"))
    await insert_rows(database, contributions, [
        {"goal_id": "goal", "position": n, "member_id": "m-ana", "member_name": "Ana", "amount_minor": 1,
         "currency": "BRL", "date": date(2000, 1, 1) + timedelta(days=n % 9000)} for n in range(size)])
    # The goal's version must move past the rows written behind the repository's back.
    await SqlGoalRepository(database).save(await SqlGoalRepository(database).load("goal"))

    now = datetime.now(UTC)
    await insert_rows(database, operations, [
        {"scope": SCOPE, "operation_id": f"old-{n}", "household_id": None, "tool": "recordSpend",
         "arguments": "{}", "fingerprint": "0" * 64, "preview": "{}", "status": "confirmed",
         "receipt": "{}", "created_at": now, "decided_at": now, "decided_by": "Ana", "message_id": n,
         "key": secrets.token_urlsafe(12)} for n in range(size)])


class OneMonth(SqlBudgetRepository):
    """What the tool would do if the port let it say which month it changes."""

    async def load(self, budget_id: str, **_: Any) -> Budget:
        return await super().load(budget_id, periods=[JUNE])


async def time_confirms(propose: Callable[[str], Awaitable[Any]], confirm: Callable[[str], Awaitable[Any]],
                        label: str) -> float:
    timings = []
    for run in range(RUNS):
        operation_id = f"{label}-{run}"
        await propose(operation_id)
        started = time.perf_counter()
        receipt = await confirm(operation_id)
        timings.append(time.perf_counter() - started)
        assert receipt.persisted
    return statistics.median(timings) * 1000


async def measure(database: Database) -> dict[str, float]:
    log = SqlOperationLog(database, SCOPE)
    spend = RecordSpendTool.create(budget_repo=SqlBudgetRepository(database), budget_id="budget",
                                   operations=log)
    one_month = RecordSpendTool.create(budget_repo=OneMonth(database), budget_id="budget", operations=log)
    contribute = ContributeToGoalTool.create(goal_repo=SqlGoalRepository(database), goal_id="goal",
                                             operations=log)
    confirmer = Confirmer([spend, contribute], log)
    month_confirmer = Confirmer([one_month], log)

    def spend_args(operation_id: str) -> dict[str, Any]:
        return {"expense": "Mercado", "period": str(JUNE), "operationId": operation_id,
                "amount": {"amount": Decimal("0.01"), "currency": "BRL"}}

    def contribution_args(operation_id: str) -> dict[str, Any]:
        return {"goal": "Reserva", "paidBy": "Ana", "date": "2026-06-15", "operationId": operation_id,
                "amount": {"amount": Decimal("0.01"), "currency": "BRL"}}

    return {
        "recordSpend": await time_confirms(lambda i: spend.invoke(spend_args(i)), confirmer.confirm, "s"),
        "recordSpend/month": await time_confirms(lambda i: one_month.invoke(spend_args(i)),
                                                 month_confirmer.confirm, "m"),
        "contributeToGoal": await time_confirms(lambda i: contribute.invoke(contribution_args(i)),
                                                confirmer.confirm, "c"),
    }


async def measure_log_only(database: Database) -> float:
    """recordSpend on a small budget: what a long operation log alone costs."""
    budget = Budget.create("BRL", id="small")
    budget.register("Mercado", Money.of("1500", "BRL"))
    await SqlBudgetRepository(database).save(budget)
    log = SqlOperationLog(database, SCOPE)
    spend = RecordSpendTool.create(budget_repo=SqlBudgetRepository(database), budget_id="small", operations=log)
    args = lambda i: {"expense": "Mercado", "period": "2026-06", "operationId": i,  # noqa: E731
                      "amount": {"amount": Decimal("0.01"), "currency": "BRL"}}
    return await time_confirms(lambda i: spend.invoke(args(i)), Confirmer([spend], log).confirm, "l")


async def fresh_database(kind: str, workdir: Path, size: int) -> tuple[Database, Callable[[], Awaitable[None]]]:
    if kind == "sqlite":
        database = Database(f"sqlite+aiosqlite:///{workdir / f'bench-{size}.db'}")
        await upgrade_database(database)
        return database, database.dispose
    import asyncpg

    url = os.environ["TEST_DATABASE_URL"]
    plain = url.replace("postgres://", "postgresql://", 1)
    schema = f"household_bench_{os.getpid()}_{size}"
    admin = await asyncpg.connect(plain)
    await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE; CREATE SCHEMA "{schema}"')
    database = Database(url, connect_args={"server_settings": {"search_path": schema}})
    await upgrade_database(database)

    async def close() -> None:
        await database.dispose()
        await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()

    return database, close


async def main() -> None:
    kinds = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])
    with tempfile.TemporaryDirectory() as workdir:
        for kind in kinds:
            results: dict[int, dict[str, float]] = {}
            for size in SIZES:
                database, close = await fresh_database(kind, Path(workdir), size)
                try:
                    started = time.perf_counter()
                    await seed(database, size)
                    seeded = time.perf_counter() - started
                    results[size] = await measure(database)
                    results[size]["recordSpend/log"] = await measure_log_only(database)
                    print(f"{kind}: seeded {size:,} rows of each kind in {seeded:.1f} s", file=sys.stderr)
                finally:
                    await close()
            print(f"\n{kind}: median of {RUNS} confirmations, milliseconds")
            print(f"{'':20}" + "".join(f"{size:>12,}" for size in SIZES))
            for name in results[SIZES[0]]:
                print(f"{name:20}" + "".join(f"{results[size][name]:>12.1f}" for size in SIZES))


if __name__ == "__main__":
    asyncio.run(main())
