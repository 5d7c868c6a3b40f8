"""A new goal read with no model (domain.agent.new_goals): a goal asked for by name, with its
amount, deadline and who saves for it, and everything the reader is not sure of left to the model."""

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


def reader(*extra_members: str) -> SpendReader:
    house = Household.create("Casa", "BRL", id="h1")
    ana, bruno = house.add_member("Ana", id="m-ana"), house.add_member("Bruno", id="m-bruno")
    for name in extra_members:
        house.add_member(name, id=f"m-{name.lower()}")
    budget = Budget.create("BRL", id="b1", household_id="h1")
    budget.register("Mercado", Money.of(500, "BRL"))
    goals = [Goal.create("Carro novo", Money.of(40000, "BRL"), members=[ana, bruno], created_at=date(2026, 1, 1))]
    return SpendReader.of(house, budget, goals, TODAY)


def goal(name: str, amount: str, currency: str = "BRL", contributors: tuple[str, ...] = ("Ana", "Bruno"),
         **more: Any) -> list[dict[str, Any]]:
    return [{"name": "createGoal", "arguments": {"name": name, "target": {"amount": amount, "currency": currency},
                                                  "contributors": list(contributors), **more}}]


@pytest.mark.parametrize(("text", "calls"), [
    ("cria uma meta Reforma do banheiro de 12 mil, eu e o Bruno", goal("Reforma do banheiro", "12000")),
    ("nova meta: Mudança, R$ 8 mil até 30/09/2026, nós dois", goal("Mudança", "8000", deadline="2026-09-30")),
    ("cria a meta Reserva, 20 mil, eu e a Ana", goal("Reserva", "20000")),
    ("abre uma meta Festa de 1 ano da Lara: R$ 5 mil até 20/03/2027, eu e o Bruno",
     goal("Festa de 1 ano da Lara", "5000", deadline="2027-03-20")),
    ("cria uma meta Disney de US$ 8.000 p/ 15/12/2027, a gente dois", goal("Disney", "8000", "USD",
                                                                           deadline="2027-12-15")),
    ("cria a meta Lua de mel de 6 mil euros até junho de 2028", goal("Lua de mel", "6000", "EUR",
                                                                     deadline="2028-06-01")),
    ("cria uma meta reforma do banheiro de 12 mil", goal("Reforma do banheiro", "12000")),  # as a name is written
    ("meta nova: Bicicleta, 2 mil até março", goal("Bicicleta", "2000", deadline="2027-03-01")),
    ("cria uma meta chamada Bicicleta de 2 mil", goal("Bicicleta", "2000")),
    ("cria a meta Viagem 2027: 10 mil", goal("Viagem 2027", "10000")),  # digits in a name ended by a colon
])
def test_a_goal_asked_for_by_name_is_the_call_meta_would_make(text: str, calls: list[dict[str, Any]]) -> None:
    assert reader().read(text) == calls


@pytest.mark.parametrize("text", [
    "quero uma meta de €6000 pra junho 2028, eu e Bruno",      # no name: the model asks it
    "cria uma meta pra Europa de 6 mil",                       # what is its name?
    "cria uma meta Viagem Japão de R$ 30.000 pra 01/04/2028, só eu",  # the reader does not know who "eu" is
    "cria uma meta Carro de 40 mil e outra de 5 mil",          # two amounts
    "cria uma meta Carro de 40 mil, mas só se der",            # a condition
    "cria uma meta Bicicleta de 2 mil por mês",                # a monthly amount, not a target
    "cria uma meta Bicicleta de 2 mil guardando 200 por mês",
    "cria uma meta Casa na praia de 500 mil até 2030",         # a year alone
    "cria uma meta Natal de 3 mil até julho",                  # the month it is: this one or the next?
    "cria uma meta Viagem de 3 mil até 01/03/2020",            # a deadline past
    "dá pra criar uma meta Viagem de 3 mil?",                  # a question
    "então cria essa meta, chama Cozinha nova, nós dois",      # its amount is in the conversation
    "não, cria a meta Viagem de 5 mil",                        # a correction
])
def test_a_goal_the_reader_is_not_sure_of_is_left_to_the_model(text: str) -> None:
    assert reader().read(text) is None


@pytest.mark.parametrize(("text", "calls"), [
    ("eu e o Bruno queremos juntar 6 mil euros pra lua de mel até junho de 2028",
     goal("Lua de mel", "6000", "EUR", deadline="2028-06-01")),
    ("queremos juntar 6 mil pra nossa lua de mel", goal("Lua de mel", "6000")),
    ("vamos guardar 10 mil pra reforma da cozinha até dezembro",
     goal("Reforma da cozinha", "10000", deadline="2026-12-01")),
    ("precisamos juntar 5 mil pra festa do Theo, nós dois", goal("Festa do Theo", "5000")),
    # "quero" with the couple named; the amount after the name; no deadline said so
    ("quero começar a juntar pro enxoval, 8,5 mil, eu e o Bruno, sem data pra acabar", goal("Enxoval", "8500")),
    ("vamos juntar pra reforma, 10 mil até dezembro", goal("Reforma", "10000", deadline="2026-12-01")),
])
def test_the_couples_wish_to_save_for_something_new_is_a_new_goal(text: str, calls: list[dict[str, Any]]) -> None:
    assert reader().read(text) == calls


@pytest.mark.parametrize("text", [
    "queremos juntar 40 mil pro carro novo",              # a goal they have: a plan for it
    "queremos juntar 6 mil pra trocar de carro",          # what is the goal's name?
    "quero juntar 6 mil pra lua de mel",                  # one wishes: who saves?
    "queremos juntar 6 mil pra lua de mel até 2028?",     # a question
    "queremos juntar 6 mil por mês pra lua de mel",       # a monthly amount
    "queremos juntar 6 mil pra lua de mel e 2 mil pra festa",  # two goals
    "quero começar a juntar pro notebook, 5 mil",         # one wishes: who saves?
    "vamos juntar pra reforma, 10 mil, sem pressa",       # a word the reader does not expect
])
def test_a_wish_the_reader_is_not_sure_of_is_left_to_the_model(text: str) -> None:
    assert reader().read(text) is None


def test_eu_and_one_member_is_the_couple_only_in_a_household_of_two() -> None:
    assert reader().read("cria a meta Viagem, 5 mil, eu e o Bruno") == goal("Viagem", "5000")
    assert reader("Lara").read("cria a meta Viagem, 5 mil, eu e o Bruno") is None
    assert reader("Lara").read("cria a meta Viagem, 5 mil, a Ana e o Bruno") == goal("Viagem", "5000")
    assert reader("Lara").read("cria a meta Viagem, 5 mil") == goal("Viagem", "5000",
                                                                      contributors=("Ana", "Bruno", "Lara"))
