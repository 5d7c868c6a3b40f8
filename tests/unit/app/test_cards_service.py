"""Cards, faturas, parcelas and the month's limits through the service, in memory: /cartao, /gasto on
a card in parcelas, /fatura, /cartoes, undo of a parcelado, renaming and archiving a card, the
limit warnings, and the bad input (issue 24)."""

from __future__ import annotations

import itertools

import pytest

from bot.app.media import Incoming, MediaService
from bot.app.outcomes import Preview
from bot.app.service import HouseholdService
from domain.ledger import EntryKind
from domain.money import Money, Period
from tests.fakes.posting import PostingService
from tests.fakes.storage import InMemoryStorage
from tests.unit.app.test_household_service import (
    ANA,
    BRUNO,
    CHAT,
    NOW,
    TTL,
    Clock,
    confirmed,
    ok,
    only_preview,
    only_reply,
    with_mercado,
)


@pytest.fixture
def storage() -> InMemoryStorage:
    return InMemoryStorage(clock=Clock(NOW), ttl=TTL)  # 15/06/2026


@pytest.fixture
def service(storage: InMemoryStorage) -> HouseholdService:
    return PostingService(storage, model=None, clock=storage.clock)


async def pressed(service: HouseholdService, preview: Preview) -> str:
    result = await service.press(CHAT, BRUNO.user_id, *ok(preview))
    assert not result.alert, result
    assert result.edit is not None
    return result.edit.text


async def with_nubank(service: HouseholdService) -> None:
    await with_mercado(service)
    await confirmed(service, ANA, "cartao", "Nubank fecha 3 vence 10")


async def fatura(service: HouseholdService, text: str = "nubank") -> str:
    return await service.answer("fatura", CHAT, ANA, text)


def spends(storage: InMemoryStorage) -> list[tuple[Period | None, Money | None, int | None, int | None]]:
    return [(e.period, e.amount, e.installment, e.installments) for e in storage.ledger.entries
            if e.kind is EntryKind.SPEND]


async def undone(service: HouseholdService) -> Preview:
    """/desfazer's preview: undo the household's last confirmed operation."""
    return only_preview(await service.undo_last(CHAT, ANA, operation_id=f"undo-{id(service)}-{next(_UNDOS)}"))


_UNDOS = itertools.count()


def brl(amount: str) -> Money:
    return Money.of(amount, "BRL")


async def test_cartao_registers_a_card_whose_preview_says_when_its_fatura_closes_and_falls_due(
        service: HouseholdService) -> None:
    await with_mercado(service)

    preview = only_preview(await service.command(CHAT, ANA, "cartao", "Nubank fecha 3 vence 10"))
    done = await pressed(service, preview)

    assert "💳 Cadastrar cartão" in preview.text
    assert "Fecha todo dia 3 e vence todo dia 10" in preview.text
    assert "Próxima fatura: fecha 03/07/2026, vence 10/07/2026" in preview.text
    assert "✅ Cartão cadastrado por Bruno" in done
    assert "Nubank: fecha dia 3, vence dia 10 · fatura de julho de 2026: R$ 0,00" in \
        await service.answer("cartoes", CHAT, ANA, "")


