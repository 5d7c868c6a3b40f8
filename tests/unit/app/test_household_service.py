"""HouseholdService (contract §5 and §6) over in-memory storage: membership, commands without a
model, button presses and their security, and the agent path with a scripted model.

Everything runs in memory with a fixed clock (2026-06-15 12:00 UTC, 09:00 in São Paulo). What a
test says was written it reads back through the repositories; "writes nothing" is the count of
repository saves, and "proposes nothing" the count of operations offered to the log.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.app.outcomes import Decision, Edit, Outcome, PressResult, Preview, Reply, Speaker
from bot.app.service import HouseholdService
from bot.telegram import handlers
from bot.telegram.keyboards import callback_data
from bot.telegram.sending import SERVICE
from bot.texts import guide, messages
from domain.agent.model import FailureKind
from domain.agent.prompt import system_prompt
from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.money import Money, Period
from domain.operations.log import InMemoryOperationLog, Operation, OperationStatus
from tests.fakes.posting import PostingService
from tests.fakes.scripted_model import ScriptedModel, call, calls, fail, say
from tests.fakes.storage import InMemoryStorage

NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)
TTL = timedelta(hours=48)
CHAT = -1001
OTHER_CHAT = -2002
GROUP = "Casa Ana & Bruno"
ANA = Speaker(1, "Ana")
BRUNO = Speaker(2, "Bruno")
BIA = Speaker(3, "Beatriz")
CARLA = Speaker(4, "Carla")
STRANGER = Speaker(99, "Zé")
JUNE = Period(2026, 6)
MAY = Period(2026, 5)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


@pytest.fixture
def clock() -> Clock:
    return Clock(NOW)


@pytest.fixture
def storage(clock: Clock) -> InMemoryStorage:
    return InMemoryStorage(clock=clock, ttl=TTL)


@pytest.fixture
def service(storage: InMemoryStorage, clock: Clock) -> HouseholdService:
    return PostingService(storage, model=None, clock=clock)


@pytest.fixture
def proposed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Operation]]:
    """Every operation offered to any in-memory log during the test (a preview or a replacement)."""
    offered: list[Operation] = []
    original = InMemoryOperationLog.propose

    async def spy(self: InMemoryOperationLog, operation: Operation) -> Operation:
        offered.append(operation)
        return await original(self, operation)

    monkeypatch.setattr(InMemoryOperationLog, "propose", spy)
    yield offered


# --------------------------------------------------------------------------- helpers


def saves(storage: InMemoryStorage) -> int:
    """Every write the repositories took: households, budgets and goals."""
    return storage.households.saves + storage.budgets.saves + storage.goals.saves


async def household(storage: InMemoryStorage, chat: int = CHAT) -> Household:
    link = await storage.directory.household_of_chat(chat)
    assert link is not None
    return await storage.households.load(link.household_id)


async def budget(storage: InMemoryStorage, chat: int = CHAT) -> Budget:
    link = await storage.directory.household_of_chat(chat)
    assert link is not None
    return await storage.budgets.load(link.budget_id)


async def goals(storage: InMemoryStorage, chat: int = CHAT) -> list[Goal]:
    link = await storage.directory.household_of_chat(chat)
    assert link is not None
    return await storage.goals.list(link.household_id)


async def actual(storage: InMemoryStorage, expense: str, period: Period = JUNE) -> Decimal:
    return (await budget(storage)).find_by_name(expense).actual_for(period).amount


async def stored_operation(storage: InMemoryStorage, operation_id: str) -> Operation:
    for log in storage.logs.values():
        found = await log.get(operation_id)
        if found is not None:
            return found
    raise AssertionError(f"no operation {operation_id!r} in any log")


def only_preview(outcomes: list[Outcome]) -> Preview:
    assert len(outcomes) == 1, outcomes
    preview = outcomes[0]
    assert isinstance(preview, Preview), preview
    return preview


def only_reply(outcomes: list[Outcome]) -> str:
    assert len(outcomes) == 1, outcomes
    reply = outcomes[0]
    assert isinstance(reply, Reply), reply
    return reply.text


def ok(preview: Preview) -> tuple[Decision, str]:
    return Decision.CONFIRM, preview.key


def no(preview: Preview) -> tuple[Decision, str]:
    return Decision.CANCEL, preview.key


class PressedQuery:
    """A button press as bot.telegram.handlers.press reads it; keeps what it was answered."""

    def __init__(self, data: str | None, user_id: int, chat_id: int) -> None:
        self.data = data
        self.from_user = SimpleNamespace(id=user_id)
        self.message = SimpleNamespace(chat=SimpleNamespace(id=chat_id), message_id=1)
        self.answers: list[tuple[str | None, bool]] = []

    async def answer(self, text: str | None = None, show_alert: bool = False, **_: Any) -> bool:
        self.answers.append((text, show_alert))
        return True


class RecordingBot:
    """A Telegram bot that only records what it was asked to do."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        async def record(*args: Any, **kwargs: Any) -> None:
            self.calls.append(name)
        return record


async def pressed_on_telegram(service: HouseholdService, chat: int, user_id: int,
                              data: str | None) -> tuple[list[tuple[str | None, bool]], list[str]]:
    """Raw callback data through Telegram's press handler: how the press was answered (text,
    as an alert), and what else the bot was asked to do (edits, posts)."""
    query = PressedQuery(data, user_id, chat)
    bot = RecordingBot()
    await handlers.press(cast(Any, SimpleNamespace(callback_query=query)),
                         cast(Any, SimpleNamespace(bot=bot, bot_data={SERVICE: service})))
    return query.answers, bot.calls


async def admitted(service: HouseholdService, speaker: Speaker, name: str | None = None,
                   chat: int = CHAT, by: Speaker = ANA) -> PressResult:
    """`speaker` sends /entrar and `by`, a member, confirms it."""
    preview = only_preview(await service.join(chat, speaker, name))
    result = await service.press(chat, by.user_id, *ok(preview))
    assert not result.alert, result
    return result


async def couple(service: HouseholdService, chat: int = CHAT) -> None:
    """Ana sets the group up; Bruno asks to join and Ana confirms."""
    await service.start(chat, GROUP, ANA)
    if await service.member(chat, BRUNO.user_id) is None:
        await admitted(service, BRUNO, chat=chat)


async def confirmed(service: HouseholdService, speaker: Speaker, command: str, text: str,
                    chat: int = CHAT) -> PressResult:
    preview = only_preview(await service.command(chat, speaker, command, text))
    result = await service.press(chat, speaker.user_id, *ok(preview))
    assert not result.alert, result
    return result


