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
                              (a text the model reads: "acho que gastei 37,90 no mercado")
  reader_vs_command           "gastei 37,90 no mercado" (the reader, no model request)
                              -> its preview, / "/gasto 37,90 mercado" -> its preview    <= 1.2
  confirm_vs_echo             Confirmar press -> editMessageText, / echo                <= 1.5
  confirm_history_ratio       confirm with 100,000 stored spend and contribution ledger
                              entries each, and operations (and inbox updates) / with 10 <= 1.2
  prompt_tokens               bench/prompt_size.py, gpt-4o-mini                          <= 1600
  concurrent_chats_wall_ratio 100 chats at once, model takes 1 s: wall time / 1 s        <= 2.0
plus "ledger" (bench/ledger.py: /extrato against /resumo, /exportar's time and peak RSS),
"postgresql" (the same keys there), "worker" (start-up time of `household-bot webhook`, whether
litellm is imported before /healthz answers, peak RSS of a `python -m bot webhook` worker) and
"details" (the medians in milliseconds behind every ratio).

This file runs the rounds and the measurements of one database; beside it: bench/common.py (the
server processes and the driver), bench/seeding.py (the databases and their households),
bench/report.py (the printed table), bench/schedule.py (reminders and charts), bench/ledger.py,
bench/real_model.py and bench/servers.py (the servers it starts).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from sqlalchemy import select, update  # noqa: E402

from bench import ledger as bench_ledger  # noqa: E402
from bench import real_model  # noqa: E402
from bench.common import (  # noqa: E402
    ANA,
    BRUNO,
    COMMAND_TEXT,
    GAP,
    READER_TEXT,
    SECRET,
    TEXT,
    TOKEN,
    Driver,
    Server,
    free_port,
    in_chat,
    next_update_id,
    this_month,
    worker_command,
    worker_env,
)
from bench.report import GOALS, table  # noqa: E402
from bench.schedule import measure_schedule, schedule_table  # noqa: E402
from bench.seeding import (  # noqa: E402
    HISTORY_ROWS,
    BenchDatabase,
    insert_rows,
    operation_row,
    postgres_database,
    seed_history,
    seed_household,
    sqlite_database,
)
from bot.texts import messages  # noqa: E402
from infra.db.stores.inbox import UpdateInbox  # noqa: E402
from infra.db.tables import (  # noqa: E402
    budgets,
    chat_members,
    chats,
    expenses,
    goals,
    households,
    ledger_entries,
    members,
    operations,
)
from tests.fakes.telegram_api import Call, FakeTelegramAPI, callback_update, message_update  # noqa: E402

CONCURRENT_CHATS = 100
SLOW_MODEL_SECONDS = 1.0
MAX_GROUP_REQUESTS_PER_CHAT = 16  # AIORateLimiter lets a group burst 20 requests, then 1 per 3 s
CONFIRMED = messages.confirmed_answer()
SLOW = "SLOW: oi, tudo bem?"

log = logging.getLogger("bench")


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


# --------------------------------------------------------------------------- the bench servers


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
    # A server that profiles or traces writes its figures after SIGTERM: give it time to.
    stop_timeout = 120.0 if PROFILE_DIR or TRACE_DIR else 15.0
    return Server(name, command + list(extra), port, logdir, env=env, stop_timeout=stop_timeout)


# --------------------------------------------------------------------------- rounds


@dataclass
class BotUnderTest:
    name: str
    server: Server
    db: BenchDatabase
    chats: list[int]
    turns: list[float] = field(default_factory=list)
    confirms: list[float] = field(default_factory=list)

    async def turn(self, driver: Driver, chat_id: int, text: str = TEXT) -> tuple[float, Call]:
        update_id = next_update_id()
        elapsed, preview = await driver.timed(
            self.server, message_update(update_id, chat_id, ANA[0], ANA[1], text),
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


async def reader_rounds(driver: Driver, bot: BotUnderTest, chats: list[int], warmup: int,
                        reps: int) -> dict[str, float]:
    """Time to the preview of the same spend said two ways, in shuffled pairs on one server: the
    free text the reader takes ("gastei 37,90 no mercado", no model request) and the command
    ("/gasto 37,90 mercado"). Issue 25: the reader's preview within 1.2x of the command's."""
    timed: dict[str, list[float]] = {READER_TEXT: [], COMMAND_TEXT: []}
    shuffle = random.Random(25)
    chat_ids = iter(itertools.cycle(chats))
    for n in range(warmup + reps):
        texts = [READER_TEXT, COMMAND_TEXT]
        shuffle.shuffle(texts)
        for text in texts:
            await asyncio.sleep(GAP)
            elapsed, _ = await bot.turn(driver, next(chat_ids), text)
            if n >= warmup:
                timed[text].append(elapsed)
    reader_ms, command_ms = median_ms(timed[READER_TEXT]), median_ms(timed[COMMAND_TEXT])
    return {"reader_ms": reader_ms, "command_ms": command_ms, "reader_vs_command": reader_ms / command_ms}


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
    # The reader's rounds: two previews a round (up to 3 group requests each) in chats of their own.
    reader_chats = [-150_000 - n for n in range(math.ceil(2 * total_rounds / (MAX_GROUP_REQUESTS_PER_CHAT // 3)) + 1)]
    small, big = await make_db("small"), await make_db("big")
    servers: list[Server] = []
    try:
        started = time.perf_counter()
        await seed_household(small.database, chat_ids + reader_chats)
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
        log.info("%s: the reader's preview against /gasto's", kind)
        reader = await reader_rounds(driver, small_bot, reader_chats, options.warmup, options.reps)
        echo_ms = median_ms(echoes)
        details = {
            "reader": reader,
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
        "reader_vs_command": details["reader"]["reader_vs_command"],
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


# --------------------------------------------------------------------------- main


def print_only(report: dict[str, Any], options: argparse.Namespace) -> None:
    if options.json:
        Path(options.json).write_text(json.dumps(report, indent=2, ensure_ascii=False, default=str))


async def run_real_model_only(options: argparse.Namespace) -> dict[str, Any]:
    """`--only-real-model`: issue 13's four keys alone (a minute or two)."""
    workdir = Path(tempfile.mkdtemp(prefix="household-bench-"))
    logdir = workdir / "logs"
    logdir.mkdir()
    report: dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "load_before": os.getloadavg()}}
    try:
        with FakeTelegramAPI(token=TOKEN) as tg:
            driver = Driver(tg)
            report["real_model"] = await real_model.measure_real_model(driver, tg.base_url, workdir, logdir,
                                                                       max(10, options.reps // 3))
            await driver.close()
        report.update({key: report["real_model"][key] for key in real_model.GOALS})
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
                report["real_model"] = await real_model.measure_real_model(driver, tg.base_url, workdir, logdir,
                                                                           max(10, options.reps // 3))
                report.update({key: report["real_model"][key] for key in real_model.GOALS})
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
        print(real_model.table(report["real_model"]) + "\n")
    if options.only_real_model:
        return print_only(report, options)
    print(table(report))
    print(f"\n({report['elapsed_s']:.0f} s; load average before {report['machine']['load_before'][0]:.2f}, "
          f"after {report['machine']['load_after'][0]:.2f} on {report['machine']['cpus']} CPUs)")
    if options.json:
        Path(options.json).write_text(json.dumps(report, indent=2, ensure_ascii=False, default=str))


if __name__ == "__main__":
    main()
