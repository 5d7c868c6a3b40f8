"""An acerto asked for in words, read with no model (domain.agent.settlements): the forms a couple
writes after a pix, and everything the reader is not sure of left to the model."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from domain.agent.reader import SpendReader
from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.money import Money

TODAY = date(2026, 7, 1)


def reader(*members: str) -> SpendReader:
    house = Household.create("Casa", "BRL", id="h1")
    people = [house.add_member(name, id=f"m-{name}") for name in members or ("Ana", "Bruno")]
    budget = Budget.create("BRL", id="b1", household_id="h1")
    budget.register("Mercado", Money.of(500, "BRL"))
    budget.register_card("Nubank", 3, 10)
    goals = [Goal.create("Carro novo", Money.of(40000, "BRL"), members=people, created_at=date(2026, 1, 1))]
    return SpendReader.of(house, budget, goals, TODAY)


def settle(**arguments: Any) -> list[dict[str, Any]]:
    return [{"name": "settleUp", "arguments": arguments}]


@pytest.mark.parametrize(("text", "calls"), [
    ("te mandei 100 no pix, acerta aí", settle(amount={"amount": "100", "currency": "BRL"})),
    ("fiz o pix de 200 pro Bruno, acerta", settle(paidTo="Bruno", amount={"amount": "200", "currency": "BRL"})),
    ("acerta o que eu devo pro Bruno", settle(paidTo="Bruno")),
    ("acerta com o Bruno", settle()),
    ("acerta 150,50", settle(amount={"amount": "150.50", "currency": "BRL"})),
    ("te passei 150 do mercado", settle(amount={"amount": "150", "currency": "BRL"})),  # repays an expense
    ("te passei 150 do mercado, Bruno", settle(paidTo="Bruno", amount={"amount": "150", "currency": "BRL"})),
    ("te fiz um pix de 80 do mercado", settle(amount={"amount": "80", "currency": "BRL"})),
])
def test_an_acerto_asked_for_is_the_call_acerto_would_make(text: str, calls: list[dict[str, Any]]) -> None:
    assert reader().read(text) == calls


@pytest.mark.parametrize("text", [
    "quanto falta pra acertar?",                # a question: balance's
    "vou acertar com o Bruno amanhã",           # a plan
    "o Bruno me mandou 100, acerta",            # who paid whom, named otherwise
    "acerta metade com o Bruno",                # a share
    "te mandei 100 e 50 no pix, acerta",        # two amounts
    "te mandei 100 euros, acerta",              # another currency
    "paguei 200 no mercado, acerta com o Bruno",  # a spend too
    "acerta o nubank",                          # a card: its fatura, not an acerto
    "te mandei 100 no pix",                     # no acerto asked for
    "não, acerta 50",                           # a correction
    "quitei minha parte com a Ana, acerta",     # "parte": how much is the model's to ask
    "te mandei 100 pro mercado",                # money to buy something with, not repaid
    "te passei 150 do mercado e 30 do nubank",  # a card named too
    "te passei 150 do mercado e 30 de luz",     # two amounts: never two spends either
    "passei 150 do mercado pro Bruno",          # no "te": who is paid is named otherwise
])
def test_anything_the_reader_is_not_sure_of_in_an_acerto_is_left_to_the_model(text: str) -> None:
    assert reader().read(text) is None


def test_settling_with_a_member_named_after_com_needs_a_household_of_two() -> None:
    assert reader("Ana", "Bruno", "Carla").read("acerta com o Bruno") is None
    assert reader("Ana", "Bruno", "Carla").read("acerta o que eu devo pra Carla") == settle(paidTo="Carla")


def test_money_sent_for_an_expense_is_an_acerto_only_in_a_household_of_two() -> None:
    assert reader("Ana", "Bruno", "Carla").read("te passei 150 do mercado") is None
