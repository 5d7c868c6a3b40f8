"""The SQL operation log: previews survive a restart, keys are scoped, and a confirmation is one
transaction with the write it makes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from domain.budget import Budget
from domain.errors import OperationClosed, OperationConflict, UnknownOperation
from domain.money import Money, Period
from domain.operations.log import Operation, OperationStatus
from domain.tools.budget import RecordSpendTool
from domain.tools.confirmer import Confirmer
from infra.db import Database, SqlBudgetRepository, SqlOperationLog
from tests.integration.conftest import Backend

BUDGET_ID = "orc-1"
JUNE = Period(2026, 6)


def spend(amount: str, operation_id: str = "op-1", *, confirm: bool = False) -> dict[str, Any]:
    return {"expense": "mercado", "period": "2026-06", "amount": {"amount": Decimal(amount), "currency": "BRL"},
            "operationId": operation_id, "confirm": confirm}


async def market_budget(database: Database) -> None:
    budget = Budget.create("BRL", id=BUDGET_ID)
    budget.register("Mercado", Money.of("1500", "BRL"))
    await SqlBudgetRepository(database).save(budget)


async def groceries(database: Database) -> Money:
    return (await SqlBudgetRepository(database).load(BUDGET_ID)).expenses[0].actual_for(JUNE)


def spend_tool(database: Database, log: SqlOperationLog, repo: Any = None) -> RecordSpendTool:
    tool: RecordSpendTool = RecordSpendTool.create(
        budget_repo=repo or SqlBudgetRepository(database), budget_id=BUDGET_ID, operations=log)
    return tool


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_a_pending_preview_is_confirmed_from_a_fresh_engine_as_after_a_restart(
        backend: Backend, database: Database) -> None:
    await market_budget(database)
    before = spend_tool(database, SqlOperationLog(database, "chat-1"))
    preview = await before.invoke(spend("37.90"))
    await database.dispose()

    restarted = backend.open()
    try:
        log = SqlOperationLog(restarted, "chat-1")
        confirmer = Confirmer([spend_tool(restarted, log)], log)
        pending = await log.get("op-1")
        assert pending is not None and pending.status is OperationStatus.PENDING
        assert pending.preview == preview.preview
        assert str(pending.preview["delta"]["amount"]) == "37.90"

        written = await confirmer.confirm("op-1", by="Bruno")
        again = await confirmer.confirm("op-1", by="Ana")

        assert (written.confirmed, written.persisted) == (True, True)
        assert written.preview == preview.preview
        assert (again.confirmed, again.persisted) == (True, False)
        assert await groceries(restarted) == Money.of("37.90", "BRL")
        decided = await log.get("op-1")
        assert decided is not None and decided.decided_by == "Bruno" and decided.receipt == written
    finally:
        await restarted.dispose()


async def test_operation_keys_are_unique_fresh_on_each_preview_and_scoped_to_their_chat(
        database: Database) -> None:
    await market_budget(database)
    chat_a, chat_b = SqlOperationLog(database, "chat-a"), SqlOperationLog(database, "chat-b")
    await spend_tool(database, chat_a).invoke(spend("1"))
    await spend_tool(database, chat_b).invoke(spend("2"))  # the same "op-1", another chat
    first = await chat_a.get("op-1")
    await spend_tool(database, chat_a).invoke(spend("3"))  # a new preview replaces the pending one
    replaced = await chat_a.get("op-1")
    other = await chat_b.get("op-1")
    assert first is not None and replaced is not None and other is not None

    assert len({first.key, replaced.key, other.key}) == 3
    assert all(len(op.key) == 16 for op in (first, replaced, other))
    assert len(f"ok:{replaced.key}".encode()) <= 64
    assert replaced.preview["delta"]["amount"] == Decimal("3")
    assert other.preview["delta"]["amount"] == Decimal("2")
    assert await chat_a.get_by_key(replaced.key) == replaced
    assert await chat_a.get_by_key(first.key) is None
    assert await chat_b.get_by_key(replaced.key) is None
    assert await chat_b.get_by_key(other.key) == other


async def test_an_operation_is_found_by_its_previews_message_in_its_own_chat_only(database: Database) -> None:
    await market_budget(database)
    chat_a, chat_b = SqlOperationLog(database, "chat-a"), SqlOperationLog(database, "chat-b")
    await spend_tool(database, chat_a).invoke(spend("1"))
    await spend_tool(database, chat_b).invoke(spend("2"))
    await chat_a.attach_message("op-1", 41)
    await chat_b.attach_message("op-1", 42)

    found = await chat_a.get_by_message(41)

    assert found is not None and found.preview["delta"]["amount"] == Decimal("1")
    assert found == await chat_a.get("op-1")
    assert await chat_a.get_by_message(42) is None, "message ids belong to their chat"
    assert await chat_b.get_by_message(42) == await chat_b.get("op-1")
    assert await chat_a.get_by_message(7) is None


async def test_a_confirmation_that_fails_midway_writes_nothing_and_stays_pending(database: Database) -> None:
    await market_budget(database)
    log = SqlOperationLog(database, "chat-1")

    class CrashAfterSave(SqlBudgetRepository):
        async def save(self, budget: Budget) -> None:
            await super().save(budget)
            raise ConnectionError("the process died after the save, before the receipt")

    await spend_tool(database, log).invoke(spend("10"))
    with pytest.raises(ConnectionError):
        await spend_tool(database, log, CrashAfterSave(database)).invoke(spend("10", confirm=True))

    stored = await log.get("op-1")
    assert stored is not None and (stored.status, stored.receipt) == (OperationStatus.PENDING, None)
    assert await groceries(database) == Money.of("0", "BRL")
    receipt = await spend_tool(database, log).invoke(spend("10", confirm=True))
    assert receipt.persisted
    assert await groceries(database) == Money.of("10", "BRL")


async def test_an_expired_preview_cannot_be_confirmed_and_is_marked_expired(database: Database) -> None:
    await market_budget(database)
    clock = Clock()
    log = SqlOperationLog(database, "chat-1", clock=clock, ttl=timedelta(hours=48))
    await spend_tool(database, log).invoke(spend("10"))
    clock.now += timedelta(hours=48, seconds=1)

    with pytest.raises(OperationClosed):
        await Confirmer([spend_tool(database, log)], log).confirm("op-1")
    with pytest.raises(OperationClosed):
        async with log.confirming("op-1", (await log.get("op-1")).fingerprint):  # type: ignore[union-attr]
            pass

    stored = await log.get("op-1")
    assert stored is not None and stored.status is OperationStatus.EXPIRED
    assert await groceries(database) == Money.of("0", "BRL")


async def test_a_preview_confirmed_just_before_its_deadline_is_written(database: Database) -> None:
    await market_budget(database)
    clock = Clock()
    log = SqlOperationLog(database, "chat-1", clock=clock, ttl=timedelta(hours=48))
    await spend_tool(database, log).invoke(spend("10"))
    clock.now += timedelta(hours=47, minutes=59)

    receipt = await Confirmer([spend_tool(database, log)], log).confirm("op-1")

    assert receipt.persisted


async def test_a_cancelled_preview_is_closed_for_good(database: Database) -> None:
    await market_budget(database)
    log = SqlOperationLog(database, "chat-1")
    tool = spend_tool(database, log)
    await tool.invoke(spend("10"))

    cancelled = await log.cancel("op-1", cancelled_by="Ana")

    assert (cancelled.status, cancelled.decided_by) == (OperationStatus.CANCELLED, "Ana")
    with pytest.raises(OperationClosed):
        await Confirmer([tool], log).confirm("op-1")
    with pytest.raises(OperationClosed):
        await tool.invoke(spend("10"))  # not even a new preview under that id
    assert (await log.cancel("op-1", cancelled_by="Bruno")).decided_by == "Ana"
    with pytest.raises(UnknownOperation):
        await log.cancel("op-404")
    assert await groceries(database) == Money.of("0", "BRL")


async def test_a_confirmed_operation_id_with_other_arguments_is_a_conflict(database: Database) -> None:
    await market_budget(database)
    log = SqlOperationLog(database, "chat-1")
    tool = spend_tool(database, log)
    await tool.invoke(spend("10"))
    await tool.invoke(spend("10", confirm=True))

    with pytest.raises(OperationConflict):
        await tool.invoke(spend("99", confirm=True))
    with pytest.raises(OperationConflict):
        await tool.invoke(spend("99"))
    cancelled = await log.cancel("op-1")

    assert cancelled.status is OperationStatus.CONFIRMED
    assert await groceries(database) == Money.of("10", "BRL")


async def test_the_preview_message_is_remembered(database: Database) -> None:
    await market_budget(database)
    log = SqlOperationLog(database, "chat-1", household_id="casa-1")
    await spend_tool(database, log).invoke(spend("10"))

    await log.attach_message("op-1", 987654321012)

    stored = await log.get("op-1")
    assert stored is not None and stored.message_id == 987654321012
    assert await SqlOperationLog(database, "chat-2").get("op-1") is None


async def test_proposing_stamps_the_log_clock_and_keeps_the_arguments(database: Database) -> None:
    clock = Clock()
    log = SqlOperationLog(database, "chat-1", clock=clock)
    operation = Operation(operation_id="op-9", tool="recordSpend", arguments={"a": "1.10", "n": [1, None]},
                          fingerprint="f" * 64, preview={"x": Decimal("1.10"), "when": "2026-06"},
                          status=OperationStatus.PENDING, created_at=datetime.min)

    stored = await log.propose(operation)

    assert stored.created_at == clock.now
    assert (stored.arguments, stored.preview) == (operation.arguments, operation.preview)
    assert str(stored.preview["x"]) == "1.10"
