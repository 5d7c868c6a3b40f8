"""Seed 013: the agent writes through write tools, propose -> confirm, idempotent by operationId.

Every scenario runs through AgentChat with a scripted model. As contract rule 8 requires, the
confirmation always comes in a later `send`, after a member spoke. Where the seed and the
contract differ (a repeat's receipt says persisted=False), the contract wins.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from domain.agent.chat import AgentChat
from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household, Member
from domain.in_memory import InMemoryBudgetRepository, InMemoryGoalRepository
from domain.money import Money, Period
from domain.operations.receipts import ToolReceipt
from domain.tools.budget import RecordSpendTool
from domain.tools.goals import ContributeToGoalTool
from tests.fakes.scripted_model import ScriptedModel, call, say

BUDGET_ID = "budget-casa"
GOAL_ID = "goal-amsterdam"
JUNE = Period(2026, 6)

SPEND_ARGS: dict[str, Any] = {
    "expense": "Mercado",
    "period": "2026-06",
    "amount": {"amount": 200, "currency": "BRL"},
    "operationId": "op-1",
}
SPEND_PREVIEW = {
    "expense": "Mercado",
    "period": "2026-06",
    "delta": {"amount": Decimal(200), "currency": "BRL"},
    "newActual": {"amount": Decimal(200), "currency": "BRL"},
}
CONTRIBUTION_ARGS: dict[str, Any] = {
    "goal": "Amsterdam",
    "paidBy": "Gabriel",
    "amount": {"amount": 500, "currency": "BRL"},
    "date": "2026-06-15",
    "operationId": "op-2",
}
CONTRIBUTION_PREVIEW = {
    "goal": "Amsterdam",
    "paidBy": "Gabriel",
    "amount": {"amount": Decimal(500), "currency": "BRL"},
    "date": "2026-06-15",
    "newSavedByCurrency": {"BRL": {"amount": Decimal(500), "currency": "BRL"}},
}


def brl(amount: int | str) -> Money:
    return Money.of(amount, "BRL")


async def house_budget() -> InMemoryBudgetRepository:
    """The house's BRL budget with Mercado (R$ 1.500, alias "mercado"), saved through the port."""
    repo = InMemoryBudgetRepository()
    budget = Budget.create("BRL", id=BUDGET_ID)
    budget.register("Mercado", brl(1500), aliases=["mercado"])
    await repo.save(budget)
    return repo


async def groceries_in_june(repo: InMemoryBudgetRepository) -> Money:
    budget = await repo.load(BUDGET_ID)
    return budget.find_by_name("Mercado").actual_for(JUNE)


def spend_chat(repo: InMemoryBudgetRepository, model: ScriptedModel) -> AgentChat:
    return AgentChat.create(model, [RecordSpendTool.create(budget_repo=repo, budget_id=BUDGET_ID)])


def spend_script() -> ScriptedModel:
    return ScriptedModel(
        call("recordSpend", SPEND_ARGS),
        call("recordSpend", {**SPEND_ARGS, "confirm": True}),
        say("Pronto, registrado."),
    )


async def test_recording_more_spent_at_the_market_is_first_only_a_preview() -> None:
    repo = await house_budget()
    chat = spend_chat(repo, spend_script())
    assert await groceries_in_june(repo) == brl(0)
    saves_before = repo.saves

    reply = await chat.send("registra R$ 200 a mais no mercado essa semana", sender="Ana")

    [spend] = reply.tool_calls
    assert (spend.name, spend.args, spend.error) == ("recordSpend", SPEND_ARGS, None)
    assert spend.result == ToolReceipt("op-1", SPEND_PREVIEW, confirmed=False, persisted=False)
    assert repo.saves == saves_before
    assert await groceries_in_june(repo) == brl(0)


async def test_confirming_the_market_spend_in_the_next_message_writes_it_once() -> None:
    repo = await house_budget()
    chat = spend_chat(repo, spend_script())
    await chat.send("registra R$ 200 a mais no mercado essa semana", sender="Ana")
    saves_before = repo.saves

    reply = await chat.send("confirma", sender="Ana")

    [spend] = reply.tool_calls
    assert (spend.name, spend.args) == ("recordSpend", {**SPEND_ARGS, "confirm": True})
    assert spend.result == ToolReceipt("op-1", SPEND_PREVIEW, confirmed=True, persisted=True)
    assert repo.saves == saves_before + 1
    assert await groceries_in_june(repo) == brl(200)


