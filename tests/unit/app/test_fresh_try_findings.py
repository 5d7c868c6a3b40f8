"""What a new user tripped on in a fresh try (issue 26), each finding as it was typed, over the
same service Telegram and the console use. The console's own findings (6, 12, 15, 16, 17) are in
tests/unit/bot/test_console.py; the typing indicator (8) in tests/unit/bot/test_thinking.py."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.app.outcomes import Decision, Edit, Outcome, Preview, Reply, Speaker
from bot.app.service import HouseholdService
from tests.fakes.posting import PostingService
from tests.fakes.storage import InMemoryStorage

NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)
CHAT = -2601
ANA = Speaker(1, "Ana")
BRUNO = Speaker(2, "Bruno")


def clock() -> datetime:
    return NOW


@pytest.fixture
def storage() -> InMemoryStorage:
    return InMemoryStorage(clock=clock)


@pytest.fixture
def service(storage: InMemoryStorage) -> HouseholdService:
    return PostingService(storage, model=None, clock=clock)


def reply_of(outcomes: list[Outcome]) -> str:
    [reply] = outcomes
    assert isinstance(reply, Reply), reply
    return reply.text


def preview_of(outcomes: list[Outcome]) -> Preview:
    [preview] = outcomes
    assert isinstance(preview, Preview), preview
    return preview


async def proposed(service: HouseholdService, command: str, text: str, by: Speaker = ANA) -> Preview:
    return preview_of(await service.command(CHAT, by, command, text))


async def confirm(service: HouseholdService, preview: Preview, by: Speaker = ANA) -> Edit:
    result = await service.press(CHAT, by.user_id, Decision.CONFIRM, preview.key)
    assert not result.alert, result.answer
    assert result.edit is not None
    return result.edit


async def confirmed(service: HouseholdService, command: str, text: str) -> Edit:
    return await confirm(service, await proposed(service, command, text))


async def started(service: HouseholdService) -> None:
    await service.start(CHAT, "Casa", ANA)


# --------------------------------------------------------------------------- 1 and 18. amounts


async def test_despesa_reads_r_1k_as_a_thousand_and_dia_10_as_the_billing_day(
        service: HouseholdService) -> None:
    await started(service)

    preview = await proposed(service, "despesa", "Academia R$1k dia 10")

    assert "Nome: Academia\n" in preview.text
    assert "Valor previsto por mês: R$ 1.000,00" in preview.text
    assert "Vencimento: todo dia 10" in preview.text


@pytest.mark.parametrize("written", ["R$1k", "1k", "1,5k", "2 mil", "50 reais"])
async def test_gasto_reads_what_the_agent_reads(service: HouseholdService, written: str) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 3.000")

    preview = await proposed(service, "gasto", f"{written} mercado")

    expected = {"R$1k": "R$ 1.000,00", "1k": "R$ 1.000,00", "1,5k": "R$ 1.500,00", "2 mil": "R$ 2.000,00",
                "50 reais": "R$ 50,00"}[written]
    assert f"Valor: {expected}" in preview.text


async def test_o_valor_vem_primeiro_only_when_the_first_word_is_not_a_value(service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 3.000")

    misplaced = reply_of(await service.command(CHAT, ANA, "gasto", "mercado 10"))
    first = await service.command(CHAT, ANA, "gasto", "R$1k mercado")

    assert "O valor vem primeiro; “mercado” não é um valor." in misplaced
    assert isinstance(first[0], Preview) and "O valor vem primeiro" not in first[0].text


# --------------------------------------------------------------------------- 2. totals after confirming


async def test_each_confirmed_message_shows_the_total_after_its_own_confirmation(
        service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.500")
    first = await proposed(service, "gasto", "87,90 mercado")
    second = await proposed(service, "gasto", "12,50 mercado")
    assert "Total gasto no mês: R$ 12,50" in second.text  # what it was when proposed

    await confirm(service, first)
    edit = await confirm(service, second)

    assert "Total gasto no mês: R$ 100,40" in edit.text
    assert "Mercado: R$ 100,40 de R$ 1.500,00" in await service.answer("resumo", CHAT, ANA, "")


# --------------------------------------------------------------------------- 3. the total of /resumo


async def test_resumo_totals_are_the_sum_of_the_lines_it_shows(
        storage: InMemoryStorage) -> None:
    now = [NOW]
    service = PostingService(storage, model=None, clock=lambda: now[0])
    await started(service)
    now[0] = datetime(2026, 12, 10, 15, tzinfo=UTC)
    await confirmed(service, "despesa", "Aluguel 2.800")  # registered in December
    await confirmed(service, "gasto", "1.234,56 aluguel 2026-11")  # November, caught up

    november = await service.answer("resumo", CHAT, ANA, "novembro")

    assert "Aluguel: R$ 1.234,56 de R$ 2.800,00" in november
    assert "Total: R$ 1.234,56 de R$ 2.800,00" in november


# --------------------------------------------------------------------------- 5. one month reader


async def test_a_month_before_the_household_says_when_it_began_in_resumo_extrato_and_grafico(
        service: HouseholdService) -> None:
    await started(service)
    for line in ("Aluguel 2.800", "Mercado 1.500", "Luz 200", "Internet 120"):
        await confirmed(service, "despesa", line)

    summary = await service.answer("resumo", CHAT, ANA, "março")
    statement = await service.answer("extrato", CHAT, ANA, "março")

    assert summary.startswith("📊 Resumo de março de 2026")
    assert "Nenhuma despesa cadastrada ainda" not in summary
    assert "a casa começou em junho de 2026" in summary
    assert statement.startswith("🧾 Extrato de março de 2026")
    assert "a casa começou em junho de 2026" in statement


@pytest.mark.parametrize("month", ["2025-01", "01/2025", "janeiro de 2025"])
async def test_a_month_too_early_is_refused_alike_by_gasto_resumo_and_extrato(
        service: HouseholdService, month: str) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.500")
    refusal = ("⚠️ janeiro de 2025 é antigo demais para esta casa: use um mês de junho de 2025 "
               "até junho de 2027.")

    spend = reply_of(await service.command(CHAT, ANA, "gasto", f"10 mercado {month}"))
    summary = await service.answer("resumo", CHAT, ANA, month)
    statement = await service.answer("extrato", CHAT, ANA, month)

    assert spend == refusal
    assert summary == refusal
    assert statement == refusal


async def test_month_names_read_alike_in_resumo_and_extrato(service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.500")
    await confirmed(service, "gasto", "10 mercado")

    assert (await service.answer("resumo", CHAT, ANA, "junho")).startswith("📊 Resumo de junho de 2026")
    assert (await service.answer("extrato", CHAT, ANA, "06/2026")).startswith("🧾 Extrato de junho de 2026")
    assert (await service.answer("extrato", CHAT, ANA, "mês passado")).startswith(
        "🧾 Extrato de maio de 2026")


@pytest.mark.parametrize(("written", "month"), [
    ("120 mercado março", "março de 2026"), ("120 mercado em maio", "maio de 2026"),
    ("120 mercado mês passado", "maio de 2026"), ("120 mercado dezembro de 2025", "dezembro de 2025"),
    ("120 mercado 12/2025", "dezembro de 2025")])
async def test_gasto_reads_a_month_as_resumo_does(service: HouseholdService, written: str, month: str) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.500")

    preview = await proposed(service, "gasto", written)

    assert "Despesa: Mercado\n" in preview.text and f"Mês: {month}" in preview.text


# --------------------------------------------------------------------------- 7. archiving


async def test_archiving_keeps_what_was_spent_and_hides_the_expense_from_next_month_on(
        storage: InMemoryStorage) -> None:
    now = [NOW]
    service = PostingService(storage, model=None, clock=lambda: now[0])
    await started(service)
    for line in ("Farmácia 100", "Mercado 1.500", "Luz 200"):
        await confirmed(service, "despesa", line)
    await confirmed(service, "gasto", "50 farmácia")
    await confirmed(service, "arquivar", "Farmácia")
    june = await service.answer("resumo", CHAT, ANA, "")
    now[0] = datetime(2026, 7, 10, 15, tzinfo=UTC)
    await confirmed(service, "arquivar", "luz")

    july = await service.answer("resumo", CHAT, ANA, "")
    june_later = await service.answer("resumo", CHAT, ANA, "junho")
    august = await service.answer("resumo", CHAT, ANA, "2026-08")

    assert "Farmácia: R$ 50,00 de R$ 100,00" in june and "Total: R$ 50,00 de R$ 1.800,00" in june
    assert june_later.splitlines()[2:] == june.splitlines()[2:]  # June stays as it was
    assert "Farmácia" not in july and "Luz: R$ 0,00 de R$ 200,00" in july
    assert "Total: R$ 0,00 de R$ 1.700,00" in july
    assert "Luz" not in august and "Total: R$ 0,00 de R$ 1.500,00" in august


# --------------------------------------------------------------------------- 6 and 12. a bare "confirma"


async def test_a_bare_confirma_with_one_preview_pending_confirms_it(service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.500")
    await proposed(service, "gasto", "37,90 mercado")

    result = await service.decide_pending(CHAT, ANA.user_id, "confirma")

    assert not isinstance(result, Reply) and result is not None and not result.alert
    assert result.edit is not None and result.edit.text.startswith("✅ Gasto registrado por Ana")
    assert result.answer == "✅ Confirmado: gasto de R$ 37,90 em Mercado, junho de 2026."
    assert "Mercado: R$ 37,90 de R$ 1.500,00" in await service.answer("resumo", CHAT, ANA, "")


async def test_a_bare_confirma_with_several_previews_pending_asks_which_and_writes_nothing(
        service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.500")
    await proposed(service, "gasto", "37,90 mercado")
    await proposed(service, "gasto", "12,50 mercado")

    result = await service.decide_pending(CHAT, ANA.user_id, "confirma")

    assert isinstance(result, Reply)
    assert result.text.startswith("Há 2 propostas esperando. Qual delas?")
    assert "Mercado: R$ 0,00 de R$ 1.500,00" in await service.answer("resumo", CHAT, ANA, "")
    assert len(await service.pending_previews(CHAT)) == 2


async def test_a_bare_confirma_to_the_previews_one_message_proposed_goes_on_to_confirm_them_all(
        service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.500")
    await confirmed(service, "despesa", "Farmácia 200")
    two = await service.talk(CHAT, ANA, "gastei 50 no mercado e 30 na farmácia")
    assert [type(outcome) for outcome in two] == [Preview, Preview]

    decided = await service.decide_pending(CHAT, ANA.user_id, "confirma")
    outcomes = await service.talk(CHAT, ANA, "confirma")  # where the handlers send it next

    assert decided is None
    assert [type(outcome) for outcome in outcomes] == [Edit, Edit]
    assert all(outcome.text.startswith("✅ Gasto registrado por Ana") for outcome in outcomes
               if isinstance(outcome, Edit))
    summary = await service.answer("resumo", CHAT, ANA, "")
    assert "Mercado: R$ 50,00 de R$ 1.500,00" in summary and "Farmácia: R$ 30,00 de R$ 200,00" in summary
    assert await service.pending_previews(CHAT) == []


async def test_a_bare_cancela_to_the_previews_one_message_proposed_still_asks_which(
        service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.500")
    await confirmed(service, "despesa", "Farmácia 200")
    await service.talk(CHAT, ANA, "gastei 50 no mercado e 30 na farmácia")

    result = await service.decide_pending(CHAT, ANA.user_id, "cancela")

    assert isinstance(result, Reply) and result.text.startswith("Há 2 propostas esperando. Qual delas?")
    assert len(await service.pending_previews(CHAT)) == 2


async def test_a_bare_confirma_never_erases_the_household_silently(service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.500")
    await service.erase(CHAT, ANA)

    result = await service.decide_pending(CHAT, ANA.user_id, "sim")

    assert isinstance(result, Reply) and "apagar" in result.text and "✅ Confirmar" in result.text
    assert "Mercado" in await service.answer("resumo", CHAT, ANA, "")


async def test_a_bare_confirma_with_nothing_pending_says_so(service: HouseholdService) -> None:
    await started(service)

    confirming = await service.decide_pending(CHAT, ANA.user_id, "confirma")
    cancelling = await service.decide_pending(CHAT, ANA.user_id, "cancela")
    talk = await service.talk(CHAT, ANA, "me ajuda com as contas da casa")

    assert confirming == Reply("Nada pendente para confirmar.")
    assert cancelling == Reply("Nada pendente para cancelar.")
    assert "Não entendo texto livre" in reply_of(talk)  # anything else still goes on as before


async def test_a_bare_cancela_with_one_preview_cancels_it_and_strangers_are_left_to_the_usual_path(
        service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.500")
    await proposed(service, "gasto", "37,90 mercado")

    stranger = await service.decide_pending(CHAT, 99, "confirma")
    result = await service.decide_pending(CHAT, ANA.user_id, "cancela")

    assert stranger is None
    assert result is not None and not isinstance(result, Reply) and "cancelad" in result.answer.lower()
    assert await service.pending_previews(CHAT) == []


# --------------------------------------------------------------------------- 9. /extrato's adjustments


async def test_extrato_shows_an_adjustment_as_the_value_before_and_after(service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.234,56")
    await confirmed(service, "ajuste", "mercado 1.800")
    await confirmed(service, "ajuste", "mercado 1.500")

    statement = await service.answer("extrato", CHAT, ANA, "")

    assert "Mercado (valor previsto) · R$ 1.234,56 → R$ 1.800,00 · Ana" in statement
    assert "Mercado (valor previsto) · R$ 1.800,00 → R$ 1.500,00 · Ana" in statement
    assert "R$ 565,44" not in statement


async def test_extrato_shows_an_undone_adjustment_the_other_way(service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.234,56")
    await confirmed(service, "ajuste", "mercado 1.800")
    [undo] = await service.undo_last(CHAT, ANA, operation_id="undo-1")
    assert isinstance(undo, Preview)
    await confirm(service, undo)

    statement = await service.answer("extrato", CHAT, ANA, "")

    assert "↩️ desfeito: Mercado (valor previsto) · R$ 1.800,00 → R$ 1.234,56" in statement


# --------------------------------------------------------------------------- 10. a renamed expense


async def test_a_renamed_expense_still_answers_to_its_old_name(service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.500")
    rename = await proposed(service, "renomear", "mercado para Feira")
    await confirm(service, rename)

    spend = await proposed(service, "gasto", "10 mercado")

    assert "“Mercado” continua valendo como apelido" in rename.text
    assert "Despesa: Feira\n" in spend.text


async def test_undoing_a_rename_gives_back_the_old_name_without_keeping_the_new_one(
        service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.500")
    await confirmed(service, "renomear", "mercado para Feira")
    [undo] = await service.undo_last(CHAT, ANA, operation_id="undo-rename")
    assert isinstance(undo, Preview)
    await confirm(service, undo)

    spend = await proposed(service, "gasto", "10 mercado")
    feira = reply_of(await service.command(CHAT, ANA, "gasto", "10 feira"))

    assert "Despesa: Mercado\n" in spend.text
    assert "não encontrada" in feira


# --------------------------------------------------------------------------- 13. an adjustment to the same value


async def test_ajuste_to_the_value_it_already_has_says_so_and_proposes_nothing(
        service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.800")

    text = reply_of(await service.command(CHAT, ANA, "ajuste", "mercado 1.800,00"))

    assert text == "⚠️ Mercado já está previsto em R$ 1.800,00 por mês; nada a mudar."
    assert await service.pending_previews(CHAT) == []


# --------------------------------------------------------------------------- 14. /sair


async def test_sair_is_a_preview_and_the_member_leaves_only_once_it_is_confirmed(
        service: HouseholdService) -> None:
    await started(service)
    joining = preview_of(await service.join(CHAT, BRUNO, None))
    await confirm(service, joining)

    leaving = preview_of(await service.leave(CHAT, BRUNO))
    still = await service.member(CHAT, BRUNO.user_id)
    edit = await confirm(service, leaving, BRUNO)

    assert leaving.text.startswith("👋 Bruno quer sair da casa") and leaving.text.endswith("Confirma?")
    assert still is not None and still.name == "Bruno"
    assert edit.text.startswith("👋 Bruno saiu da casa")
    assert await service.member(CHAT, BRUNO.user_id) is None
    assert reply_of(await service.leave(CHAT, BRUNO)) == "Você não é membro desta casa."


# --------------------------------------------------------------------------- 19. a confirmed join


async def test_a_confirmed_join_no_longer_says_who_may_confirm_it(service: HouseholdService) -> None:
    await started(service)
    joining = preview_of(await service.join(CHAT, BRUNO, None))

    edit = await confirm(service, joining)

    assert "Só quem já é membro da casa pode confirmar." in joining.text
    assert edit.text == "✅ Entrada na casa confirmada por Ana\nNovo membro: Bruno"


# --------------------------------------------------------------------------- 15. renaming the household


async def test_renomear_casa_renames_the_household(service: HouseholdService) -> None:
    await started(service)

    rename = await proposed(service, "renomear", "casa para Lar da Ana e do Bruno")
    edit = await confirm(service, rename)
    erase = preview_of(await service.erase(CHAT, ANA))

    assert rename.text.startswith("✏️ Renomear\nCasa: Casa\nNovo nome: Lar da Ana e do Bruno")
    assert edit.text.startswith("✅ Renomeado por Ana")
    assert "Casa: Lar da Ana e do Bruno" in erase.text


async def test_casa_means_the_expense_when_one_is_called_so(service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Casa 500")

    text = reply_of(await service.command(CHAT, ANA, "renomear", "casa para Lar"))
    archive = reply_of(await service.command(CHAT, ANA, "arquivar", "Casa nova"))

    assert "ambíguo" in text and "a despesa Casa" in text and "a casa" in text
    assert "não encontr" in archive
