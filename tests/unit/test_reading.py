"""Arguments read the way people write them, and still exactly (issue 13, part 5)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest

from domain.agent.chat import AgentChat
from domain.budget import Budget
from domain.errors import DomainError, InvalidArgument
from domain.goals import Goal
from domain.household import Household
from domain.in_memory import InMemoryBudgetRepository, InMemoryGoalRepository
from domain.money import Money
from domain.operations.log import InMemoryOperationLog
from domain.reading import read_amount, read_currency, read_date, read_period
from domain.tools.toolbox import household_tools
from tests.fakes.scripted_model import ScriptedModel, call

TODAY = date(2026, 6, 15)

AMOUNTS = {
    "37,90": (Decimal("37.90"), None),
    "R$ 1.234,56": (Decimal("1234.56"), "BRL"),
    "2 mil": (Decimal("2000"), None),
    "1.5k": (Decimal("1500"), None),
    "1,5 mil": (Decimal("1500"), None),
    "1.500": (Decimal("1500"), None),
    "37.90": (Decimal("37.90"), None),
    "€6000": (Decimal("6000"), "EUR"),
    "US$ 50": (Decimal("50"), "USD"),
    "25 mil euros": (Decimal("25000"), "EUR"),
    "200 reais": (Decimal("200"), "BRL"),
    "1.234.567,89": (Decimal("1234567.89"), None),
}


@pytest.mark.parametrize(("text", "expected"), AMOUNTS.items(), ids=AMOUNTS.keys())
def test_an_amount_written_as_text_is_read_exactly(text: str, expected: tuple[Decimal, str | None]) -> None:
    amount, currency = read_amount(text)
    assert (amount, currency) == expected
    assert isinstance(amount, Decimal) and str(amount) == str(expected[0])


def test_a_json_number_stays_its_decimal_and_a_float_is_refused() -> None:
    assert read_amount(Decimal("37.90")) == (Decimal("37.90"), None)
    assert read_amount(200) == (Decimal(200), None)
    with pytest.raises(InvalidArgument, match="float"):
        read_amount(37.9)
    with pytest.raises(DomainError):
        read_amount(True)


@pytest.mark.parametrize("text", ["duzentos", "1,2,3", "37.9.0", "R$ 10 EUR", "1e3", "", "R$"])
def test_an_unreadable_amount_is_refused_naming_it(text: str) -> None:
    with pytest.raises(DomainError, match="amount") as refused:
        read_amount(text)
    assert repr(text) in str(refused.value)


@pytest.mark.parametrize(("text", "code"), [("R$", "BRL"), ("brl", "BRL"), ("€", "EUR"), ("eur", "EUR"),
                                            ("US$", "USD"), ("dólares", "USD"), ("EUR", "EUR")])
def test_a_currency_is_read_from_symbols_codes_in_any_case_and_words(text: str, code: str) -> None:
    assert read_currency(text) == code


def test_an_unknown_currency_is_refused_naming_it() -> None:
    with pytest.raises(DomainError, match="XYZ"):
        read_currency("XYZ")


@pytest.mark.parametrize(("text", "month"), [
    ("2026-11", "2026-11"), ("11/2026", "2026-11"), ("novembro de 2026", "2026-11"),
    ("novembro", "2025-11"), ("junho", "2026-06"), ("Março", "2026-03"), ("2026-06-03", "2026-06"),
    ("03/06/2026", "2026-06"), ("mês passado", "2026-05"), ("este mês", "2026-06"),
])
def test_a_month_is_read_as_people_write_it(text: str, month: str) -> None:
    assert read_period(text, TODAY) == month


@pytest.mark.parametrize("text", ["2026-13", "mês que vem talvez", "", "13/2026"])
def test_an_unreadable_month_is_refused_naming_it(text: str) -> None:
    with pytest.raises(DomainError, match="Mês inválido"):
        read_period(text, TODAY)


def test_a_date_is_iso_or_brazilian_and_a_date_that_does_not_exist_is_refused() -> None:
    assert read_date("2026-06-15") == read_date("15/06/2026") == TODAY
    with pytest.raises(DomainError, match="31/02/2026"):
        read_date("31/02/2026")


# --- through the tools ---------------------------------------------------------------------------


def now() -> datetime:
    return datetime(2026, 6, 15, 15, tzinfo=UTC)


async def house() -> tuple[InMemoryBudgetRepository, InMemoryGoalRepository, list[Any]]:
    household = Household.create("Casa", "BRL", id="h1")
    ana = household.add_member("Ana")
    bruno = household.add_member("Bruno")
    budgets, goals = InMemoryBudgetRepository(), InMemoryGoalRepository()
    budget = Budget.create("BRL", id="b1")
    budget.register("Mercado", Money.of(1500, "BRL"))
    await budgets.save(budget)
    await goals.save(Goal.create("Reserva", Money.of(10000, "BRL"), members=[ana, bruno],
                                 created_at=TODAY, id="g1"))
    tools = household_tools(budget_repo=budgets, budget_id="b1", goal_repo=goals, household=household,
                            operations=InMemoryOperationLog(), now=now)
    return budgets, goals, tools


async def test_a_spend_in_words_without_month_or_currency_previews_this_month_in_the_households_currency() -> None:
    _, _, tools = await house()
    model = ScriptedModel(call("recordSpend", {"expense": "mercado", "amount": "R$ 1.234,56", "operationId": "a"}))

    reply = await AgentChat.create(model, tools).send("gastei 1.234,56 no mercado", sender="Ana")

    [spend] = reply.tool_calls
    assert spend.error is None
    assert spend.result.preview["period"] == "2026-06"
    assert spend.result.preview["delta"] == {"amount": Decimal("1234.56"), "currency": "BRL"}


async def test_a_currency_symbol_and_a_named_month_are_read_for_the_preview() -> None:
    _, _, tools = await house()
    model = ScriptedModel(call("recordSpend", {"expense": "Mercado", "period": "maio",
                                               "amount": {"amount": "37,90", "currency": "R$"},
                                               "operationId": "a"}))

    reply = await AgentChat.create(model, tools).send("37,90 de mercado em maio", sender="Ana")

    assert reply.tool_calls[0].result.preview["period"] == "2026-05"
    assert reply.tool_calls[0].result.preview["delta"] == {"amount": Decimal("37.90"), "currency": "BRL"}


async def test_a_contribution_without_payer_or_date_is_paid_by_the_speaker_today() -> None:
    _, goals, tools = await house()
    model = ScriptedModel(call("contributeToGoal", {"goal": "reserva", "amount": "1,5 mil", "operationId": "a"}))

    reply = await AgentChat.create(model, tools).send("coloquei 1,5 mil na reserva", sender="Bruno")

    preview = reply.tool_calls[0].result.preview
    assert (preview["paidBy"], preview["date"]) == ("Bruno", "2026-06-15")
    assert preview["amount"] == {"amount": Decimal("1500"), "currency": "BRL"}
    assert (await goals.load("g1")).contributions == []


async def test_the_same_amount_written_two_ways_is_the_same_operation_when_confirmed() -> None:
    budgets, _, tools = await house()
    model = ScriptedModel(
        call("recordSpend", {"expense": "Mercado", "amount": "37,90", "operationId": "a"}),
        call("recordSpend", {"expense": "Mercado", "period": "2026-06",
                             "amount": {"amount": Decimal("37.90"), "currency": "brl"},
                             "operationId": "a", "confirm": True}),
        {"role": "assistant", "content": "Feito.", "tool_calls": None})
    chat = AgentChat.create(model, tools)
    await chat.send("gastei 37,90 no mercado", sender="Ana")

    done = await chat.send("confirma", sender="Bruno")

    assert done.receipts[0].operation_id == "a" and done.receipts[0].persisted
    from domain.money import Period
    assert (await budgets.load("b1")).find_by_name("Mercado").actual_for(Period(2026, 6)) == Money.of("37.90", "BRL")


async def test_an_unreadable_amount_reaches_the_model_as_an_error_naming_it_and_nothing_is_proposed() -> None:
    _, _, tools = await house()
    model = ScriptedModel(call("recordSpend", {"expense": "Mercado", "amount": "uns trocados", "operationId": "a"}),
                          {"role": "assistant", "content": "Quanto foi?", "tool_calls": None})

    reply = await AgentChat.create(model, tools).send("gastei uns trocados", sender="Ana")

    assert reply.tool_calls[0].error is not None and "uns trocados" in reply.tool_calls[0].error
    assert reply.receipts == []


async def test_an_expense_named_with_the_working_memorys_aliases_is_still_found() -> None:
    _, _, tools = await house()
    model = ScriptedModel(call("recordSpend", {"expense": "Mercado (supermercado/feira)", "amount": 50,
                                               "operationId": "a"}))

    reply = await AgentChat.create(model, tools).send("50 no mercado", sender="Ana")

    assert reply.tool_calls[0].error is None
    assert reply.tool_calls[0].result.preview["newActual"]["amount"] == Decimal("50")


async def test_a_goal_named_with_the_working_memorys_layout_is_still_found() -> None:
    _, _, tools = await house()
    model = ScriptedModel(call("contributeToGoal", {"goal": "Reserva: BRL 10000 no deadline, saved 0, Ana/Bruno",
                                                    "amount": 100, "operationId": "a"}))

    reply = await AgentChat.create(model, tools).send("100 na reserva", sender="Ana")

    assert reply.tool_calls[0].error is None and reply.receipts
