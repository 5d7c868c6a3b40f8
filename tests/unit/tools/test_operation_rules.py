"""Contract §3: the rules every write tool keeps, and the edge cases around them.

The rules that hold for every write tool alike run once per tool (`WRITES`); the others use the
tool where the rule bites. State is read back through the repositories; calls are counted only
where counting is the rule (no save on a preview, no load on a repeat).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from domain.agent.chat import AgentChat
from domain.budget import Budget
from domain.errors import (
    AmbiguousName,
    DomainError,
    InvalidArgument,
    InvalidMoney,
    InvalidPeriod,
    OperationClosed,
    OperationConflict,
    UnknownExpense,
    UnknownGoal,
    UnknownMember,
)
from domain.goals import Goal
from domain.household import Household
from domain.in_memory import InMemoryBudgetRepository, InMemoryGoalRepository
from domain.money import Money, Period
from domain.operations.log import InMemoryOperationLog, OperationStatus
from domain.operations.receipts import ToolReceipt
from domain.tools.base import WriteTool
from domain.tools.budget import AdjustExpenseTool, RecordSpendTool, RegisterExpenseTool, SetIncomeTool
from domain.tools.goals import ContributeToGoalTool, CreateGoalTool
from tests.fakes.scripted_model import ScriptedModel, call, calls, say

BUDGET_ID = "b1"
HOUSEHOLD_ID = "h1"
AMSTERDAM_ID = "goal-amsterdam"
JUNE = Period(2026, 6)


def brl(amount: int | str) -> Money:
    return Money.of(amount, "BRL")


def money(amount: int | str, currency: str = "BRL") -> dict[str, Any]:
    return {"amount": Decimal(amount), "currency": currency}


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


class World:
    """A household (Ana, Bruno) with a BRL budget (Mercado, Água, income) and the Amsterdam goal."""

    def __init__(self, operations: InMemoryOperationLog | None = None) -> None:
        self.operations = operations or InMemoryOperationLog()
        self.budgets = InMemoryBudgetRepository()
        self.goals = InMemoryGoalRepository()
        self.household = Household.create("Ana e Bruno", "BRL", id=HOUSEHOLD_ID)
        self.ana = self.household.add_member("Ana", id="m-ana")
        self.bruno = self.household.add_member("Bruno", id="m-bruno")

    @classmethod
    async def create(cls, operations: InMemoryOperationLog | None = None) -> World:
        world = cls(operations)
        budget = Budget.create("BRL", id=BUDGET_ID, household_id=HOUSEHOLD_ID)
        budget.register("Mercado", brl(1500), aliases=["supermercado"])
        budget.register("Água", brl(180))
        budget.set_income(brl(12000))
        await world.budgets.save(budget)
        await world.goals.save(Goal.create(
            "Amsterdam Setembro/2026", Money.of(6000, "EUR"), members=[world.ana, world.bruno],
            created_at=date(2026, 6, 1), deadline=date(2026, 9, 1), id=AMSTERDAM_ID,
            household_id=HOUSEHOLD_ID))
        return world

    # tools, all sharing the world's operation log
    def record_spend(self) -> RecordSpendTool:
        return RecordSpendTool.create(budget_repo=self.budgets, budget_id=BUDGET_ID, operations=self.operations)

    def register_expense(self) -> RegisterExpenseTool:
        return RegisterExpenseTool.create(budget_repo=self.budgets, budget_id=BUDGET_ID,
                                          operations=self.operations)

    def adjust_expense(self) -> AdjustExpenseTool:
        return AdjustExpenseTool.create(budget_repo=self.budgets, budget_id=BUDGET_ID, operations=self.operations)

    def set_income(self) -> SetIncomeTool:
        return SetIncomeTool.create(budget_repo=self.budgets, budget_id=BUDGET_ID, operations=self.operations)

    def contribute(self) -> ContributeToGoalTool:
        return ContributeToGoalTool.create(goal_repo=self.goals, household_id=HOUSEHOLD_ID,
                                           operations=self.operations)

    def create_goal(self) -> CreateGoalTool:
        return CreateGoalTool.create(goal_repo=self.goals, household=self.household,
                                     now=lambda: datetime(2026, 6, 1, 15, tzinfo=UTC), operations=self.operations)

    # what is stored
    @property
    def saves(self) -> int:
        return self.budgets.saves + self.goals.saves

    @property
    def loads(self) -> int:
        return self.budgets.loads + self.goals.loads

    async def budget(self) -> Budget:
        return await self.budgets.load(BUDGET_ID)

    async def stored(self) -> tuple[Any, ...]:
        """Everything the repositories hold, comparable (goal ids left out: a new goal's is random)."""
        budget = await self.budgets.load(BUDGET_ID)
        expenses = tuple(
            (e.name, e.expected, e.aliases, e.category, e.billing_day, e.payment_method,
             tuple(sorted(e.actuals.items())))
            for e in budget.expenses
        )
        goals = sorted(
            (g.name, g.target.currency, g.target.amount, g.deadline, tuple(m.id for m in g.members),
             tuple((c.paid_by.id, c.amount.currency, c.amount.amount, c.date) for c in g.contributions))
            for g in await self.goals.list()
        )
        return budget.income, expenses, tuple(goals)


@dataclass(frozen=True)
class WriteCase:
    """One write tool, a call to it, and a call with other arguments."""

    tool: Callable[[World], WriteTool[Any]]
    method: str
    args: dict[str, Any]
    other_args: dict[str, Any]
    loads_an_aggregate: bool = True

    async def __call__(self, world: World, tool: WriteTool[Any], operation_id: str = "op-1", *,
                       confirm: bool = False, other: bool = False) -> ToolReceipt:
        args = self.other_args if other else self.args
        receipt: ToolReceipt = await getattr(tool, self.method)(
            **args, operation_id=operation_id, confirm=confirm)
        return receipt


WRITES = {
    "recordSpend": WriteCase(
        World.record_spend, "record_spend",
        {"expense": "Mercado", "period": "2026-06", "amount": money(200)},
        {"expense": "Mercado", "period": "2026-06", "amount": money(250)}),
    "registerExpense": WriteCase(
        World.register_expense, "register_expense",
        {"name": "Aluguel", "expected": money(2500), "billing_day": 10},
        {"name": "Aluguel", "expected": money(2600), "billing_day": 10}),
    "adjustExpense": WriteCase(
        World.adjust_expense, "adjust_expense",
        {"expense": "Mercado", "new_expected": money(1800)},
        {"expense": "Mercado", "new_expected": money(1900)}),
    "contributeToGoal": WriteCase(
        World.contribute, "contribute_to_goal",
        {"goal": "Amsterdam", "paid_by": "Ana", "amount": money(500), "date": "2026-06-15"},
        {"goal": "Amsterdam", "paid_by": "Ana", "amount": money(600), "date": "2026-06-15"}),
    "createGoal": WriteCase(
        World.create_goal, "create_goal",
        {"name": "Lua de mel", "target": money(6000, "EUR"), "contributors": ["Ana", "Bruno"],
         "deadline": "2028-06-01"},
        {"name": "Lua de mel", "target": money(7000, "EUR"), "contributors": ["Ana", "Bruno"],
         "deadline": "2028-06-01"},
        loads_an_aggregate=False),
    "setIncome": WriteCase(
        World.set_income, "set_income", {"amount": money(13000)}, {"amount": money(14000)}),
}

every_write_tool = pytest.mark.parametrize("case", WRITES.values(), ids=WRITES.keys())


# --- rules 1-4 and 7, for every write tool --------------------------------------------------


@every_write_tool
async def test_rule_1_the_first_call_never_writes_even_with_confirm(case: WriteCase) -> None:
    world = await World.create()
    tool = case.tool(world)
    before = await world.stored()
    saves_before = world.saves

    first = await case(world, tool, confirm=True)

    assert (first.confirmed, first.persisted) == (False, False)
    assert world.saves == saves_before
    assert await world.stored() == before

    second = await case(world, tool, confirm=True)

    assert second == ToolReceipt("op-1", first.preview, confirmed=True, persisted=True)
    assert world.saves == saves_before + 1
    assert await world.stored() != before


@every_write_tool
async def test_rule_2_a_repeat_of_a_confirmed_operation_returns_the_receipt_and_neither_loads_nor_saves(
    case: WriteCase,
) -> None:
    world = await World.create()
    tool = case.tool(world)
    await case(world, tool)
    written = await case(world, tool, confirm=True)
    after = await world.stored()
    loads_before, saves_before = world.loads, world.saves

    repeat = await case(world, tool, confirm=True)
    unconfirmed_repeat = await case(world, tool)

    assert repeat == ToolReceipt("op-1", written.preview, confirmed=True, persisted=False)
    assert unconfirmed_repeat == repeat
    assert (world.loads, world.saves) == (loads_before, saves_before)
    assert await world.stored() == after


@every_write_tool
async def test_rule_3_a_preview_saves_nothing_and_changes_no_stored_aggregate(case: WriteCase) -> None:
    world = await World.create()
    tool = case.tool(world)
    before = await world.stored()
    saves_before = world.saves

    await case(world, tool)
    await case(world, tool, "op-2", other=True)

    assert world.saves == saves_before
    assert await world.stored() == before


@every_write_tool
async def test_rule_4_other_arguments_under_a_confirmed_id_conflict_and_write_nothing(case: WriteCase) -> None:
    world = await World.create()
    tool = case.tool(world)
    await case(world, tool)
    await case(world, tool, confirm=True)
    after = await world.stored()
    saves_before = world.saves

    for confirm in (False, True):
        with pytest.raises(OperationConflict) as conflict:
            await case(world, tool, confirm=confirm, other=True)
        assert conflict.value.operation_id == "op-1"  # named by attribute: people read the message

    assert world.saves == saves_before
    assert await world.stored() == after


@every_write_tool
async def test_rule_4_before_confirmation_a_new_preview_replaces_the_pending_one(case: WriteCase) -> None:
    replaced = await World.create()
    tool = case.tool(replaced)
    await case(replaced, tool)
    new_preview = await case(replaced, tool, other=True)

    written = await case(replaced, tool, confirm=True, other=True)

    assert written == ToolReceipt("op-1", new_preview.preview, confirmed=True, persisted=True)
    only_the_new = await World.create()
    new_tool = case.tool(only_the_new)
    await case(only_the_new, new_tool, other=True)
    await case(only_the_new, new_tool, confirm=True, other=True)
    assert await replaced.stored() == await only_the_new.stored()
    operation = await replaced.operations.get("op-1")
    assert operation is not None and operation.status is OperationStatus.CONFIRMED


@every_write_tool
async def test_rule_7_the_tool_loads_on_every_call_and_saves_only_when_confirming(case: WriteCase) -> None:
    world = await World.create()
    tool = case.tool(world)
    loads_per_call = 1 if case.loads_an_aggregate else 0
    saves_before = world.saves

    for confirm, saves in ((False, 0), (False, 0), (True, 1)):
        loads_before = world.loads
        await case(world, tool, confirm=confirm)
        assert world.loads - loads_before == loads_per_call
        assert world.saves - saves_before == saves


async def test_rule_7_a_confirmation_starts_from_what_was_saved_since_the_preview() -> None:
    world = await World.create()
    tool = world.record_spend()
    proposed = await tool.record_spend(expense="Mercado", period="2026-06", amount=money(200), operation_id="op-a")
    await tool.record_spend(expense="Mercado", period="2026-06", amount=money(100), operation_id="op-b")
    await tool.record_spend(expense="Mercado", period="2026-06", amount=money(100), operation_id="op-b",
                            confirm=True)

    written = await tool.record_spend(expense="Mercado", period="2026-06", amount=money(200),
                                      operation_id="op-a", confirm=True)

    assert proposed.preview["newActual"] == money(200)
    assert written.preview["newActual"] == money(300)
    assert (await world.budget()).find_by_name("Mercado").actual_for(JUNE) == brl(300)


# --- rule 5: names cross the boundary as text ------------------------------------------------


UNKNOWN_NAMES = {
    "expense to spend on": (World.record_spend, "record_spend", UnknownExpense, "Academia",
                            {"expense": "Academia", "period": "2026-06", "amount": money(50)}),
    "expense to adjust": (World.adjust_expense, "adjust_expense", UnknownExpense, "Academia",
                          {"expense": "Academia", "new_expected": money(100)}),
    "goal": (World.contribute, "contribute_to_goal", UnknownGoal, "Japão",
             {"goal": "Japão", "paid_by": "Ana", "amount": money(500), "date": "2026-06-15"}),
    "member who paid": (World.contribute, "contribute_to_goal", UnknownMember, "Carla",
                        {"goal": "Amsterdam", "paid_by": "Carla", "amount": money(500), "date": "2026-06-15"}),
    "contributor": (World.create_goal, "create_goal", UnknownMember, "Xyz",
                    {"name": "Casa nova", "target": money(100000), "contributors": ["Ana", "Xyz"],
                     "deadline": "2030-01-01"}),
}


@pytest.mark.parametrize(("make", "method", "error", "name", "args"), UNKNOWN_NAMES.values(),
                         ids=UNKNOWN_NAMES.keys())
async def test_rule_5_an_unknown_name_is_a_domain_error_naming_it_before_anything_is_written(
    make: Callable[[World], WriteTool[Any]], method: str, error: type[DomainError], name: str,
    args: dict[str, Any],
) -> None:
    world = await World.create()
    tool = make(world)
    before = await world.stored()
    saves_before = world.saves

    for confirm in (False, True):
        with pytest.raises(error, match=name) as raised:
            await getattr(tool, method)(**args, operation_id="op-1", confirm=confirm)
        assert isinstance(raised.value, DomainError)

    assert world.saves == saves_before
    assert await world.stored() == before
    assert await world.operations.get("op-1") is None


# --- rule 6: a preview runs every check ------------------------------------------------------


BAD_PREVIEWS = {
    "billing day 32": (World.register_expense, "register_expense", InvalidArgument, "32",
                       {"name": "Aluguel", "expected": money(2500), "billing_day": 32}),
    "billing day true": (World.register_expense, "register_expense", InvalidArgument, "True",
                         {"name": "Aluguel", "expected": money(2500), "billing_day": True}),
    "currency XYZ": (World.record_spend, "record_spend", InvalidMoney, "XYZ",
                     {"expense": "Mercado", "period": "2026-06", "amount": money(200, "XYZ")}),
    "unknown expense": (World.record_spend, "record_spend", UnknownExpense, "Academia",
                        {"expense": "Academia", "period": "2026-06", "amount": money(200)}),
    "month 13": (World.record_spend, "record_spend", InvalidPeriod, "13",
                 {"expense": "Mercado", "period": "2026-13", "amount": money(200)}),
    "negative spend": (World.record_spend, "record_spend", InvalidMoney, "-200",
                       {"expense": "Mercado", "period": "2026-06", "amount": money(-200)}),
    "deadline in the past": (World.create_goal, "create_goal", InvalidArgument, "2025-01-01",
                             {"name": "Carro", "target": money(50000), "contributors": ["Ana"],
                              "deadline": "2025-01-01"}),
    "contribution date": (World.contribute, "contribute_to_goal", DomainError, "2026-15-01",
                          {"goal": "Amsterdam", "paid_by": "Ana", "amount": money(500), "date": "2026-15-01"}),
}


@pytest.mark.parametrize(("make", "method", "error", "value", "args"), BAD_PREVIEWS.values(),
                         ids=BAD_PREVIEWS.keys())
async def test_rule_6_a_preview_fails_on_what_the_write_would_refuse(
    make: Callable[[World], WriteTool[Any]], method: str, error: type[DomainError], value: str,
    args: dict[str, Any],
) -> None:
    world = await World.create()
    before = await world.stored()

    with pytest.raises(error, match=value):
        await getattr(make(world), method)(**args, operation_id="op-1")

    assert await world.operations.get("op-1") is None
    assert await world.stored() == before


# --- rule 8: a member speaks between a preview and its confirmation --------------------------

SPEND = {"expense": "Mercado", "period": "2026-06", "amount": {"amount": 200, "currency": "BRL"},
         "operationId": "op-1"}
SPEND_PREVIEW = {"expense": "Mercado", "period": "2026-06", "delta": money(200), "newActual": money(200)}


@pytest.mark.parametrize("same_message", [False, True], ids=["in a later step", "in the same message"])
async def test_rule_8_the_model_cannot_confirm_in_the_send_that_proposed(same_message: bool) -> None:
    world = await World.create()
    propose, confirm = call("recordSpend", SPEND), call("recordSpend", {**SPEND, "confirm": True})
    # In a later step: a call that fails keeps the turn going past the proposal (contract §8 ends
    # a turn at once only when every call of the answer proposed).
    steps = ([calls(propose, confirm)] if same_message
             else [calls(propose, call("fetchWeather", {})), confirm])
    model = ScriptedModel(*steps, confirm, say("Agora sim."))
    chat = AgentChat.create(model, [world.record_spend()])
    saves_before = world.saves

    held = await chat.send("gastei 200 no mercado", sender="Ana")

    assert [c.result for c in held.tool_calls if c.name == "recordSpend"] == [
        ToolReceipt("op-1", SPEND_PREVIEW, confirmed=False, persisted=False)] * 2
    assert world.saves == saves_before
    assert (await world.budget()).find_by_name("Mercado").actual_for(JUNE) == brl(0)
    operation = await world.operations.get("op-1")
    assert operation is not None and operation.status is OperationStatus.PENDING

    approved = await chat.send("confirma", sender="Bruno")

    [written] = approved.tool_calls
    assert written.result == ToolReceipt("op-1", SPEND_PREVIEW, confirmed=True, persisted=True)
    assert (await world.budget()).find_by_name("Mercado").actual_for(JUNE) == brl(200)
    confirmed = await world.operations.get("op-1")
    assert confirmed is not None and confirmed.decided_by == "Bruno"


# --- money at the boundary -------------------------------------------------------------------


async def test_three_spends_of_ten_cents_make_exactly_thirty_cents() -> None:
    world = await World.create()
    tool = world.record_spend()

    for n in range(3):
        for confirm in (False, True):
            await tool.record_spend(expense="Mercado", period="2026-06", amount=money("0.10"),
                                    operation_id=f"op-{n}", confirm=confirm)

    actual = (await world.budget()).find_by_name("Mercado").actual_for(JUNE)
    assert actual == brl("0.30")
    assert isinstance(actual.amount, Decimal) and actual.amount == Decimal("0.30")


async def test_a_json_number_from_the_model_stays_the_exact_decimal_it_spells() -> None:
    world = await World.create()
    args = {**SPEND, "amount": {"amount": Decimal("37.9"), "currency": "BRL"}}
    model = ScriptedModel(call("recordSpend", args),
                          call("recordSpend", {**args, "confirm": True}), say("Feito."))
    chat = AgentChat.create(model, [world.record_spend()])

    reply = await chat.send("gastei 37,90 no mercado", sender="Ana")
    await chat.send("confirma", sender="Ana")

    arguments = model.requests[1].messages[-4]["tool_calls"][0]["function"]["arguments"]
    assert '"amount": 37.9,' in arguments
    [spend] = reply.tool_calls
    amount = spend.args["amount"]["amount"]
    assert type(amount) is Decimal and amount == Decimal("37.90")
    assert spend.result is not None and isinstance(spend.result, ToolReceipt)
    delta = spend.result.preview["delta"]["amount"]
    assert type(delta) is Decimal and delta == Decimal("37.90")
    actual = (await world.budget()).find_by_name("Mercado").actual_for(JUNE)
    assert actual.amount == Decimal("37.90")


async def test_a_float_amount_passed_in_python_is_refused() -> None:
    world = await World.create()

    with pytest.raises(InvalidArgument, match="float"):
        await world.record_spend().record_spend(
            expense="Mercado", period="2026-06", amount={"amount": 37.9, "currency": "BRL"},
            operation_id="op-1")

    assert await world.operations.get("op-1") is None


async def test_month_13_is_refused_naming_it() -> None:
    world = await World.create()

    with pytest.raises(InvalidPeriod, match="13"):
        await world.record_spend().record_spend(expense="Mercado", period="2026-13", amount=money(10),
                                                operation_id="op-1")


async def test_currency_xyz_is_refused_naming_it() -> None:
    world = await World.create()

    with pytest.raises(InvalidMoney, match="XYZ"):
        await world.set_income().set_income(amount=money(100, "XYZ"), operation_id="op-1")


# --- names: aliases, case, accents, goals by a unique part -----------------------------------


@pytest.mark.parametrize(("said", "expense"), [
    ("supermercado", "Mercado"),
    ("MERCADO", "Mercado"),
    ("agua", "Água"),
    ("  ÁGUA ", "Água"),
])
async def test_an_expense_is_found_by_alias_whatever_the_case_and_accents(said: str, expense: str) -> None:
    world = await World.create()
    tool = world.record_spend()

    for confirm in (False, True):
        receipt = await tool.record_spend(expense=said, period="2026-06", amount=money(40),
                                          operation_id="op-1", confirm=confirm)

    assert receipt.preview["expense"] == said
    budget = await world.budget()
    assert budget.find_by_name(expense).actual_for(JUNE) == brl(40)
    assert budget.actual_total(JUNE) == brl(40)


async def test_a_unique_part_of_a_goal_name_finds_it_within_the_household() -> None:
    world = await World.create()
    tool = world.contribute()

    for confirm in (False, True):
        receipt = await tool.contribute_to_goal(goal="amsterdam", paid_by="bruno", amount=money(300),
                                                date="2026-06-20", operation_id="op-1", confirm=confirm)

    assert (receipt.preview["goal"], receipt.preview["paidBy"]) == ("amsterdam", "bruno")
    goal = await world.goals.load(AMSTERDAM_ID)
    [contribution] = goal.contributions
    assert (contribution.paid_by, contribution.amount) == (world.bruno, brl(300))


async def test_a_part_of_two_goal_names_is_ambiguous_and_names_both() -> None:
    world = await World.create()
    await world.goals.save(Goal.create(
        "Amsterdam Dezembro/2027", Money.of(8000, "EUR"), members=[world.ana],
        created_at=date(2026, 6, 1), household_id=HOUSEHOLD_ID))

    with pytest.raises(AmbiguousName) as raised:
        await world.contribute().contribute_to_goal(goal="Amsterdam", paid_by="Ana", amount=money(300),
                                                    date="2026-06-20", operation_id="op-1")

    assert "Amsterdam Setembro/2026" in str(raised.value)
    assert "Amsterdam Dezembro/2027" in str(raised.value)
    assert await world.operations.get("op-1") is None


async def test_a_tool_bound_to_a_goal_id_contributes_to_that_goal_and_refuses_another_name() -> None:
    world = await World.create()
    tool = ContributeToGoalTool.create(goal_repo=world.goals, goal_id=AMSTERDAM_ID)

    with pytest.raises(UnknownGoal, match="Japão"):
        await tool.contribute_to_goal(goal="Japão", paid_by="Ana", amount=money(100), date="2026-06-20",
                                      operation_id="op-x")
    for confirm in (False, True):
        await tool.contribute_to_goal(goal="Setembro", paid_by="Ana", amount=money(100), date="2026-06-20",
                                      operation_id="op-1", confirm=confirm)

    goal = await world.goals.load(AMSTERDAM_ID)
    assert goal.saved_by_currency() == {"BRL": brl(100)}


async def test_an_unknown_member_in_paid_by_is_named_in_the_error() -> None:
    world = await World.create()

    with pytest.raises(UnknownMember, match="Carla"):
        await world.contribute().contribute_to_goal(goal="Amsterdam", paid_by="Carla", amount=money(100),
                                                    date="2026-06-20", operation_id="op-1")

    assert (await world.goals.load(AMSTERDAM_ID)).contributions == []


# --- each tool's preview -----------------------------------------------------------------------


async def test_a_goal_without_deadline_is_created_with_no_required_monthly() -> None:
    world = await World.create()
    tool = world.create_goal()

    for confirm in (False, True):
        receipt = await tool.create_goal(name="Reserva", target=money(20000), contributors=["Ana"],
                                         operation_id="op-1", confirm=confirm)

    assert receipt.preview == {"name": "Reserva", "target": "BRL 20000", "contributors": ["Ana"]}
    [reserve] = [g for g in await world.goals.list() if g.name == "Reserva"]
    assert reserve.deadline is None
    assert reserve.required_monthly(date(2026, 6, 1)) is None


async def test_set_income_previews_the_old_and_new_income_then_confirms() -> None:
    world = await World.create()
    tool = world.set_income()

    preview = await tool.set_income(amount=money(13500), operation_id="op-1")
    assert (await world.budget()).income == brl(12000)
    written = await tool.set_income(amount=money(13500), operation_id="op-1", confirm=True)

    assert preview.preview == {"income": money(13500), "oldIncome": money(12000)}
    assert written == ToolReceipt("op-1", preview.preview, confirmed=True, persisted=True)
    assert (await world.budget()).income == brl(13500)


async def test_register_expense_previews_exactly_its_fields() -> None:
    world = await World.create()
    tool = world.register_expense()

    receipt = await tool.register_expense(name="Aluguel", expected=money(2500), category="Moradia",
                                          billing_day=10, payment_method="Pix", aliases=["casa"],
                                          operation_id="op-1")
    await tool.register_expense(name="Aluguel", expected=money(2500), category="Moradia", billing_day=10,
                                payment_method="Pix", aliases=["casa"], operation_id="op-1", confirm=True)

    assert receipt.preview == {"name": "Aluguel", "expected": money(2500), "category": "Moradia",
                               "billingDay": 10, "paymentMethod": "Pix"}
    rent = (await world.budget()).find_by_name("casa")
    assert (rent.name, rent.expected, rent.billing_day, rent.payment_method) == ("Aluguel", brl(2500), 10, "Pix")


async def test_adjust_expense_previews_the_old_and_new_expected_amount() -> None:
    world = await World.create()
    tool = world.adjust_expense()

    receipt = await tool.adjust_expense(expense="supermercado", new_expected=money(1800), operation_id="op-1")
    await tool.adjust_expense(expense="supermercado", new_expected=money(1800), operation_id="op-1", confirm=True)

    assert receipt.preview == {"expense": "supermercado", "oldExpected": money(1500),
                               "newExpected": money(1800)}
    assert (await world.budget()).find_by_name("Mercado").expected == brl(1800)


# --- confirming and cancelling by id (the buttons) -----------------------------------------------


async def proposed_spend(world: World) -> AgentChat:
    model = ScriptedModel(call("recordSpend", SPEND), say("Confirma?"))
    chat = AgentChat.create(model, [world.record_spend()])
    await chat.send("gastei 200 no mercado", sender="Ana")
    return chat


async def test_a_cancelled_operation_can_never_be_confirmed_and_writes_nothing() -> None:
    world = await World.create()
    chat = await proposed_spend(world)
    saves_before = world.saves

    cancelled = await chat.cancel("op-1", by="Bruno")

    assert (cancelled.status, cancelled.decided_by) == (OperationStatus.CANCELLED, "Bruno")
    with pytest.raises(OperationClosed, match="cancelada"):
        await chat.confirm("op-1", by="Ana")
    with pytest.raises(OperationClosed, match="cancelada"):
        await world.record_spend().record_spend(expense="Mercado", period="2026-06", amount=money(200),
                                                operation_id="op-1", confirm=True)
    assert world.saves == saves_before
    assert (await world.budget()).find_by_name("Mercado").actual_for(JUNE) == brl(0)


async def test_confirming_by_id_twice_writes_once() -> None:
    world = await World.create()
    chat = await proposed_spend(world)
    saves_before = world.saves

    first = await chat.confirm("op-1", by="Ana")
    second = await chat.confirm("op-1", by="Bruno")

    assert first == ToolReceipt("op-1", SPEND_PREVIEW, confirmed=True, persisted=True)
    assert second == ToolReceipt("op-1", SPEND_PREVIEW, confirmed=True, persisted=False)
    assert world.saves == saves_before + 1
    assert (await world.budget()).find_by_name("Mercado").actual_for(JUNE) == brl(200)
    operation = await world.operations.get("op-1")
    assert operation is not None and operation.decided_by == "Ana"


class YieldingBudgetRepository(InMemoryBudgetRepository):
    """Gives the event loop a turn inside load and save, as a database would."""

    async def load(self, aggregate_id: str, *, periods: Iterable[Period] | None = None) -> Budget:
        await asyncio.sleep(0)
        return await super().load(aggregate_id, periods=periods)

    async def save(self, aggregate: Budget) -> None:
        await asyncio.sleep(0)
        await super().save(aggregate)


async def test_ten_concurrent_presses_of_confirm_write_once() -> None:
    world = await World.create()
    yielding = YieldingBudgetRepository()
    await yielding.save(await world.budget())
    world.budgets = yielding
    chat = await proposed_spend(world)
    saves_before = world.saves

    receipts = await asyncio.gather(*(chat.confirm("op-1", by="Ana") for _ in range(10)))

    assert sorted(r.persisted for r in receipts) == [False] * 9 + [True]
    assert all(r.confirmed and r.preview == SPEND_PREVIEW for r in receipts)
    assert world.saves == saves_before + 1
    assert (await world.budget()).find_by_name("Mercado").actual_for(JUNE) == brl(200)


async def test_two_operations_on_one_budget_confirmed_concurrently_both_count() -> None:
    world = await World.create()
    yielding = YieldingBudgetRepository()
    await yielding.save(await world.budget())
    world.budgets = yielding
    tool = world.record_spend()
    chat = AgentChat.create(ScriptedModel(), [tool])
    for operation_id, amount in (("op-a", 200), ("op-b", 100)):
        await tool.record_spend(expense="Mercado", period="2026-06", amount=money(amount),
                                operation_id=operation_id)

    await asyncio.gather(chat.confirm("op-a"), chat.confirm("op-b"))

    assert (await world.budget()).find_by_name("Mercado").actual_for(JUNE) == brl(300)


async def test_an_operation_expires_after_the_ttl_and_can_no_longer_be_confirmed() -> None:
    clock = Clock(datetime(2026, 6, 15, 12, tzinfo=UTC))
    world = await World.create(InMemoryOperationLog(clock=clock, ttl=timedelta(hours=1)))
    chat = await proposed_spend(world)
    saves_before = world.saves

    clock.advance(timedelta(hours=1, seconds=1))

    with pytest.raises(OperationClosed, match="expirada"):
        await chat.confirm("op-1", by="Ana")
    with pytest.raises(OperationClosed, match="expirada"):
        await chat.confirm("op-1", by="Ana")
    operation = await world.operations.get("op-1")
    assert operation is not None and operation.status is OperationStatus.EXPIRED
    assert world.saves == saves_before
    assert (await world.budget()).find_by_name("Mercado").actual_for(JUNE) == brl(0)


async def test_an_operation_can_still_be_confirmed_at_its_ttl() -> None:
    clock = Clock(datetime(2026, 6, 15, 12, tzinfo=UTC))
    world = await World.create(InMemoryOperationLog(clock=clock, ttl=timedelta(hours=1)))
    chat = await proposed_spend(world)

    clock.advance(timedelta(hours=1))
    receipt = await chat.confirm("op-1", by="Ana")

    assert (receipt.confirmed, receipt.persisted) == (True, True)
    assert (await world.budget()).find_by_name("Mercado").actual_for(JUNE) == brl(200)
