"""The bot's own cost against a bare python-telegram-bot, history growth, prompt size, concurrency.

A benchmark, not a test (issue 9). Everything goes over real loopback HTTP:

    driver (this process) --POST update--> webhook server (a subprocess) --Bot API--> fake Telegram
                                                                         (tests/fakes, in this process)

and every latency is `perf_counter` time from just before the driver POSTs the update to the
moment the fake Bot API receives the answer it waits for. The floor is a bare PTB echo bot behind
the same Starlette + uvicorn route on the same fake (bench/servers.py); its rounds are interleaved
with the household bot's, so a busy machine slows both alike and the ratios come from one run.

    python bench/run.py --quick                      # ~1 minute on 2 cores (SQLite)
    python bench/run.py --json out.json              # the full setting (200 repetitions)
    python bench/run.py --quick --postgres postgresql://postgres@127.0.0.1:5432/test
    (PostgreSQL is measured too whenever TEST_DATABASE_URL is set; a fresh database is created
    for the run with asyncpg and dropped afterwards.)

Keys of --json (the goals are issue 9's):
  turn_vs_echo                member's text -> the preview's sendMessage, / echo       <= 2.0
  confirm_vs_echo             Confirmar press -> editMessageText, / echo                <= 1.5
  confirm_history_ratio       confirm with 100,000 stored spend and contribution ledger
                              entries each, and operations (and inbox updates) / with 10 <= 1.2
  prompt_tokens               bench/prompt_size.py, gpt-4o-mini                          <= 1500
  concurrent_chats_wall_ratio 100 chats at once, model takes 1 s: wall time / 1 s        <= 2.0
plus "ledger" (bench/ledger.py: /extrato against /resumo, /exportar's time and peak RSS),
"postgresql" (the same keys there), "worker" (start-up time of `household-bot webhook`, whether
litellm is imported before /healthz answers, peak RSS of a `python -m bot webhook` worker) and
"details" (the medians in milliseconds behind every ratio).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import logging
import math
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import httpx  # noqa: E402
from sqlalchemy import func, select, text, update  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from bench import ledger as bench_ledger  # noqa: E402
from bench.prompt_size import EXPENSES  # noqa: E402
from bot.texts import messages  # noqa: E402
from domain.budget import Budget  # noqa: E402
from domain.clock import local_today, utc_now  # noqa: E402
from domain.goals import Goal  # noqa: E402
from domain.household import Household  # noqa: E402
from domain.money import Money, Period  # noqa: E402
from infra.db import (  # noqa: E402
    ChatDirectory,
    Database,
    SqlBudgetRepository,
    SqlGoalRepository,
    SqlHouseholdRepository,
    tables,
)
from infra.db.inbox import UpdateInbox  # noqa: E402
from infra.db.migrate import upgrade_database  # noqa: E402
from infra.db.tables import (  # noqa: E402
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
from infra.db.values import dumps  # noqa: E402
from tests.fakes.telegram_api import Call, FakeTelegramAPI, callback_update, message_update  # noqa: E402

GOALS = {"turn_vs_echo": 2.0, "confirm_vs_echo": 1.5, "confirm_history_ratio": 1.2,
         "prompt_tokens": 1500, "concurrent_chats_wall_ratio": 2.0}
TOKEN = "123456:BENCH"
SECRET = "bench-webhook-secret"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
WEBHOOK = "/telegram/webhook"
TIMEZONE = "America/Sao_Paulo"
ANA, BRUNO = (1001, "Ana"), (1002, "Bruno")
HISTORY_ROWS = 100_000
SMALL_ROWS = 10
OTHER_HOUSEHOLDS = 1_000
# The benchmarked household's own big history (the rest of the 100,000 is spread over the others):
OWN_MONTHS = 300             # 25 years of monthly actuals for each of its 30 expenses: 9,000 rows
OWN_CONTRIBUTIONS = 2_000    # per goal, 5 goals: 10,000 rows
OWN_OPERATIONS = 20_000      # in its chats: every spend of 25 years, about two a day
CONCURRENT_CHATS = 100
SLOW_MODEL_SECONDS = 1.0
MAX_GROUP_REQUESTS_PER_CHAT = 16  # AIORateLimiter lets a group burst 20 requests, then 1 per 3 s
GAP = 0.02                   # seconds between measured actions, so none overlaps the last one
WAIT = 30.0
TEXT = "gastei 37,90 no mercado"
CONFIRMED = messages.confirmed_answer()
SLOW = "SLOW: oi, tudo bem?"

log = logging.getLogger("bench")
_update_ids = itertools.count(10_000_000)


def next_update_id() -> int:
    return next(_update_ids)


def this_month() -> Period:
    return Period.of(local_today(utc_now, TIMEZONE))


def months_before(period: Period, count: int) -> list[str]:
    """The `count` months before `period`, newest first, as stored ("2026-05")."""
    index = period.year * 12 + period.month - 1
    return [f"{(index - n) // 12:04d}-{(index - n) % 12 + 1:02d}" for n in range(1, count + 1)]


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


# --------------------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """A webhook server in a subprocess, ready once GET /healthz answers."""

    name: str
    command: list[str]
    port: int
    logdir: Path
    env: dict[str, str] | None = None
    cwd: Path | None = None
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    ready_after: float = 0.0
    cpu_per_round_ms: float = 0.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.logdir / f"{self.name}.log"

    def spawn(self) -> None:
        self.started_at = time.perf_counter()
        with open(self.log_path, "ab") as log_file:
            self.process = subprocess.Popen(self.command, stdout=log_file, stderr=subprocess.STDOUT,
                                            env=self.env, cwd=self.cwd)

    async def ready(self, timeout: float = 90.0) -> float:
        """Seconds from spawn until /healthz answered 200."""
        assert self.process is not None
        deadline = time.perf_counter() + timeout
        async with httpx.AsyncClient(timeout=1.0) as client:
            while time.perf_counter() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError(f"{self.name} exited with {self.process.returncode}; "
                                       f"see {self.log_path}:\n{self.log_path.read_text()[-3000:]}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get(f"{self.url}/healthz")).status_code == 200:
                        self.ready_after = time.perf_counter() - self.started_at
                        return self.ready_after
                await asyncio.sleep(0.01)
        raise RuntimeError(f"{self.name} did not answer /healthz in {timeout} s; see {self.log_path}")

    async def start(self) -> Server:
        self.spawn()
        await self.ready()
        return self

    def status(self, field_name: str) -> int | None:
        """A field of /proc/<pid>/status in kB (VmHWM: peak resident set size), Linux only."""
        if self.process is None:
            return None
        try:
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith(field_name + ":"):
                    return int(line.split()[1])
        except OSError:
            return None
        return None

    def cpu_s(self) -> float:
        """CPU seconds the process has used (user + system, all threads), Linux only."""
        if self.process is None:
            return 0.0
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=120 if PROFILE_DIR or TRACE_DIR else 15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


PROFILE_DIR: Path | None = None  # --profile: the bench servers run under pyinstrument
TRACE_DIR: Path | None = None  # --trace: the bench servers time their main steps


def bench_server(kind: str, name: str, api: str, logdir: Path, database_url: str | None = None,
                 *extra: str, repo: Path = REPO) -> Server:
    """A bench server of this checkout, or of the checkout at `repo` (--against: an A/B)."""
    port = free_port()
    env = None
    if PROFILE_DIR is not None:
        env = {**os.environ, "BENCH_PROFILE": str(PROFILE_DIR / name)}
    if TRACE_DIR is not None:
        env = {**(env or os.environ), "BENCH_TRACE": str(TRACE_DIR / f"{name}.trace.txt")}
    command = [sys.executable, str(repo / "bench" / "servers.py"), kind, "--port", str(port),
               "--api", api, "--token", TOKEN, "--secret", SECRET]
    if database_url:
        command += ["--database-url", database_url]
    return Server(name, command + list(extra), port, logdir, env=env)


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


# --------------------------------------------------------------------------- driving the servers


class Driver:
    """Posts updates as Telegram does and finds the answers at the fake Bot API."""

    def __init__(self, tg: FakeTelegramAPI) -> None:
        self.tg = tg
        self.clients: dict[str, httpx.AsyncClient] = {}
        # Call.at is time.monotonic(); map it onto perf_counter (the same clock on Linux).
        self.offset = statistics.median(time.perf_counter() - time.monotonic() for _ in range(5))

    def client(self, server: Server) -> httpx.AsyncClient:
        if server.url not in self.clients:
            self.clients[server.url] = httpx.AsyncClient(
                base_url=server.url, timeout=WAIT,
                limits=httpx.Limits(max_connections=200, max_keepalive_connections=200))
        return self.clients[server.url]

    async def close(self) -> None:
        for client in self.clients.values():
            await client.aclose()
        self.clients.clear()

    def mark(self) -> int:
        with self.tg._lock:  # the fake's own list, without copying thousands of calls
            return len(self.tg._calls)

    async def post(self, server: Server, update: dict[str, Any]) -> None:
        response = await self.client(server).post(WEBHOOK, json=update, headers={SECRET_HEADER: SECRET})
        response.raise_for_status()

    async def wait_for(self, method: str, predicate: Callable[[Call], bool], since: int,
                       count: int = 1, timeout: float = WAIT) -> list[Call]:
        try:
            return await asyncio.to_thread(self.tg.wait_for, method, predicate, timeout, count, since=since)
        except TimeoutError as error:
            seen = [(c.method, c.status, c.params.get("chat_id"), str(c.params.get("text"))[:120])
                    for c in self.tg.calls[since:][-10:]]
            raise TimeoutError(f"{error}; since the request: {seen}") from None

    def at(self, call: Call) -> float:
        return call.at + self.offset

    async def timed(self, server: Server, update: dict[str, Any], method: str,
                    predicate: Callable[[Call], bool]) -> tuple[float, Call]:
        since = self.mark()
        started = time.perf_counter()
        await self.post(server, update)
        [call, *_] = await self.wait_for(method, predicate, since)
        return self.at(call) - started, call


def in_chat(chat_id: int, *, preview: bool | None = None) -> Callable[[Call], bool]:
    def matches(call: Call) -> bool:
        if call.params.get("chat_id") != chat_id or not call.ok:
            return False
        return preview is None or bool(call.params.get("reply_markup")) == preview
    return matches


@dataclass
class BotUnderTest:
    name: str
    server: Server
    db: BenchDatabase
    chats: list[int]
    turns: list[float] = field(default_factory=list)
    confirms: list[float] = field(default_factory=list)

    async def turn(self, driver: Driver, chat_id: int) -> tuple[float, Call]:
        update_id = next_update_id()
        elapsed, preview = await driver.timed(
            self.server, message_update(update_id, chat_id, ANA[0], ANA[1], TEXT),
            "sendMessage", in_chat(chat_id, preview=True))
        await self.db.done(update_id)
        return elapsed, preview

    async def confirm(self, driver: Driver, chat_id: int, preview: Call) -> float:
        data = preview.params["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
        message_id = preview.result["message_id"]
        update_id = next_update_id()
        since = driver.mark()
        elapsed, edit = await driver.timed(
            self.server, callback_update(update_id, chat_id, BRUNO[0], BRUNO[1], data, message_id),
            "editMessageText", lambda c: in_chat(chat_id)(c) and c.params.get("message_id") == message_id)
        await self.db.done(update_id)
        answers = [c for c in driver.tg.calls[since:] if c.method == "answerCallbackQuery"]
        if "Desfazer" not in str(edit.params.get("reply_markup")) or \
                [c.params.get("text") for c in answers] != [CONFIRMED]:
            raise RuntimeError(f"the press did not confirm: {edit.params}, {[c.params for c in answers]}")
        return elapsed


async def echo_once(driver: Driver, echo: Server, chat_id: int) -> float:
    elapsed, _ = await driver.timed(echo, message_update(next_update_id(), chat_id, ANA[0], ANA[1], TEXT),
                                    "sendMessage", in_chat(chat_id))
    return elapsed


async def rounds(driver: Driver, echo: Server, bots: list[BotUnderTest], warmup: int, reps: int,
                 progress: str) -> list[float]:
    """`warmup + reps` rounds; each round, in a shuffled order: one echo, and for every bot one
    turn then one confirm of the preview it made. Only the last `reps` rounds count."""
    echoes: list[float] = []
    shuffle = random.Random(9)
    cpu: dict[str, float] = {}
    for n in range(warmup + reps):
        if n == warmup:
            cpu = {server.name: server.cpu_s() for server in [echo, *(bot.server for bot in bots)]}
        steps: list[Any] = ["echo", *bots]
        shuffle.shuffle(steps)
        for step in steps:
            await asyncio.sleep(GAP)
            if step == "echo":
                elapsed = await echo_once(driver, echo, -99)
                if n >= warmup:
                    echoes.append(elapsed)
                continue
            chat_id = step.chats[n % len(step.chats)]
            turn, preview = await step.turn(driver, chat_id)
            await asyncio.sleep(GAP)
            confirm = await step.confirm(driver, chat_id, preview)
            if n >= warmup:
                step.turns.append(turn)
                step.confirms.append(confirm)
        if (n + 1) % 25 == 0:
            log.info("%s: %d/%d rounds", progress, n + 1, warmup + reps)
    await asyncio.sleep(GAP)
    for bot in bots:
        bot.server.cpu_per_round_ms = (bot.server.cpu_s() - cpu[bot.server.name]) / reps * 1000
    echo.cpu_per_round_ms = (echo.cpu_s() - cpu[echo.name]) / reps * 1000
    return echoes


async def concurrent_chats(driver: Driver, bot: Server, db: BenchDatabase, first_chat: int) -> dict[str, float]:
    """100 chats, each set up with /start, then one message each, all at once; the model takes 1 s.
    Returns the wall time from the first POST to the last reply at the fake."""
    chat_ids = [first_chat - n for n in range(CONCURRENT_CHATS)]
    since = driver.mark()
    started = time.perf_counter()
    for batch in range(0, len(chat_ids), 10):
        await asyncio.gather(*(driver.post(bot, message_update(next_update_id(), c, ANA[0], ANA[1], "/start"))
                               for c in chat_ids[batch:batch + 10]))
    await driver.wait_for("sendMessage", lambda c: c.params.get("chat_id") in set(chat_ids), since,
                          count=len(chat_ids), timeout=120)
    set_up = time.perf_counter() - started
    await asyncio.sleep(1.5)  # Telegram's ~30 messages/s allowance refills (AIORateLimiter's bucket)
    updates = [message_update(next_update_id(), c, ANA[0], ANA[1], SLOW) for c in chat_ids]
    wanted = set(chat_ids)
    since = driver.mark()
    cpu = bot.cpu_s()
    started = time.perf_counter()
    await asyncio.gather(*(driver.post(bot, message) for message in updates))
    posted = time.perf_counter() - started
    replies = await driver.wait_for("sendMessage", lambda c: c.params.get("chat_id") in wanted and c.ok,
                                    since, count=len(chat_ids), timeout=180)
    arrivals = sorted(driver.at(c) - started for c in replies)
    for message in updates:
        await db.done(message["update_id"])
    cpu = bot.cpu_s() - cpu
    return {"wall_s": arrivals[-1], "worker_cpu_s": cpu,
            # Telegram takes ~30 messages a second from a bot (AIORateLimiter keeps to it, bursts of
            # 30): the 100 replies alone, sent once the model answered, cannot land sooner.
            "flood_floor_s": SLOW_MODEL_SECONDS + max(0, len(chat_ids) - 30) / 30,
            "first_reply_s": arrivals[0],
            "median_reply_s": statistics.median(arrivals), "all_posted_s": posted, "setup_s": set_up,
            "bot_api_requests": float(sum(1 for c in driver.tg.calls[since:]
                                          if c.params.get("chat_id") in wanted))}


# --------------------------------------------------------------------------- one database


async def measure_database(kind: str, make_db: Callable[[str], Any], driver: Driver, echo: Server,
                           api: str, logdir: Path, options: argparse.Namespace) -> dict[str, Any]:
    total_rounds = options.warmup + options.reps
    # A turn makes 3 group requests (typing, text, preview) and a confirmation 1: 4 rounds a chat.
    pool = math.ceil(total_rounds / (MAX_GROUP_REQUESTS_PER_CHAT // 4)) + 1
    chat_ids = [-100_000 - n for n in range(pool)]
    small, big = await make_db("small"), await make_db("big")
    servers: list[Server] = []
    try:
        started = time.perf_counter()
        await seed_household(small.database, chat_ids)
        big_own = await seed_household(big.database, chat_ids)
        await seed_history(big.database, big_own)
        counts = {"small": await small.counts(), "big": await big.counts()}
        log.info("%s: seeded in %.1f s: %s", kind, time.perf_counter() - started, counts)
        small_server = bench_server("bot", f"{kind}-small", api, logdir, small.url)
        big_server = bench_server("bot", f"{kind}-big", api, logdir, big.url)
        servers += [small_server, big_server]
        # --against: the same small household served by other checkouts, in the same rounds.
        others: list[BotUnderTest] = []
        for n, repo in enumerate(options.against):
            other_db = await make_db(f"against{n}")
            await seed_household(other_db.database, chat_ids)
            other = bench_server("bot", f"{kind}-against{n}", api, logdir, other_db.url, repo=repo)
            servers.append(other)
            others.append(BotUnderTest(str(repo), other, other_db, chat_ids))
        await asyncio.gather(small_server.start(), big_server.start(), *(o.server.start() for o in others))
        small_bot = BotUnderTest("small", small_server, small, chat_ids)
        big_bot = BotUnderTest("big", big_server, big, chat_ids)
        echoes = await rounds(driver, echo, [small_bot, big_bot, *others], options.warmup, options.reps, kind)
        for other in others:
            other.server.stop()
            await other.db.close()
        echo_ms = median_ms(echoes)
        details = {
            "echo_ms": echo_ms,
            "turn_ms": median_ms(small_bot.turns), "confirm_ms": median_ms(small_bot.confirms),
            "turn_history_ms": median_ms(big_bot.turns), "confirm_history_ms": median_ms(big_bot.confirms),
            "echo_p90_ms": quantile_ms(echoes, 0.9), "turn_p90_ms": quantile_ms(small_bot.turns, 0.9),
            "confirm_p90_ms": quantile_ms(small_bot.confirms, 0.9),
            "confirm_history_p90_ms": quantile_ms(big_bot.confirms, 0.9),
            "rows": counts, "repetitions": options.reps, "warmup": options.warmup,
            # CPU of the whole server process (10 ms clock ticks, summed over the measured rounds)
            "echo_cpu_ms_per_message": echo.cpu_per_round_ms,
            "bot_cpu_ms_per_turn_and_confirm": small_server.cpu_per_round_ms,
        }
        if others:
            # Each round times every bot within a second or so, so the paired difference of a
            # round (the other checkout's time minus this one's) cancels most of the machine's load.
            details["against"] = {other.name: {
                "turn_ms": median_ms(other.turns), "confirm_ms": median_ms(other.confirms),
                "turn_minus_this_ms": median_ms([a - b for a, b in zip(other.turns, small_bot.turns, strict=True)]),
                "confirm_minus_this_ms": median_ms([a - b for a, b in zip(other.confirms, small_bot.confirms,
                                                                           strict=True)]),
                "cpu_ms_per_turn_and_confirm": other.server.cpu_per_round_ms} for other in others}
        big_server.stop()
        details["floor"] = await measure_floor(kind, make_db, echo_ms, max(options.reps, 30))
        if options.skip_concurrency:
            return ratios(details)
        log.info("%s: 100 chats at once (production rate limiter)", kind)
        concurrent = await concurrent_chats(driver, small_server, small, -3_000_000)
        details["concurrent"] = concurrent
        details["bot_peak_rss_mb"] = (small_server.status("VmHWM") or 0) / 1024
        small_server.stop()
        # The same without Telegram's ~30 messages/s (AIORateLimiter's overall and group limits
        # off, nothing else changed), on a database of its own: what our own work costs.
        log.info("%s: 100 chats at once (no flood limit)", kind)
        loose_db = await make_db("loose")
        try:
            loose = bench_server("bot", f"{kind}-loose", api, logdir, loose_db.url, "--no-flood-limit")
            servers.append(loose)
            await loose.start()
            details["concurrent_no_flood_limit"] = await concurrent_chats(driver, loose, loose_db, -4_000_000)
            loose.stop()
        finally:
            await loose_db.close()
        return ratios(details)
    finally:
        for server in servers:
            server.stop()
        await small.close()
        await big.close()


def ratios(details: dict[str, Any]) -> dict[str, Any]:
    echo_ms = details["echo_ms"]
    concurrent = details.get("concurrent")
    loose = details.get("concurrent_no_flood_limit")
    return {
        "turn_vs_echo": details["turn_ms"] / echo_ms,
        "confirm_vs_echo": details["confirm_ms"] / echo_ms,
        "confirm_history_ratio": details["confirm_history_ms"] / details["confirm_ms"],
        "concurrent_chats_wall_ratio": concurrent["wall_s"] / SLOW_MODEL_SECONDS if concurrent else None,
        "concurrent_chats_wall_ratio_no_flood_limit": loose["wall_s"] / SLOW_MODEL_SECONDS if loose else None,
        "turn_history_ratio": details["turn_history_ms"] / details["turn_ms"],
        "details": details,
    }


async def measure_floor(kind: str, make_db: Callable[[str], Any], echo_ms: float, reps: int) -> dict[str, Any]:
    """What no implementation of the contract can skip, timed here with the project's Database on a
    scratch database of the same kind: the durable inbox write before the 200 (UpdateInbox.record
    itself), one read transaction for the chat, member, household, budget and goals, and for a
    confirmation its one durable write (conditional UPDATE of the operation, the month's actual,
    the budget's version, the receipt). A turn needs a second durable write for its preview.

    The floors add these to the echo and leave out everything else the bot does (the second Bot
    API message of a turn, the conversation, answerCallbackQuery, SQLAlchemy and PTB work):
    a real implementation costs more, never less."""
    bench_db = await make_db("floor")
    try:
        database = bench_db.database
        chat = -7_000_000
        own = await seed_household(database, [chat])
        inbox = UpdateInbox(database)
        ids = itertools.count(60_000_000)
        payload = message_update(1, chat, ANA[0], ANA[1], TEXT)
        month = str(this_month())
        pending = [operation_row(f"chat:{chat}", f"floor-{n}", own.household_id, datetime.now(UTC), n)
                   for n in range(reps + 5)]
        for row in pending:
            row.update(status="pending", receipt=None, decided_at=None, decided_by=None)
        await insert_rows(database, operations, pending)
        async with database.reading() as connection:
            expense_id = (await connection.execute(select(expenses.c.id).where(
                expenses.c.budget_id == own.budget_id).limit(1))).scalar_one()
        queue = iter(pending)

        async def record() -> None:
            await inbox.record(next(ids), chat, payload)

        async def read_context() -> None:
            async with database.reading() as connection:
                await connection.execute(select(chats).where(chats.c.chat_id == chat))
                await connection.execute(select(chat_members).where(
                    chat_members.c.chat_id == chat, chat_members.c.telegram_user_id == ANA[0]))
                await connection.execute(select(households).where(households.c.id == own.household_id))
                await connection.execute(select(members).where(members.c.household_id == own.household_id))
                (await connection.execute(select(expenses).where(expenses.c.budget_id == own.budget_id))).all()
                (await connection.execute(select(goals).where(goals.c.household_id == own.household_id))).all()

        async def confirm_write() -> None:
            row = next(queue)
            this = (operations.c.scope == row["scope"]) & (operations.c.operation_id == row["operation_id"])
            async with database.transaction() as unit:
                connection = unit.connection
                await connection.execute(update(operations).where(this, operations.c.status == "pending")
                                         .values(status="confirmed", decided_by="Bruno",
                                                 decided_at=datetime.now(UTC)))
                await connection.execute(select(budgets).where(budgets.c.id == own.budget_id))
                await connection.execute(ledger_entries.insert().values(
                    household_id=own.household_id, kind="spend", budget_id=own.budget_id,
                    expense_id=expense_id, subject="Mercado", period=month, amount_minor=3790,
                    currency="BRL", created_at=datetime.now(UTC)))
                await connection.execute(update(budgets).where(budgets.c.id == own.budget_id)
                                         .values(version=budgets.c.version + 1))
                await connection.execute(update(operations).where(this).values(receipt="{}"))

        async def median_of(step: Callable[[], Any]) -> float:
            timings = []
            for n in range(reps + 5):
                started = time.perf_counter()
                await step()
                if n >= 5:
                    timings.append(time.perf_counter() - started)
            return median_ms(timings)

        write_ms, read_ms, confirm_ms = (await median_of(record), await median_of(read_context),
                                         await median_of(confirm_write))
    finally:
        await bench_db.close()
    turn_floor = echo_ms + 2 * write_ms + read_ms
    confirm_floor = echo_ms + write_ms + read_ms + confirm_ms
    log.info("%s floor: durable inbox write %.2f ms, read transaction %.2f ms, confirm write %.2f ms",
             kind, write_ms, read_ms, confirm_ms)
    return {"inbox_write_ms": write_ms, "read_transaction_ms": read_ms, "confirm_write_ms": confirm_ms,
            "turn_floor_ms": turn_floor, "confirm_floor_ms": confirm_floor,
            "turn_floor_vs_echo": turn_floor / echo_ms, "confirm_floor_vs_echo": confirm_floor / echo_ms}


def quantile_ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


# --------------------------------------------------------------------------- the worker process


def worker_env(api: str, database_url: str, port: int, llm_base: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LLM_", "TELEGRAM_", "WEBHOOK_"))}
    env.update(TELEGRAM_BOT_TOKEN=TOKEN, TELEGRAM_API_BASE_URL=api, WEBHOOK_SECRET=SECRET,
               DATABASE_URL=database_url, HOST="127.0.0.1", PORT=str(port),
               LLM_MODEL="openai/fake-model", LLM_API_BASE=llm_base, LLM_API_KEY="sk-bench",
               LITELLM_OFFLINE_MODE="true", LITELLM_LOCAL_MODEL_COST_MAP="True",
               PYTHONPATH=str(REPO))
    return env


def worker_command(*python_options: str, script: bool = False) -> list[str]:
    """`household-bot webhook` (the installed script) or `python [options] -m bot webhook`."""
    installed = Path(sys.executable).with_name("household-bot")
    if script and installed.exists():
        return [str(installed), "webhook"]
    return [sys.executable, *python_options, "-m", "bot", "webhook"]


async def measure_worker(driver: Driver, api: str, workdir: Path, logdir: Path,
                         startups: int) -> dict[str, Any]:
    """Start-up of `household-bot webhook` until /healthz answers; whether litellm is imported by
    then; peak RSS (VmHWM) of a `python -m bot webhook` worker after real turns through litellm."""
    from tests.fakes.llm_server import FakeLLMServer, text, tool_calls

    month = str(this_month())
    counter = itertools.count(1)

    def responder(body: dict[str, Any]) -> Any:
        if body["messages"][-1].get("role") == "tool":
            return text("Prévia acima: é só confirmar.")
        return tool_calls(("recordSpend", {"expense": "Mercado", "period": month,
                                           "operationId": f"op-{next(counter)}",
                                           "amount": {"amount": Decimal("37.90"), "currency": "BRL"}}))

    bench_db = await sqlite_database(workdir, "worker")
    await seed_household(bench_db.database, [-5_000_000 - n for n in range(20)])
    result: dict[str, Any] = {}
    with FakeLLMServer(responder=responder) as llm:
        times = []
        for n in range(startups):
            port = free_port()
            server = Server(f"worker-startup-{n}", worker_command(script=True), port, logdir,
                            env=worker_env(api, bench_db.url, port, llm.base_url), cwd=workdir)
            server.spawn()
            times.append(await server.ready())
            result.setdefault("rss_after_startup_mb", (server.status("VmRSS") or 0) / 1024)
            server.stop()
        result["startup_s"] = statistics.median(times)
        result["startup_runs_s"] = times
        result["startup_command"] = " ".join(Path(part).name if n == 0 else part
                                             for n, part in enumerate(worker_command(script=True)))

        # Which modules were imported by the time /healthz answered (python -X importtime).
        port = free_port()
        server = Server("worker-importtime", worker_command("-X", "importtime"), port, logdir,
                        env=worker_env(api, bench_db.url, port, llm.base_url), cwd=workdir)
        server.log_path.unlink(missing_ok=True)
        server.spawn()
        await server.ready()
        await asyncio.sleep(0.5)
        server.stop()
        imported = [line.rsplit("|", 1)[-1].strip() for line in server.log_path.read_text().splitlines()
                    if line.startswith("import time:")]
        result["litellm_imported_at_startup"] = any(m == "litellm" or m.startswith("litellm.") for m in imported)
        result["modules_at_startup"] = len(imported)

        # A worker through real litellm turns: 20 chats, a turn and a confirmation each.
        port = free_port()
        server = Server("worker-memory", worker_command(), port, logdir,
                        env=worker_env(api, bench_db.url, port, llm.base_url), cwd=workdir)
        server.spawn()
        await server.ready()
        result["peak_rss_after_startup_mb"] = (server.status("VmHWM") or 0) / 1024
        chat_ids = [-5_000_000 - n for n in range(20)]
        first = time.perf_counter()
        elapsed, preview = await driver.timed(server, message_update(next_update_id(), chat_ids[0], ANA[0],
                                                                     ANA[1], TEXT),
                                              "sendMessage", in_chat(chat_ids[0], preview=True))
        result["first_turn_s"] = elapsed  # pays litellm's import
        since = driver.mark()
        await asyncio.gather(*(driver.post(server, message_update(next_update_id(), c, ANA[0], ANA[1], TEXT))
                               for c in chat_ids[1:]))
        previews = await driver.wait_for("sendMessage", lambda c: c.params.get("chat_id") in set(chat_ids[1:])
                                         and bool(c.params.get("reply_markup")), since,
                                         count=len(chat_ids) - 1, timeout=120)
        await asyncio.sleep(0.5)
        since = driver.mark()
        await asyncio.gather(*(driver.post(server, callback_update(
            next_update_id(), c.params["chat_id"], BRUNO[0], BRUNO[1],
            c.params["reply_markup"]["inline_keyboard"][0][0]["callback_data"], c.result["message_id"]))
            for c in [preview, *previews]))
        await driver.wait_for("editMessageText", lambda c: c.params.get("chat_id") in set(chat_ids), since,
                              count=len(chat_ids), timeout=120)
        result["workload_s"] = time.perf_counter() - first
        result["peak_rss_mb"] = (server.status("VmHWM") or 0) / 1024
        result["model_requests"] = len(llm.requests)
        server.stop()
    await bench_db.close()
    return result


# --------------------------------------------------------------------------- prompt size


def start_prompt_size() -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, str(REPO / "bench" / "prompt_size.py"), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "LITELLM_OFFLINE_MODE": "true"})


def prompt_tokens(process: subprocess.Popen[bytes]) -> tuple[int | None, list[dict[str, Any]]]:
    out, err = process.communicate(timeout=300)
    if process.returncode != 0:
        log.error("bench/prompt_size.py failed: %s", err.decode()[-2000:])
        return None, []
    results = json.loads(out)
    total = next((r.get("total") for r in results if r.get("model") == "gpt-4o-mini"), None)
    return total, results


# --------------------------------------------------------------------------- schedule (issue 16)
# Self-contained: `python bench/run.py --only-schedule` runs just this block.

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
    from domain.schedule import billing_days_due_on
    from infra.db.schedule import ScheduleStore

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
        from infra.db.schedule import due_bills_query

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
from bot.chart import render_month_chart
from bot.month import ExpenseLine, GoalLine, MonthReport
from domain.money import Money, Period
brl = lambda amount: Money.of(amount, "BRL")
lines = tuple(ExpenseLine(f"Despesa número {n}", brl(1500 + 37 * n), brl(930 + 91 * n)) for n in range(12))
goals = tuple(GoalLine(f"Meta {n}", Money.of(1850, "EUR"), Money.of(6000, "EUR"), date(2027, 9, 1),
                       Money.of("383.33", "EUR")) for n in range(4))
report = MonthReport(Period(2026, 11), lines, brl(sum(1500 + 37 * n for n in range(12))),
                     brl(sum(930 + 91 * n for n in range(12))), goals)
from bot import chart
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


# --------------------------------------------------------------------------- report


def verdict(key: str, value: float | None) -> str:
    if value is None:
        return "n/a"
    return "ok" if value <= GOALS[key] else "MISSED"


def fmt(value: Any, digits: int = 2) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def table(report: dict[str, Any]) -> str:
    dbs = [("SQLite", report)] + ([("PostgreSQL", report["postgresql"])] if report.get("postgresql") else [])
    lines = [f"{'key':34}{'goal':>8}" + "".join(f"{name:>14}" for name, _ in dbs)]
    for key in ("turn_vs_echo", "confirm_vs_echo", "confirm_history_ratio", "concurrent_chats_wall_ratio"):
        cells = "".join(f"{fmt(r.get(key)) + ' ' + ('✓' if verdict(key, r.get(key)) == 'ok' else '✗'):>14}"
                        for _, r in dbs)
        lines.append(f"{key:34}{'<= ' + fmt(GOALS[key], 1):>8}{cells}")
    tokens = report.get("prompt_tokens")
    lines.append(f"{'prompt_tokens (gpt-4o-mini)':34}{'<= 1500':>8}"
                 f"{fmt(tokens) + ' ' + ('✓' if verdict('prompt_tokens', tokens) == 'ok' else '✗'):>14}")
    lines.append("")
    lines.append("informational" + " " * 29 + "".join(f"{name:>14}" for name, _ in dbs))
    rows = [("turn floor / echo (lower bound)", lambda r: r["details"]["floor"]["turn_floor_vs_echo"]),
            ("confirm floor / echo (lower bound)", lambda r: r["details"]["floor"]["confirm_floor_vs_echo"]),
            ("  durable inbox write ms", lambda r: r["details"]["floor"]["inbox_write_ms"]),
            ("  read transaction (6 selects) ms", lambda r: r["details"]["floor"]["read_transaction_ms"]),
            ("  durable confirm write ms", lambda r: r["details"]["floor"]["confirm_write_ms"]),
            ("100 chats floor at 30 messages/s (ratio)",
             lambda r: (r["details"].get("concurrent") or {}).get("flood_floor_s")),
            ("concurrent, no flood limit (ratio)", lambda r: r.get("concurrent_chats_wall_ratio_no_flood_limit")),
            ("turn_history_ratio", lambda r: r.get("turn_history_ratio")),
            ("echo median ms", lambda r: r["details"]["echo_ms"]),
            ("turn median ms", lambda r: r["details"]["turn_ms"]),
            ("confirm median ms", lambda r: r["details"]["confirm_ms"]),
            ("confirm, 100k history, median ms", lambda r: r["details"]["confirm_history_ms"]),
            ("turn, 100k history, median ms", lambda r: r["details"]["turn_history_ms"]),
            ("echo server CPU ms per message", lambda r: r["details"]["echo_cpu_ms_per_message"]),
            ("bot CPU ms per turn + confirmation", lambda r: r["details"]["bot_cpu_ms_per_turn_and_confirm"]),
            ("100 chats wall s", lambda r: (r["details"].get("concurrent") or {}).get("wall_s")),
            ("100 chats wall s, no flood limit",
             lambda r: (r["details"].get("concurrent_no_flood_limit") or {}).get("wall_s")),
            ("100 chats: worker CPU s, no flood limit",
             lambda r: (r["details"].get("concurrent_no_flood_limit") or {}).get("worker_cpu_s")),
            ("bench bot server peak RSS MB", lambda r: r["details"].get("bot_peak_rss_mb"))]
    for label, get in rows:
        lines.append(f"{label:42}" + "".join(f"{fmt(get(r)):>14}" for _, r in dbs))
    for name, r in dbs:  # --against: other checkouts timed in the same rounds
        for repo, figures in (r["details"].get("against") or {}).items():
            lines.append(f"against {repo} ({name}): turn {fmt(figures['turn_ms'])} ms, confirm "
                         f"{fmt(figures['confirm_ms'])} ms (this checkout: {fmt(r['details']['turn_ms'])}, "
                         f"{fmt(r['details']['confirm_ms'])}); paired, minus this checkout: turn "
                         f"{fmt(figures['turn_minus_this_ms'])} ms, confirm {fmt(figures['confirm_minus_this_ms'])} "
                         f"ms; CPU {fmt(figures['cpu_ms_per_turn_and_confirm'])} ms")
    ledger = report.get("ledger")
    if ledger:  # bench/ledger.py's block: the ledger's reads, through the service
        lines.append("")
        for name, figures in [("SQLite", ledger)] + ([("PostgreSQL", ledger["postgresql"])]
                                                     if ledger.get("postgresql") else []):
            exports = figures["details"]["exports"]
            lines.append(f"ledger ({name}): /extrato of 1,000 entries / /resumo {fmt(figures['extrato_vs_resumo'])} "
                         f"(<= 1.5); /exportar of 100,000 entries {fmt(figures['export_100k_s'])} s (<= 5); "
                         "peak RSS " + ", ".join(f"{fmt(e['peak_rss_mb'], 0)} MB at {int(n):,} (+{fmt(e['export_added_mb'], 1)})"
                                                 for n, e in exports.items()))
    worker = report.get("worker")
    if worker:
        lines.append("")
        lines.append(f"worker: `{worker['startup_command']}` answers /healthz after {worker['startup_s']:.2f} s "
                     f"(median of {len(worker['startup_runs_s'])}); litellm imported by then: "
                     f"{'yes' if worker['litellm_imported_at_startup'] else 'no'}; first turn (imports "
                     f"litellm) {worker['first_turn_s']:.2f} s")
        lines.append(f"worker: peak RSS {worker['peak_rss_after_startup_mb']:.0f} MB after start-up, "
                     f"{worker['peak_rss_mb']:.0f} MB after 20 turns and 20 confirmations through litellm")
    if report.get("schedule"):
        lines += schedule_table(report["schedule"])
    return "\n".join(lines)


# --------------------------------------------------------------------------- main


def print_only(report: dict[str, Any], options: argparse.Namespace) -> None:
    if options.json:
        Path(options.json).write_text(json.dumps(report, indent=2, ensure_ascii=False, default=str))


async def run_real_model_only(options: argparse.Namespace) -> dict[str, Any]:
    """`--only-real-model`: issue 13's four keys alone (a minute or two)."""
    from bench.real_model import GOALS as REAL_MODEL_GOALS
    from bench.real_model import measure_real_model

    workdir = Path(tempfile.mkdtemp(prefix="household-bench-"))
    logdir = workdir / "logs"
    logdir.mkdir()
    report: dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "load_before": os.getloadavg()}}
    try:
        with FakeTelegramAPI(token=TOKEN) as tg:
            driver = Driver(tg)
            report["real_model"] = await measure_real_model(driver, tg.base_url, workdir, logdir,
                                                            max(10, options.reps // 3))
            await driver.close()
        report.update({key: report["real_model"][key] for key in REAL_MODEL_GOALS})
    finally:
        report["machine"]["load_after"] = os.getloadavg()
        shutil.rmtree(workdir, ignore_errors=True)
    return report


async def run(options: argparse.Namespace) -> dict[str, Any]:
    if options.only_real_model:
        return await run_real_model_only(options)
    report: dict[str, Any] = {"goals": GOALS, "settings": {
        "quick": options.quick, "repetitions": options.reps, "warmup": options.warmup,
        "history_rows": HISTORY_ROWS, "concurrent_chats": CONCURRENT_CHATS,
        "slow_model_s": SLOW_MODEL_SECONDS}, "machine": {"cpus": os.cpu_count(),
                                                         "load_before": os.getloadavg()}}
    tokens_process = start_prompt_size()
    workdir = Path(tempfile.mkdtemp(prefix="household-bench-"))
    logdir = workdir / "logs"
    logdir.mkdir()
    try:
        with FakeTelegramAPI(token=TOKEN) as tg:
            driver = Driver(tg)
            echo = bench_server("echo", "echo", tg.base_url, logdir)
            await echo.start()
            # The token count imports litellm (seconds of CPU): let it finish before timing.
            report["prompt_tokens"], report["prompt_size"] = await asyncio.to_thread(prompt_tokens, tokens_process)
            try:
                sqlite = await measure_database(
                    "sqlite", lambda name: sqlite_database(workdir, name), driver, echo, tg.base_url,
                    logdir, options)
                report.update(sqlite)
                if options.postgres:
                    report["postgresql"] = await measure_database(
                        "postgresql", lambda name: postgres_database(options.postgres, name), driver, echo,
                        tg.base_url, logdir, options)
                report["echo_peak_rss_mb"] = (echo.status("VmHWM") or 0) / 1024
            finally:
                echo.stop()
            if not options.skip_worker:
                report["worker"] = await measure_worker(driver, tg.base_url, workdir, logdir, options.startups)
            if not options.skip_schedule:
                report["schedule"] = await measure_schedule(options, workdir)
            if not options.skip_ledger:
                report["ledger"] = await bench_ledger.run(options.postgres, workdir)
            # Issue 13: the agent with a model that takes 1 s (bench/real_model.py).
            if not options.skip_real_model:
                from bench.real_model import GOALS as REAL_MODEL_GOALS
                from bench.real_model import measure_real_model
                report["real_model"] = await measure_real_model(driver, tg.base_url, workdir, logdir,
                                                                max(10, options.reps // 3))
                report.update({key: report["real_model"][key] for key in REAL_MODEL_GOALS})
            await driver.close()
    finally:
        if tokens_process.poll() is None:
            tokens_process.kill()
        report["machine"]["load_after"] = os.getloadavg()
        if options.keep:
            print(f"logs and databases kept in {workdir}", file=sys.stderr)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="~30 repetitions (default: ~200)")
    parser.add_argument("--json", metavar="PATH", help="write the figures as JSON")
    parser.add_argument("--postgres", metavar="URL", default=os.environ.get("TEST_DATABASE_URL") or None,
                        help="also measure on PostgreSQL (default: $TEST_DATABASE_URL)")
    parser.add_argument("--reps", type=int, help="measured rounds (overrides --quick)")
    parser.add_argument("--skip-worker", action="store_true", help="no start-up/memory measurement")
    parser.add_argument("--skip-concurrency", action="store_true", help="no 100-chat measurement")
    parser.add_argument("--skip-ledger", action="store_true", help="no /extrato and /exportar measurement")
    parser.add_argument("--keep", action="store_true", help="keep the logs and databases")
    parser.add_argument("--skip-real-model", action="store_true", help="no issue 13 figures (1 s model)")
    parser.add_argument("--only-real-model", action="store_true", help="only the issue 13 figures")
    parser.add_argument("--trace", metavar="DIR", help="time the main steps inside the bench servers "
                        "(per kind of update) and write DIR/<server>.trace.txt")
    parser.add_argument("--profile", metavar="DIR", help="run the bench servers under pyinstrument "
                        "(pip install pyinstrument) and write DIR/<server>.txt and .html")
    parser.add_argument("--skip-schedule", action="store_true", help="no reminders/chart measurement")
    parser.add_argument("--only-schedule", action="store_true", help="only the reminders/chart measurement")
    parser.add_argument("--against", metavar="DIR", action="append", type=Path, default=[],
                        help="also time the bot of the checkout at DIR (e.g. a git worktree of another "
                        "commit) on a small database of its own, interleaved in the same rounds: an A/B "
                        "in one run, under details.against (repeatable)")
    options = parser.parse_args()
    options.reps = options.reps or (30 if options.quick else 200)
    options.warmup = 5 if options.quick else 20
    options.startups = 3 if options.quick else 5
    global PROFILE_DIR, TRACE_DIR
    if options.profile:
        PROFILE_DIR = Path(options.profile).resolve()
        PROFILE_DIR.mkdir(parents=True, exist_ok=True)
    if options.trace:
        TRACE_DIR = Path(options.trace).resolve()
        TRACE_DIR.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    for quiet in ("httpx", "alembic"):
        logging.getLogger(quiet).setLevel(logging.WARNING)
    started = time.perf_counter()
    if options.only_schedule:
        schedule_dir = Path(tempfile.mkdtemp(prefix="household-bench-schedule-"))
        try:
            schedule = asyncio.run(measure_schedule(options, schedule_dir))
        finally:
            shutil.rmtree(schedule_dir, ignore_errors=True)
        print("\n".join(schedule_table(schedule)))
        if options.json:
            Path(options.json).write_text(json.dumps({"schedule": schedule}, indent=2, ensure_ascii=False))
        return
    report = asyncio.run(run(options))
    report["elapsed_s"] = time.perf_counter() - started
    print()
    if report.get("real_model"):
        from bench.real_model import table as real_model_table
        print(real_model_table(report["real_model"]) + "\n")
    if options.only_real_model:
        return print_only(report, options)
    print(table(report))
    print(f"\n({report['elapsed_s']:.0f} s; load average before {report['machine']['load_before'][0]:.2f}, "
          f"after {report['machine']['load_after'][0]:.2f} on {report['machine']['cpus']} CPUs)")
    if options.json:
        Path(options.json).write_text(json.dumps(report, indent=2, ensure_ascii=False, default=str))


if __name__ == "__main__":
    main()
