"""The ledger through the service, in memory: entries, /extrato, ↩️ Desfazer, /desfazer, /exportar."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest

from bot.app.outcomes import Decision, Preview, Reply
from bot.app.queries import QUERIES
from bot.app.service import HouseholdService
from bot.texts import history, messages
from domain.errors import (
    AlreadyUndone,
    DomainError,
    OperationClosed,
    OperationConflict,
    PreviewNotShown,
    UnknownOperation,
)
from domain.ledger import EntryKind, LedgerEntry
from domain.money import Money, Period
from domain.operations.log import UNDO_TOOL
from domain.tools.base import WriteTool
from domain.tools.registry import TOOLS
from domain.tools.undo import CHANGE_NO_TOTALS, UndoOperationTool
from tests.fakes.posting import PostingService
from tests.fakes.storage import InMemoryStorage
from tests.unit.app.test_household_service import (
    ANA,
    BRUNO,
    CHAT,
    GROUP,
    JUNE,
    NOW,
    OTHER_CHAT,
    STRANGER,
    TTL,
    Clock,
    actual,
    admitted,
    confirmed,
    couple,
    goals,
    ok,
    only_preview,
    only_reply,
    pressed_on_telegram,
    stored_operation,
    with_mercado,
)


@pytest.fixture
def storage() -> InMemoryStorage:
    return InMemoryStorage(clock=Clock(NOW), ttl=TTL)


@pytest.fixture
def service(storage: InMemoryStorage) -> HouseholdService:
    return PostingService(storage, model=None, clock=storage.clock)


async def posted_spend(service: HouseholdService, text: str = "37,90 mercado", message_id: int = 500) -> Preview:
    """A confirmed `/gasto`, its preview posted as message `message_id`."""
    preview = only_preview(await service.command(CHAT, ANA, "gasto", text))
    await service.preview_posted(CHAT, preview.operation_id, message_id)
    result = await service.press(CHAT, ANA.user_id, *ok(preview))
    assert result.edit is not None and result.edit.undo_key == preview.key
    return preview


async def test_a_confirmed_spend_is_one_ledger_entry_stamped_with_its_operation_and_confirmer(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)

    preview = await posted_spend(service)

    [entry] = [e for e in storage.ledger.entries if e.kind is EntryKind.SPEND]
    assert (entry.subject, entry.amount, entry.period) == ("Mercado", Money.of("37.90", "BRL"), JUNE)
    assert (entry.operation_id, entry.tool, entry.confirmed_by) == (preview.operation_id, "recordSpend", "Ana")


async def test_the_desfazer_button_proposes_an_undo_that_a_confirmation_applies_once(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    spend = await posted_spend(service)

    pressed = await service.press(CHAT, BRUNO.user_id, Decision.UNDO, spend.key)
    assert pressed.post is not None and not pressed.alert
    assert "Desfazer" in pressed.post.text and "Mercado" in pressed.post.text
    assert await actual(storage, "Mercado") == Decimal("37.90")  # a preview writes nothing
    await service.preview_posted(CHAT, pressed.post.operation_id, 501)

    done = await service.press(CHAT, BRUNO.user_id, *ok(pressed.post))
    again = await service.press(CHAT, ANA.user_id, *ok(pressed.post))

    assert not done.alert and done.edit is not None and done.edit.undo_key is None
    assert done.undone is not None and done.undone.message_id == 500 and done.undone.undo_key is None
    assert history.undone_note() in done.undone.text
    assert again.edit is not None and "já foi confirmada" in again.answer
    assert await actual(storage, "Mercado") == Decimal("0")
    spends = [e for e in storage.ledger.entries if e.kind is EntryKind.SPEND]
    assert [(e.amount, e.undoes) for e in spends] == [
        (Money.of("37.90", "BRL"), None), (Money.of("-37.90", "BRL"), spend.operation_id)]
    assert (await stored_operation(storage, spend.operation_id)).undone_by == pressed.post.operation_id


async def test_an_operation_already_undone_cannot_be_undone_again(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    spend = await posted_spend(service)
    undo = await service.press(CHAT, ANA.user_id, Decision.UNDO, spend.key)
    assert undo.post is not None
    await service.press(CHAT, ANA.user_id, *ok(undo.post))

    twice = await service.press(CHAT, ANA.user_id, Decision.UNDO, spend.key)
    by_command = only_preview(await service.undo_last(CHAT, ANA, operation_id="cmd-9"))

    assert twice.alert and twice.post is None and "já foi desfeita" in twice.answer
    # The last operation not undone is now the expense's registration, not the spend.
    assert "despesa Mercado" in by_command.text
    assert await actual(storage, "Mercado") == Decimal("0")


async def test_a_second_press_of_desfazer_does_not_post_a_second_undo(
        service: HouseholdService) -> None:
    await with_mercado(service)
    spend = await posted_spend(service)
    first = await service.press(CHAT, ANA.user_id, Decision.UNDO, spend.key)
    assert first.post is not None
    await service.preview_posted(CHAT, first.post.operation_id, 502)

    second = await service.press(CHAT, BRUNO.user_id, Decision.UNDO, spend.key)

    assert second.alert and second.post is None


async def test_only_operations_that_can_be_undone_carry_desfazer(service: HouseholdService) -> None:
    await service.start(CHAT, GROUP, ANA)
    joined = await admitted(service, BRUNO)
    registered = await confirmed(service, ANA, "despesa", "Mercado 1.500")
    leaving = only_preview(await service.leave(CHAT, BRUNO))
    left = await service.press(CHAT, ANA.user_id, *ok(leaving))
    assert joined.edit is not None and joined.edit.undo_key is None
    assert left.edit is not None and left.edit.undo_key is None
    assert registered.edit is not None and registered.edit.undo_key is not None


OPERATION_ID = "cmd-60849001"


def test_what_cannot_be_undone_is_joining_leaving_erasing_and_an_undo() -> None:
    cannot = {tool.name for tool in TOOLS if issubclass(tool, WriteTool) and not tool.undoable}
    assert cannot == {*CHANGE_NO_TOTALS, UNDO_TOOL}


async def test_desfazer_pressed_on_a_confirmed_entrar_says_why_and_shows_no_internal_id(
        service: HouseholdService) -> None:
    await service.start(CHAT, GROUP, ANA)
    joining = only_preview(await service.join(CHAT, BRUNO, None, operation_id=OPERATION_ID))
    await service.press(CHAT, ANA.user_id, *ok(joining))

    pressed = await service.press(CHAT, ANA.user_id, Decision.UNDO, joining.key)

    assert pressed.alert and pressed.post is None
    assert pressed.answer == history.not_undoable_alert()
    assert OPERATION_ID not in pressed.answer


@pytest.mark.parametrize("error", [
    OperationConflict(OPERATION_ID), OperationClosed(OPERATION_ID, "cancelled"), OperationClosed(OPERATION_ID, "expired"),
    PreviewNotShown(OPERATION_ID), UnknownOperation(OPERATION_ID), AlreadyUndone(OPERATION_ID),
], ids=lambda e: f"{type(e).__name__}-{getattr(e, 'status', '')}")
def test_no_error_about_an_operation_shows_its_internal_id(error: DomainError) -> None:
    assert OPERATION_ID not in messages.error_text(error)


async def test_undoing_what_cannot_be_undone_is_refused_without_naming_an_internal_id(
        service: HouseholdService) -> None:
    """The model's undoOperation on a join, a pending spend, an undo, an operation undone
    already, or one that never was: the refusal a person may read says why, never which id."""
    await service.start(CHAT, GROUP, ANA)
    joining = only_preview(await service.join(CHAT, BRUNO, None, operation_id="cmd-join-1"))
    await service.press(CHAT, ANA.user_id, *ok(joining))
    await confirmed(service, ANA, "despesa", "Mercado 1.500")
    pending = only_preview(await service.command(CHAT, ANA, "gasto", "5 mercado"))
    spend = await posted_spend(service, "7 mercado", 510)
    undo = await service.press(CHAT, ANA.user_id, Decision.UNDO, spend.key)
    assert undo.post is not None
    await service.press(CHAT, ANA.user_id, *ok(undo.post))
    context = await service.chats.context(CHAT)
    assert context is not None
    tool = context.write_tool(UndoOperationTool.name)
    assert isinstance(tool, UndoOperationTool)

    for number, target in enumerate([joining.operation_id, pending.operation_id, undo.post.operation_id,
                                     spend.operation_id, "op-never-made"]):
        with pytest.raises(DomainError) as refused:
            await tool.undo_operation(operation_id=f"undo-x{number}", target=target)
        assert target not in messages.error_text(refused.value), target


async def test_only_members_may_press_desfazer(service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    spend = await posted_spend(service)

    refused = await service.press(CHAT, STRANGER.user_id, Decision.UNDO, spend.key)

    assert refused.alert and refused.post is None
    assert await actual(storage, "Mercado") == Decimal("37.90")


async def test_desfazer_proposes_undoing_the_last_confirmed_operation(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    await posted_spend(service, "10 mercado", 600)
    await posted_spend(service, "5 mercado", 601)

    undo = only_preview(await service.undo_last(CHAT, BRUNO, operation_id="cmd-77"))
    await service.press(CHAT, BRUNO.user_id, *ok(undo))

    assert await actual(storage, "Mercado") == Decimal("10")
    assert "R$ 5,00" in undo.text


async def test_desfazer_with_nothing_confirmed_says_so(service: HouseholdService) -> None:
    await couple(service)

    assert only_reply(await service.undo_last(CHAT, ANA, operation_id="cmd-1")) == \
        history.nothing_to_undo_text()


async def test_undoing_a_contribution_takes_it_out_of_the_goals_savings(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await couple(service)
    await confirmed(service, ANA, "meta", "Viagem 6000")
    await confirmed(service, ANA, "aporte", "500 viagem")

    undo = only_preview(await service.undo_last(CHAT, BRUNO, operation_id="cmd-5"))
    await service.press(CHAT, BRUNO.user_id, *ok(undo))

    [trip] = await goals(storage)
    assert trip.saved_by_currency() == {}
    assert [c.amount for c in trip.contributions] == [Money.of("500", "BRL"), Money.of("-500", "BRL")]


async def test_undoing_an_expense_registration_archives_it_and_keeps_its_name_free(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)

    undo = only_preview(await service.undo_last(CHAT, ANA, operation_id="cmd-6"))
    await service.press(CHAT, ANA.user_id, *ok(undo))
    summary = await service.answer("resumo", CHAT, ANA, str(JUNE))
    again = await confirmed(service, ANA, "despesa", "Mercado 900")

    assert "Mercado" not in summary
    assert not again.alert


async def test_extrato_lists_the_months_entries_newest_first_with_amount_and_who(
        service: HouseholdService) -> None:
    await with_mercado(service)
    await posted_spend(service, "37,90 mercado", 700)
    await posted_spend(service, "1.234,56 mercado", 701)

    text = await service.answer("extrato", CHAT, ANA, "")

    lines = text.splitlines()
    assert lines[0] == "🧾 Extrato de junho de 2026"
    spends = [line for line in lines if "(gasto)" in line]
    assert spends == ["15/06 · Mercado (gasto) · R$ 1.234,56 · Ana", "15/06 · Mercado (gasto) · R$ 37,90 · Ana"]


async def test_extrato_of_an_empty_month_says_so(service: HouseholdService) -> None:
    await couple(service)

    assert "Nenhum lançamento" in await service.answer("extrato", CHAT, ANA, str(Period(2026, 7)))


async def test_export_writes_a_csv_excel_reads_in_pt_br(service: HouseholdService) -> None:
    await with_mercado(service)
    await posted_spend(service, "1.234,56 mercado", 800)
    out = io.BytesIO()

    name = await service.export(CHAT, ANA, JUNE, out)

    data = out.getvalue()
    assert name == "extrato-2026-06.csv"
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == list(history.CSV_HEADER)
    spend = next(row for row in rows[1:] if row[2] == "gasto")
    assert spend[:6] == ["15/06/2026", "2026-06", "gasto", "Mercado", "1234,56", "BRL"]
    assert spend[7] == "Ana"
    assert len(rows) == 3  # the header, the expense's registration, the spend


async def test_a_stranger_in_the_group_reads_nothing_of_the_household(service: HouseholdService) -> None:
    """Reads are for members, as writes are (issue 27, finding 2): every read command, the month
    /grafico and /exportar ask for, and the export itself answer the join hint."""
    await with_mercado(service)
    await posted_spend(service, "1.234,56 mercado", 800)
    hint = messages.join_hint_text()

    answers = {command: await service.answer(command, CHAT, STRANGER, "") for command in QUERIES}
    months = {command: await service.month_for(command, CHAT, STRANGER, "", whole=command == "exportar")
              for command in ("grafico", "exportar")}
    out = io.BytesIO()
    exported = await service.export(CHAT, STRANGER, None, out)

    assert answers == dict.fromkeys(QUERIES, hint)
    assert months == {"grafico": hint, "exportar": hint}
    assert exported == Reply(hint) and out.getvalue() == b""


async def test_renomear_and_arquivar_are_previews_and_history_stays(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    await posted_spend(service, "10 mercado", 900)

    rename = only_preview(await service.command(CHAT, ANA, "renomear", "mercado para Feira"))
    assert "Mercado" in rename.text and "Feira" in rename.text
    assert "Mercado" in await service.answer("resumo", CHAT, ANA, str(JUNE))  # nothing written by a preview
    await service.press(CHAT, BRUNO.user_id, *ok(rename))
    archive = only_preview(await service.command(CHAT, ANA, "arquivar", "feira"))
    await service.press(CHAT, BRUNO.user_id, *ok(archive))

    summary = await service.answer("resumo", CHAT, ANA, str(JUNE))
    next_month = await service.answer("resumo", CHAT, ANA, str(JUNE.plus(1)))
    statement = await service.answer("extrato", CHAT, ANA, str(JUNE))
    # What was spent stays spent (issue 26, finding 7): archived in June, it leaves July on.
    assert "Feira: R$ 10,00 de R$ 1.500,00" in summary and "Mercado" not in summary
    assert "Feira" not in next_month and "Mercado" not in next_month
    assert "Mercado (gasto) · R$ 10,00" in statement and "Feira (arquivada)" in statement


async def test_a_goal_whose_name_differs_only_in_case_or_accents_is_refused(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await couple(service)
    await confirmed(service, ANA, "meta", "Lua de Mel 6000")

    refused = only_reply(await service.command(CHAT, BRUNO, "meta", "lua de mél 9000"))

    assert "já é usado" in refused and len(await goals(storage)) == 1


async def test_renomear_without_para_shows_the_right_form(service: HouseholdService) -> None:
    await with_mercado(service)

    assert "/renomear <nome> para <novo nome>" in only_reply(
        await service.command(CHAT, ANA, "renomear", "mercado Feira"))


async def test_undoing_a_rename_gives_the_old_name_back(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    await confirmed(service, ANA, "renomear", "mercado para Feira")

    undo = only_preview(await service.undo_last(CHAT, BRUNO, operation_id="cmd-r"))
    await service.press(CHAT, BRUNO.user_id, *ok(undo))

    assert [e.name for e in (await storage.budgets.load(
        (await storage.directory.household_of_chat(CHAT)).budget_id)).expenses] == ["Mercado"]  # type: ignore[union-attr]


def test_a_name_typed_as_a_formula_is_exported_as_text() -> None:
    entry = LedgerEntry(EntryKind.SPEND, "=HYPERLINK(\"http://x\")", amount=Money.of("-1", "BRL"),
                        period=JUNE, paid_by="@Ana", created_at=NOW)

    row = history.csv_row(entry, "America/Sao_Paulo")

    assert row[3] == "'=HYPERLINK(\"http://x\")" and row[6] == "'@Ana"
    assert row[4] == "-1,00"  # an amount stays a number


async def test_desfazer_with_forged_pending_or_another_chats_key_is_an_alert_and_writes_nothing(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    await posted_spend(service, "10 mercado", 950)
    pending = only_preview(await service.command(CHAT, ANA, "gasto", "5 mercado"))
    await service.start(OTHER_CHAT, "Outra", ANA)
    await service.command(OTHER_CHAT, ANA, "despesa", "Luz 200")
    [other] = [op for op in storage.operations(f"chat:{OTHER_CHAT}")._operations.values()]

    hostile = ["un:", "un:" + "A" * 33, "un:' OR 1=1", "un:\u0000", "UN:" + pending.key,
               f"un:{pending.key}", f"un:{other.key}", "un:un:x"]
    pressed = [await pressed_on_telegram(service, CHAT, ANA.user_id, data) for data in hostile]

    assert all(len(answers) == 1 and answers[0][1] and sent == [] for answers, sent in pressed), pressed
    assert await actual(storage, "Mercado") == Decimal("10")
    assert not [op for log in storage.logs.values() for op in log._operations.values()
                if op.tool == "undoOperation"]
