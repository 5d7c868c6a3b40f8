"""The ledger over SQL, on SQLite and PostgreSQL: entries stamped by the confirmation, undo of a
contribution and of an adjustment, /extrato and /exportar of one month."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

from bot.app.outcomes import Decision, Preview, Speaker
from bot.app.service import HouseholdService
from bot.texts import history
from domain.ledger import EntryKind
from domain.money import Money, Period
from infra.db import ChatDirectory, Database, SqlStorage
from infra.db.stores.ledger import SqlLedger
from tests.fakes.posting import PostingService

CHAT = -1014100000001
ANA, BRUNO = Speaker(1, "Ana"), Speaker(2, "Bruno")
NOW = datetime(2026, 6, 15, 15, tzinfo=UTC)
JUNE = Period(2026, 6)


async def confirmed(service: HouseholdService, speaker: Speaker, command: str, text: str) -> Preview:
    [preview] = await service.command(CHAT, speaker, command, text)
    assert isinstance(preview, Preview), preview
    result = await service.press(CHAT, speaker.user_id, Decision.CONFIRM, preview.key)
    assert not result.alert, result
    return preview


async def undone_last(service: HouseholdService, operation_id: str) -> None:
    [undo] = await service.undo_last(CHAT, BRUNO, operation_id=operation_id)
    assert isinstance(undo, Preview), undo
    result = await service.press(CHAT, BRUNO.user_id, Decision.CONFIRM, undo.key)
    assert not result.alert, result


async def a_couple(database: Database) -> HouseholdService:
    service = PostingService(SqlStorage(database, clock=lambda: NOW), clock=lambda: NOW)
    await service.start(CHAT, "Casa", ANA)
    [request] = await service.join(CHAT, BRUNO, None)
    assert isinstance(request, Preview)
    joined = await service.press(CHAT, ANA.user_id, Decision.CONFIRM, request.key)
    assert not joined.alert, joined
    return service


async def test_undoing_a_contribution_and_an_adjustment_restores_savings_and_expected(
        database: Database) -> None:
    service = await a_couple(database)
    await confirmed(service, ANA, "despesa", "Mercado 1.500")
    await confirmed(service, ANA, "meta", "Viagem 6000")
    contribution = await confirmed(service, BRUNO, "aporte", "500,10 viagem")
    await confirmed(service, ANA, "ajuste", "mercado 1.800")

    await undone_last(service, "cmd-undo-adjust")
    await undone_last(service, "cmd-undo-contribution")

    storage = SqlStorage(database)
    link = await ChatDirectory(database).household_of_chat(CHAT)
    assert link is not None
    [trip] = await storage.goals.list(link.household_id, history=False)
    assert trip.saved_by_currency() == {}
    budget = await storage.budgets.load(link.budget_id, periods=())
    assert budget.find_by_name("Mercado").expected == Money.of("1500", "BRL")
    entries = await SqlLedger(database).of_operation(f"chat:{CHAT}", contribution.operation_id)
    assert [(e.kind, e.amount, e.paid_by, e.confirmed_by) for e in entries] == [
        (EntryKind.CONTRIBUTION, Money.of("500.10", "BRL"), "Bruno", "Bruno")]
    reversal = [e async for e in SqlLedger(database).stream(link.household_id)
                if e.undoes == contribution.operation_id]
    assert [(e.kind, e.amount) for e in reversal] == [(EntryKind.CONTRIBUTION, Money.of("-500.10", "BRL"))]


async def test_extrato_and_exportar_of_a_month_list_only_that_months_entries(database: Database) -> None:
    service = await a_couple(database)
    await confirmed(service, ANA, "despesa", "Mercado 1.500")
    await confirmed(service, ANA, "gasto", "37,90 mercado")
    await confirmed(service, BRUNO, "gasto", "12 mercado 2026-05")

    statement = await service.answer("extrato", CHAT, ANA, str(JUNE))
    out = io.BytesIO()
    name = await service.export(CHAT, ANA, Period(2026, 5), out)

    assert "Mercado (gasto) · R$ 37,90 · Ana" in statement and "R$ 12,00" not in statement
    rows = list(csv.reader(io.StringIO(out.getvalue().decode("utf-8-sig")), delimiter=";"))
    assert name == "extrato-2026-05.csv" and rows[0] == list(history.CSV_HEADER)
    assert [(row[1], row[2], row[4], row[7]) for row in rows[1:]] == [("2026-05", "gasto", "12,00", "Bruno")]
