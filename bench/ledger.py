"""The ledger's reads: /extrato against /resumo, and /exportar's time and memory (not a test).

    python bench/ledger.py                 # SQLite; prints JSON
    python bench/ledger.py --postgres URL  # PostgreSQL too (a fresh database, dropped afterwards)

Through HouseholdService over SqlStorage, as the bot calls it (no Telegram round trip, which
both commands share):
  extrato_vs_resumo   /extrato of a month with 1,000 entries / /resumo of that month   <= 1.5
  export_100k_s       /exportar of a household with 100,000 entries, written to a file  <= 5
  export_peak_rss_mb  peak RSS of a process that only exports, at 10,000 and 100,000 entries,
                      and how much the export added to it (flat: the same at both sizes)
  saldo_vs_resumo     /saldo of a household with 100,000 shared spends / /resumo of the same
                      household, on the same database (issue 23)                              <= 1.5
  fatura_vs_resumo    /fatura of a card with 5 years of daily purchases and 200 open parcelados
                      (12x) / /resumo of the same household (issue 24)                        <= 1.5
bench/run.py runs this and reports the same keys under "ledger".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from sqlalchemy import text  # noqa: E402

from bot.app.outcomes import Speaker  # noqa: E402
from bot.app.service import HouseholdService  # noqa: E402
from domain.cards import CardRef, parcelas  # noqa: E402
from domain.household import Member  # noqa: E402
from domain.ledger import EntryKind  # noqa: E402
from domain.money import Money, Period  # noqa: E402
from domain.sharing.rules import SplitRule, shares_of  # noqa: E402
from infra.db import ChatDirectory, Database, SqlStorage  # noqa: E402
from infra.db.migrate import upgrade_database  # noqa: E402
from infra.db.stores.ledger import entry_row, insert_entries  # noqa: E402
from infra.db.tables import expenses, ledger_entries  # noqa: E402

GOALS = {"extrato_vs_resumo": 1.5, "export_100k_s": 5.0, "saldo_vs_resumo": 1.5, "fatura_vs_resumo": 1.5}
CARD_YEARS = 5
OPEN_PARCELADOS = 200
CHAT_CARD = -9_400_001
SHARED_ENTRIES = 100_000
MONTH_ENTRIES = 1_000
EXPORT_SIZES = (10_000, 100_000)
RUNS = 30
ANA = Speaker(1, "Ana")
CHAT_SALDO = -9_300_001
EXPENSE_NAMES = [f"Despesa {n}" for n in range(30)]


def this_month() -> Period:
    return Period.of(datetime.now(UTC).date())


async def household(database: Database, chat_id: int) -> tuple[str, str, list[str]]:
    """A household with 30 expenses in `chat_id`: (household id, budget id, expense ids)."""
    service = HouseholdService(SqlStorage(database))
    await service.start(chat_id, f"Casa {chat_id}", ANA)
    link = await ChatDirectory(database).household_of_chat(chat_id)
    assert link is not None
    storage = SqlStorage(database)
    budget = await storage.budgets.load(link.budget_id)
    for name in EXPENSE_NAMES:
        budget.register(name, Money.of(100, "BRL"))
    await storage.budgets.save(budget)
    async with database.reading() as connection:
        ids = [row.id for row in await connection.execute(
            expenses.select().where(expenses.c.budget_id == link.budget_id).order_by(expenses.c.position))]
    return link.household_id, link.budget_id, ids


def entry_rows(household_id: str, budget_id: str, expense_ids: list[str], count: int,
               months: int) -> list[dict[str, Any]]:
    """`count` spend entries over the `months` latest months, as confirmations would write them."""
    now = datetime.now(UTC)
    latest = this_month()
    periods = []
    year, month = latest.year, latest.month
    for _ in range(months):
        periods.append(f"{year:04d}-{month:02d}")
        year, month = (year - 1, 12) if month == 1 else (year, month - 1)
    return [{"household_id": household_id, "scope": "bench", "operation_id": f"op-{n}",
             "tool": "recordSpend", "kind": "spend", "budget_id": budget_id,
             "expense_id": expense_ids[n % len(expense_ids)], "subject": EXPENSE_NAMES[n % len(expense_ids)],
             "amount_minor": 1000 + n % 9000, "currency": "BRL", "period": periods[n % months],
             "day": None, "paid_by_id": None, "paid_by": None, "confirmed_by": "Ana", "undoes": None,
             "created_at": now - timedelta(minutes=count - n)} for n in range(count)]


async def insert_shared(database: Database, household_id: str, budget_id: str, expense_ids: list[str],
                        count: int) -> None:
    """`count` spends split between Ana and Bruno, written as a confirmation writes them: the entry,
    its two shares and the running balance (infra/db/stores/ledger.insert_entries)."""
    household = await SqlStorage(database).households.load(household_id)
    ana, bruno = household.members[0], Member("m-bench-bruno", "Bruno")
    latest = this_month()
    for start in range(0, count, 5000):
        rows = []
        for n in range(start, min(count, start + 5000)):
            payer = ana if n % 3 else bruno
            amount = Money.from_minor_units(1000 + n % 9000, "BRL")
            rows.append(entry_row(EntryKind.SPEND, EXPENSE_NAMES[n % len(expense_ids)], household_id=household_id,
                                  amount=amount, budget_id=budget_id, expense_id=expense_ids[n % len(expense_ids)],
                                  period=latest.plus(-(n % 120)), payer=payer,
                                  shares=shares_of(amount, payer, [ana, bruno], SplitRule(), {})))
        async with database.transaction() as unit:
            await insert_entries(unit.connection, rows)


async def card_history(database: Database, chat_id: int) -> int:
    """A household whose card "Nubank" (closes on the 3rd, due on the 10th) had a purchase every
    day for CARD_YEARS years up to today, and OPEN_PARCELADOS purchases in 12x over the last
    months, whose parcelas still fall in faturas to come: the rows confirmations write (the
    entries, each with its card and parcela, and their shares). Returns how many entries."""
    household_id, budget_id, expense_ids = await household(database, chat_id)
    storage = SqlStorage(database)
    budget = await storage.budgets.load(budget_id, periods=())
    card = budget.register_card("Nubank", 3, 10)
    await storage.budgets.save(budget)
    members = (await storage.households.load(household_id)).members
    ana = members[0]
    today = datetime.now(UTC).date()
    purchases: list[tuple[Any, Money, int]] = [
        (today - timedelta(days=n), Money.from_minor_units(1000 + n % 9000, "BRL"), 1)
        for n in range(CARD_YEARS * 365)]
    purchases += [(today - timedelta(days=n % 150), Money.from_minor_units(120_000 + n, "BRL"), 12)
                  for n in range(OPEN_PARCELADOS)]
    rows = []
    for n, (day, total, count) in enumerate(purchases):
        for parcela in parcelas(card, total, day, count):
            rows.append(entry_row(
                EntryKind.SPEND, EXPENSE_NAMES[n % len(expense_ids)], household_id=household_id,
                amount=parcela.amount, budget_id=budget_id, expense_id=expense_ids[n % len(expense_ids)],
                period=parcela.fatura, day=day, payer=ana, shares=shares_of(parcela.amount, ana, [ana], SplitRule(), {}),
                card=CardRef(card.id, card.name, parcela.installment, parcela.installments)))
    for start in range(0, len(rows), 5000):
        async with database.transaction() as unit:
            await insert_entries(unit.connection, rows[start:start + 5000])
    return len(rows)


async def insert(database: Database, rows: list[dict[str, Any]]) -> None:
    async with database.transaction() as unit:
        for start in range(0, len(rows), 5000):
            await unit.connection.execute(ledger_entries.insert(), rows[start:start + 5000])


async def median_ms(step: Any, runs: int = RUNS) -> float:
    for _ in range(3):
        await step()
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        await step()
        timings.append(time.perf_counter() - started)
    return statistics.median(timings) * 1000


async def measure(url: str) -> dict[str, Any]:
    database = Database(url)
    try:
        await upgrade_database(database)
        chat_month = -9_100_001
        h, b, ids = await household(database, chat_month)
        await insert(database, entry_rows(h, b, ids, MONTH_ENTRIES, 1))
        export_chats = {size: -9_200_000 - size for size in EXPORT_SIZES}
        for size, chat_id in export_chats.items():
            h2, b2, ids2 = await household(database, chat_id)
            await insert(database, entry_rows(h2, b2, ids2, size, 120))
        h3, b3, ids3 = await household(database, CHAT_SALDO)
        await insert_shared(database, h3, b3, ids3, SHARED_ENTRIES)
        card_entries = await card_history(database, CHAT_CARD)
        if database.engine.dialect.name == "postgresql":
            # As autovacuum does after a bulk change: without statistics, PostgreSQL takes an
            # IN (…) of 200 ids over 200,000 share rows for a sequential scan (20 ms, not 1).
            async with database.engine.begin() as connection:
                await connection.execute(text("ANALYZE"))
        service = HouseholdService(SqlStorage(database))
        month = this_month()
        resumo_ms = await median_ms(lambda: service.answer("resumo", chat_month, ANA, str(month)))
        extrato_ms = await median_ms(lambda: service.answer("extrato", chat_month, ANA, str(month)))
        saldo_resumo_ms = await median_ms(lambda: service.answer("resumo", CHAT_SALDO, ANA, str(month)))
        saldo_ms = await median_ms(lambda: service.answer("saldo", CHAT_SALDO, ANA, ""))
        saldo_text = await service.answer("saldo", CHAT_SALDO, ANA, "")
        card_resumo_ms = await median_ms(lambda: service.answer("resumo", CHAT_CARD, ANA, str(month)))
        fatura_ms = await median_ms(lambda: service.answer("fatura", CHAT_CARD, ANA, "nubank"))
        fatura_text = await service.answer("fatura", CHAT_CARD, ANA, "nubank")
    finally:
        await database.dispose()
    exports = {size: export_in_child(url, chat_id, size) for size, chat_id in export_chats.items()}
    big = exports[max(EXPORT_SIZES)]
    return {
        "extrato_vs_resumo": extrato_ms / resumo_ms,
        "export_100k_s": big["seconds"],
        "saldo_vs_resumo": saldo_ms / saldo_resumo_ms,
        "fatura_vs_resumo": fatura_ms / card_resumo_ms,
        "details": {"fatura_ms": fatura_ms, "card_household_resumo_ms": card_resumo_ms,
                    "card_entries": card_entries, "fatura_items": fatura_text.count("\n• "),
                    "fatura_total": next(line for line in fatura_text.splitlines() if line.startswith("Total")),"resumo_ms": resumo_ms, "extrato_ms": extrato_ms, "month_entries": MONTH_ENTRIES,
                    "saldo_ms": saldo_ms, "saldo_household_resumo_ms": saldo_resumo_ms,
                    "saldo_entries": SHARED_ENTRIES, "saldo_answer": saldo_text.splitlines()[2],
                    "exports": {str(size): figures for size, figures in exports.items()}},
    }


def export_in_child(url: str, chat_id: int, size: int) -> dict[str, Any]:
    """Runs one /exportar of the first `size` entries in a fresh process: its time, its peak RSS
    and what the export added to the peak (the rest is the interpreter and the imports)."""
    output = subprocess.run([sys.executable, __file__, "--child", url, str(chat_id), str(size)],
                            check=True, capture_output=True, text=True, cwd=REPO)
    result: dict[str, Any] = json.loads(output.stdout.strip().splitlines()[-1])
    return result


async def child(url: str, chat_id: int, size: int) -> dict[str, Any]:
    database = Database(url)
    try:
        service = HouseholdService(SqlStorage(database))
        await service.answer("extrato", chat_id, ANA, "")  # connect and warm up before the baseline
        before = peak_rss_kb()
        with tempfile.TemporaryFile() as out:
            started = time.perf_counter()
            await service.export(chat_id, ANA, None, out)
            seconds = time.perf_counter() - started
            written = out.tell()
        after = peak_rss_kb()
    finally:
        await database.dispose()
    return {"entries": size, "seconds": seconds, "bytes": written, "peak_rss_mb": after / 1024,
            "export_added_mb": (after - before) / 1024}


def peak_rss_kb() -> int:
    """This process's peak RSS (VmHWM): unlike ru_maxrss it starts afresh at exec, so the
    parent's memory at the fork does not count."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


