"""The household's income read with no model (domain.agent.income): said plainly as ours, it is
the setIncome call the model would make; anyone's own income, a story or a rent called "renda"
is left to the model. And a price stated ("o aluguel é 3.200") is no spend."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from domain.agent.chat import AgentChat, with_speaker
from domain.agent.reader import SpendReader
from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.in_memory import InMemoryBudgetRepository, InMemoryGoalRepository
from domain.ledger import InMemoryLedger
from domain.money import Money
from domain.operations.log import InMemoryOperationLog
from domain.tools.base import HouseholdBinding
from domain.tools.registry import household_tools
from tests.fakes.scripted_model import ScriptedModel

TODAY = date(2026, 4, 8)


def reader(currency: str = "BRL", rent_alias: str | None = None, goal: str = "Amsterdam") -> SpendReader:
    house = Household.create("Casa", currency, id="h1")
    ana, bruno = house.add_member("Ana", id="m-ana"), house.add_member("Bruno", id="m-bruno")
    budget = Budget.create(currency, id="b1", household_id="h1")
    budget.register("Aluguel", Money.of(3200, currency), aliases=[rent_alias] if rent_alias else [])
    budget.register("Mercado", Money.of(1500, currency))
    budget.register("Farmácia", Money.of(200, currency))
    goals = [Goal.create(goal, Money.of(5000, currency), members=[ana, bruno], created_at=TODAY)]
    return SpendReader.of(house, budget, goals, TODAY)


def income(amount: str, currency: str = "BRL") -> list[dict[str, Any]]:
    return [{"name": "setIncome", "arguments": {"amount": {"amount": amount, "currency": currency}}}]


@pytest.mark.parametrize(("text", "calls"), [
    ("nossa renda é 12 mil", income("12000")),
    ("coloca nossa renda como 12.000", income("12000")),
    ("nossa renda somada é 11.400 por mês", income("11400")),
    ("a renda da casa agora é R$ 9.800,50", income("9800.50")),
    ("a renda da família foi pra 13 mil", income("13000")),
])
def test_the_household_s_income_said_plainly_is_the_call_the_model_would_make(
        text: str, calls: list[dict[str, Any]]) -> None:
    assert reader().read(text) == calls


@pytest.mark.parametrize("text", ["a renda do Bruno é 5 mil", "o Bruno ganha 5 mil por mês", "o salário do Bruno é 5.000"])
def test_a_members_income_said_plainly_is_that_members(text: str) -> None:
    assert reader().read(text) == [{"name": "setIncome", "arguments": {
        "amount": {"amount": "5000", "currency": "BRL"}, "member": "Bruno"}}]


def test_an_income_in_the_household_s_other_currency_keeps_that_currency() -> None:
    assert reader("EUR").read("o rendimento mensal da família agora é 4.650 euros") == income("4650", "EUR")


@pytest.mark.parametrize("text", [
    "minha renda e a do Bruno é 12 mil",                 # two members
    "renda 9 mil",                                        # whose?
    "o Bruno ganha 5 mil a mais que eu",                  # more than a member's income
    "o Pedro ganha 5 mil",                                # not a member
    "a renda do Bruno e da Ana é 12 mil",                 # two members
    "nossa renda é 12 mil?",                              # a question
    "nossa renda é 12 mil desde março",                   # from a month on
    "nossa renda vai ser 12 mil",                         # a plan
    "recebi aumento!! a renda da casa foi pra 13 mil",    # a story
    "nossa renda caiu uns 2 mil",                         # not the amount it is now
    "nossa renda é 12 mil e a do Bruno 5",                # two amounts
    "nossa renda é 2.500 dólares",                        # not the household's currency
])
def test_an_income_the_reader_is_not_sure_of_is_the_model_s(text: str) -> None:
    assert reader().read(text) is None


def test_where_a_goal_is_called_renda_income_is_the_model_s() -> None:
    assert reader(goal="Renda extra").read("nossa renda é 12 mil") is None


def test_where_renda_is_an_expense_s_name_it_is_never_read_as_income() -> None:
    # In Lisbon the rent is "a renda da casa".
    lisbon = reader("EUR", rent_alias="renda da casa")

    assert lisbon.read("a nossa renda da casa é 1.000") is None


@pytest.mark.parametrize("text", [
    "o aluguel é 3.200",
    "aluguel é de 3200",
    "mercado é 1500 por mês",
    "mercado 1500 ao mês",
    "o aluguel custa 3.200",
])
def test_a_price_stated_is_no_spend(text: str) -> None:
    # What an expense costs is its expected amount: the model's (adjustExpense), never a spend.
    assert reader().read(text) is None


@pytest.mark.parametrize(("text", "expense", "amount"), [
    ("gastei 50 no mercado e 30 na farmácia", "Mercado", "50"),   # the joining "e" is no "é"
    ("o aluguel deu 3200", "Aluguel", "3200"),
    ("mercado 50 esse mês", "Mercado", "50"),
    ("fiz a compra do mês: 1.234,56 no mercado", "Mercado", "1234.56"),  # "do mês" is no monthly amount
    ("gastei 150 na farmácia, mas é pessoal", "Farmácia", "150"),
])
def test_spends_said_with_e_or_a_month_are_still_spends(text: str, expense: str, amount: str) -> None:
    calls = reader().read(text)

    assert calls is not None
    assert calls[0]["name"] == "recordSpend"
    assert calls[0]["arguments"]["expense"] == expense
    assert calls[0]["arguments"]["amount"]["amount"] == amount


@pytest.mark.parametrize("text", ["minha renda é 7 mil", "meu salário é 7.000", "eu ganho 7 mil por mês"])
def test_the_speakers_own_income_is_written_eu_for_the_chat_to_name(text: str) -> None:
    assert reader().read(text) == [{"name": "setIncome", "arguments": {
        "amount": {"amount": "7000", "currency": "BRL"}, "member": "eu"}}]


async def test_the_chat_names_the_member_speaking_where_the_income_is_theirs_with_no_model() -> None:
    house = Household.create("Casa", "BRL", id="h1")
    house.add_member("Ana", id="m-ana"), house.add_member("Bruno", id="m-bruno")
    budget = Budget.create("BRL", id="b1", household_id="h1")
    ledger = InMemoryLedger()
    repo = InMemoryBudgetRepository(ledger)
    await repo.save(budget)
    tools = household_tools(HouseholdBinding(
        household=house, budget_id="b1", budgets=repo, goals=InMemoryGoalRepository(ledger),
        operations=InMemoryOperationLog(), clock=lambda: datetime(2026, 4, 8, 12, tzinfo=UTC), ledger=ledger))
    model = ScriptedModel()  # any request would fail the test
    chat = AgentChat.create(model, tools, reader=SpendReader.of(house, budget, [], TODAY).read)

    reply = await chat.send("minha renda é 7 mil", sender="Bruno")

    [receipt] = reply.receipts
    assert model.requests == [] and not receipt.confirmed
    assert receipt.preview["member"] == "Bruno"


def test_without_a_speaker_eu_names_no_member() -> None:
    house = Household.create("Casa", "BRL", id="h1")
    ledger = InMemoryLedger()
    [tool] = [t for t in household_tools(HouseholdBinding(
        household=house, budget_id="b1", budgets=InMemoryBudgetRepository(ledger),
        goals=InMemoryGoalRepository(ledger), operations=InMemoryOperationLog(),
        clock=lambda: datetime(2026, 4, 8, 12, tzinfo=UTC))) if t.name == "setIncome"]
    assert with_speaker(tool, {"member": "eu"}, None) == {"member": "eu"}  # the tool refuses "eu" then
    assert with_speaker(tool, {}, "Ana") == {}                              # left out: the household's
    assert with_speaker(tool, {"member": "Eu"}, "Ana") == {"member": "Ana"}
