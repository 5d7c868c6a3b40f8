"""An expense's new expected amount read with no model (domain.agent.adjustments): on change
words, the call /ajuste makes; a change the reader is not sure of is the model's."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from domain.agent.reader import SpendReader
from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.money import Money

TODAY = date(2026, 6, 3)


def reader() -> SpendReader:
    house = Household.create("Casa", "BRL", id="h1")
    ana, bruno = house.add_member("Ana", id="m-ana"), house.add_member("Bruno", id="m-bruno")
    budget = Budget.create("BRL", id="b1", household_id="h1")
    for name, aliases in [("Aluguel", []), ("Gás", ["botijão"]), ("Celular", ["plano de celular", "Claro"]),
                          ("Internet", ["wifi"]), ("Luz", []), ("Luz e gás", ["EDP"]), ("Academia", []),
                          ("Combustível", ["gasolina"])]:
        budget.register(name, Money.of(2500 if name == "Aluguel" else 200, "BRL"), aliases=aliases)
    goals = [Goal.create("Carro novo", Money.of(40000, "BRL"), members=[ana, bruno], created_at=TODAY)]
    return SpendReader.of(house, budget, goals, TODAY)


def adjust(expense: str, amount: str) -> list[dict[str, Any]]:
    return [{"name": "adjustExpense",
             "arguments": {"expense": expense, "newExpected": {"amount": amount, "currency": "BRL"}}}]


@pytest.mark.parametrize(("text", "calls"), [
    ("o aluguel vai pra 2.700", adjust("Aluguel", "2700")),
    ("o aluguel subiu pra 2.750", adjust("Aluguel", "2750")),
    ("internet foi pra 120", adjust("Internet", "120")),
    ("o plano de celular baixou pra 89,90", adjust("Celular", "89.90")),
    ("e atualiza a despesa do gás pra 120 tb", adjust("Gás", "120")),
    ("muda o valor do wifi para R$ 150", adjust("Internet", "150")),
    ("a academia agora é 150", adjust("Academia", "150")),
    ("a academia passa a ser 150", adjust("Academia", "150")),
])
def test_a_new_expected_amount_on_change_words_is_the_call_ajuste_would_make(
        text: str, calls: list[dict[str, Any]]) -> None:
    assert reader().read(text) == calls


@pytest.mark.parametrize("text", [
    "diminui 50 na academia",                         # by an amount, not to one
    "o plano de celular reajustou 12% em julho",      # a percentage from a month
    "o aluguel subiu 12% e a academia 5%",            # two percentages
    "o aluguel vai subir uns 12%",                    # a plan, a hedge
    "a academia reajustou 150%",                      # more than doubled: the model asks
    "o aluguel subiu pra 2.750 a partir de agosto",   # a month
    "muda o valor da luz pra 250 pq no inverno aumenta",  # a reason: more than a change
    "o aluguel vai pra 2.700?",                       # a question
    "não, o aluguel vai pra 2.800",                   # a correction
    "a luz e gás subiu pra 200",                      # two expenses over the same words
    "o aluguel é 3.200",                              # no change word: a price stated
    "a academia subiu pra 150 euros",                 # not the household's currency
    "o carro novo subiu pra 45 mil",                  # a goal
    "o aluguel e a academia subiram pra 3 mil",       # two expenses
    "a gasolina subiu pra 6,20",                      # 200 a month to 6,20: the litre's price
    "a academia subiu pra 2.000",                     # ten times: a digit too many?
])
def test_a_change_the_reader_is_not_sure_of_is_the_model_s(text: str) -> None:
    assert reader().read(text) is None


@pytest.mark.parametrize(("text", "calls"), [
    ("o plano de celular reajustou 12% 😤 atualiza lá", adjust("Celular", "224.00")),
    ("o aluguel subiu 5,5%", adjust("Aluguel", "2637.50")),
    ("a internet baixou 10%", adjust("Internet", "180.00")),
])
def test_a_change_by_a_percentage_is_this_months_expected_amount_that_much_up_or_down(
        text: str, calls: list[dict[str, Any]]) -> None:
    assert reader().read(text) == calls
