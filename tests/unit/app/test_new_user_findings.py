"""What a new user tripped on (issue 18, findings 2-11), each as it was typed, over the same
service Telegram and the console use. Findings 1, 5, 8 and 12 are in test_console.py and
test_rendering.py."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from bot.app.outcomes import Decision, Outcome, Preview, Reply, Speaker
from bot.app.service import HouseholdService
from bot.commands.parsing import CommandUsageError, parse_ajuste, parse_gasto, parse_meta, resumo_period
from domain.budget import Budget
from domain.errors import DuplicateName, UnknownExpense, UnknownGoal
from domain.goals import Goal
from domain.money import Money, Period
from tests.fakes.posting import PostingService
from tests.fakes.storage import InMemoryStorage

NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)
CHAT = -1001
ANA = Speaker(1, "Ana")


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


async def confirmed(service: HouseholdService, command: str, text: str) -> None:
    [preview] = await service.command(CHAT, ANA, command, text)
    assert isinstance(preview, Preview), preview
    assert not (await service.press(CHAT, ANA.user_id, Decision.CONFIRM, preview.key)).alert


async def started(service: HouseholdService) -> None:
    await service.start(CHAT, "Casa", ANA)


# --------------------------------------------------------------------------- 2. goal names


async def test_a_goal_named_like_another_but_for_case_is_refused(service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "meta", "Lua de mel 6000")

    text = reply_of(await service.command(CHAT, ANA, "meta", "lua de mel 100"))

    assert text == '⚠️ O nome "lua de mel" já é usado pela meta Lua de mel.'
    assert "Lua de mel" in (await service.answer("metas", CHAT, ANA, "")) and "ambíguo" not in await service.answer("metas", CHAT, ANA, "")


# --------------------------------------------------------------------------- 3. currencies and rates


async def test_a_goal_in_a_currency_without_a_rate_is_refused_naming_it_and_how_to_set_one(
        service: HouseholdService) -> None:
    await started(service)

    text = reply_of(await service.command(CHAT, ANA, "meta", "Japão 500.000 JPY até 2027-06-01"))

    assert "JPY" in text and "EXCHANGE_RATES" in text
    assert "Nenhuma meta" in await service.answer("metas", CHAT, ANA, "")


async def test_a_goal_without_a_rate_no_longer_hides_the_others(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await started(service)
    await confirmed(service, "meta", "Reserva 1.000")
    link = await storage.directory.household_of_chat(CHAT)
    assert link is not None
    ana = (await storage.households.load(link.household_id)).members[0]
    japan = Goal.create("Japão", Money.of(500_000, "JPY"), members=[ana], created_at=date(2026, 6, 1),
                        household_id=link.household_id)  # stored before the refusal existed
    japan.contribute(ana, Money.of(100, "BRL"), date(2026, 6, 2))
    await storage.goals.save(japan)

    text = await service.answer("metas", CHAT, ANA, "")

    assert "Reserva" in text and "R$ 0,00 de R$ 1.000,00" in text
    assert "Japão" in text and "JPY" in text


async def test_metas_shows_the_rate_it_used_for_a_conversion(service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "meta", "Amsterdam 6000 EUR")
    await confirmed(service, "aporte", "620 Amsterdam")

    text = await service.answer("metas", CHAT, ANA, "")

    assert "€ 100,00 de € 6.000,00" in text
    assert "Cotação usada: € 1,00 = R$ 6,20" in text


# --------------------------------------------------------------------------- 4. emoji


def test_an_expense_with_an_emoji_answers_to_its_words_alone() -> None:
    budget = Budget.create("BRL")
    budget.register("Água e Luz 💡", Money.of(200, "BRL"))

    assert budget.find_by_name("água e luz").name == "Água e Luz 💡"
    with pytest.raises(DuplicateName):
        budget.register("agua e luz", Money.of(1, "BRL"))


# --------------------------------------------------------------------------- 6. pt-BR


def test_a_taken_expense_name_says_pela_despesa() -> None:
    budget = Budget.create("BRL")
    budget.register("Mercado", Money.of(200, "BRL"))

    with pytest.raises(DuplicateName) as taken:
        budget.register("mercado", Money.of(1, "BRL"))

    assert str(taken.value) == 'O nome "mercado" já é usado pela despesa Mercado.'


def test_expenses_and_goals_are_conhecidas_sorted_ignoring_accents_and_only_a_handful() -> None:
    expense = str(UnknownExpense("Academia", ["Zoológico", "Água", "Bar", "Luz", "Gás", "Internet", "Ônibus"]))
    goal = str(UnknownGoal("Casa", ["Viagem"]))

    assert expense.endswith("Conhecidas: Água, Bar, Gás, Internet, Luz e mais 2.")
    assert goal.endswith("Conhecidas: Viagem.")


# --------------------------------------------------------------------------- 7. parse errors


def test_a_word_where_ajuste_wants_a_value_is_named_as_not_a_value() -> None:
    with pytest.raises(CommandUsageError) as refused:
        parse_ajuste("mercado abc")
    assert str(refused.value).startswith("“abc” não é um valor.")


def test_scientific_notation_is_answered_with_the_number_in_digits() -> None:
    with pytest.raises(CommandUsageError) as refused:
        parse_gasto("1e3 mercado")
    assert "escreva o valor só com algarismos, como 1.000." in str(refused.value)
    assert "por extenso" not in str(refused.value)


def test_an_unknown_currency_code_in_meta_is_named() -> None:
    with pytest.raises(CommandUsageError) as refused:
        parse_meta("X 100 XYZ até 2020-01-01")
    assert str(refused.value).startswith("“XYZ” não é uma moeda que eu conheça.")


# --------------------------------------------------------------------------- 9. echoes


async def test_a_long_unknown_name_is_not_echoed_whole(service: HouseholdService) -> None:
    await started(service)

    text = reply_of(await service.command(CHAT, ANA, "gasto", "10 " + "x" * 2990))

    assert "não encontrada" in text and len(text) < 200


# --------------------------------------------------------------------------- 10. months


def test_resumo_takes_a_months_name() -> None:
    today = date(2026, 6, 15)
    assert resumo_period("dezembro", today) == Period(2025, 12)
    assert resumo_period("junho", today) == Period(2026, 6)
    assert resumo_period("dezembro de 2026", today) == Period(2026, 12)
    assert resumo_period("Março 2026", today) == Period(2026, 3)


async def test_months_more_than_a_year_ahead_are_refused(service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.500")

    far = reply_of(await service.command(CHAT, ANA, "gasto", "10 mercado 2030-01"))
    summary = await service.answer("resumo", CHAT, ANA, str(Period(2030, 1)))

    assert far.startswith("⚠️ janeiro de 2030 está longe demais") and "junho de 2027" in far
    assert summary == far
    assert isinstance((await service.command(CHAT, ANA, "gasto", "10 mercado 2027-06"))[0], Preview)


async def test_months_more_than_a_year_before_the_household_began_are_refused(
        service: HouseholdService, storage: InMemoryStorage) -> None:
    await started(service)
    link = await storage.directory.household_of_chat(CHAT)
    assert link is not None
    assert link.since == NOW
    await confirmed(service, "despesa", "Mercado 1.500")

    early = reply_of(await service.command(CHAT, ANA, "gasto", "10 mercado 1999-01"))
    summary = await service.answer("resumo", CHAT, ANA, str(Period(1999, 1)))
    too_early = reply_of(await service.command(CHAT, ANA, "gasto", "10 mercado 2025-05"))

    assert early == ("⚠️ janeiro de 1999 é antigo demais para esta casa: use um mês de junho de 2025 "
                     "até junho de 2027.")
    assert summary == early and too_early.startswith("⚠️ maio de 2025")
    assert isinstance((await service.command(CHAT, ANA, "gasto", "10 mercado 2025-06"))[0], Preview)


async def test_a_past_month_shows_its_own_expenses_and_expected_amounts() -> None:
    now = [NOW]
    storage = InMemoryStorage(clock=lambda: now[0])
    service = PostingService(storage, model=None, clock=lambda: now[0])
    await started(service)
    await confirmed(service, "despesa", "Mercado 1.500")  # June
    now[0] = datetime(2026, 12, 10, 15, tzinfo=UTC)
    await confirmed(service, "ajuste", "mercado 1.800")  # from December on
    await confirmed(service, "despesa", "Academia 120")  # registered in December
    await confirmed(service, "gasto", "50 academia")

    november = await service.answer("resumo", CHAT, ANA, str(Period(2026, 11)))
    december = await service.answer("resumo", CHAT, ANA, str(Period(2026, 12)))

    assert "Mercado: R$ 0,00 de R$ 1.500,00" in november and "Academia" not in november
    assert "Total: R$ 0,00 de R$ 1.500,00" in november
    assert "Mercado: R$ 0,00 de R$ 1.800,00" in december and "Academia: R$ 50,00 de R$ 120,00" in december


# --------------------------------------------------------------------------- 11. pace


async def test_a_goal_created_today_far_from_its_share_is_not_shown_on_track(
        service: HouseholdService) -> None:
    await started(service)
    await confirmed(service, "meta", "Reserva 20.000 até 2028-06-15")
    await confirmed(service, "aporte", "100 Reserva")

    text = await service.answer("metas", CHAT, ANA, "")

    assert "R$ 100,00 de R$ 20.000,00" in text
    assert "no ritmo" not in text