async def with_mercado(service: HouseholdService) -> None:
    """Ana and Bruno, and a confirmed `/despesa Mercado 1.500`."""
    await couple(service)
    await confirmed(service, ANA, "despesa", "Mercado 1.500")


async def spend_preview(service: HouseholdService) -> Preview:
    await with_mercado(service)
    return only_preview(await service.command(CHAT, ANA, "gasto", "37,90 mercado"))


# --------------------------------------------------------------------------- /start and /entrar


async def test_start_creates_the_household_named_after_the_group_with_brl_and_a_budget(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    text = only_reply(await service.start(CHAT, GROUP, ANA))

    home = await household(storage)
    assert home.name == GROUP
    assert home.currency == "BRL"
    plan = await budget(storage)
    assert plan.currency == "BRL"
    assert plan.household_id == home.id
    assert GROUP in text


async def test_start_registers_the_sender_by_first_name(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await service.start(CHAT, GROUP, ANA)

    assert [m.name for m in (await household(storage)).members] == ["Ana"]
    member = await service.member(CHAT, ANA.user_id)
    assert member is not None and member.name == "Ana"


async def test_repeating_start_changes_nothing(service: HouseholdService, storage: InMemoryStorage) -> None:
    await service.start(CHAT, GROUP, ANA)
    link = await storage.directory.household_of_chat(CHAT)
    writes = saves(storage)

    text = only_reply(await service.start(CHAT, "Outro nome", ANA))

    assert await storage.directory.household_of_chat(CHAT) == link
    home = await household(storage)
    assert home.name == GROUP
    assert [m.name for m in home.members] == ["Ana"]
    assert saves(storage) == writes
    assert "já" in text


@pytest.mark.parametrize("how", ["start", "entrar"])
async def test_a_second_persons_start_or_entrar_asks_and_a_members_confirmation_registers_them(
        service: HouseholdService, storage: InMemoryStorage, how: str) -> None:
    await service.start(CHAT, GROUP, ANA)
    link = await storage.directory.household_of_chat(CHAT)
    writes = saves(storage)

    if how == "start":
        preview = only_preview(await service.start(CHAT, GROUP, BRUNO))
    else:
        preview = only_preview(await service.join(CHAT, BRUNO, None))

    assert "Bruno quer entrar na casa" in preview.text
    assert saves(storage) == writes
    assert await service.member(CHAT, BRUNO.user_id) is None
    result = await service.press(CHAT, ANA.user_id, *ok(preview))
    assert not result.alert
    assert await storage.directory.household_of_chat(CHAT) == link
    assert [m.name for m in (await household(storage)).members] == ["Ana", "Bruno"]
    member = await service.member(CHAT, BRUNO.user_id)
    assert member is not None and member.name == "Bruno"


async def test_the_requesters_own_confirmation_is_refused_and_writes_nothing(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await service.start(CHAT, GROUP, ANA)
    preview = only_preview(await service.join(CHAT, STRANGER, None))
    writes = saves(storage)

    result = await service.press(CHAT, STRANGER.user_id, *ok(preview))

    assert result.alert and result.answer == messages.own_join_alert()
    assert saves(storage) == writes
    assert await service.member(CHAT, STRANGER.user_id) is None


async def test_the_requester_may_withdraw_their_own_request(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await service.start(CHAT, GROUP, ANA)
    preview = only_preview(await service.join(CHAT, STRANGER, None))

    result = await service.press(CHAT, STRANGER.user_id, *no(preview))
    late = await service.press(CHAT, ANA.user_id, *ok(preview))

    assert not result.alert
    assert late.alert
    assert await service.member(CHAT, STRANGER.user_id) is None


async def test_sair_takes_the_member_out_and_they_can_no_longer_confirm(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    preview = only_preview(await service.command(CHAT, ANA, "gasto", "37,90 mercado"))

    leaving = only_preview(await service.leave(CHAT, BRUNO))  # a preview since issue 26
    text = (await service.press(CHAT, BRUNO.user_id, *ok(leaving))).edit
    refused = await service.press(CHAT, BRUNO.user_id, *ok(preview))

    assert text is not None and "Bruno saiu da casa" in text.text
    assert refused.alert and refused.answer == messages.not_a_member_alert()
    assert [m.name for m in (await household(storage)).members] == ["Ana"]
    assert (await budget(storage)).find_by_name("Mercado").actual_for(JUNE).amount == 0


async def test_a_member_who_left_the_group_can_no_longer_confirm_and_may_come_back(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    preview = only_preview(await service.command(CHAT, ANA, "gasto", "37,90 mercado"))

    assert await service.member_left(CHAT, BRUNO.user_id) == "Bruno"
    assert (await service.press(CHAT, BRUNO.user_id, *ok(preview))).alert
    await admitted(service, BRUNO)

    back = await service.member(CHAT, BRUNO.user_id)
    assert back is not None and back.name == "Bruno"
    assert not (await service.press(CHAT, BRUNO.user_id, *ok(preview))).alert


async def test_apagar_confirmed_by_a_member_deletes_the_household(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    preview = only_preview(await service.erase(CHAT, BRUNO))
    assert saves(storage) > 0 and "Apagar" in preview.text

    result = await service.press(CHAT, ANA.user_id, *ok(preview))

    assert not result.alert
    assert await storage.directory.household_of_chat(CHAT) is None
    assert storage.households._items == {} and storage.budgets._items == {}
    assert only_reply(await service.command(CHAT, ANA, "gasto", "1 mercado")) == messages.not_started_text()


async def test_apagar_from_a_stranger_proposes_nothing(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)

    assert only_reply(await service.erase(CHAT, STRANGER)) == messages.join_hint_text()
    assert await storage.directory.household_of_chat(CHAT) is not None


async def test_a_migrated_group_keeps_its_household_and_its_pending_previews(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    preview = only_preview(await service.command(CHAT, ANA, "gasto", "37,90 mercado"))

    assert await service.migrate(CHAT, OTHER_CHAT)
    assert not await service.migrate(CHAT, OTHER_CHAT)  # the second of Telegram's two messages

    assert not (await service.press(OTHER_CHAT, BRUNO.user_id, *ok(preview))).alert
    assert (await budget(storage, OTHER_CHAT)).find_by_name("Mercado").actual_for(JUNE).amount == Decimal("37.90")
    assert only_reply(await service.command(CHAT, ANA, "gasto", "1 mercado")) == messages.not_started_text()


async def test_entrar_with_a_name_uses_that_name(service: HouseholdService, storage: InMemoryStorage) -> None:
    await couple(service)

    await admitted(service, BIA, "Bia")

    member = await service.member(CHAT, BIA.user_id)
    assert member is not None and member.name == "Bia"
    assert [m.name for m in (await household(storage)).members] == ["Ana", "Bruno", "Bia"]


async def test_entrar_again_changes_nothing(service: HouseholdService, storage: InMemoryStorage) -> None:
    await couple(service)
    writes = saves(storage)

    text = only_reply(await service.join(CHAT, BRUNO, "Outro"))

    assert [m.name for m in (await household(storage)).members] == ["Ana", "Bruno"]
    assert saves(storage) == writes
    assert "já é membro" in text


async def test_a_duplicate_name_is_refused_with_a_portuguese_message(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await couple(service)
    writes = saves(storage)

    text = only_reply(await service.join(CHAT, BIA, "ana"))

    assert 'O nome "ana" já é usado' in text
    assert "/entrar" in text
    assert await service.member(CHAT, BIA.user_id) is None
    assert [m.name for m in (await household(storage)).members] == ["Ana", "Bruno"]
    assert saves(storage) == writes


async def test_entrar_before_start_asks_for_start(service: HouseholdService, storage: InMemoryStorage) -> None:
    text = only_reply(await service.join(CHAT, ANA, None))

    assert text == messages.not_started_text()
    assert await storage.directory.household_of_chat(CHAT) is None


# --------------------------------------------------------------------------- commands without a model


async def test_gasto_gives_a_portuguese_preview_and_writes_nothing(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    writes = saves(storage)

    preview = only_preview(await service.command(CHAT, ANA, "gasto", "37,90 mercado"))

    assert "R$ 37,90" in preview.text
    assert "junho de 2026" in preview.text
    assert "{" not in preview.text and "Decimal" not in preview.text
    assert len(callback_data(*ok(preview)).encode()) <= 64  # Telegram's limit on a button's data
    assert saves(storage) == writes
    assert await actual(storage, "Mercado") == 0


async def test_confirmar_writes_the_spend_exactly_once(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    preview = await spend_preview(service)
    writes = saves(storage)

    result = await service.press(CHAT, ANA.user_id, *ok(preview))

    assert (result.answer, result.alert) == (messages.confirmed_answer(), False)
    assert await actual(storage, "Mercado") == Decimal("37.90")
    assert saves(storage) == writes + 1
    operation = await stored_operation(storage, preview.operation_id)
    assert operation.status is OperationStatus.CONFIRMED
    assert operation.decided_by == "Ana"


async def test_pressing_confirmar_again_answers_already_and_writes_nothing(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    preview = await spend_preview(service)
    await service.press(CHAT, ANA.user_id, *ok(preview))
    writes = saves(storage)

    again = await service.press(CHAT, ANA.user_id, *ok(preview))

    assert "já" in again.answer
    assert saves(storage) == writes
    assert await actual(storage, "Mercado") == Decimal("37.90")


async def test_a_second_member_pressing_writes_nothing_more(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    preview = await spend_preview(service)
    await service.press(CHAT, ANA.user_id, *ok(preview))
    writes = saves(storage)

    second = await service.press(CHAT, BRUNO.user_id, *ok(preview))

    assert "já" in second.answer
    assert saves(storage) == writes
    assert await actual(storage, "Mercado") == Decimal("37.90")
    assert (await stored_operation(storage, preview.operation_id)).decided_by == "Ana"


async def test_ten_concurrent_presses_write_once(service: HouseholdService, storage: InMemoryStorage) -> None:
    preview = await spend_preview(service)
    writes = saves(storage)
    pressers = [ANA, BRUNO] * 5

    results = await asyncio.gather(*(service.press(CHAT, p.user_id, *ok(preview)) for p in pressers))

    assert [r.answer for r in results].count(messages.confirmed_answer()) == 1
    assert all("já" in r.answer for r in results if r.answer != messages.confirmed_answer())
    assert saves(storage) == writes + 1
    assert await actual(storage, "Mercado") == Decimal("37.90")


async def test_cancelar_then_confirmar_writes_nothing_and_the_confirm_is_refused_with_an_alert(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    preview = await spend_preview(service)
    writes = saves(storage)

    cancelled = await service.press(CHAT, ANA.user_id, *no(preview))
    late = await service.press(CHAT, BRUNO.user_id, *ok(preview))

    assert cancelled.answer == messages.cancelled_answer() and not cancelled.alert
    assert late.alert
    assert "cancelada" in late.answer
    assert "operationId" not in late.answer and preview.operation_id not in late.answer
    assert saves(storage) == writes
    assert await actual(storage, "Mercado") == 0
    assert (await stored_operation(storage, preview.operation_id)).status is OperationStatus.CANCELLED


async def test_cancelar_after_confirmar_is_refused_and_the_write_stays(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    preview = await spend_preview(service)
    await service.press(CHAT, ANA.user_id, *ok(preview))

    late = await service.press(CHAT, BRUNO.user_id, *no(preview))

    assert late.alert and "já" in late.answer
    assert await actual(storage, "Mercado") == Decimal("37.90")


async def test_gasto_with_a_month_records_in_that_month(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)

    preview = only_preview(await service.command(CHAT, ANA, "gasto", "37,90 mercado 2026-05"))
    await service.press(CHAT, ANA.user_id, *ok(preview))

    assert "maio de 2026" in preview.text
    assert await actual(storage, "Mercado", MAY) == Decimal("37.90")
    assert await actual(storage, "Mercado", JUNE) == 0


async def test_aporte_is_paid_by_the_sender_and_dated_today(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await couple(service)
    await confirmed(service, ANA, "meta", "Amsterdam 6000 EUR até 2026-09-01")

    preview = only_preview(await service.command(CHAT, BRUNO, "aporte", "500 Amsterdam"))
    await service.press(CHAT, ANA.user_id, *ok(preview))

    assert "Pago por: Bruno" in preview.text
    assert "15/06/2026" in preview.text
    assert "R$ 500,00" in preview.text
    [goal] = await goals(storage)
    [contribution] = goal.contributions
    assert contribution.paid_by.name == "Bruno"
    assert contribution.amount == Money.of(500, "BRL")
    assert contribution.date == date(2026, 6, 15)


async def test_a_preview_names_the_goal_and_expense_as_the_household_spells_them(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await couple(service)
    await with_mercado(service)
    await confirmed(service, ANA, "meta", "Lua de mel 6000 EUR até 2028-06-01")

    contribution = only_preview(await service.command(CHAT, BRUNO, "aporte", "500 lua"))
    spend = only_preview(await service.command(CHAT, BRUNO, "gasto", "10 MERCADO"))
    result = await service.press(CHAT, ANA.user_id, *ok(contribution))

    assert "Meta: Lua de mel" in contribution.text
    assert "Despesa: Mercado" in spend.text
    assert result.edit is None or "Lua de mel" in result.edit.text
    assert (await stored_operation(storage, contribution.operation_id)).preview["goal"] == "lua"


async def test_meta_makes_every_member_a_contributor(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await couple(service)
    await admitted(service, BIA, "Bia")

    preview = only_preview(await service.command(CHAT, ANA, "meta", "Lua de mel 6000 EUR até 2028-06-01"))
    await service.press(CHAT, BRUNO.user_id, *ok(preview))

    assert "Ana, Bruno e Bia" in preview.text
    assert "€ 6.000,00" in preview.text
    [goal] = await goals(storage)
    assert goal.name == "Lua de mel"
    assert goal.target == Money.of(6000, "EUR")
    assert goal.deadline == date(2028, 6, 1)
    assert [m.name for m in goal.members] == ["Ana", "Bruno", "Bia"]


async def test_an_unreadable_command_replies_with_the_form_and_an_example_and_proposes_nothing(
        service: HouseholdService, storage: InMemoryStorage, proposed: list[Operation]) -> None:
    await with_mercado(service)
    proposed.clear()
    writes = saves(storage)

    text = only_reply(await service.command(CHAT, ANA, "gasto", "abc"))

    assert "/gasto <valor> <despesa> [AAAA-MM]" in text
    assert "Ex.: /gasto 37,90 mercado" in text
    assert proposed == []
    assert saves(storage) == writes


async def test_an_unknown_expense_is_named_in_the_reply_and_nothing_is_proposed(
        service: HouseholdService, storage: InMemoryStorage, proposed: list[Operation]) -> None:
    await with_mercado(service)
    proposed.clear()
    writes = saves(storage)

    text = only_reply(await service.command(CHAT, ANA, "gasto", "12 padaria"))

    assert "padaria" in text
    assert "Mercado" in text  # what would have worked
    assert proposed == []
    assert saves(storage) == writes


async def test_a_command_from_a_non_member_gets_the_join_hint(
        service: HouseholdService, proposed: list[Operation]) -> None:
    await with_mercado(service)
    proposed.clear()

    text = only_reply(await service.command(CHAT, STRANGER, "gasto", "10 mercado"))

    assert "/entrar" in text
    assert proposed == []


async def test_resumo_shows_the_right_totals_in_portuguese_after_a_confirmed_spend(
        service: HouseholdService) -> None:
    await with_mercado(service)
    await confirmed(service, ANA, "despesa", "Aluguel 2.500 dia 10")
    await confirmed(service, BRUNO, "gasto", "37,90 mercado")

    text = await service.answer("resumo", CHAT, ANA, "")

    assert "junho de 2026" in text
    assert "Mercado: R$ 37,90 de R$ 1.500,00" in text
    assert "Aluguel: R$ 0,00 de R$ 2.500,00" in text
    assert "Total: R$ 37,90 de R$ 4.000,00" in text
    assert "{" not in text and "Decimal" not in text


async def test_resumo_of_another_month_shows_that_month(service: HouseholdService) -> None:
    await with_mercado(service)
    await confirmed(service, ANA, "gasto", "37,90 mercado")

    text = await service.answer("resumo", CHAT, ANA, str(Period(2026, 7)))

    assert "julho de 2026" in text
    assert "Mercado: R$ 0,00 de R$ 1.500,00" in text


async def test_metas_lists_the_goals(service: HouseholdService) -> None:
    await couple(service)
    await confirmed(service, ANA, "meta", "Lua de mel 6000 EUR até 2028-06-01")
    await confirmed(service, BRUNO, "meta", "Reserva 20.000")

    text = await service.answer("metas", CHAT, ANA, "")

    assert "Lua de mel" in text
    assert "€ 6.000,00" in text
    assert "Prazo: 01/06/2028" in text
    assert "Faltam € 260,87 por mês" in text  # 23 whole months from 2026-06-15
    assert "Reserva" in text
    assert "R$ 20.000,00" in text
    assert "{" not in text and "Decimal" not in text


async def test_metas_without_goals_says_how_to_create_one(service: HouseholdService) -> None:
    await couple(service)

    assert "/meta" in await service.answer("metas", CHAT, ANA, "")


# --------------------------------------------------------------------------- security of presses


async def test_a_non_members_press_gets_an_alert_and_writes_nothing(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    preview = await spend_preview(service)
    writes = saves(storage)

    for data in (ok(preview), no(preview)):
        result = await service.press(CHAT, STRANGER.user_id, *data)
        assert result.alert and result.edit is None
        assert result.answer == messages.not_a_member_alert()

    assert saves(storage) == writes
    assert (await stored_operation(storage, preview.operation_id)).status is OperationStatus.PENDING


@pytest.mark.parametrize("data", [
    "ok:AAAAAAAAAAAAAAAA",
    "no:AAAAAAAAAAAAAAAA",
    "hello",
    "",
    None,
    "ok:",
    "ok:" + "x" * 100,
    "maybe:AAAAAAAAAAAAAAAA",
])
async def test_forged_or_malformed_callback_data_gets_an_alert_and_writes_nothing(
        service: HouseholdService, storage: InMemoryStorage, data: Any) -> None:
    """Callback data is read by Telegram's press handler (bot.telegram.keyboards.read_callback)
    and its key checked again by the service: either way one alert, no edit, no write."""
    preview = await spend_preview(service)
    writes = saves(storage)
    answers, sent = await pressed_on_telegram(service, CHAT, ANA.user_id, data)

    assert answers == [(messages.unknown_operation_alert(), True)]  # an alert
    assert sent == []  # no edit, no post
    assert saves(storage) == writes
    assert (await stored_operation(storage, preview.operation_id)).status is OperationStatus.PENDING


async def test_another_chats_key_gets_an_alert_and_writes_nothing(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    preview = await spend_preview(service)
    await service.start(OTHER_CHAT, "Casa da Carla", CARLA)
    writes = saves(storage)

    for data in (ok(preview), no(preview)):
        result = await service.press(OTHER_CHAT, CARLA.user_id, *data)
        assert result.alert and result.edit is None
        assert result.answer == messages.unknown_operation_alert()

    assert saves(storage) == writes
    assert (await stored_operation(storage, preview.operation_id)).status is OperationStatus.PENDING
    # still Ana's to confirm in her own chat
    assert (await service.press(CHAT, ANA.user_id, *ok(preview))).answer == messages.confirmed_answer()


async def test_a_member_of_another_household_cannot_press_here(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    preview = await spend_preview(service)
    await service.start(OTHER_CHAT, "Casa da Carla", CARLA)
    writes = saves(storage)

    result = await service.press(CHAT, CARLA.user_id, *ok(preview))

    assert result.alert and result.answer == messages.not_a_member_alert()
    assert saves(storage) == writes


async def test_a_press_in_a_chat_that_is_no_household_gets_an_alert(service: HouseholdService) -> None:
    result = await service.press(OTHER_CHAT, ANA.user_id, Decision.CONFIRM, "AAAAAAAAAAAAAAAA")

    assert result.alert and result.edit is None


async def test_an_expired_preview_is_refused_and_marked_expired(
        service: HouseholdService, storage: InMemoryStorage, clock: Clock) -> None:
    preview = await spend_preview(service)
    await service.preview_posted(CHAT, preview.operation_id, 42)
    writes = saves(storage)
    clock.advance(TTL + timedelta(minutes=1))

    result = await service.press(CHAT, ANA.user_id, *ok(preview))

    assert result.alert
    assert "expirou" in result.answer
    assert "operationId" not in result.answer
    assert result.edit is not None and result.edit.message_id == 42
    assert "expirou" in result.edit.text
    assert saves(storage) == writes
    assert await actual(storage, "Mercado") == 0
    assert (await stored_operation(storage, preview.operation_id)).status is OperationStatus.EXPIRED


async def test_a_preview_just_inside_the_ttl_still_confirms(
        service: HouseholdService, storage: InMemoryStorage, clock: Clock) -> None:
    preview = await spend_preview(service)
    clock.advance(TTL - timedelta(minutes=1))

    result = await service.press(CHAT, ANA.user_id, *ok(preview))

    assert result.answer == messages.confirmed_answer()
    assert await actual(storage, "Mercado") == Decimal("37.90")


# --------------------------------------------------------------------------- posted previews and edits


async def test_preview_posted_stores_the_message_id(service: HouseholdService, storage: InMemoryStorage) -> None:
    preview = await spend_preview(service)

    await service.preview_posted(CHAT, preview.operation_id, 501)

    assert (await stored_operation(storage, preview.operation_id)).message_id == 501


async def test_a_confirmation_edits_the_posted_preview_to_the_confirmed_text(
        service: HouseholdService) -> None:
    preview = await spend_preview(service)
    await service.preview_posted(CHAT, preview.operation_id, 501)

    result = await service.press(CHAT, ANA.user_id, *ok(preview))

    assert result.edit is not None
    assert result.edit.message_id == 501
    assert "Gasto registrado por Ana" in result.edit.text
    assert "R$ 37,90" in result.edit.text
    assert "Confirma?" not in result.edit.text
    # a repeated press edits to the same final text, no more
    again = await service.press(CHAT, BRUNO.user_id, *ok(preview))
    assert again.edit == result.edit


async def test_a_cancel_edits_the_posted_preview_to_the_cancelled_text(service: HouseholdService) -> None:
    preview = await spend_preview(service)
    await service.preview_posted(CHAT, preview.operation_id, 502)

    result = await service.press(CHAT, BRUNO.user_id, *no(preview))

    assert result.edit is not None
    assert result.edit.message_id == 502
    assert "Cancelado por Bruno" in result.edit.text
    assert "Nada foi registrado" in result.edit.text


async def test_a_press_on_a_preview_that_was_never_posted_is_refused_and_writes_nothing(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    preview = only_preview(await HouseholdService.command(service, CHAT, ANA, "gasto", "37,90 mercado"))
    writes = saves(storage)

    result = await service.press(CHAT, ANA.user_id, *ok(preview))

    assert result.alert and result.edit is None
    assert "não chegou ao grupo" in result.answer
    assert saves(storage) == writes
    assert await actual(storage, "Mercado") == 0
    assert (await stored_operation(storage, preview.operation_id)).status is OperationStatus.PENDING


async def test_a_preview_that_could_not_be_posted_is_closed_for_good(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    preview = only_preview(await HouseholdService.command(service, CHAT, ANA, "gasto", "37,90 mercado"))

    await service.preview_not_posted(CHAT, preview.operation_id)
    await service.preview_posted(CHAT, preview.operation_id, 900)  # a late id changes nothing
    result = await service.press(CHAT, ANA.user_id, *ok(preview))

    assert result.alert
    assert await actual(storage, "Mercado") == 0
    assert (await stored_operation(storage, preview.operation_id)).status is OperationStatus.CANCELLED


async def test_the_model_cannot_confirm_a_preview_that_was_never_posted(
        storage: InMemoryStorage, clock: Clock) -> None:
    # A proposing answer ends its turn (contract §8): no "Confirma?" text is asked for.
    model = ScriptedModel(call("recordSpend", spend_args()),
                          call("recordSpend", spend_args(confirm=True)), say("Pronto!"))
    service = agent(storage, clock, model)
    await couple(service)
    await with_mercado(service)
    writes = saves(storage)

    await HouseholdService.talk(service, CHAT, ANA, "acho que gastei 37,90 no mercado")  # never posted
    reply = await HouseholdService.talk(service, CHAT, BRUNO, "ué, deu erro? confirma aí")

    assert saves(storage) == writes
    assert await actual(storage, "Mercado") == 0
    assert not any(isinstance(o, Edit) for o in reply)
    assert "não chegou ao grupo" in str(model.requests[-1].messages[-1]["content"])


# --------------------------------------------------------------------------- the agent


def spend_args(**extra: Any) -> dict[str, Any]:
    return {"expense": "mercado", "period": "2026-06",
            "amount": {"amount": Decimal("37.90"), "currency": "BRL"}, "operationId": "op-1", **extra}


def agent(storage: InMemoryStorage, clock: Clock, model: ScriptedModel) -> HouseholdService:
    return PostingService(storage, model=model, clock=clock)


async def test_a_model_that_reads_and_then_says_nothing_still_leaves_the_member_an_answer(
        storage: InMemoryStorage, clock: Clock) -> None:
    model = ScriptedModel(call("budgetStatus", {"period": "2026-06"}), say(""))
    service = agent(storage, clock, model)
    await with_mercado(service)

    outcomes = await service.talk(CHAT, ANA, "me mostra como a gente tá indo")

    assert [o.text for o in outcomes if isinstance(o, Reply)] == [messages.silent_model_text()]
    assert len(model.requests) == 2


async def test_a_question_the_model_answers_with_a_read_gets_the_summarys_words_with_one_request(
        storage: InMemoryStorage, clock: Clock) -> None:
    model = ScriptedModel(call("budgetStatus", {"period": "2026-06"}), say("never asked"))
    service = agent(storage, clock, model)
    await with_mercado(service)

    outcomes = await service.talk(CHAT, ANA, "como a gente tá indo?")

    [reply] = [o.text for o in outcomes if isinstance(o, Reply)]
    assert reply.startswith("📊 Resumo") and "Mercado" in reply
    assert len(model.requests) == 1


async def test_a_refused_write_followed_by_silence_still_leaves_the_member_an_answer(
        storage: InMemoryStorage, clock: Clock) -> None:
    model = ScriptedModel(call("recordSpend", spend_args(expense="Padaria")), say(""))
    service = agent(storage, clock, model)
    await with_mercado(service)
    writes = saves(storage)

    outcomes = await service.talk(CHAT, ANA, "gastei 10 na padaria")

    assert [o.text for o in outcomes if isinstance(o, Reply)] == [messages.silent_model_text()]
    assert saves(storage) == writes


async def test_a_members_text_reaches_the_model_with_the_sender_and_the_working_memory(
        storage: InMemoryStorage, clock: Clock) -> None:
    model = ScriptedModel(say("Oi, Bruno!"))
    service = agent(storage, clock, model)
    await with_mercado(service)

    outcomes = await service.talk(CHAT, BRUNO, "oi")

    assert outcomes == [Reply("Oi, Bruno!")]
    [request] = model.requests
    system, user = request.messages[0], request.messages[-1]
    # The rules first, the same for every message (a stable prefix for prompt caches); the
    # household's working memory rides on the member's message.
    assert system == {"role": "system", "content": system_prompt()}
    assert user["role"] == "user" and user["content"].endswith("\n\n[Bruno] oi")
    assert "Ana, Bruno" in user["content"]
    assert "Mercado" in user["content"]
    assert "2026-06-15" in user["content"]
    assert {t["function"]["name"] for t in request.tools} >= {"recordSpend", "budgetStatus", "createGoal"}


async def test_the_model_reads_a_message_without_its_small_talk_and_the_tools_still_check_it_whole(
        storage: InMemoryStorage, clock: Clock) -> None:
    model = ScriptedModel(call("recordSpend", spend_args()))
    service = agent(storage, clock, model)
    await with_mercado(service)

    outcomes = await service.talk(CHAT, ANA, "que calor 🥵 o Pedro acordou cedo. acho que gastei 37,90 no "
                                             "mercado. vc chega q horas?")

    [request] = model.requests
    assert request.messages[-1]["content"].endswith("\n\n[Ana] acho que gastei 37,90 no mercado.")
    assert "calor" not in request.messages[-1]["content"]
    assert [o for o in outcomes if isinstance(o, Preview)]  # 37,90 is written: the call stands


async def test_a_preview_made_by_the_model_comes_back_as_a_preview(
        storage: InMemoryStorage, clock: Clock) -> None:
    # The model's words and its call in one answer: the previews end the turn (contract §8).
    model = ScriptedModel({**call("recordSpend", spend_args()),
                           "content": "Vou registrar R$ 37,90 no Mercado. Confirma?"})
    service = agent(storage, clock, model)
    await with_mercado(service)
    writes = saves(storage)

    outcomes = await service.talk(CHAT, ANA, "acho que gastei 37,90 no mercado")

    assert len(outcomes) == 2 and len(model.requests) == 1
    reply, preview = outcomes
    assert reply == Reply("Vou registrar R$ 37,90 no Mercado. Confirma?")
    assert isinstance(preview, Preview)
    assert preview.operation_id == "op-1"
    assert "R$ 37,90" in preview.text and "{" not in preview.text
    assert saves(storage) == writes


async def test_a_preview_names_an_expense_registered_while_the_model_thought_as_spelled(
        storage: InMemoryStorage, clock: Clock) -> None:
    """The working memory's budget names the previews' expenses; one it does not know yet (Bruno
    registered it meanwhile) is looked up again rather than shown as typed."""
    class RegisteringModel(ScriptedModel):
        async def complete(self, messages: list[Any], tools: list[dict[str, Any]]) -> Any:
            if len(self.requests) == 0:
                await confirmed(thinking_for, BRUNO, "despesa", "Farmácia 200")
            return await super().complete(messages, tools)

    model = RegisteringModel(call("recordSpend", spend_args(expense="FARMACIA")))
    thinking_for = service = agent(storage, clock, model)
    await with_mercado(service)

    [preview] = await service.talk(CHAT, ANA, "gastei 37,90 na farmacia")

    assert isinstance(preview, Preview)
    assert "Farmácia" in preview.text and "FARMACIA" not in preview.text
    assert "Farmácia" not in model.requests[0].messages[0]["content"]  # not in its working memory


async def test_confirmation_through_the_model_edits_the_posted_preview(
        storage: InMemoryStorage, clock: Clock) -> None:
    model = ScriptedModel(call("recordSpend", spend_args()))
    service = agent(storage, clock, model)
    await with_mercado(service)
    [preview] = await service.talk(CHAT, ANA, "acho que gastei 37,90 no mercado")
    assert isinstance(preview, Preview)
    await service.preview_posted(CHAT, preview.operation_id, 77)
    writes = saves(storage)
    model.script(call("recordSpend", spend_args(confirm=True)), say("Pronto, registrado."))

    outcomes = await service.talk(CHAT, BRUNO, "pode confirmar o do mercado")

    assert outcomes[0] == Reply("Pronto, registrado.")
    edits = [o for o in outcomes if isinstance(o, Edit)]
    assert len(edits) == 1
    assert edits[0].message_id == 77
    assert "Gasto registrado por Bruno" in edits[0].text
    assert not any(isinstance(o, Preview) for o in outcomes)
    assert saves(storage) == writes + 1
    assert await actual(storage, "Mercado") == Decimal("37.90")
    # the model saw the earlier turn and who confirmed
    contents = model.requests[-2].contents
    assert "[Ana] acho que gastei 37,90 no mercado" in contents
    assert contents[-1].endswith("\n\n[Bruno] pode confirmar o do mercado")


async def test_a_plain_yes_to_the_one_preview_waiting_confirms_it_with_no_model_request(
        storage: InMemoryStorage, clock: Clock) -> None:
    model = ScriptedModel(call("recordSpend", spend_args()))
    service = agent(storage, clock, model)
    await with_mercado(service)
    [preview] = await service.talk(CHAT, ANA, "acho que gastei 37,90 no mercado")
    assert isinstance(preview, Preview)
    await service.preview_posted(CHAT, preview.operation_id, 77)
    asked = len(model.requests)

    outcomes = await service.talk(CHAT, BRUNO, "sim, pode lançar")

    [edit] = outcomes
    assert isinstance(edit, Edit) and edit.message_id == 77 and "Gasto registrado por Bruno" in edit.text
    assert len(model.requests) == asked
    assert await actual(storage, "Mercado") == Decimal("37.90")


async def test_a_preview_made_by_the_model_is_confirmed_by_its_button(
        storage: InMemoryStorage, clock: Clock) -> None:
    model = ScriptedModel(call("recordSpend", spend_args()))
    service = agent(storage, clock, model)
    await with_mercado(service)
    [preview] = await service.talk(CHAT, ANA, "acho que gastei 37,90 no mercado")
    assert isinstance(preview, Preview)

    result = await service.press(CHAT, BRUNO.user_id, *ok(preview))

    assert result.answer == messages.confirmed_answer()
    assert await actual(storage, "Mercado") == Decimal("37.90")
    assert model.remaining == 0  # a press never asks the model


async def test_the_model_cannot_confirm_its_own_preview_in_the_same_message(
        storage: InMemoryStorage, clock: Clock) -> None:
    model = ScriptedModel(calls(call("recordSpend", spend_args()), call("recordSpend", spend_args(confirm=True))))
    service = agent(storage, clock, model)
    await with_mercado(service)
    writes = saves(storage)

    outcomes = await service.talk(CHAT, ANA, "gastei 37,90 no mercado, pode confirmar")

    assert [type(o) for o in outcomes] == [Preview]
    assert saves(storage) == writes
    assert await actual(storage, "Mercado") == 0


async def test_a_non_members_text_gets_one_join_hint_per_half_hour(
        storage: InMemoryStorage, clock: Clock) -> None:
    model = ScriptedModel()  # any call would exhaust the script and fail the test
    service = agent(storage, clock, model)
    await couple(service)

    first = await service.talk(CHAT, STRANGER, "oi, gente")
    clock.advance(timedelta(minutes=29))
    second = await service.talk(CHAT, STRANGER, "alguém?")
    clock.advance(timedelta(minutes=2))
    third = await service.talk(CHAT, STRANGER, "oi?")

    assert first == [Reply(messages.join_hint_text())]
    assert "/entrar" in messages.join_hint_text()
    assert second == []
    assert third == [Reply(messages.join_hint_text())]
    assert model.requests == []


async def test_text_in_a_chat_that_is_no_household_is_ignored(storage: InMemoryStorage, clock: Clock) -> None:
    model = ScriptedModel()
    service = agent(storage, clock, model)

    assert await service.talk(CHAT, ANA, "oi") == []
    assert model.requests == []


async def test_without_a_model_free_text_gets_a_short_note_pointing_to_the_commands(
        service: HouseholdService, proposed: list[Operation]) -> None:
    await couple(service)
    before = len(proposed)

    text = only_reply(await service.talk(CHAT, ANA, "gastei 50 no mercado"))

    assert text == guide.no_model_text()
    for command in ("/gasto", "/resumo", "/ajuda"):
        assert command in text
    assert "esta mensagem" not in text and len(text.splitlines()) <= 3
    assert proposed[before:] == []


async def test_a_model_failure_gives_a_portuguese_reply_and_writes_nothing(
        storage: InMemoryStorage, clock: Clock, proposed: list[Operation]) -> None:
    model = ScriptedModel(fail(FailureKind.UNREACHABLE, "connection refused"))
    service = agent(storage, clock, model)
    await with_mercado(service)
    proposed.clear()
    writes = saves(storage)

    text = only_reply(await service.talk(CHAT, ANA, "acho que gastei 37,90 no mercado"))

    assert "Não consegui falar com o modelo de linguagem" in text
    assert "Nada foi registrado" in text
    assert "/gasto" in text
    assert "connection refused" not in text
    assert proposed == []
    assert saves(storage) == writes


async def test_a_model_failure_after_a_preview_still_shows_the_preview_and_writes_nothing(
        storage: InMemoryStorage, clock: Clock) -> None:
    model = ScriptedModel(calls(call("recordSpend", spend_args()), call("budgetStatus", {"period": "2026-06"})),
                          fail(FailureKind.TIMEOUT))
    service = agent(storage, clock, model)
    await with_mercado(service)
    writes = saves(storage)

    outcomes = await service.talk(CHAT, ANA, "acho que gastei 37,90 no mercado")

    assert [type(o) for o in outcomes] == [Reply, Preview]
    assert "demorou demais" in outcomes[0].text  # type: ignore[union-attr]
    assert saves(storage) == writes


async def test_a_tool_error_reaches_the_model_and_not_the_chat_as_a_preview(
        storage: InMemoryStorage, clock: Clock, proposed: list[Operation]) -> None:
    model = ScriptedModel(call("recordSpend", spend_args(expense="padaria")),
                          say("Não achei a despesa padaria. Qual é?"))
    service = agent(storage, clock, model)
    await with_mercado(service)
    proposed.clear()

    outcomes = await service.talk(CHAT, ANA, "gastei 37,90 na padaria")

    assert outcomes == [Reply("Não achei a despesa padaria. Qual é?")]
    tool_result = model.requests[-1].messages[-1]
    assert tool_result["role"] == "tool" and "padaria" in tool_result["content"]
    assert proposed == []


def test_the_in_memory_storage_hands_out_one_log_per_scope(storage: InMemoryStorage) -> None:
    first = storage.operations("chat:1")

    assert storage.operations("chat:1") is first
    assert storage.operations("chat:2") is not first
    assert isinstance(first, InMemoryOperationLog)


async def test_a_start_by_someone_whose_first_name_is_taken_is_refused(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await couple(service)

    text = only_reply(await service.start(CHAT, GROUP, Speaker(5, "bruno")))

    assert "/entrar" in text
    assert [m.name for m in (await household(storage)).members] == ["Ana", "Bruno"]


async def test_a_command_processed_again_after_a_crash_does_not_propose_twice(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await couple(service)
    await with_mercado(service)

    # The handler died before posting: the service as called, without PostingService's posting.
    first = only_preview(await HouseholdService.command(service, CHAT, ANA, "gasto", "10 mercado",
                                                        operation_id="cmd-77"))
    unposted_again = await HouseholdService.command(service, CHAT, ANA, "gasto", "10 mercado",
                                                    operation_id="cmd-77")
    await service.preview_posted(CHAT, first.operation_id, 501)
    posted_again = await service.command(CHAT, ANA, "gasto", "10 mercado", operation_id="cmd-77")

    assert [o.key for o in unposted_again if isinstance(o, Preview)] == [first.key]
    assert posted_again == []
    await service.press(CHAT, ANA.user_id, *ok(first))
    assert await actual(storage, "Mercado") == Decimal("10")


# --------------------------------------------------------------------------- the free-text reader


async def read_and_commanded(service: HouseholdService, speaker: Speaker, text: str, command: str,
                             arguments: str) -> tuple[Preview, Preview]:
    """The preview the free-text reader gives `text`, and the one `/<command> <arguments>` gives."""
    [read] = await service.talk(CHAT, speaker, text)
    [commanded] = await service.command(CHAT, speaker, command, arguments)
    assert isinstance(read, Preview) and isinstance(commanded, Preview)
    return read, commanded


async def test_without_a_model_a_common_spend_in_free_text_gets_the_same_preview_as_gasto(
        service: HouseholdService) -> None:
    await with_mercado(service)

    read, command = await read_and_commanded(service, ANA, "gastei 37,90 no mercado", "gasto", "37,90 mercado")

    assert read.text == command.text
    assert "Pago por Ana" in read.text


async def test_a_spend_the_reader_takes_is_confirmed_by_its_button_and_written_once(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    [preview] = await service.talk(CHAT, BRUNO, "paguei 120 no mercado ontem")
    assert isinstance(preview, Preview)

    first = await service.press(CHAT, ANA.user_id, *ok(preview))
    again = await service.press(CHAT, BRUNO.user_id, *ok(preview))

    assert first.edit is not None and "R$ 120,00" in first.edit.text
    assert again.edit is None or "R$ 120,00" in again.edit.text
    assert await actual(storage, "Mercado") == Decimal(120)


async def test_with_a_model_configured_the_reader_still_answers_first_and_the_model_is_not_asked(
        storage: InMemoryStorage, clock: Clock) -> None:
    model = ScriptedModel()  # any request would fail: its script is empty
    service = agent(storage, clock, model)
    await with_mercado(service)

    [preview] = await service.talk(CHAT, ANA, "mercado 25")

    assert isinstance(preview, Preview) and "R$ 25,00" in preview.text
    assert model.requests == []


async def test_a_correction_in_free_text_replaces_the_posted_preview_and_only_the_corrected_one_can_be_written(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await with_mercado(service)
    [first] = await service.talk(CHAT, BRUNO, "gastei 52 no mercado")
    assert isinstance(first, Preview)
    await service.preview_posted(CHAT, first.operation_id, 77)

    edit, corrected = await service.talk(CHAT, ANA, "amor foi 25, vc trocou os números")

    assert isinstance(edit, Edit) and edit.message_id == 77 and edit.text.startswith("❌ Cancelado por Ana")
    assert isinstance(corrected, Preview) and "R$ 25,00" in corrected.text and "Pago por Bruno" in corrected.text
    await service.preview_posted(CHAT, corrected.operation_id, 78)
    late = await service.press(CHAT, BRUNO.user_id, *ok(first))
    assert late.edit is None or "Cancelado" in late.edit.text
    await service.press(CHAT, BRUNO.user_id, *ok(corrected))
    assert await actual(storage, "Mercado") == Decimal(25)


async def test_without_a_model_an_acerto_asked_for_in_free_text_gets_the_same_preview_as_acerto(
        service: HouseholdService) -> None:
    await with_mercado(service)
    [spend] = await service.talk(CHAT, ANA, "gastei 300 no mercado")
    assert isinstance(spend, Preview)
    await service.press(CHAT, ANA.user_id, *ok(spend))

    read, command = await read_and_commanded(service, BRUNO, "te mandei 100 no pix, acerta aí", "acerto", "100")

    assert read.text == command.text
    assert "Bruno paga R$ 100,00 a Ana" in read.text


async def test_without_a_model_a_goal_asked_for_by_name_gets_the_same_preview_as_meta(
        service: HouseholdService) -> None:
    await with_mercado(service)

    read, command = await read_and_commanded(service, ANA, "cria a meta Lua de mel de 6 mil euros até junho de 2028",
                                             "meta", "Lua de mel 6000 EUR até 2028-06-01")

    assert read.text == command.text
    assert "Lua de mel" in read.text


async def test_without_a_model_what_the_reader_does_not_take_still_gets_the_hint(service: HouseholdService) -> None:
    await with_mercado(service)

    text = only_reply(await service.talk(CHAT, ANA, "o mercado subiu uns 200"))

    assert text == guide.no_model_text()


async def test_without_a_model_a_new_expected_amount_on_change_words_gets_ajuste_s_preview(
        service: HouseholdService) -> None:
    await with_mercado(service)

    read = only_preview(await service.talk(CHAT, ANA, "o mercado subiu pra 1.800"))
    commanded = only_preview(await service.command(CHAT, ANA, "ajuste", "mercado 1.800"))

    assert read.text == commanded.text


async def test_without_a_model_a_plain_question_gets_the_answer_its_read_command_gives(
        service: HouseholdService) -> None:
    await with_mercado(service)
    await confirmed(service, ANA, "gasto", "120 mercado")

    spent = only_reply(await service.talk(CHAT, BRUNO, "quanto já gastamos esse mês?"))
    owed = only_reply(await service.talk(CHAT, BRUNO, "quanto eu devo pra Ana?"))

    assert spent == await service.answer("resumo", CHAT, BRUNO, "")
    assert owed == await service.answer("saldo", CHAT, BRUNO, "")
    assert "Bruno deve R$ 60,00 a Ana" in owed


async def test_a_question_about_one_goal_is_answered_with_that_goal_alone(service: HouseholdService) -> None:
    await couple(service)
    await confirmed(service, ANA, "meta", "Lua de mel 6000 EUR até 2028-06-01")
    await confirmed(service, ANA, "meta", "Reserva 20.000")

    text = only_reply(await service.talk(CHAT, BRUNO, "quanto falta pra lua de mel?"))

    assert text.startswith("🎯 Meta\n\nLua de mel\n") and "Reserva" not in text


async def test_a_question_from_someone_outside_the_household_reads_nothing(service: HouseholdService) -> None:
    await with_mercado(service)
    await confirmed(service, ANA, "gasto", "120 mercado")

    outcomes = await service.talk(CHAT, STRANGER, "quanto já gastamos esse mês?")

    assert all("120" not in getattr(outcome, "text", "") for outcome in outcomes)


async def test_without_a_model_a_plain_contribution_gets_the_same_preview_as_aporte(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await couple(service)
    await confirmed(service, ANA, "meta", "Lua de mel 6000 até 2028-06-01")

    read, command = await read_and_commanded(service, BRUNO, "coloquei 500 na lua de mel", "aporte", "500 lua de mel")

    assert read.text == command.text and "Bruno" in read.text
    await service.press(CHAT, ANA.user_id, *ok(read))
    [goal] = await goals(storage)
    assert goal.saved_in_target_currency() == Money.of(500, "BRL")


async def test_without_a_model_a_spend_in_parcelas_on_a_card_gets_the_same_preview_as_gasto(
        service: HouseholdService) -> None:
    await with_mercado(service)
    await confirmed(service, ANA, "cartao", "Nubank fecha 3 vence 10")

    read, command = await read_and_commanded(service, ANA, "gastei 900 no mercado em 3x no nubank", "gasto",
                                             "900 mercado no nubank em 3x")

    assert read.text == command.text and "em 3x" in read.text
