"""Issue 16's figures: the schedule's reminders and charts (self-contained: `python bench/run.py
--only-schedule` runs just this block; bench/run.py runs it too unless --skip-schedule).

  due reminders   finding the bills due on a day, and the month's closings, among 10,000
                  households (100,000 expenses), one query each, median ms; goal <= 200 ms on
                  PostgreSQL (and EXPLAIN ANALYZE's share there)
  chart           drawing one month chart (goal <= 1 s), in a fresh process with a worker's imports,
                  and what that process grows by after one chart (goal <= 60 MB) and after six
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import text

from bench.common import REPO
from bench.seeding import insert_rows, postgres_database, sqlite_database
from infra.db import Database, tables
from infra.db.tables import budgets, chats, expenses

SCHEDULE_HOUSEHOLDS = 10_000
SCHEDULE_EXPENSES_EACH = 10
SCHEDULE_GOAL_MS = 200.0   # finding the due reminders of 10,000 households, PostgreSQL
CHART_GOAL_S = 1.0         # drawing one chart
CHART_GROWTH_GOAL_MB = 60  # what a worker grows by once it has drawn one


async def seed_schedule(db: Database, households_count: int = SCHEDULE_HOUSEHOLDS) -> None:
    """Households with a chat and 10 expenses each (billing days spread over the month, a fifth
    with none), 5 % with reminders off, and a third of one day's reminders already sent."""
    rng = random.Random(16)
    now = datetime.now(UTC)
    chat_rows, budget_rows, expense_rows, off_rows = [], [], [], []
    for n in range(households_count):
        household_id, budget_id = f"hh-{n}", f"bu-{n}"
        chat_rows.append({"chat_id": -2_000_000_000 - n, "household_id": household_id, "budget_id": budget_id,
                          "created_at": now - timedelta(days=400)})
        budget_rows.append({"id": budget_id, "household_id": household_id, "currency": "BRL",
                            "income_minor": None, "income_currency": None, "version": 1})
        for k in range(SCHEDULE_EXPENSES_EACH):
            expense_rows.append({"id": f"ex-{n}-{k}", "budget_id": budget_id, "name": f"Despesa {k}",
                                 "expected_minor": rng.randrange(5_000, 500_000), "currency": "BRL",
                                 "category": None, "payment_method": rng.choice([None, "Pix", "Boleto"]),
                                 "billing_day": None if rng.random() < 0.2 else rng.randint(1, 31),
                                 "position": k})
        if n % 20 == 0:
            off_rows.append({"household_id": household_id, "enabled": False, "changed_at": now})
    await insert_rows(db, budgets, budget_rows)
    await insert_rows(db, chats, chat_rows)
    await insert_rows(db, expenses, expense_rows)
    await insert_rows(db, tables.reminder_preferences, off_rows)
    sent = [{"kind": "bill", "subject_id": row["id"], "due_on": date(2026, 6, 16), "chat_id": 0, "status": "sent",
             "claimed_by": None, "claimed_until": None, "attempts": 1, "sent_at": now}
            for row in expense_rows if row["billing_day"] == 16][::3]
    await insert_rows(db, tables.scheduled_sends, sent)
    if db.dialect == "postgresql":
        async with db.engine.connect() as connection:
            await connection.execution_options(isolation_level="AUTOCOMMIT")
            await connection.execute(text("ANALYZE"))


async def time_due_reminders(db: Database, reps: int) -> dict[str, Any]:
    from domain.clock import billing_days_due_on
    from infra.db.stores.schedule import ScheduleStore

    store = ScheduleStore(db)
    now = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)
    result: dict[str, Any] = {}
    for label, due in (("ordinary_day", date(2026, 6, 16)), ("months_last_day", date(2026, 2, 28))):
        times, found = [], 0
        for _ in range(reps + 3):
            started = time.perf_counter()
            found = len(await store.due_bills(due, billing_days_due_on(due), now))
            times.append((time.perf_counter() - started) * 1000)
        result[f"{label}_ms"] = statistics.median(times[3:])
        result[f"{label}_found"] = found
    times = []
    for _ in range(reps + 3):
        started = time.perf_counter()
        closings = len(await store.due_closings(date(2026, 7, 1), now, now))
        times.append((time.perf_counter() - started) * 1000)
    result["closings_ms"], result["closings_found"] = statistics.median(times[3:]), closings
    if db.dialect == "postgresql":
        # The database's own share: EXPLAIN ANALYZE of the same query (the rest is the driver
        # turning rows into Python objects).
        from infra.db.stores.schedule import due_bills_query

        for label, due in (("ordinary_day", date(2026, 6, 16)), ("months_last_day", date(2026, 2, 28))):
            async with db.reading() as connection:
                compiled = due_bills_query(due, billing_days_due_on(due), now).compile(dialect=connection.dialect)
                params = tuple(compiled.params[name] for name in compiled.positiontup or ())
                plan = (await connection.exec_driver_sql("EXPLAIN ANALYZE " + str(compiled), params)).scalars().all()
            result[f"{label}_database_ms"] = float(plan[-1].split(":")[1].split()[0])
            result["plan_uses_billing_day_index"] = any("ix_expenses_billing_day" in line for line in plan)
    return result


