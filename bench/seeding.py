"""The bench's databases and what is seeded into them: a migrated SQLite or PostgreSQL database
per bot server (BenchDatabase), the benchmarked household (30 expenses, 5 goals, Ana and Bruno in
several group chats) with 10 rows of each kind of history, and the 100,000-row history of the
"big" database, bulk-inserted with SQLAlchemy Core.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import os
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from bench.common import ANA, BRUNO, TIMEZONE, WAIT, this_month
from bench.prompt_size import EXPENSES
from domain.budget import Budget
from domain.clock import local_today, utc_now
from domain.goals import Goal
from domain.household import Household
from domain.money import Money, Period
from infra.db import ChatDirectory, Database, SqlBudgetRepository, SqlGoalRepository, SqlHouseholdRepository
from infra.db.migrate import upgrade_database
from infra.db.tables import (
    budgets,
    chat_members,
    chats,
    expenses,
    goal_members,
    goals,
    households,
    ledger_entries,
    members,
    operations,
    processed_updates,
)
from infra.db.values import dumps
from tests.fakes.telegram_api import message_update

HISTORY_ROWS = 100_000
SMALL_ROWS = 10
OTHER_HOUSEHOLDS = 1_000
# The benchmarked household's own big history (the rest of the 100,000 is spread over the others):
OWN_MONTHS = 300             # 25 years of monthly actuals for each of its 30 expenses: 9,000 rows
OWN_CONTRIBUTIONS = 2_000    # per goal, 5 goals: 10,000 rows
OWN_OPERATIONS = 20_000      # in its chats: every spend of 25 years, about two a day


def months_before(period: Period, count: int) -> list[str]:
    """The `count` months before `period`, newest first, as stored ("2026-05")."""
    index = period.year * 12 + period.month - 1
    return [f"{(index - n) // 12:04d}-{(index - n) % 12 + 1:02d}" for n in range(1, count + 1)]


# --------------------------------------------------------------------------- databases


@dataclass
class BenchDatabase:
    """A migrated database for one bot server, and the driver's own connection to it."""

    url: str
    database: Database
    drop: Callable[[], Any] | None = None

    async def close(self) -> None:
        await self.database.dispose()
        if self.drop is not None:
            await self.drop()

    async def done(self, update_id: int, timeout: float = WAIT) -> None:
        """Waits until the bot marked the update done in its inbox."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            async with self.database.reading() as connection:
                status = (await connection.execute(
                    select(processed_updates.c.status)
                    .where(processed_updates.c.update_id == update_id))).scalar_one_or_none()
            if status == "done":
                return
            await asyncio.sleep(0.002)
        raise TimeoutError(f"update {update_id} not done after {timeout} s")

    async def counts(self) -> dict[str, int]:
        async with self.database.reading() as connection:
            return {table.name: int((await connection.execute(
                select(func.count()).select_from(table))).scalar_one())
                for table in (ledger_entries, operations, processed_updates)}


async def sqlite_database(workdir: Path, name: str) -> BenchDatabase:
    url = f"sqlite+aiosqlite:///{workdir / f'{name}.db'}"
    database = Database(url)
    await upgrade_database(database)
    return BenchDatabase(url, database)


async def postgres_database(admin_url: str, name: str) -> BenchDatabase:
    """A fresh database on the server of `admin_url`, created and later dropped with asyncpg."""
    import asyncpg

    plain = make_url(admin_url.replace("postgres://", "postgresql://", 1)).set(drivername="postgresql")
    db_name = f"household_bench_{os.getpid()}_{name}"
    admin_dsn = plain.render_as_string(hide_password=False)
    admin = await asyncpg.connect(admin_dsn)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{db_name}"')
        await admin.execute(f'CREATE DATABASE "{db_name}"')
    finally:
        await admin.close()
    url = plain.set(database=db_name).render_as_string(hide_password=False)
    database = Database(url)
    await upgrade_database(database)

    async def drop() -> None:
        connection = await asyncpg.connect(admin_dsn)
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
        finally:
            await connection.close()

    return BenchDatabase(url, database, drop)


# --------------------------------------------------------------------------- seeding


@dataclass
class Household_:
    household_id: str
    budget_id: str
    member_ids: dict[int, str]
    goal_ids: list[str]
    chats: list[int]


async def seed_household(db: Database, chat_ids: list[int]) -> Household_:
    """The benchmarked household: 30 expenses with aliases, 5 goals, Ana and Bruno, reached
    through `chat_ids` (several group chats of the same couple, so that no chat meets Telegram's
    20-messages-a-minute group limit during the rounds), and 10 rows of each kind of history."""
    household = Household.create("Casa da Ana e do Bruno", "BRL")
    ana = household.add_member(ANA[1])
    bruno = household.add_member(BRUNO[1])
    await SqlHouseholdRepository(db).save(household)
    budget = Budget.create("BRL", household_id=household.id)
    for name, expected, aliases, _ in EXPENSES:
        budget.register(name, Money.of(expected, "BRL"), aliases=aliases)
    budget.set_income(Money.of(18500, "BRL"))
    month = this_month()
    for expense in budget.expenses[:SMALL_ROWS]:  # 10 actuals, this month
        expense.replace_actual(month, Money.of("12.34", "BRL"))
    await SqlBudgetRepository(db).save(budget)
    today = local_today(utc_now, TIMEZONE)
    specs = [("Amsterdam", 6000, "EUR", date(today.year + 1, 9, 1)), ("Reserva de emergência", 30000, "BRL", None),
             ("Lua de mel", 6000, "EUR", date(today.year + 2, 6, 1)),
             ("Carro novo", 45000, "BRL", date(today.year + 1, 6, 30)),
             ("Notebook do Bruno", 8000, "BRL", date(today.year, 12, 1))]
    goal_ids = []
    for n, (name, amount, currency, deadline) in enumerate(specs):
        goal = Goal.create(name, Money.of(amount, currency), members=[ana, bruno],
                           created_at=date(today.year - 1, 1, 10), deadline=deadline,
                           household_id=household.id)
        for k in range(2):  # 10 contributions
            goal.contribute([ana, bruno][k], Money.of(100 + n, "BRL"), today - timedelta(days=30 * (k + 1)))
        await SqlGoalRepository(db).save(goal)
        goal_ids.append(goal.id)
    directory = ChatDirectory(db)
    for chat_id in chat_ids:
        await directory.link_chat(chat_id, household.id, budget.id)
        await directory.link_member(chat_id, ANA[0], ana.id)
        await directory.link_member(chat_id, BRUNO[0], bruno.id)
    seeded = Household_(household.id, budget.id, {ANA[0]: ana.id, BRUNO[0]: bruno.id}, goal_ids, chat_ids)
    now = datetime.now(UTC)
    await insert_rows(db, operations, [
        operation_row(f"chat:{chat_ids[n % len(chat_ids)]}", f"seed-{n}", household.id, now, n)
        for n in range(SMALL_ROWS)])
    await insert_rows(db, processed_updates, [
        update_row(n + 1, chat_ids[n % len(chat_ids)], now) for n in range(SMALL_ROWS)])
    return seeded


def operation_row(scope: str, operation_id: str, household_id: str | None, when: datetime,
                  n: int) -> dict[str, Any]:
    name, _, _, _ = EXPENSES[n % len(EXPENSES)]
    amount = Decimal(1000 + n % 9000).scaleb(-2)
    period = f"{when.year:04d}-{when.month:02d}"
    arguments = {"expense": name, "period": period, "amount": {"amount": amount, "currency": "BRL"},
                 "operation_id": operation_id}
    preview = {"expense": name, "period": period, "delta": {"amount": amount, "currency": "BRL"},
               "newActual": {"amount": amount * 3, "currency": "BRL"}}
    status = ("confirmed", "confirmed", "confirmed", "confirmed", "cancelled", "expired")[n % 6]
    receipt = ({"operation_id": operation_id, "preview": preview, "confirmed": True, "persisted": True}
               if status == "confirmed" else None)
    return {"scope": scope, "operation_id": operation_id, "household_id": household_id,
            "tool": "recordSpend", "arguments": dumps(arguments), "fingerprint": secrets.token_hex(32),
            "preview": dumps(preview), "status": status,
            "receipt": dumps(receipt) if receipt else None, "created_at": when,
            "decided_at": when + timedelta(minutes=2), "decided_by": "Ana" if n % 2 else "Bruno",
            "message_id": n + 1, "key": secrets.token_urlsafe(12)}


def update_row(update_id: int, chat_id: int, when: datetime) -> dict[str, Any]:
    payload = message_update(update_id, chat_id, ANA[0], ANA[1], "gastei 12,34 na padaria",
                             date=int(when.timestamp()))
    return {"update_id": update_id, "chat_id": chat_id, "payload": dumps(payload), "status": "done",
            "received_at": when, "claimed_by": "worker-1", "claimed_until": None, "attempts": 1}


async def insert_rows(db: Database, table: Any, rows: list[dict[str, Any]], batch: int = 5_000) -> None:
    async with db.transaction() as unit:
        for start in range(0, len(rows), batch):
            await unit.connection.execute(table.insert(), rows[start:start + batch])


def spread(total: int, parts: int) -> list[int]:
    return [total // parts + (1 if n < total % parts else 0) for n in range(parts)]


async def seed_history(db: Database, own: Household_, total: int = HISTORY_ROWS) -> None:
    """Bulk-inserts (SQLAlchemy Core) up to `total` spend entries, `total` contribution entries,
    `total` operations and `total` inbox updates: a big history on the benchmarked household, the
    rest over 1,000 other households, each with its own chat, 2 members, 30 expenses and 2 goals."""
    now = datetime.now(UTC)
    month = this_month()
    actuals, contributions = "spend entries", "contribution entries"  # both go to ledger_entries
    rows: dict[Any, list[dict[str, Any]]] = {t: [] for t in (
        households, members, budgets, expenses, actuals, goals, goal_members, contributions,
        operations, chats, chat_members, processed_updates)}

    # Its own: 25 years of monthly actuals, 2,000 contributions a goal, 20,000 operations.
    async with db.reading() as connection:
        own_expenses = [row.id for row in await connection.execute(
            select(expenses.c.id).where(expenses.c.budget_id == own.budget_id).order_by(expenses.c.position))]
    for expense_id in own_expenses:
        rows[actuals] += [spend_entry(own.household_id, own.budget_id, expense_id, period, 1000 + n, now)
                          for n, period in enumerate(months_before(month, OWN_MONTHS))]
    for goal_id in own.goal_ids:
        rows[contributions] += [
            contribution_entry(own.household_id, goal_id, own.member_ids[(ANA, BRUNO)[n % 2][0]],
                               (ANA, BRUNO)[n % 2][1], 5000 + n % 100,
                               now.date() - timedelta(days=3 * (OWN_CONTRIBUTIONS - n)), now)
            for n in range(OWN_CONTRIBUTIONS)]
    span = timedelta(days=365 * 25)
    rows[operations] += [
        operation_row(f"chat:{own.chats[n % len(own.chats)]}", f"old-{n}", own.household_id,
                      now - span + span * n / OWN_OPERATIONS, n) for n in range(OWN_OPERATIONS)]
    rows[processed_updates] += [update_row(SMALL_ROWS + 1 + n, own.chats[n % len(own.chats)],
                                           now - span + span * n / OWN_OPERATIONS)
                                for n in range(OWN_OPERATIONS)]

    # The others share what is left of each kind.
    left = {kind: total - SMALL_ROWS - len(rows[kind])
            for kind in (actuals, contributions, operations, processed_updates)}
    per_actuals = spread(left[actuals], OTHER_HOUSEHOLDS)
    per_contributions = spread(left[contributions], OTHER_HOUSEHOLDS)
    per_operations = spread(left[operations], OTHER_HOUSEHOLDS)
    per_updates = spread(left[processed_updates], OTHER_HOUSEHOLDS)
    update_ids = itertools.count(1_000_000)
    for h in range(OTHER_HOUSEHOLDS):
        household_id, budget_id, chat_id = uuid.uuid4().hex, uuid.uuid4().hex, -2_000_000 - h
        member_ids = [uuid.uuid4().hex, uuid.uuid4().hex]
        rows[households].append({"id": household_id, "name": f"Casa {h}", "currency": "BRL", "version": 3})
        rows[members] += [{"household_id": household_id, "id": m, "name": name, "position": i}
                          for i, (m, name) in enumerate(zip(member_ids, ("Ana", "Bruno"), strict=True))]
        rows[budgets].append({"id": budget_id, "household_id": household_id, "currency": "BRL",
                              "income_minor": 1_200_000, "income_currency": "BRL", "version": 40})
        expense_ids = [uuid.uuid4().hex for _ in EXPENSES]
        rows[expenses] += [{"id": e, "budget_id": budget_id, "name": name, "expected_minor": int(expected) * 100,
                            "currency": "BRL", "category": None, "billing_day": None, "payment_method": None,
                            "position": i}
                           for i, (e, (name, expected, _, _)) in enumerate(zip(expense_ids, EXPENSES, strict=True))]
        periods = months_before(month, math.ceil(per_actuals[h] / len(expense_ids)))
        rows[actuals] += [spend_entry(household_id, budget_id, expense_ids[n % len(expense_ids)],
                                      periods[n // len(expense_ids)], 1234 + n, now)
                          for n in range(per_actuals[h])]
        goal_ids = [uuid.uuid4().hex, uuid.uuid4().hex]
        for g, goal_id in enumerate(goal_ids):
            rows[goals].append({"id": goal_id, "household_id": household_id, "name": f"Meta {g}",
                                "target_minor": 1_000_000, "target_currency": "BRL",
                                "created_at": date(2020, 1, 1), "deadline": None, "version": 10})
            rows[goal_members] += [{"goal_id": goal_id, "position": i, "member_id": m, "member_name": name}
                                   for i, (m, name) in enumerate(zip(member_ids, ("Ana", "Bruno"), strict=True))]
        rows[contributions] += [contribution_entry(household_id, goal_ids[n % 2], member_ids[n % 2],
                                                   ("Ana", "Bruno")[n % 2], 10_000,
                                                   date(2020, 1, 1) + timedelta(days=n), now)
                                for n in range(per_contributions[h])]
        rows[operations] += [operation_row(f"chat:{chat_id}", f"op-{n}", household_id,
                                           now - timedelta(days=n), n) for n in range(per_operations[h])]
        rows[processed_updates] += [update_row(next(update_ids), chat_id, now - timedelta(days=n))
                                    for n in range(per_updates[h])]
        rows[chats].append({"chat_id": chat_id, "household_id": household_id, "budget_id": budget_id,
                            "created_at": now - timedelta(days=900)})
        rows[chat_members] += [{"chat_id": chat_id, "telegram_user_id": 5_000_000 + 2 * h + i,
                                "member_id": m} for i, m in enumerate(member_ids)]
    for table, table_rows in rows.items():
        await insert_rows(db, ledger_entries if isinstance(table, str) else table, table_rows)


def spend_entry(household_id: str, budget_id: str, expense_id: str, period: str, units: int,
                when: datetime) -> dict[str, Any]:
    return {"household_id": household_id, "kind": "spend", "budget_id": budget_id,
            "expense_id": expense_id, "subject": "Despesa", "period": period, "amount_minor": units,
            "currency": "BRL", "created_at": when}


def contribution_entry(household_id: str, goal_id: str, member_id: str, member: str, units: int,
                       day: date, when: datetime) -> dict[str, Any]:
    return {"household_id": household_id, "kind": "contribution", "goal_id": goal_id, "subject": "Meta",
            "paid_by_id": member_id, "paid_by": member, "amount_minor": units, "currency": "BRL",
            "day": day, "created_at": when}
