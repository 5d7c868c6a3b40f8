"""Who paid and who owes whom through the service, in memory: the payer of each spend, personal
spends, /saldo, /acerto with its Pix copia e cola and QR code, /divisao, /renda, /pix, the bad
input and the undo of every new write."""

from __future__ import annotations

import csv
import io

import pytest

from bot.app.outcomes import Decision, Preview
from bot.app.service import HouseholdService
from domain.ledger import EntryKind
from domain.money import Money
from domain.sharing.pix import fields_of
from tests.fakes.posting import PostingService
from tests.fakes.storage import InMemoryStorage
from tests.unit.app.test_household_service import (
    ANA,
    BRUNO,
    CARLA,
    CHAT,
    NOW,
    TTL,
    Clock,
    admitted,
    confirmed,
    household,
    ok,
    only_preview,
    only_reply,
    with_mercado,
)


@pytest.fixture
def storage() -> InMemoryStorage:
    return InMemoryStorage(clock=Clock(NOW), ttl=TTL)


@pytest.fixture
def service(storage: InMemoryStorage) -> HouseholdService:
    return PostingService(storage, model=None, clock=storage.clock)


def brl(amount: str | int) -> Money:
    return Money.of(amount, "BRL")


async def saldo(service: HouseholdService, text: str = "") -> str:
    return await service.answer("saldo", CHAT, ANA, text)


async def pressed(service: HouseholdService, preview: Preview, by: int = BRUNO.user_id) -> str:
    result = await service.press(CHAT, by, *ok(preview))
    assert not result.alert, result
    assert result.edit is not None
    return result.edit.text


async def spent(service: HouseholdService, speaker: object, text: str) -> Preview:
    preview = only_preview(await service.command(CHAT, speaker, "gasto", text))  # type: ignore[arg-type]
    await pressed(service, preview)
    return preview


async def test_a_spend_is_paid_by_who_sent_it_not_by_who_confirms_and_split_in_half(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)

    preview = only_preview(await service.command(CHAT, ANA, "gasto", "37,90 mercado"))
    confirmed_text = await pressed(service, preview, by=BRUNO.user_id)

    assert "Pago por Ana" in preview.text and "Divisão: Ana R$ 18,95 · Bruno R$ 18,95" in preview.text
    assert "Pago por Ana" in confirmed_text and "Gasto registrado por Bruno" in confirmed_text
    [entry] = [e for e in storage.ledger.entries if e.kind is EntryKind.SPEND]
    assert (entry.paid_by, entry.confirmed_by) == ("Ana", "Bruno")
    assert "Bruno deve R$ 18,95 a Ana" in await saldo(service)
    extrato = await service.answer("extrato", CHAT, ANA, "")
    assert "Mercado (gasto) · R$ 37,90 · Ana" in extrato


async def test_por_names_another_payer_and_pessoal_keeps_a_spend_out_of_the_split(
        service: HouseholdService) -> None:
    await with_mercado(service)

    by_bruno = await spent(service, ANA, "100 mercado por bruno")
    personal = await spent(service, ANA, "80 mercado pessoal")

    assert "Pago por Bruno" in by_bruno.text
    assert "Pessoal: fica fora da divisão" in personal.text and "Divisão" not in personal.text
    answer = await saldo(service)
    assert "Ana deve R$ 50,00 a Bruno" in answer
    assert "Conta 1 gasto dividido e 0 acertos." in answer


async def test_an_unknown_payer_is_refused_naming_the_members_and_nothing_is_proposed(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)

    answer = only_reply(await service.command(CHAT, ANA, "gasto", "50 mercado por Carla"))

    assert "Carla" in answer and "Ana, Bruno" in answer
    assert not [e for e in storage.ledger.entries if e.kind is EntryKind.SPEND]


async def test_nobody_owes_anything_at_first(service: HouseholdService) -> None:
    await with_mercado(service)

    assert "Vocês estão quites." in await saldo(service)
    assert "Vocês estão quites" in only_reply(await service.command(CHAT, BRUNO, "acerto", ""))


