"""Seed 017: a goal created in the chat, propose -> confirm, idempotent by operationId.

Every scenario runs through AgentChat with a scripted model; the confirmation comes in a later
`send` (contract rule 8), and a repeat's receipt says persisted=False (the contract wins).
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from domain.agent.chat import AgentChat
from domain.household import Household
from domain.in_memory import InMemoryGoalRepository
from domain.money import Money
from domain.operations.receipts import ToolReceipt
from domain.tools.goals import CreateGoalTool
from tests.fakes.scripted_model import ScriptedModel, call, say

HONEYMOON_ARGS: dict[str, Any] = {
    "name": "Lua de mel",
    "target": {"amount": 6000, "currency": "EUR"},
    "deadline": "2028-06-01",
    "contributors": ["Ana", "Bruno"],
    "operationId": "op-1",
}
HONEYMOON_PREVIEW = {
    "name": "Lua de mel",
    "target": "EUR 6000",
    "deadline": "2028-06-01",
    "contributors": ["Ana", "Bruno"],
    "requiredMonthly": "EUR 250.00",
}


def june_first_2026() -> datetime:
    return datetime(2026, 6, 1, 15, 0, tzinfo=UTC)  # 12:00 in São Paulo


def ana_and_bruno() -> Household:
    household = Household.create("Ana e Bruno", "BRL", id="h1")
    household.add_member("Ana", id="m-ana")
    household.add_member("Bruno", id="m-bruno")
    return household


def goal_chat(goals: InMemoryGoalRepository, household: Household, model: ScriptedModel) -> AgentChat:
    tool = CreateGoalTool.create(goal_repo=goals, household=household, now=june_first_2026)
    return AgentChat.create(model, [tool])


def honeymoon_script() -> ScriptedModel:
    return ScriptedModel(
        call("createGoal", HONEYMOON_ARGS),
        call("createGoal", {**HONEYMOON_ARGS, "confirm": True}),
        say("Meta criada."),
    )


async def test_the_model_extracts_the_honeymoon_goal_and_only_previews_it() -> None:
    goals = InMemoryGoalRepository()
    assert await goals.list() == []
    chat = goal_chat(goals, ana_and_bruno(), honeymoon_script())

    reply = await chat.send("quero criar uma meta de €6000 pra junho 2028, Lua de mel, eu e Bruno", sender="Ana")

    [proposal] = reply.tool_calls
    assert (proposal.name, proposal.args, proposal.error) == ("createGoal", HONEYMOON_ARGS, None)
    assert proposal.result == ToolReceipt("op-1", HONEYMOON_PREVIEW, confirmed=False, persisted=False)
    assert await goals.list() == []
    assert goals.saves == 0


async def test_confirming_in_the_second_message_persists_the_goal_with_the_households_members() -> None:
    goals = InMemoryGoalRepository()
    household = ana_and_bruno()
    ana, bruno = household.members
    chat = goal_chat(goals, household, honeymoon_script())
    await chat.send("quero criar uma meta de €6000 pra junho 2028, Lua de mel, eu e Bruno", sender="Ana")

    reply = await chat.send("sim, pode criar", sender="Bruno")

    [confirming] = reply.tool_calls
    assert confirming.args == {**HONEYMOON_ARGS, "confirm": True}
    assert confirming.result == ToolReceipt("op-1", HONEYMOON_PREVIEW, confirmed=True, persisted=True)
    assert goals.saves == 1
    [listed] = await goals.list()
    goal = await goals.load(listed.id)
    assert goal.name == "Lua de mel"
    assert goal.target == Money.of(6000, "EUR")
    assert goal.deadline == date(2028, 6, 1)
    assert goal.members == [ana, bruno]
    assert [m.id for m in goal.members] == ["m-ana", "m-bruno"]


async def test_a_third_call_with_the_same_operation_id_creates_no_second_goal() -> None:
    goals = InMemoryGoalRepository()
    model = honeymoon_script()
    model.script(call("createGoal", {**HONEYMOON_ARGS, "confirm": True}), say("Essa meta já existe."))
    chat = goal_chat(goals, ana_and_bruno(), model)
    await chat.send("quero criar uma meta de €6000 pra junho 2028, Lua de mel, eu e Bruno", sender="Ana")
    await chat.send("sim, pode criar", sender="Bruno")
    assert goals.saves == 1

    reply = await chat.send("cria a meta de novo", sender="Ana")

    [repeat] = reply.tool_calls
    assert repeat.error is None
    assert repeat.result == ToolReceipt("op-1", HONEYMOON_PREVIEW, confirmed=True, persisted=False)
    assert goals.saves == 1
    assert len(await goals.list()) == 1


async def test_an_unknown_contributor_is_a_descriptive_error_and_nothing_is_saved() -> None:
    goals = InMemoryGoalRepository()
    args = {
        "name": "Casa nova",
        "target": {"amount": 100000, "currency": "BRL"},
        "deadline": "2030-01-01",
        "contributors": ["Xyz"],
        "operationId": "op-err",
    }
    model = ScriptedModel(call("createGoal", args, "call-err"), say("Quem é Xyz? Não achei na casa."))
    chat = goal_chat(goals, ana_and_bruno(), model)

    reply = await chat.send("cria a meta Casa nova de 100 mil até 2030 com o Xyz", sender="Ana")

    [failed] = reply.tool_calls
    assert failed.result is None
    assert failed.error is not None and "Xyz" in failed.error
    tool_result = model.requests[1].messages[-1]
    assert tool_result["role"] == "tool" and tool_result["tool_call_id"] == "call-err"
    assert "Xyz" in tool_result["content"]
    assert goals.saves == 0
    assert await goals.list() == []
    assert await chat.operations.get("op-err") is None


async def test_a_goal_without_deadline_previews_without_deadline_or_required_monthly() -> None:
    goals = InMemoryGoalRepository()
    args = {
        "name": "Reserva",
        "target": {"amount": 200000, "currency": "BRL"},
        "contributors": ["Ana", "Bruno"],
        "operationId": "op-3",
    }
    model = ScriptedModel(call("createGoal", args), say("Meta Reserva de R$ 200.000,00, sem prazo. Confirma?"))
    chat = goal_chat(goals, ana_and_bruno(), model)

    reply = await chat.send("cria uma reserva de 200 mil, sem prazo, eu e Bruno", sender="Ana")

    [proposal] = reply.tool_calls
    assert proposal.result == ToolReceipt(
        "op-3", {"name": "Reserva", "target": "BRL 200000", "contributors": ["Ana", "Bruno"]},
        confirmed=False, persisted=False)
    assert "deadline" not in proposal.result.preview
    assert "requiredMonthly" not in proposal.result.preview
    assert goals.saves == 0