async def amsterdam_goal() -> tuple[InMemoryGoalRepository, Member]:
    """The goal "Amsterdam Setembro/2026" (EUR 6.000 by 2026-09-01) of Gabriel and his wife."""
    household = Household.create("Casa", "BRL", id="h1")
    gabriel = household.add_member("Gabriel", id="m-gabriel")
    wife = household.add_member("Marina", id="m-marina")
    goals = InMemoryGoalRepository()
    await goals.save(Goal.create(
        "Amsterdam Setembro/2026", Money.of(6000, "EUR"), members=[gabriel, wife],
        created_at=date(2026, 6, 1), deadline=date(2026, 9, 1), id=GOAL_ID))
    return goals, gabriel


def contribution_chat(goals: InMemoryGoalRepository) -> AgentChat:
    model = ScriptedModel(
        call("contributeToGoal", CONTRIBUTION_ARGS),
        call("contributeToGoal", {**CONTRIBUTION_ARGS, "confirm": True}),
        say("Aporte registrado."),
    )
    return AgentChat.create(model, [ContributeToGoalTool.create(goal_repo=goals, goal_id=GOAL_ID)])


async def test_contributing_to_the_amsterdam_goal_is_first_only_a_preview() -> None:
    goals, _ = await amsterdam_goal()
    chat = contribution_chat(goals)
    saves_before = goals.saves

    reply = await chat.send("adiciona meta de R$ 500 esse mês pra Amsterdam, eu paguei", sender="Gabriel")

    [proposal] = reply.tool_calls
    assert (proposal.name, proposal.args, proposal.error) == ("contributeToGoal", CONTRIBUTION_ARGS, None)
    assert proposal.result == ToolReceipt("op-2", CONTRIBUTION_PREVIEW, confirmed=False, persisted=False)
    assert goals.saves == saves_before
    assert (await goals.load(GOAL_ID)).contributions == []


async def test_confirming_the_amsterdam_contribution_saves_it_paid_by_gabriel_found_by_name() -> None:
    goals, gabriel = await amsterdam_goal()
    chat = contribution_chat(goals)
    await chat.send("adiciona meta de R$ 500 esse mês pra Amsterdam, eu paguei", sender="Gabriel")
    saves_before = goals.saves

    reply = await chat.send("pode mandar", sender="Gabriel")

    [confirming] = reply.tool_calls
    assert confirming.args == {**CONTRIBUTION_ARGS, "confirm": True}
    assert confirming.result == ToolReceipt("op-2", CONTRIBUTION_PREVIEW, confirmed=True, persisted=True)
    assert goals.saves == saves_before + 1
    goal = await goals.load(GOAL_ID)
    assert goal.saved_by_currency().get("BRL") == brl(500)
    [contribution] = goal.contributions
    assert contribution.paid_by == gabriel
    assert contribution.paid_by.id == "m-gabriel"
    assert (contribution.amount, contribution.date) == (brl(500), date(2026, 6, 15))


async def test_a_repeated_confirmed_market_spend_with_the_same_operation_id_is_a_no_op() -> None:
    repo = await house_budget()
    model = spend_script()
    model.script(call("recordSpend", {**SPEND_ARGS, "confirm": True}), say("Já estava registrado."))
    chat = spend_chat(repo, model)
    await chat.send("registra R$ 200 a mais no mercado essa semana", sender="Ana")
    first = (await chat.send("confirma", sender="Ana")).tool_calls[0].result
    assert await groceries_in_june(repo) == brl(200)
    loads_before, saves_before = repo.loads, repo.saves

    reply = await chat.send("registra os R$ 200 do mercado de novo", sender="Ana")

    [repeat] = reply.tool_calls
    assert repeat.error is None
    assert repeat.result == ToolReceipt("op-1", SPEND_PREVIEW, confirmed=True, persisted=False)
    assert isinstance(first, ToolReceipt)
    assert repeat.result == first.repeated()
    assert repo.loads == loads_before, "repo.load não foi chamado nesse turno"
    assert repo.saves == saves_before
    assert await groceries_in_june(repo) == brl(200)