CHART_PROBE = r"""
import json, statistics, sys, time
from datetime import date
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
import bot.telegram.webhook  # a worker's imports
from bot.texts.chart import render_month_chart
from domain.money import Money, Period
from domain.reports import BudgetReport, ExpenseStatus, GoalReport, MonthReport
brl = lambda amount: Money.of(amount, "BRL")
lines = tuple(ExpenseStatus(f"Despesa número {n}", brl(1500 + 37 * n), brl(930 + 91 * n)) for n in range(12))
budget = BudgetReport(Period(2026, 11), lines, brl(sum(1500 + 37 * n for n in range(12))),
                      brl(sum(930 + 91 * n for n in range(12))), None)
saved, target = Money.of(1850, "EUR"), Money.of(6000, "EUR")
goals = tuple(GoalReport(f"Meta {n}", target, date(2027, 9, 1), {"EUR": saved}, saved, 30,
                         Money.of("383.33", "EUR"), None) for n in range(4))
report = MonthReport(budget, goals)
from bot.texts import chart
before = rss()
started = time.perf_counter(); png = render_month_chart(report); first = time.perf_counter() - started
after_one = rss()
draws, releases = [], []
for _ in range(5):
    started = time.perf_counter(); chart._render(report); drawn = time.perf_counter()
    chart._give_memory_back(); draws.append(drawn - started); releases.append(time.perf_counter() - drawn)
print(json.dumps({"first_chart_s": first, "chart_s": statistics.median(draws),
                  "release_s": statistics.median(releases), "png_bytes": len(png),
                  "rss_before_mb": before, "growth_after_one_chart_mb": after_one - before,
                  "growth_after_six_charts_mb": rss() - before}))
"""


def measure_chart() -> dict[str, Any]:
    """In a fresh process with a worker's imports: the first chart (which imports matplotlib),
    the next ones, and what the process grew by."""
    done = subprocess.run([sys.executable, "-c", CHART_PROBE], cwd=REPO, capture_output=True, text=True,
                          check=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    return json.loads(done.stdout.strip().splitlines()[-1])


async def measure_schedule(options: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    reps = 10 if options.quick else 30
    result: dict[str, Any] = {"households": SCHEDULE_HOUSEHOLDS,
                              "expenses": SCHEDULE_HOUSEHOLDS * SCHEDULE_EXPENSES_EACH}
    makers: list[tuple[str, Callable[[], Any]]] = [("sqlite", lambda: sqlite_database(workdir, "schedule"))]
    if options.postgres:
        makers.append(("postgresql", lambda: postgres_database(options.postgres, "schedule")))
    for name, make in makers:
        bench_db = await make()
        try:
            await seed_schedule(bench_db.database)
            result[name] = await time_due_reminders(bench_db.database, reps)
        finally:
            await bench_db.close()
    result["chart"] = await asyncio.to_thread(measure_chart)
    return result


def schedule_table(schedule: dict[str, Any]) -> list[str]:
    lines = ["", f"schedule: due reminders of {schedule['households']:,} households "
                 f"({schedule['expenses']:,} expenses), one query, median ms:"]
    for name in ("sqlite", "postgresql"):
        r = schedule.get(name)
        if r:
            goal = f" (goal <= {SCHEDULE_GOAL_MS:.0f} ms: {'✓' if r['ordinary_day_ms'] <= SCHEDULE_GOAL_MS else '✗'})" \
                if name == "postgresql" else ""
            lines.append(f"  {name:11} ordinary day {r['ordinary_day_ms']:.1f} ({r['ordinary_day_found']} due), "
                         f"month's last day {r['months_last_day_ms']:.1f} ({r['months_last_day_found']} due), "
                         f"closings {r['closings_ms']:.1f} ({r['closings_found']}){goal}")
            if "ordinary_day_database_ms" in r:
                lines.append(f"  {'':11} of which the database (EXPLAIN ANALYZE): {r['ordinary_day_database_ms']:.1f} "
                             f"and {r['months_last_day_database_ms']:.1f}; billing-day index used: "
                             f"{'yes' if r['plan_uses_billing_day_index'] else 'no'}")
    chart = schedule["chart"]
    lines.append(f"  chart: {chart['chart_s']:.2f} s to draw (goal <= {CHART_GOAL_S:.0f} s) and "
                 f"{chart['release_s']:.2f} s to give the memory back; first "
                 f"{chart['first_chart_s']:.2f} s with matplotlib's import; worker grew "
                 f"{chart['growth_after_one_chart_mb']:.0f} MB after one (goal <= {CHART_GROWTH_GOAL_MB}), "
                 f"{chart['growth_after_six_charts_mb']:.0f} MB after six")
    return lines
