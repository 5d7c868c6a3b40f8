"""Crashes and lost connections around a commit (cases 12-14 need the commit itself to fail or
the process to die; case 12 is in test_races.py): a webhook worker SIGKILLed after its commit and
before its reply, and a database connection dropped during a COMMIT."""

from __future__ import annotations

import asyncio
from decimal import Decimal
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy import text

from bot.texts import messages
from domain.budget import Budget
from domain.money import Money, Period
from domain.tools.budget import RecordSpendTool
from domain.tools.confirmer import Confirmer
from infra.db import Database, SqlBudgetRepository, SqlOperationLog
from tests.conftest import NO_POSTGRES
from tests.e2e.harness import (
    ANA,
    BRUNO,
    TEST_DATABASE_URL,
    TOKEN,
    Group,
    _server_url,
    _with_database,
    bot_config,
    fresh_postgres_database,
)
from tests.integration.conftest import Backend
from tests.reliability.conftest import backend_name
from tests.reliability.dropper import CommitDropper
from tests.reliability.report import Figures
from tests.reliability.scale import SCALE
from tests.reliability.support import MONTH, HoldingTelegramAPI, LeaseWorker, actual_at, sync

CHAT = -1011000000001
LEASE_SECONDS = 2.0


def test_a_crash_after_the_commit_before_the_telegram_reply_is_answered_ja_confirmado_on_redelivery(
        bot_url: str, tmp_path: Path, figures: Figures) -> None:
    rounds = SCALE.kill_rounds
    answers, edits, committed_at_kill = [], 0, []
    with HoldingTelegramAPI(token=TOKEN) as tg:
        worker = LeaseWorker(bot_config(tg, bot_url), tmp_path, lease_seconds=LEASE_SECONDS)
        worker.start().wait_healthy()
        try:
            casa = Group(tg, worker, CHAT)
            casa.reply_to(ANA, "/start")
            casa.join(BRUNO)
            casa.confirm(ANA, casa.propose(ANA, "/despesa Mercado 1.500"))
            for n in range(1, rounds + 1):
                spend = casa.propose(ANA, f"/gasto {n} mercado {MONTH}")
                since = casa.mark()
                tg.hold_next_answer()
                press = casa.press_update(BRUNO, spend.confirm, spend.message_id)
                assert casa.post(press).status_code == 200
                assert tg.reached.wait(10), "the press never reached answerCallbackQuery"
                committed_at_kill.append(sync(actual_at(bot_url, CHAT)))
                worker.kill()  # SIGKILL: the write is committed, the reply never left
                tg.release()
                worker.start().wait_healthy()
                # Telegram delivering the update again changes nothing: the inbox already has it.
                assert casa.post(press).status_code == 200
                query = press["callback_query"]["id"]
                [answer] = tg.wait_for("answerCallbackQuery", lambda c, q=query: c.ok and
                                       c.params.get("callback_query_id") == q, timeout=LEASE_SECONDS + 15)
                answers.append(answer.params.get("text"))
                edit = casa.wait_edit(spend.message_id, since=since)
                edits += "Gasto registrado por Bruno" in edit.params["text"]
        finally:
            worker.stop()

    total = Decimal(sum(range(1, rounds + 1)))
    actual = sync(actual_at(bot_url, CHAT))
    already = answers.count(messages.already_confirmed_alert())
    held = figures.add(13, f"{backend_name(bot_url)}, worker SIGKILLed", attempts=rounds,
                       expected=f"{rounds} answered 'já confirmada', {rounds} edits, R$ {total:.0f} once",
                       seen=f"{already} answered 'já confirmada', {edits} edits, R$ {actual:.0f} once"
                       if actual == total else f"{already} answered, {edits} edits, R$ {actual}")
    assert held, answers
    assert committed_at_kill == [Decimal(sum(range(1, n + 1))) for n in range(1, rounds + 1)]


# --------------------------------------------------------------------------- case 14


class _Hooked(SqlBudgetRepository):
    """Runs `hook` inside the confirmation's transaction, after the aggregate's write."""

    def __init__(self, database: Database, hook: Any) -> None:
        super().__init__(database)
        self._hook = hook

    async def save(self, budget: Budget) -> None:
        await super().save(budget)
        if self._hook is not None:
            hook, self._hook = self._hook, None
            await hook(self._db)