async def test_an_acerto_settles_the_debt_once_with_the_creditors_pix_copia_e_cola_and_qr_code(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    await spent(service, ANA, "120 mercado")
    await confirmed(service, ANA, "pix", "ana@example.com")

    preview = only_preview(await service.command(CHAT, BRUNO, "acerto", ""))

    assert preview.text.startswith("🤝 Acerto: Bruno paga R$ 60,00 a Ana")
    payload = preview.text.split("Pix copia e cola para Ana (R$ 60,00):\n", 1)[1].split("\n", 1)[0]
    fields = fields_of(payload)
    assert fields["54"] == "60.00" and "ana@example.com" in fields["26"]
    assert preview.photo is not None and preview.photo.png.startswith(b"\x89PNG")
    assert payload in preview.photo.caption
    done = await pressed(service, preview, by=ANA.user_id)
    assert "Acerto: Bruno pagou R$ 60,00 a Ana" in done and payload in done
    assert "Vocês estão quites." in await saldo(service)
    again = await service.press(CHAT, BRUNO.user_id, *ok(preview))
    assert [e.kind for e in storage.ledger.entries].count(EntryKind.SETTLEMENT) == 1
    assert again.alert is False or "já" in again.answer


async def test_a_partial_acerto_is_allowed_and_one_larger_than_the_debt_is_refused_naming_it(
        service: HouseholdService) -> None:
    await with_mercado(service)
    await spent(service, ANA, "100 mercado")

    refused = only_reply(await service.command(CHAT, BRUNO, "acerto", "80"))
    partial = only_preview(await service.command(CHAT, BRUNO, "acerto", "20"))
    await pressed(service, partial, by=ANA.user_id)

    assert refused == "⚠️ O acerto de R$ 80,00 é maior que a dívida: Bruno deve R$ 50,00 a Ana."
    assert "Depois do acerto: Bruno ainda deve R$ 30,00 a Ana." in partial.text
    assert "Pix" not in partial.text and partial.photo is None  # Ana has no key
    answer = await saldo(service)
    assert "Bruno deve R$ 30,00 a Ana" in answer and "Conta 1 gasto dividido e 1 acerto." in answer


async def undone(service: HouseholdService, preview: Preview) -> None:
    """↩️ Desfazer on a confirmed preview, and the undo it posts confirmed."""
    pressed_undo = await service.press(CHAT, ANA.user_id, Decision.UNDO, preview.key)
    assert pressed_undo.post is not None, pressed_undo
    await service.preview_posted(CHAT, pressed_undo.post.operation_id, 77_000)
    await pressed(service, pressed_undo.post)


async def test_a_spend_undone_after_an_acerto_shows_the_new_debt_never_a_negative_one(
        service: HouseholdService) -> None:
    await with_mercado(service)
    spend = await spent(service, ANA, "100 mercado")
    await pressed(service, only_preview(await service.command(CHAT, BRUNO, "acerto", "")), by=ANA.user_id)

    await undone(service, spend)

    answer = await saldo(service)
    assert "Ana deve R$ 50,00 a Bruno" in answer and "R$ -" not in answer
    assert "Conta 0 gastos divididos e 1 acerto." in answer


async def test_the_split_rule_applies_to_spends_confirmed_afterwards_and_each_keeps_its_shares(
        service: HouseholdService) -> None:
    await with_mercado(service)
    await spent(service, ANA, "100 mercado")

    shown = await service.command(CHAT, ANA, "divisao", "")
    split = only_preview(await service.command(CHAT, ANA, "divisao", "Ana 60 Bruno 40"))
    await pressed(service, split)
    later = await spent(service, ANA, "100 mercado")

    assert "Divisão dos gastos da casa: igual (Ana 50 %, Bruno 50 %)" in only_reply(shown)
    assert "Nova divisão: porcentagens fixas (Ana 60 %, Bruno 40 %)" in split.text
    assert "Divisão: Ana R$ 60,00 · Bruno R$ 40,00" in later.text
    assert "Bruno deve R$ 90,00 a Ana" in await saldo(service)  # 50 + 40: the first kept its half


@pytest.mark.parametrize(("text", "named"), [
    ("Ana 60 Bruno 30", "somam 90 %"),
    ("Ana 50 Carla 50", "Carla"),
    ("renda", "/renda"),
    ("Ana sessenta", "porcentagem"),
])
async def test_a_split_that_cannot_be_is_refused_naming_why(service: HouseholdService, text: str,
                                                          named: str) -> None:
    await with_mercado(service)

    assert named in only_reply(await service.command(CHAT, ANA, "divisao", text))


async def test_renda_is_the_senders_own_income_and_the_split_by_income_follows_it(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    renda = only_preview(await service.command(CHAT, ANA, "renda", "7.000"))
    await pressed(service, renda)
    await confirmed(service, BRUNO, "renda", "3 mil")
    await pressed(service, only_preview(await service.command(CHAT, ANA, "divisao", "renda")))

    spend = await spent(service, BRUNO, "100 mercado")

    assert "Nova renda de Ana: R$ 7.000,00" in renda.text
    budget = await storage.budgets.load((await storage.directory.household_of_chat(CHAT)).budget_id)  # type: ignore[union-attr]
    assert budget.income == brl(10000)
    assert "Divisão: Ana R$ 70,00 · Bruno R$ 30,00" in spend.text
    assert "Ana deve R$ 70,00 a Bruno" in await saldo(service)


async def test_pix_stores_the_senders_own_key_and_refuses_an_invalid_one_without_echoing_it(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)

    refused = only_reply(await service.command(CHAT, BRUNO, "pix", "529.982.247-26"))
    preview = only_preview(await service.command(CHAT, BRUNO, "pix", "529.982.247-25"))
    await pressed(service, preview, by=ANA.user_id)

    assert "CPF inválido" in refused and "529" not in refused
    assert "Chave: 52998224725 (CPF)" in preview.text
    assert (await household(storage)).member_named("Bruno").pix_key == "52998224725"
    pix_entries = [e for e in storage.ledger.entries if e.kind is EntryKind.PIX]
    assert len(pix_entries) == 1 and "5299" not in repr(pix_entries)


async def test_every_new_write_can_be_undone(service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    await spent(service, ANA, "100 mercado")
    writes = [("pix", BRUNO, "bruno@example.com"), ("renda", ANA, "7000"), ("divisao", ANA, "Ana 70 Bruno 30"),
              ("acerto", BRUNO, "")]
    for command, speaker, text in writes:
        preview = only_preview(await service.command(CHAT, speaker, command, text))
        await pressed(service, preview, by=ANA.user_id)
    before_undo = await saldo(service)

    for n in range(len(writes)):
        undo = only_preview(await service.undo_last(CHAT, ANA, operation_id=f"undo-{n}"))
        await pressed(service, undo)

    assert "quites" in before_undo
    assert "Bruno deve R$ 50,00 a Ana" in await saldo(service)
    budget = await storage.budgets.load((await storage.directory.household_of_chat(CHAT)).budget_id)  # type: ignore[union-attr]
    assert (budget.split.kind, budget.incomes, budget.income) == ("equal", {}, None)
    assert (await household(storage)).member_named("Bruno").pix_key is None


async def test_three_members_see_each_transfer_fewest_first(service: HouseholdService) -> None:
    await with_mercado(service)
    await admitted(service, CARLA)

    await spent(service, ANA, "90 mercado")

    answer = await saldo(service)
    assert "Bruno deve R$ 30,00 a Ana\nCarla deve R$ 30,00 a Ana" in answer


async def test_the_export_names_the_payer_and_each_members_share(service: HouseholdService) -> None:
    await with_mercado(service)
    await spent(service, ANA, "37,90 mercado")
    out = io.BytesIO()

    await service.export(CHAT, ANA, None, out)

    rows = list(csv.reader(io.StringIO(out.getvalue().decode("utf-8-sig")), delimiter=";"))
    header, spend = rows[0], next(r for r in rows if r[2] == "gasto")
    assert header[6] == "pago por" and header[10] == "divisão"
    assert spend[6] == "Ana" and spend[10] == "Ana 18,95; Bruno 18,95"
