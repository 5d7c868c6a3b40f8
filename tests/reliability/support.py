"""What the reliability tests share beyond tests/e2e/harness.py: a fake Telegram that can hold a
call, a webhook worker with a short inbox lease, a couple's household set up through the service,
and reads of what the database really holds."""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import subprocess
import sys
import threading
from collections.abc import Callable, Coroutine
from decimal import Decimal
from typing import Any, TypeVar

from sqlalchemy import select

from bot.app.outcomes import Decision, Preview, Speaker
from bot.app.service import HouseholdService
from domain.money import Period
from infra.db import ChatDirectory, Database, SqlBudgetRepository
from infra.db.tables import operations, processed_updates
from tests.e2e.harness import WorkerProcess, _free_port, worker_environment
from tests.fakes.telegram_api import FakeTelegramAPI, _ApiError

T = TypeVar("T")

ANA = Speaker(501, "Ana")
BRUNO = Speaker(502, "Bruno")
MONTH = "2026-06"  # every spend names its month: worker processes run on the real clock


def sync(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


# --------------------------------------------------------------------------- fakes and workers


class HoldingTelegramAPI(FakeTelegramAPI):
    """The fake Bot API, able to hold the next answerCallbackQuery until `release()`: the bot's
    write is committed by then and its reply not yet delivered, the moment to kill it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._hold = threading.Event()
        self.reached = threading.Event()
        self._released = threading.Event()
        super().__init__(*args, **kwargs)

    def hold_next_answer(self) -> None:
        self.reached.clear()
        self._released.clear()
        self._hold.set()

    def release(self) -> None:
        self._released.set()

    async def _answer_callback_query(self, params: dict[str, Any]) -> bool:
        if self._hold.is_set():
            self._hold.clear()
            self.reached.set()
            while not self._released.is_set():
                await asyncio.sleep(0.01)
            # Its caller is dead: Telegram never marks the query answered.
            raise _ApiError(502, "Bad Gateway: held, never delivered")
        return bool(await super()._answer_callback_query(params))


class LeaseWorker(WorkerProcess):
    """`python -m bot webhook` through tests/reliability/lease_worker.py, whose only change is a
    short inbox lease, so a killed worker's update is claimed again in seconds, not 90."""

    def __init__(self, *args: Any, lease_seconds: float = 2.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lease_seconds = lease_seconds

    def start(self) -> LeaseWorker:
        assert self.process is None or self.process.poll() is not None, "already running"
        self.starts += 1
        port = _free_port()
        self.base_url = f"http://127.0.0.1:{port}"
        env = worker_environment({**self.values, "port": port})
        env["RELIABILITY_LEASE_SECONDS"] = str(self.lease_seconds)
        self.workdir.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:
            log.write(f"\n===== start #{self.starts} on port {port}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tests.reliability.lease_worker"], cwd=self.workdir, env=env,
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        return self


# --------------------------------------------------------------------------- a household, by service


async def couple_with_groceries(service: HouseholdService, chat_id: int) -> None:
    """/start by Ana, /entrar by Bruno, and a confirmed "Mercado" expense of R$ 1.500,00."""
    await service.start(chat_id, "Casa", ANA)
    [join] = await service.join(chat_id, BRUNO, None)
    assert isinstance(join, Preview)
    await posted(service, chat_id, join)
    assert not (await service.press(chat_id, ANA.user_id, Decision.CONFIRM, join.key)).alert
    [preview] = await service.command(chat_id, ANA, "despesa", "Mercado 1.500")
    assert isinstance(preview, Preview)
    await posted(service, chat_id, preview)
    result = await service.press(chat_id, ANA.user_id, Decision.CONFIRM, preview.key)
    assert not result.alert, result


async def spend_preview(service: HouseholdService, chat_id: int, amount: str,
                        by: Speaker = ANA) -> Preview:
    [preview] = await service.command(chat_id, by, "gasto", f"{amount} mercado {MONTH}")
    assert isinstance(preview, Preview), preview
    await posted(service, chat_id, preview)
    return preview


_message_ids = itertools.count(1)


async def posted(service: HouseholdService, chat_id: int, preview: Preview) -> None:
    """Stores a message id for the preview, as the handler does once Telegram posted it: only a
    posted preview can be confirmed (issue 17)."""
    await service.preview_posted(chat_id, preview.operation_id, next(_message_ids))


# --------------------------------------------------------------------------- what the database holds


async def actual_in(database: Database, chat_id: int, expense: str = "Mercado",
                    month: str = MONTH) -> Decimal:
    link = await ChatDirectory(database).household_of_chat(chat_id)
    assert link is not None, f"chat {chat_id} has no household"
    budget = await SqlBudgetRepository(database).load(link.budget_id)
    return budget.find_by_name(expense).actual_for(Period.parse(month)).amount


async def actual_at(url: str, chat_id: int, expense: str = "Mercado", month: str = MONTH) -> Decimal:
    database = Database(url)
    try:
        return await actual_in(database, chat_id, expense, month)
    finally:
        await database.dispose()


async def operations_in(database: Database, chat_id: int) -> dict[str, dict[str, Any]]:
    """The chat's operations as stored, by id: tool, status, receipt, key, preview."""
    async with database.reading() as connection:
        rows = (await connection.execute(
            select(operations.c.operation_id, operations.c.tool, operations.c.status,
                   operations.c.receipt, operations.c.key, operations.c.preview)
            .where(operations.c.scope == f"chat:{chat_id}"))).all()
    return {row.operation_id: dict(row._mapping) for row in rows}


async def operations_at(url: str, chat_id: int) -> dict[str, dict[str, Any]]:
    database = Database(url)
    try:
        return await operations_in(database, chat_id)
    finally:
        await database.dispose()


async def inbox_at(url: str) -> dict[int, str]:
    """update_id -> status of every update the webhook stored."""
    database = Database(url)
    try:
        async with database.reading() as connection:
            rows = (await connection.execute(
                select(processed_updates.c.update_id, processed_updates.c.status))).all()
        return {int(row.update_id): str(row.status) for row in rows}
    finally:
        await database.dispose()


# --------------------------------------------------------------------------- worker processes


def race(target: Callable[..., None], arguments: list[tuple[Any, ...]], timeout: float = 120.0) -> list[Any]:
    """Runs `target(*arguments[i], barrier, results)` in one spawned process each, all sharing
    one multiprocessing.Barrier; returns what each put in `results` (in no particular order)."""
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(len(arguments)), context.Queue()
    workers = [context.Process(target=target, args=(*args, barrier, results)) for args in arguments]
    for worker in workers:
        worker.start()
    try:
        outcomes = [results.get(True, timeout) for _ in workers]
    finally:
        for worker in workers:
            worker.join(30)
            if worker.is_alive():
                worker.kill()
    assert [w.exitcode for w in workers] == [0] * len(workers), [w.exitcode for w in workers]
    return outcomes
