"""How long one confirmation takes with a short and a long history (not a test).

    python bench/confirm_history.py            # SQLite; PostgreSQL too when TEST_DATABASE_URL is set

For 10 and for 100,000 stored rows it times one confirmation (the median of 20), through the
tools as the bot builds them, of:
  recordSpend               with that many spend entries in the ledger (the tool loads the one month)
  contributeToGoal          with that many contribution entries of the goal (loaded without history)
  recordSpend/log           with one expense but that many operations in the log
and, to show what the partial loads save, the same two confirmations with repositories that
load everything whatever the tool asks (what the tools did before):
  recordSpend/whole         the whole budget, every month of every expense
  contributeToGoal/whole    the goal with its whole history
"""

from __future__ import annotations

import asyncio
import gc
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

from domain.budget import Budget
from domain.goals import Goal
from domain.household import Member
from domain.money import Money, Period
from domain.tools.budget import RecordSpendTool
from domain.tools.confirmer import Confirmer
from domain.tools.goals import ContributeToGoalTool
from infra.db import Database, SqlBudgetRepository, SqlGoalRepository, SqlOperationLog
from infra.db.migrate import upgrade_database
from infra.db.tables import expenses, ledger_entries, operations

SIZES = (10, 100_000)
RUNS = 20
WARMUP = 2  # confirmations not counted: the first ones open connections and fill statement caches
EXPENSES = 50
JUNE = Period(2026, 6)
SCOPE = "bench"