async def _drop_round(database: Database, check: Database, operation_id: str, hook: Any) -> tuple[str, bool, Decimal]:
    """Proposes a R$ 10 spend, confirms it with `hook` dropping the connection, then retries.
    Returns the first attempt's failure, whether the retry wrote, and the actual afterwards."""
    log = SqlOperationLog(database, "chat:1")

    def confirmer(repo: SqlBudgetRepository) -> Confirmer:
        tool = RecordSpendTool.create(budget_repo=repo, budget_id="orc-1", operations=log)
        return Confirmer([tool], log)

    await confirmer(SqlBudgetRepository(database)).operations.get(operation_id)
    tool = RecordSpendTool.create(budget_repo=SqlBudgetRepository(database), budget_id="orc-1", operations=log)
    await tool.invoke({"expense": "Mercado", "period": MONTH, "operationId": operation_id,
                       "amount": {"amount": 10, "currency": "BRL"}})
    try:
        await confirmer(_Hooked(database, hook)).confirm(operation_id, by="Ana")
        failure = "none"
    except Exception as error:  # the drop surfaces as the driver's error, whatever its class
        failure = type(error).__name__
    retry = await confirmer(SqlBudgetRepository(database)).confirm(operation_id, by="Ana")
    budget = await SqlBudgetRepository(check).load("orc-1")
    return failure, retry.persisted, budget.find_by_name("Mercado").actual_for(Period.parse(MONTH)).amount


async def _market(database: Database) -> None:
    budget = Budget.create("BRL", id="orc-1")
    budget.register("Mercado", Money.of("1500", "BRL"))
    await SqlBudgetRepository(database).save(budget)


@pytest.mark.postgres
def test_a_database_connection_dropped_during_a_commit_ends_in_exactly_one_change_after_a_retry(
        figures: Figures) -> None:
    if not TEST_DATABASE_URL:
        pytest.skip(NO_POSTGRES)
    with fresh_postgres_database() as url, CommitDropper() as dropper:
        name = url.rsplit("/", 1)[1]
        proxied = _with_database(f"postgresql://postgres@127.0.0.1:{dropper.port}/x", name)

        async def terminate(database: Database) -> None:
            assert database.current is not None
            pid = (await database.current.connection.execute(text("SELECT pg_backend_pid()"))).scalar_one()
            admin = await asyncpg.connect(_server_url(url))
            try:
                await admin.execute("SELECT pg_terminate_backend($1)", pid)
            finally:
                await admin.close()

        def arm(drop: str) -> Any:
            async def hook(database: Database) -> None:
                dropper.arm(drop)  # type: ignore[arg-type]
            return hook

        async def run() -> list[tuple[str, str, bool, Decimal]]:
            # A command timeout: a connection the proxy left half-open fails the test, never hangs it.
            database = Database(proxied, connect_args={"ssl": False, "command_timeout": 30})
            check = Database(url)
            try:
                await _market(check)
                results = []
                kinds = [("pg_terminate_backend before COMMIT", terminate),
                         ("wire cut before COMMIT", arm("before")),
                         ("wire cut after COMMIT was sent", arm("after"))]
                for n in range(SCALE.drop_rounds):
                    for k, (kind, hook) in enumerate(kinds):
                        before = await SqlBudgetRepository(check).load("orc-1")
                        was = before.find_by_name("Mercado").actual_for(Period.parse(MONTH)).amount
                        failure, wrote, now = await _drop_round(database, check, f"op-{k}-{n}", hook)
                        results.append((kind, failure, wrote, now - was))
                return results
            finally:
                await database.dispose()
                await check.dispose()

        results = asyncio.run(asyncio.wait_for(run(), timeout=120))

    for kind in sorted({r[0] for r in results}):
        mine = [r for r in results if r[0] == kind]
        failed = sum(r[1] != "none" for r in mine)
        exact = sum(r[3] == Decimal(10) for r in mine)
        figures.add(14, f"postgresql, {kind}", attempts=len(mine),
                    expected=f"{len(mine)} commits failed, {len(mine)} exactly one change after the retry",
                    seen=f"{failed} commits failed, {exact} exactly one change after the retry")
    assert all(r[1] != "none" and r[3] == Decimal(10) for r in results), results
    # Cut after COMMIT reached the server: the retry found it done and wrote nothing more.
    assert [r[2] for r in results if r[0].startswith("wire cut after")] == [False] * SCALE.drop_rounds


def test_a_sqlite_connection_closed_during_a_commit_ends_in_exactly_one_change_after_a_retry(
        backend: Backend, figures: Figures) -> None:
    if backend.name != "sqlite":
        pytest.skip("the PostgreSQL drops are the test above")

    async def close_driver(database: Database) -> None:
        assert database.current is not None
        raw = await database.current.connection.get_raw_connection()
        await raw.driver_connection.close()  # type: ignore[union-attr]

    async def run() -> list[tuple[str, bool, Decimal]]:
        database = backend.open()
        try:
            await _market(database)
            return [await _drop_round(database, database, f"op-{n}", close_driver)
                    for n in range(SCALE.drop_rounds)]
        finally:
            await database.dispose()

    results = asyncio.run(run())
    failed = sum(r[0] != "none" for r in results)
    totals = [r[2] for r in results]
    exact = totals == [Decimal(10) * (n + 1) for n in range(len(results))]
    held = figures.add(14, "sqlite, driver connection closed before COMMIT", attempts=len(results),
                       expected=f"{len(results)} commits failed, exactly one change each",
                       seen=f"{failed} commits failed, {'exactly one change each' if exact else totals}")
    assert held, results