async def postgres_url(admin_url: str) -> tuple[str, str]:
    import asyncpg
    from sqlalchemy.engine import make_url

    plain = make_url(admin_url.replace("postgres://", "postgresql://", 1)).set(drivername="postgresql")
    name = f"bench_ledger_{uuid.uuid4().hex[:8]}"
    connection = await asyncpg.connect(plain.render_as_string(hide_password=False))
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    return plain.set(drivername="postgresql+asyncpg", database=name).render_as_string(hide_password=False), name


async def drop_postgres(admin_url: str, name: str) -> None:
    import asyncpg
    from sqlalchemy.engine import make_url

    plain = make_url(admin_url.replace("postgres://", "postgresql://", 1)).set(drivername="postgresql")
    connection = await asyncpg.connect(plain.render_as_string(hide_password=False))
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await connection.close()


async def run(postgres: str | None, workdir: Path) -> dict[str, Any]:
    report = await measure(f"sqlite+aiosqlite:///{workdir / 'ledger.db'}")
    if postgres:
        url, name = await postgres_url(postgres)
        try:
            report["postgresql"] = await measure(url)
        finally:
            await drop_postgres(postgres, name)
    return report


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        print(json.dumps(asyncio.run(child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", metavar="URL", default=os.environ.get("TEST_DATABASE_URL") or None)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="household-ledger-bench-") as workdir:
        report = asyncio.run(run(options.postgres, Path(workdir)))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