def months(count: int) -> list[str]:
    """`count` months before JUNE, the latest first: the history, never the month being changed,
    so both sizes load (and write) the same June rows and differ only in their past."""
    last = JUNE.year * 12 + JUNE.month - 1
    return [str(Period((last - n) // 12, (last - n) % 12 + 1)) for n in range(1, count + 1)]


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
    # `size` spend entries spread over every expense, Mercado (the one the spends change) included.
    periods = months(-(-size // len(ids)))
    now = datetime.now(UTC)
    await insert_rows(database, ledger_entries, [
        {"kind": "spend", "budget_id": "budget", "expense_id": expense_id, "subject": "Despesa",
         "period": period, "amount_minor": 1234, "currency": "BRL", "created_at": now}
        for period in periods for expense_id in ids][:size])

    ana = Member("m-ana", "Ana")
    await SqlGoalRepository(database).save(Goal.create("Reserva", Money.of("1000000", "BRL"), members=[ana],
                                                       created_at=date(2000, 1, 1), id="goal"))
    await insert_rows(database, ledger_entries, [
        {"kind": "contribution", "goal_id": "goal", "subject": "Reserva", "paid_by_id": "m-ana",
         "paid_by": "Ana", "amount_minor": 1, "currency": "BRL",
         "day": date(2000, 1, 1) + timedelta(days=n % 9000), "created_at": now} for n in range(size)])
    # The goal's version must move past the rows written behind the repository's back.
    await SqlGoalRepository(database).save(await SqlGoalRepository(database).load("goal"))

    await insert_rows(database, operations, [
        {"scope": SCOPE, "operation_id": f"old-{n}", "household_id": None, "tool": "recordSpend",
         "arguments": "{}", "fingerprint": "0" * 64, "preview": "{}", "status": "confirmed",
         "receipt": "{}", "created_at": now, "decided_at": now, "decided_by": "Ana", "message_id": n,
         "key": secrets.token_urlsafe(12)} for n in range(size)])


class WholeBudget(SqlBudgetRepository):
    """Loads every month whatever the tool asks: what recordSpend cost before partial loads."""

    async def load(self, budget_id: str, **_: Any) -> Budget:
        return await super().load(budget_id)


class WholeGoal(SqlGoalRepository):
    """Loads the whole history whatever the tool asks: what contributeToGoal cost before."""

    async def load(self, goal_id: str, **_: Any) -> Goal:
        return await super().load(goal_id)


Case = tuple[Callable[[str], Awaitable[Any]], Callable[[str], Awaitable[Any]]]  # propose, confirm


async def cases(database: Database) -> dict[str, Case]:
    """Each measured confirmation, as the bot builds the tool: propose an operation, confirm it."""
    log = SqlOperationLog(database, SCOPE)

    def spend_args(operation_id: str) -> dict[str, Any]:
        return {"expense": "Mercado", "period": str(JUNE), "operationId": operation_id,
                "amount": {"amount": Decimal("0.01"), "currency": "BRL"}}

    def contribution_args(operation_id: str) -> dict[str, Any]:
        return {"goal": "Reserva", "paidBy": "Ana", "date": "2026-06-15", "operationId": operation_id,
                "amount": {"amount": Decimal("0.01"), "currency": "BRL"}}

    def spending(repo: SqlBudgetRepository, budget_id: str = "budget") -> Case:
        tool = RecordSpendTool.create(budget_repo=repo, budget_id=budget_id, operations=log)
        return (lambda i: tool.invoke(spend_args(i))), Confirmer([tool], log).confirm

    def contributing(repo: SqlGoalRepository) -> Case:
        tool = ContributeToGoalTool.create(goal_repo=repo, goal_id="goal", operations=log)
        return (lambda i: tool.invoke(contribution_args(i))), Confirmer([tool], log).confirm

    # What a long operation log alone costs: a budget with one expense and no history.
    small = Budget.create("BRL", id="small")
    small.register("Mercado", Money.of("1500", "BRL"))
    await SqlBudgetRepository(database).save(small)
    return {
        "recordSpend": spending(SqlBudgetRepository(database)),
        "contributeToGoal": contributing(SqlGoalRepository(database)),
        "recordSpend/log": spending(SqlBudgetRepository(database), "small"),
        "recordSpend/whole": spending(WholeBudget(database)),
        "contributeToGoal/whole": contributing(WholeGoal(database)),
    }


async def measure(databases: dict[int, Database]) -> dict[int, dict[str, float]]:
    """Median milliseconds per size and case. The sizes take turns, run after run, so whatever
    else the machine does (a checkpoint, another process) falls on both alike."""
    prepared = {size: await cases(database) for size, database in databases.items()}
    timings: dict[int, dict[str, list[float]]] = {size: {name: [] for name in ROWS} for size in databases}
    for run in range(WARMUP + RUNS):
        for name in ROWS:
            for size, by_name in prepared.items():
                propose, confirm = by_name[name]
                operation_id = f"{name}-{run}"
                await propose(operation_id)
                gc.collect()  # not the garbage of the case before (a whole history) on this one's clock
                started = time.perf_counter()
                receipt = await confirm(operation_id)
                elapsed = time.perf_counter() - started
                assert receipt.persisted, (name, size, run)
                if run >= WARMUP:
                    timings[size][name].append(elapsed)
    return {size: {name: statistics.median(times) * 1000 for name, times in by_name.items()}
            for size, by_name in timings.items()}


async def check_savings(database: Database, size: int) -> None:
    """The running total still equals the contributions it sums, after every confirmation."""
    light = await SqlGoalRepository(database).load("goal", history=False)
    whole = await SqlGoalRepository(database).load("goal")
    assert light.saved_by_currency() == whole.saved_by_currency(), (light.prior_savings, size)
    assert len(whole.contributions) == size + 2 * (WARMUP + RUNS)


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


async def settle(database: Database) -> None:
    """After the bulk load, what a database in service has anyway: on PostgreSQL the statistics
    and visibility map autovacuum keeps, on SQLite the WAL checkpointed into the file."""
    async with database.engine.connect() as connection:
        if database.dialect == "postgresql":
            autocommit = await connection.execution_options(isolation_level="AUTOCOMMIT")
            await autocommit.exec_driver_sql("VACUUM ANALYZE")
        else:
            await connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            await connection.commit()


ROWS = ("recordSpend", "contributeToGoal", "recordSpend/log", "recordSpend/whole", "contributeToGoal/whole")


async def main() -> None:
    kinds = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])
    with tempfile.TemporaryDirectory() as workdir:
        for kind in kinds:
            databases: dict[int, Database] = {}
            closers: list[Callable[[], Awaitable[None]]] = []
            try:
                for size in SIZES:
                    database, close = await fresh_database(kind, Path(workdir), size)
                    databases[size] = database
                    closers.append(close)
                    started = time.perf_counter()
                    await seed(database, size)
                    await settle(database)
                    print(f"{kind}: seeded {size:,} rows of each kind in {time.perf_counter() - started:.1f} s",
                          file=sys.stderr)
                results = await measure(databases)
                for size, database in databases.items():
                    await check_savings(database, size)
            finally:
                for close in closers:
                    await close()
            small, large = SIZES
            print(f"\n{kind}: median of {RUNS} confirmations, milliseconds")
            print(f"{'':24}{small:>10,}{large:>10,}{'ratio':>8}")
            for name in ROWS:
                short, long = results[small][name], results[large][name]
                print(f"{name:24}{short:>10.1f}{long:>10.1f}{long / short:>8.2f}")


if __name__ == "__main__":
    asyncio.run(main())