async def test_a_purchase_in_10x_is_one_preview_and_on_confirmation_ten_entries_one_per_fatura(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_nubank(service)

    preview = only_preview(await service.command(CHAT, ANA, "gasto", "1.000 mercado no nubank em 3x"))
    assert spends(storage) == []
    done = await pressed(service, preview)

    assert "Cartão: Nubank (fatura de julho de 2026, vence 10/07/2026)" in preview.text
    assert "Valor: R$ 1.000,00 em 3x de R$ 333,33 (a 1ª de R$ 333,34)" in preview.text
    # Each parcela is split on its own, its odd cent to the payer: R$ 333,33 is 166,67 + 166,66.
    assert "Pago por Ana" in preview.text and "Divisão: Ana R$ 500,01 · Bruno R$ 499,99" in preview.text
    assert "✅ Gasto registrado por Bruno" in done
    assert spends(storage) == [(Period(2026, 7), brl("333.34"), 1, 3), (Period(2026, 8), brl("333.33"), 2, 3),
                               (Period(2026, 9), brl("333.33"), 3, 3)]
    assert "Bruno deve R$ 499,99 a Ana" in await service.answer("saldo", CHAT, ANA, "")


async def test_the_card_and_the_parcelas_may_come_in_either_order_and_na_works_as_no(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_nubank(service)

    for text in ("300 mercado em 3x no nubank", "300 mercado na Nubank em 3x", "300 mercado no nubank 3x por bruno"):
        preview = only_preview(await service.command(CHAT, ANA, "gasto", text))
        assert "em 3x de R$ 100,00" in preview.text, text


async def test_a_purchase_before_the_closing_day_falls_in_this_months_fatura(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    await confirmed(service, ANA, "cartao", "Inter fecha 20 vence 28")

    preview = only_preview(await service.command(CHAT, ANA, "gasto", "50 mercado no inter"))

    assert "Cartão: Inter (fatura de junho de 2026, vence 28/06/2026)" in preview.text
    assert "Total gasto em junho de 2026: R$ 50,00" in preview.text


async def test_fatura_lists_each_item_with_its_payer_and_parcela_the_total_the_shares_and_what_comes_next(
        service: HouseholdService) -> None:
    await with_nubank(service)
    await pressed(service, only_preview(await service.command(CHAT, ANA, "gasto", "1.000 mercado no nubank em 3x")))
    await pressed(service, only_preview(await service.command(CHAT, BRUNO, "gasto", "80 mercado no nubank pessoal")))

    text = await fatura(service)

    assert text.startswith("💳 Fatura do Nubank de julho de 2026\nFecha 03/07/2026 · vence 10/07/2026")
    assert "• 15/06 Mercado 1/3: R$ 333,34 (Ana)" in text
    assert "• 15/06 Mercado: R$ 80,00 (Bruno)" in text
    assert "Total: R$ 413,34" in text
    assert "Parte de cada um: Ana R$ 166,67 · Bruno R$ 246,67" in text
    assert "Próximas faturas: ago/26 R$ 333,33, set/26 R$ 333,33" in text
    assert "Mercado 2/3: R$ 333,33" in await fatura(service, "nubank 2026-08")
    assert "Nada lançado nesta fatura." in await fatura(service, "nubank outubro de 2026")


async def test_undoing_a_parcelado_removes_every_parcela_from_the_faturas_and_the_months(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_nubank(service)
    purchase = only_preview(await service.command(CHAT, ANA, "gasto", "1.200 mercado no nubank em 12x"))
    await pressed(service, purchase)
    assert len(spends(storage)) == 12

    await pressed(service, await undone(service))

    assert len(spends(storage)) == 24  # the ledger keeps both
    assert "Nada lançado nesta fatura." in await fatura(service)
    assert "Próximas faturas" not in await fatura(service)
    summary = await service.answer("resumo", CHAT, ANA, "2026-08")
    assert "Mercado: R$ 0,00" in summary
    assert "Vocês estão quites." in await service.answer("saldo", CHAT, ANA, "")


async def test_an_unknown_card_is_refused_naming_the_known_ones_and_nothing_is_proposed(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_nubank(service)

    answer = only_reply(await service.command(CHAT, ANA, "gasto", "50 mercado no itau"))

    assert 'Cartão "itau" não encontrado' in answer and "Nubank" in answer
    assert spends(storage) == []


@pytest.mark.parametrize(("text", "says"), [
    ("50 mercado no nubank em 0x", "Número de parcelas inválido"),
    ("50 mercado no nubank em 49x", "use 1 a 48"),
    ("0,02 mercado no nubank em 3x", "menos de um centavo"),
    ("50 mercado em 3x", "só no cartão"),
])
async def test_bad_parcelas_are_refused_with_the_reason(service: HouseholdService, storage: InMemoryStorage,
                                                         text: str, says: str) -> None:
    await with_nubank(service)

    assert says in only_reply(await service.command(CHAT, ANA, "gasto", text))
    assert spends(storage) == []


async def test_one_parcela_is_a_plain_purchase_on_the_card(service: HouseholdService,
                                                          storage: InMemoryStorage) -> None:
    await with_nubank(service)

    preview = only_preview(await service.command(CHAT, ANA, "gasto", "50 mercado no nubank em 1x"))

    assert "em 1x" not in preview.text and "Valor: R$ 50,00" in preview.text


async def test_an_expense_whose_name_ends_in_na_something_is_not_taken_for_a_card(
        service: HouseholdService) -> None:
    await with_mercado(service)
    await confirmed(service, ANA, "despesa", "Lanche na escola 200")

    preview = only_preview(await service.command(CHAT, ANA, "gasto", "20 lanche na escola"))

    assert "Despesa: Lanche na escola" in preview.text and "Cartão" not in preview.text


@pytest.mark.parametrize(("text", "says"), [
    ("Nubank fecha 0 vence 10", "Dia inválido"),
    ("Nubank fecha 3 vence 32", "Dia inválido"),
    ("Nubank fecha 3", "Falta"),
    ("fecha 3 vence 10", "Falta"),
])
async def test_a_card_with_days_outside_one_to_31_or_missing_is_refused(service: HouseholdService,
                                                                        text: str, says: str) -> None:
    await with_mercado(service)

    assert says in only_reply(await service.command(CHAT, ANA, "cartao", text))


async def test_two_cards_with_one_name_are_refused(service: HouseholdService) -> None:
    await with_nubank(service)

    assert 'O nome "nubank" já é usado pelo cartão Nubank' in \
        only_reply(await service.command(CHAT, ANA, "cartao", "nubank fecha 5 vence 12"))


async def test_a_card_with_parcelas_to_come_is_not_archived_and_the_reply_says_how_many(
        service: HouseholdService) -> None:
    await with_nubank(service)
    await pressed(service, only_preview(await service.command(CHAT, ANA, "gasto", "1.000 mercado no nubank em 10x")))

    answer = only_reply(await service.command(CHAT, ANA, "arquivar", "nubank"))

    assert "O cartão Nubank ainda tem 10 parcelas em faturas futuras" in answer


async def test_a_renamed_card_keeps_its_old_name_and_the_rename_can_be_undone(
        service: HouseholdService) -> None:
    await with_nubank(service)

    renamed = only_preview(await service.command(CHAT, ANA, "renomear", "nubank para Roxinho"))
    await pressed(service, renamed)

    assert "Cartão: Nubank" in renamed.text and "Novo nome: Roxinho" in renamed.text
    assert "Fatura do Roxinho" in await fatura(service, "nubank")
    await pressed(service, await undone(service))
    assert "Fatura do Nubank" in await fatura(service, "nubank")


async def test_registering_a_card_can_be_undone_and_then_it_answers_to_nothing(service: HouseholdService) -> None:
    await with_nubank(service)

    await pressed(service, await undone(service))

    assert 'Cartão "nubank" não encontrado' in await fatura(service)


async def test_a_spend_that_takes_the_month_to_80_percent_says_so_once_on_its_confirmation(
        service: HouseholdService) -> None:
    await with_mercado(service)  # R$ 1.500,00 a month

    first = only_preview(await service.command(CHAT, ANA, "gasto", "1.230 mercado"))
    first_done = await pressed(service, first)
    second_done = await pressed(service, only_preview(await service.command(CHAT, ANA, "gasto", "30 mercado")))
    third_done = await pressed(service, only_preview(await service.command(CHAT, ANA, "gasto", "300 mercado")))

    assert "⚠️" not in first.text  # said once it is written, not before
    assert "⚠️ Mercado: 82 % do previsto" in first_done
    assert "⚠️" not in second_done  # 84 %: already said this month
    assert "⚠️ Mercado: 104 % do previsto" in third_done


async def test_an_undo_that_drops_the_month_below_80_percent_re_arms_the_warning(
        service: HouseholdService) -> None:
    await with_mercado(service)
    await pressed(service, only_preview(await service.command(CHAT, ANA, "gasto", "1.230 mercado")))
    await pressed(service, await undone(service))

    again = await pressed(service, only_preview(await service.command(CHAT, ANA, "gasto", "1.300 mercado")))

    assert "⚠️ Mercado: 86 % do previsto" in again


async def test_extrato_shows_each_parcela_as_k_of_n_and_exportar_has_a_parcela_column(
        service: HouseholdService) -> None:
    await with_nubank(service)
    await pressed(service, only_preview(await service.command(CHAT, ANA, "gasto", "1.000 mercado no nubank em 3x")))

    august = await service.answer("extrato", CHAT, ANA, "2026-08")

    assert "15/06 · Mercado 2/3 (gasto no cartão) · R$ 333,33 · Ana" in august


async def test_a_long_fatura_lists_its_latest_items_and_counts_the_rest(service: HouseholdService) -> None:
    await with_nubank(service)
    for n in range(45):
        await pressed(service, only_preview(await service.command(CHAT, ANA, "gasto", f"{n + 1} mercado no nubank")))

    text = await fatura(service)

    assert "… 5 itens anteriores, R$ 15,00 (todos: /exportar 2026-07)" in text
    assert text.count("\n• ") == 40 and "Total: R$ 1.035,00" in text


async def test_a_month_that_is_not_the_purchases_on_a_card_is_refused_saying_why(service: HouseholdService) -> None:
    await with_nubank(service)

    answer = only_reply(await service.command(CHAT, ANA, "gasto", "50 mercado 2026-04 no nubank"))

    assert "uma compra em 15/06/2026 no Nubank cai na fatura de 07/2026, não em 2026-04" in answer


# --------------------------------------------------------------------------- a card's statement

NUBANK_CARD_CSV = (b"date,title,amount\n"
                   b"2026-06-01,Mercado Extra,120.50\n"
                   b"2026-06-10,Farmacia Sao Joao,45.00\n"
                   b"2026-06-12,Pagamento recebido,-500.00\n")


def a_file(data: bytes, name: str = "nubank-2026-06.csv") -> Incoming:
    async def fetch() -> bytes:
        return data
    return Incoming(fetch, name, len(data))


async def imported(service: HouseholdService, media: MediaService, statement: bytes, update: str, *,
                   caption: str = "nubank") -> tuple[Preview, str]:
    """A statement's preview, posted as the handler posts it, and the text of its confirmation."""
    preview = only_preview(await media.statement(CHAT, ANA, a_file(statement), update, caption=caption))
    await service.preview_posted(CHAT, preview.operation_id, 9_999)
    return preview, await pressed(service, preview)


async def with_two_cards(service: HouseholdService) -> MediaService:
    await with_nubank(service)
    await confirmed(service, ANA, "cartao", "Itaú Visa fecha 25 vence 5")
    await confirmed(service, ANA, "despesa", "Farmácia 300 dia 5")
    return MediaService(service)


async def test_a_card_statement_asks_which_card_when_the_household_has_several(service: HouseholdService) -> None:
    media = await with_two_cards(service)

    answer = only_reply(await media.statement(CHAT, ANA, a_file(NUBANK_CARD_CSV), "doc-1"))

    assert "De qual? Mande o arquivo de novo com o nome do cartão na legenda (Nubank, Itaú Visa)" in answer


async def test_a_card_statement_named_in_the_caption_puts_each_purchase_in_its_fatura(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    media = await with_two_cards(service)

    preview, done = await imported(service, media, NUBANK_CARD_CSV, "doc-1", caption="fatura do nubank")

    assert "Cartão: Nubank (cada compra na fatura em que cai)" in preview.text
    assert "✅ 2 lançamentos importados" in done
    # Closing on the 3rd: the 1 June purchase is June's fatura, the 10 June one July's.
    assert [(period, amount) for period, amount, _, _ in spends(storage)] == [
        (Period(2026, 6), brl("120.50")), (Period(2026, 7), brl("45.00"))]
    assert "Total: R$ 120,50" in await fatura(service, "nubank 2026-06")
    assert "Total: R$ 45,00" in await fatura(service, "nubank 2026-07")


async def test_a_card_statements_parcela_dated_on_its_purchase_lands_in_this_fatura_as_k_of_n(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    media = await with_two_cards(service)
    statement = (b"date,title,amount\n"
                 b"2026-06-01,Mercado Extra,120.50\n"
                 b"2026-03-01,Farmacia Sao Joao - Parcela 4/10,45.00\n")

    await imported(service, media, statement, "doc-2")

    # Bought in March's fatura (closing on the 3rd), charged three faturas later: June's, as 4/10.
    assert [(period, amount, k, n) for period, amount, k, n in spends(storage)] == [
        (Period(2026, 6), brl("120.50"), 1, 1), (Period(2026, 6), brl("45.00"), 4, 10)]
    june = await fatura(service, "nubank 2026-06")
    assert "Total: R$ 165,50" in june and "4/10" in june
    assert "Nada lançado nesta fatura." in await fatura(service, "nubank 2026-03")


async def test_a_parcela_the_bot_already_holds_is_not_imported_again_from_the_fatura(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    media = await with_two_cards(service)
    await confirmed(service, ANA, "gasto", "1.000 farmácia no nubank em 10x")  # 15/06: from July's fatura on
    statement = (b"date,title,amount\n"
                 b"2026-09-01,Mercado Extra,50.00\n"
                 b"2026-06-15,Farmacia Sao Joao - Parcela 3/10,100.00\n")

    preview, _ = await imported(service, media, statement, "doc-3")

    assert "Parcelas que a fatura já tem (lançadas antes; não serão importadas): 1" in preview.text
    assert "Farmacia Sao Joao - Parcela 3/10" in preview.text
    september = await fatura(service, "nubank 2026-09")
    assert "Total: R$ 150,00" in september and september.count("3/10") == 1


async def test_a_fatura_of_parcelas_the_bot_already_holds_has_nothing_new(service: HouseholdService) -> None:
    media = await with_two_cards(service)
    await confirmed(service, ANA, "gasto", "1.000 farmácia no nubank em 10x")
    statement = b"date,title,amount\n2026-06-15,Farmacia Sao Joao - Parcela 2/10,100.00\n"

    answer = only_reply(await media.statement(CHAT, ANA, a_file(statement), "doc-4", caption="nubank"))

    assert "Nada novo para importar" in answer and "Parcelas que a fatura já tem (lançadas antes): 1." in answer
