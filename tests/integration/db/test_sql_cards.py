"""Cards, faturas and parcelas over SQL, on SQLite and PostgreSQL: a card kept with its aliases, a
purchase in 12x as twelve ledger entries written once however many presses race, parcelas across a
year's end, the undo of a parcelado, the faturas' sums, and the limit warnings said once under
concurrent confirmations (issue 24)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from sqlalchemy import func, select

from bot.app.outcomes import Decision, Preview, Speaker
from bot.app.service import HouseholdService
from domain.ledger import EntryKind
from domain.money import Money, Period
from infra.db import Database, SqlStorage
from infra.db.stores.ledger import SqlLedger
from infra.db.tables import expense_alerts, ledger_entries
from tests.fakes.posting import PostingService

CHAT = -1024100000001
ANA, BRUNO = Speaker(1, "Ana"), Speaker(2, "Bruno")
NOW = datetime(2026, 11, 20, 15, tzinfo=UTC)  # 20/11/2026, in São Paulo too


def brl(amount: str) -> Money:
    return Money.of(amount, "BRL")


async def proposed(service: HouseholdService, speaker: Speaker, command: str, text: str) -> Preview:
    [preview] = await service.command(CHAT, speaker, command, text)
    assert isinstance(preview, Preview), preview
    return preview


async def confirmed(service: HouseholdService, speaker: Speaker, command: str, text: str) -> str:
    preview = await proposed(service, speaker, command, text)
    result = await service.press(CHAT, BRUNO.user_id, Decision.CONFIRM, preview.key)
    assert not result.alert and result.edit is not None, result
    return result.edit.text


async def a_couple_with_a_card(database: Database) -> HouseholdService:
    service = PostingService(SqlStorage(database, clock=lambda: NOW), clock=lambda: NOW)
    await service.start(CHAT, "Casa", ANA)
    [request] = await service.join(CHAT, BRUNO, None)
    assert isinstance(request, Preview)
    assert not (await service.press(CHAT, ANA.user_id, Decision.CONFIRM, request.key)).alert
    await confirmed(service, ANA, "despesa", "Mercado 1.000")
    await confirmed(service, ANA, "cartao", "Nubank fecha 3 vence 10")
    return service


async def spend_entries(database: Database) -> list[tuple[str, int, int | None, int | None]]:
    async with database.reading() as connection:
        rows = await connection.execute(
            select(ledger_entries.c.period, ledger_entries.c.amount_minor, ledger_entries.c.installment,
                   ledger_entries.c.installments)
            .where(ledger_entries.c.kind == EntryKind.SPEND.value).order_by(ledger_entries.c.id))
        return [tuple(row) for row in rows]  # type: ignore[misc]


async def test_a_card_is_stored_with_its_days_and_aliases_and_a_rename_keeps_the_old_name(
        database: Database) -> None:
    service = await a_couple_with_a_card(database)
    await confirmed(service, ANA, "renomear", "nubank para Roxinho")

    context = await service.context(CHAT)
    assert context is not None
    budget = await SqlStorage(database).budgets.load(context.link.budget_id, periods=())

    [card] = budget.cards
    assert (card.name, card.closing_day, card.due_day, card.aliases) == ("Roxinho", 3, 10, ("Nubank",))
    assert budget.find_card("nubank") is card


async def test_a_purchase_in_12x_pressed_ten_times_at_once_writes_twelve_entries_once(database: Database) -> None:
    service = await a_couple_with_a_card(database)
    preview = await proposed(service, ANA, "gasto", "1.200,05 mercado no nubank em 12x")

    results = await asyncio.gather(*(service.press(CHAT, who.user_id, Decision.CONFIRM, preview.key)
                                     for who in [ANA, BRUNO] * 5))

    assert all(not r.alert for r in results)
    entries = await spend_entries(database)
    # 20/11 is after the 3rd: the first parcela in December's fatura, the last in November 2027.
    assert [row[0] for row in entries] == [str(Period(2026, 12).plus(k)) for k in range(12)]
    assert [row[1] for row in entries] == [10005] + [10000] * 11  # the 5 cents left over on the first
    assert [(row[2], row[3]) for row in entries] == [(k, 12) for k in range(1, 13)]


async def test_the_faturas_sum_their_parcelas_across_the_year_end_with_each_members_share(
        database: Database) -> None:
    service = await a_couple_with_a_card(database)
    await confirmed(service, ANA, "gasto", "900 mercado no nubank em 3x")
    await confirmed(service, BRUNO, "gasto", "45,50 mercado no nubank")
    context = await service.context(CHAT)
    assert context is not None
    card = (await SqlStorage(database).budgets.load(context.link.budget_id, periods=())).cards[0]

    faturas = await SqlLedger(database).faturas(card.id, Period(2026, 12))
    january = await service.answer("fatura", CHAT, ANA, "nubank 2027-01")

    assert [(f.fatura, f.total, f.parcelas) for f in faturas] == [
        (Period(2026, 12), brl("345.50"), 1), (Period(2027, 1), brl("300"), 1), (Period(2027, 2), brl("300"), 1)]
    assert "• 20/11 Mercado 2/3: R$ 300,00 (Ana)" in january and "Total: R$ 300,00" in january
    december = await service.answer("fatura", CHAT, ANA, "nubank")
    assert "Parte de cada um: Ana R$ 172,75 · Bruno R$ 172,75" in december
    assert "Próximas faturas: jan/27 R$ 300,00, fev/27 R$ 300,00" in december


async def test_undoing_a_parcelado_takes_every_parcela_out_and_keeps_both_in_the_ledger(database: Database) -> None:
    service = await a_couple_with_a_card(database)
    purchase = await proposed(service, ANA, "gasto", "600 mercado no nubank em 6x")
    assert not (await service.press(CHAT, BRUNO.user_id, Decision.CONFIRM, purchase.key)).alert

    pressed = await service.press(CHAT, BRUNO.user_id, Decision.UNDO, purchase.key)
    assert pressed.post is not None
    await service.preview_posted(CHAT, pressed.post.operation_id, 9_001)
    assert not (await service.press(CHAT, ANA.user_id, Decision.CONFIRM, pressed.post.key)).alert

    entries = await spend_entries(database)
    assert len(entries) == 12 and sum(row[1] for row in entries) == 0
    assert "Nada lançado nesta fatura." in await service.answer("fatura", CHAT, ANA, "nubank")
    assert "Mercado: R$ 0,00" in await service.answer("resumo", CHAT, ANA, "2027-03")
    assert "Vocês estão quites." in await service.answer("saldo", CHAT, ANA, "")


async def test_ten_spends_confirmed_at_once_say_80_and_100_percent_once_each(database: Database) -> None:
    service = await a_couple_with_a_card(database)  # Mercado: R$ 1.000,00 a month
    previews = [await proposed(service, ANA, "gasto", f"{100 + n},00 mercado") for n in range(10)]

    results = await asyncio.gather(*(service.press(CHAT, BRUNO.user_id, Decision.CONFIRM, p.key)
                                     for p in previews))

    texts = [r.edit.text for r in results if r.edit is not None]
    assert len(texts) == 10
    warned = [line for text in texts for line in text.splitlines() if line.startswith("⚠️ Mercado:")]
    assert len(warned) == 2, warned  # one crossing 80 %, one crossing 100 %, whichever they were
    assert sorted(int(line.split(":")[1].split("%")[0]) // 100 for line in warned) == [0, 1]
    async with database.reading() as connection:
        thresholds = (await connection.execute(select(expense_alerts.c.threshold)
                                               .order_by(expense_alerts.c.threshold))).scalars().all()
        assert thresholds == [80, 100]
        count = (await connection.execute(select(func.count()).select_from(ledger_entries)
                                          .where(ledger_entries.c.kind == "spend"))).scalar()
        assert count == 10


async def test_a_higher_expected_amount_re_arms_the_80_percent_warning_in_the_database(database: Database) -> None:
    service = await a_couple_with_a_card(database)  # Mercado: R$ 1.000,00 a month
    assert "⚠️ Mercado: 85 %" in await confirmed(service, ANA, "gasto", "850,00 mercado")

    await confirmed(service, ANA, "ajuste", "mercado 1.500")  # 56 % of the new amount
    async with database.reading() as connection:
        assert (await connection.execute(select(expense_alerts.c.threshold))).scalars().all() == []

    assert "⚠️ Mercado: 80 %" in await confirmed(service, ANA, "gasto", "350,00 mercado")
    assert "⚠️" not in await confirmed(service, ANA, "gasto", "10,00 mercado")
