"""A contribution to a goal read with no model (domain.agent.contributions): the commonest forms,
and everything the reader is not sure of left to the model."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from domain.agent.reader import SpendReader
from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.money import Money

TODAY = date(2026, 7, 1)  # a Wednesday: "ontem" is 30 June


def reader() -> SpendReader:
    house = Household.create("Casa", "BRL", id="h1")
    ana, bruno = house.add_member("Ana", id="m-ana"), house.add_member("Bruno", id="m-bruno")
    budget = Budget.create("BRL", id="b1", household_id="h1")
    for name in ["Mercado", "Notebook da firma"]:
        budget.register(name, Money.of(500, "BRL"))
    budget.register_card("Nubank", 3, 10)
    goals = [Goal.create(name, Money.of(10000, currency), members=[ana, bruno], created_at=date(2026, 1, 1))
             for name, currency in [("Amsterdam Setembro/2026", "EUR"), ("Carro novo", "BRL"),
                                    ("Casamento", "BRL"), ("Reserva de emergência", "BRL")]]
    return SpendReader.of(house, budget, goals, TODAY)


def contribution(goal: str, amount: str, currency: str = "BRL", **more: Any) -> list[dict[str, Any]]:
    return [{"name": "contributeToGoal",
             "arguments": {"goal": goal, "amount": {"amount": amount, "currency": currency}, **more}}]


@pytest.mark.parametrize(("text", "calls"), [
    ("coloquei 2k no carro novo", contribution("Carro novo", "2000")),
    ("aportei 500 reais na Amsterdam", contribution("Amsterdam Setembro/2026", "500")),
    ("aporta 300 euros na amsterdam", contribution("Amsterdam Setembro/2026", "300", "EUR")),
    ("guardei 700 pro casamento", contribution("Casamento", "700")),
    ("aporta R$ 500 na meta de Amsterdam, eu paguei", contribution("Amsterdam Setembro/2026", "500")),
    ("aporta 250 na amsterdam, fui eu", contribution("Amsterdam Setembro/2026", "250")),
    ("juntei 1.500,50 pra reserva ontem", contribution("Reserva de emergência", "1500.50", date="2026-06-30")),
    ("põe 500 na reserva", contribution("Reserva de emergência", "500")),
    ("separei 300 pro casamento", contribution("Casamento", "300")),
    ("transferi 1.000 pra reserva", contribution("Reserva de emergência", "1000")),
    ("o Bruno guardou 500 na reserva", contribution("Reserva de emergência", "500", paidBy="Bruno")),
    ("a Ana aportou 200 euros na amsterdam", contribution("Amsterdam Setembro/2026", "200", "EUR", paidBy="Ana")),
])
def test_a_plain_contribution_is_the_call_aporte_would_make(text: str, calls: list[dict[str, Any]]) -> None:
    assert reader().read(text) == calls


@pytest.mark.parametrize("text", [
    "comprei 300 euros pra viagem de amsterdam",        # buying euros: a contribution only by intention
    "eu e o Bruno colocamos 500 na reserva",            # two members: together, or each?
    "colocamos 500 cada na reserva",                    # who is "we"?
    "o Pedro guardou 500 na reserva",                   # not a member
    "o Bruno guardou 500 na reserva e eu 300",          # two payers, two amounts
    "mandei 500 pro Bruno pra reserva",                 # to a member: an acerto, or the goal?
    "aportei 500 na reserva, o Bruno pagou",            # another member
    "vou guardar 500 pro casamento",                    # a plan
    "guardei 500 por mês pro casamento",                # a monthly plan
    "tirei 500 da reserva",                             # a withdrawal
    "coloquei 500 na reserva e 200 no carro novo",      # two amounts
    "coloquei 500 na reserva e no casamento",           # two goals
    "coloquei 500 no carro novo no nubank",             # a card
    "aportei 1.500 no carro em março",                  # a month, no day
    "aportei uns 500 no casamento",                     # not an exact amount
    "não, coloquei 600 no casamento",                   # a correction
    "coloquei 500 no casamento?",                       # a question
    "coloquei 500 na viagem",                           # no goal certain
])
def test_a_contribution_the_reader_is_not_sure_of_is_left_to_the_model(text: str) -> None:
    assert reader().read(text) is None


def test_money_put_on_an_expense_is_a_spend_not_a_contribution() -> None:
    [call] = reader().read("coloquei 500 no notebook da firma") or []
    assert call["name"] == "recordSpend" and call["arguments"]["expense"] == "Notebook da firma"


@pytest.mark.parametrize("text", ["eu e o Bruno colocamos 500 cada na reserva",
                                  "nós dois guardamos 500 cada pra reserva",
                                  "a Ana e eu colocamos 500 cada na reserva de emergência"])
def test_the_same_amount_from_each_of_a_couple_is_one_contribution_each(text: str) -> None:
    amount = {"amount": "500", "currency": "BRL"}
    assert reader().read(text) == [
        {"name": "contributeToGoal", "arguments": {"goal": "Reserva de emergência", "amount": amount, "paidBy": "Ana"}},
        {"name": "contributeToGoal", "arguments": {"goal": "Reserva de emergência", "amount": amount,
                                                   "paidBy": "Bruno"}}]


@pytest.mark.parametrize("last", [
    {"name": "createGoal", "arguments": {"name": "Casamento", "target": {"amount": "30000", "currency": "BRL"}}},
    {"name": "contributeToGoal", "arguments": {"goal": "Casamento", "amount": {"amount": "500", "currency": "BRL"}}},
])
def test_a_goal_named_nela_is_the_one_the_last_write_was_about(last: dict[str, Any]) -> None:
    assert reader().read("já coloca 1.000 meu nela", last) == contribution("Casamento", "1000")
    assert reader().read("guardei 300 pra ela", last) == contribution("Casamento", "300")


def test_nela_after_a_write_about_no_goal_the_household_has_is_the_models() -> None:
    spend = {"name": "recordSpend", "arguments": {"expense": "Mercado"}}
    unknown = {"name": "createGoal", "arguments": {"name": "Moto", "target": {"amount": "9000", "currency": "BRL"}}}
    assert reader().read("coloca 500 nela", spend) is None
    assert reader().read("coloca 500 nela", unknown) is None  # not confirmed yet: no such goal
    assert reader().read("coloca 500 nela", None) is None
