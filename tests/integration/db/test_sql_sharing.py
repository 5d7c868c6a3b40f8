"""Who paid and who owes whom over SQL, on SQLite and PostgreSQL: shares stored with their entry,
the running balance equal to the shares' sum, a month's movement, undo after an acerto, two
acertos confirmed at once, the split rule, incomes and a Pix key kept and erased."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from bot.app.outcomes import Decision, Preview, Reply, Speaker
from bot.app.service import HouseholdService
from domain.money import Money, Period
from infra.db import Database, SqlStorage
from infra.db.stores.ledger import SqlLedger
from infra.db.tables import ledger_balances, ledger_shares, members
from tests.fakes.posting import PostingService

CHAT = -1023100000001
ANA, BRUNO = Speaker(1, "Ana"), Speaker(2, "Bruno")
NOW = datetime(2026, 6, 15, 15, tzinfo=UTC)


async def proposed(service: HouseholdService, speaker: Speaker, command: str, text: str) -> Preview:
    [preview] = await service.command(CHAT, speaker, command, text)
    assert isinstance(preview, Preview), preview
    return preview


async def confirmed(service: HouseholdService, speaker: Speaker, command: str, text: str,
                    by: Speaker = BRUNO) -> Preview:
    preview = await proposed(service, speaker, command, text)
    result = await service.press(CHAT, by.user_id, Decision.CONFIRM, preview.key)
    assert not result.alert, result
    return preview


async def a_couple(database: Database) -> HouseholdService:
    service = PostingService(SqlStorage(database, clock=lambda: NOW), clock=lambda: NOW)
    await service.start(CHAT, "Casa", ANA)
    [request] = await service.join(CHAT, BRUNO, None)
    assert isinstance(request, Preview)
    assert not (await service.press(CHAT, ANA.user_id, Decision.CONFIRM, request.key)).alert
    await confirmed(service, ANA, "despesa", "Mercado 1.500")
    return service


async def household_id(service: HouseholdService) -> str:
    context = await service.context(CHAT)
    assert context is not None
    return context.household.id


async def summed_from_shares(database: Database, household: str) -> dict[str, int]:
    """What the running balance must be: the plain SUM over every share row."""
    async with database.reading() as connection:
        rows = await connection.execute(
            select(ledger_shares.c.member_id, func.sum(ledger_shares.c.paid_minor - ledger_shares.c.owed_minor))
            .where(ledger_shares.c.household_id == household).group_by(ledger_shares.c.member_id))
        return {member: int(net) for member, net in rows}


async def running(database: Database, household: str) -> dict[str, int]:
    async with database.reading() as connection:
        rows = await connection.execute(select(ledger_balances.c.member_id, ledger_balances.c.net_minor)
                                        .where(ledger_balances.c.household_id == household))
        return {member: int(net) for member, net in rows}


async def test_each_spend_keeps_its_shares_and_the_running_balance_is_their_sum(database: Database) -> None:
    service = await a_couple(database)
    await confirmed(service, ANA, "gasto", "37,90 mercado")
    await confirmed(service, BRUNO, "gasto", "10,01 mercado")
    await confirmed(service, ANA, "gasto", "80 mercado pessoal")
    await confirmed(service, ANA, "divisao", "Ana 70 Bruno 30")
    await confirmed(service, BRUNO, "gasto", "100 mercado por Ana")
    household = await household_id(service)

    entries = [e async for e in SqlLedger(database).stream(household)]

    spends = [e for e in entries if e.kind.value == "spend"]
    assert [(e.paid_by, [(s.member_name, s.owed) for s in e.shares]) for e in spends] == [
        ("Ana", [("Ana", Money.of("18.95", "BRL")), ("Bruno", Money.of("18.95", "BRL"))]),
        ("Bruno", [("Ana", Money.of("5.00", "BRL")), ("Bruno", Money.of("5.01", "BRL"))]),
        ("Ana", []),
        ("Ana", [("Ana", Money.of("70.00", "BRL")), ("Bruno", Money.of("30.00", "BRL"))]),
    ]
    assert await running(database, household) == await summed_from_shares(database, household)
    answer = await service.answer("saldo", CHAT, ANA, "")
    assert "Bruno deve R$ 43,95 a Ana" in answer  # 18,95 - 5,00 (Bruno paid, the cent his) + 30 and "Conta 3 gastos divididos e 0 acertos." in answer


async def test_a_months_movement_counts_only_that_months_spends(database: Database) -> None:
    service = await a_couple(database)
    await confirmed(service, ANA, "gasto", "100 mercado 2026-05")
    await confirmed(service, ANA, "gasto", "40 mercado")

    may = await service.answer("saldo", CHAT, ANA, "2026-05")
    june = await SqlLedger(database).balance(await household_id(service), Period(2026, 6))

    assert "Movimento de maio de 2026" in may and "Bruno deve R$ 50,00 a Ana" in may
    assert [(t.debtor, t.amount) for t in june.transfers()] == [("Bruno", Money.of(20, "BRL"))]
    assert june.spends == 1


async def test_a_spend_undone_after_an_acerto_leaves_the_new_debt(database: Database) -> None:
    service = await a_couple(database)
    spend = await confirmed(service, ANA, "gasto", "100 mercado")
    await confirmed(service, BRUNO, "acerto", "", by=ANA)

    pressed = await service.press(CHAT, BRUNO.user_id, Decision.UNDO, spend.key)
    assert pressed.post is not None
    await service.preview_posted(CHAT, pressed.post.operation_id, 9_001)
    assert not (await service.press(CHAT, BRUNO.user_id, Decision.CONFIRM, pressed.post.key)).alert

    answer = await service.answer("saldo", CHAT, ANA, "")
    assert "Ana deve R$ 50,00 a Bruno" in answer and "Conta 0 gastos divididos e 1 acerto." in answer
    household = await household_id(service)
    assert await running(database, household) == await summed_from_shares(database, household)


async def test_two_acertos_of_the_whole_debt_confirmed_at_once_write_one(database: Database) -> None:
    service = await a_couple(database)
    await confirmed(service, ANA, "gasto", "100 mercado")
    first = await proposed(service, BRUNO, "acerto", "")
    second = await proposed(service, ANA, "acerto", "")

    results = await asyncio.gather(
        service.press(CHAT, ANA.user_id, Decision.CONFIRM, first.key),
        service.press(CHAT, BRUNO.user_id, Decision.CONFIRM, second.key))

    assert sorted(r.alert for r in results) == [False, True]
    refused = next(r for r in results if r.alert)
    assert "quites" in refused.answer or "maior que a dívida" in refused.answer
    answer = await service.answer("saldo", CHAT, ANA, "")
    assert "Vocês estão quites." in answer and "1 acerto" in answer


async def test_the_rule_incomes_and_a_pix_key_are_kept_and_the_key_is_never_logged(
        database: Database, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)  # as `household-bot` logs (bot/__main__.py)
    service = await a_couple(database)
    await confirmed(service, ANA, "renda", "6.000")
    await confirmed(service, BRUNO, "renda", "4.000", by=ANA)
    await confirmed(service, ANA, "divisao", "renda")
    await confirmed(service, BRUNO, "pix", "+55 11 98765-4321", by=ANA)

    storage = SqlStorage(database)
    context = await service.context(CHAT)
    assert context is not None
    budget = await storage.budgets.load(context.link.budget_id)
    household = await storage.households.load(context.household.id)

    assert (budget.split.kind, budget.income) == ("income", Money.of(10000, "BRL"))
    assert sorted(budget.incomes.values()) == [Money.of(4000, "BRL"), Money.of(6000, "BRL")]
    assert household.member_named("Bruno").pix_key == "+5511987654321"
    assert "98765" not in caplog.text and "5511987654321" not in caplog.text


async def test_erasing_the_household_erases_its_shares_balances_and_pix_keys(database: Database) -> None:
    service = await a_couple(database)
    await confirmed(service, ANA, "gasto", "100 mercado")
    await confirmed(service, ANA, "pix", "ana@example.com")
    [erase] = await service.erase(CHAT, ANA)
    assert isinstance(erase, Preview)
    assert not (await service.press(CHAT, ANA.user_id, Decision.CONFIRM, erase.key)).alert

    async with database.reading() as connection:
        for table in (ledger_shares, ledger_balances, members):
            assert (await connection.execute(select(func.count()).select_from(table))).scalar() == 0


async def test_an_acerto_with_nothing_owed_is_a_message_not_a_preview(database: Database) -> None:
    service = await a_couple(database)

    [answer] = await service.command(CHAT, BRUNO, "acerto", "")

    assert isinstance(answer, Reply) and "quites" in answer.text
