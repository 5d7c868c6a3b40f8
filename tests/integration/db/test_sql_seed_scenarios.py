"""Seeds 013 and 017 again, over the SQL repositories, the durable operation log and the SQL
conversation store: the agent proposes, a member confirms in a later message, a repeat writes
nothing. Counting loads and saves is the rule itself here (idempotency), so the repositories
are wrapped in counters.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from domain.agent.chat import AgentChat
from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.money import Money, Period
from domain.operations.receipts import ToolReceipt
from domain.tools.budget import RecordSpendTool
from domain.tools.goals import ContributeToGoalTool, CreateGoalTool
from infra.db import (
    Database,
    SqlBudgetRepository,
    SqlConversationStore,
    SqlGoalRepository,
    SqlOperationLog,
)
from tests.fakes.scripted_model import ScriptedModel, call, say

BUDGET_ID = "budget-casa"
GOAL_ID = "goal-amsterdam"
JUNE = Period(2026, 6)
SPEND_ARGS: dict[str, Any] = {"expense": "Mercado", "period": "2026-06",
                              "amount": {"amount": 200, "currency": "BRL"}, "operationId": "op-1"}
SPEND_PREVIEW = {"expense": "Mercado", "period": "2026-06",
                 "delta": {"amount": Decimal(200), "currency": "BRL"},
                 "newActual": {"amount": Decimal(200), "currency": "BRL"}}
CONTRIBUTION_ARGS: dict[str, Any] = {"goal": "Amsterdam", "paidBy": "Gabriel",
                                     "amount": {"amount": 500, "currency": "BRL"},
                                     "date": "2026-06-15", "operationId": "op-2"}
HONEYMOON_ARGS: dict[str, Any] = {"name": "Lua de mel", "target": {"amount": 6000, "currency": "EUR"},
                                  "deadline": "2028-06-01", "contributors": ["Ana", "Bruno"],
                                  "operationId": "op-1"}
HONEYMOON_PREVIEW = {"name": "Lua de mel", "target": "EUR 6000", "deadline": "2028-06-01",
                     "contributors": ["Ana", "Bruno"], "requiredMonthly": "EUR 250.00"}


class Counting:
    """A repository that counts what the tools ask of it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.loads = 0
        self.saves = 0

    async def load(self, aggregate_id: str, **options: Any) -> Any:
        """`options`: the port's partial loads (a budget's `periods`, a goal's `history`)."""
        self.loads += 1
        return await self.inner.load(aggregate_id, **options)

    async def save(self, aggregate: Any) -> None:
        self.saves += 1
        await self.inner.save(aggregate)

    async def list(self, household_id: str | None = None, **options: Any) -> list[Any]:
        return list(await self.inner.list(household_id, **options))


def brl(amount: int | str) -> Money:
    return Money.of(amount, "BRL")


def june_first_2026() -> datetime:
    return datetime(2026, 6, 1, 15, 0, tzinfo=UTC)


def chat_over(database: Database, model: ScriptedModel, tools: list[Any], log: SqlOperationLog) -> AgentChat:
    return AgentChat.create(model, tools, operations=log, conversations=SqlConversationStore(database),
                            conversation_id=log.scope)


async def market_budget(database: Database) -> Counting:
    repo = Counting(SqlBudgetRepository(database))
    budget = Budget.create("BRL", id=BUDGET_ID)
    budget.register("Mercado", brl(1500), aliases=["mercado"])
    await repo.save(budget)
    return repo


async def groceries_in_june(database: Database) -> Money:
    budget = await SqlBudgetRepository(database).load(BUDGET_ID)
    return budget.find_by_name("Mercado").actual_for(JUNE)


def spend_chat(database: Database, repo: Counting, model: ScriptedModel) -> AgentChat:
    log = SqlOperationLog(database, "chat-013")
    tool = RecordSpendTool.create(budget_repo=repo, budget_id=BUDGET_ID, operations=log)
    return chat_over(database, model, [tool], log)


def spend_script() -> ScriptedModel:
    return ScriptedModel(
        call("recordSpend", SPEND_ARGS),
        call("recordSpend", {**SPEND_ARGS, "confirm": True}), say("Pronto, registrado."))


async def test_seed_013_recording_a_spend_is_first_only_a_preview(database: Database) -> None:
    repo = await market_budget(database)
    chat = spend_chat(database, repo, spend_script())
    saves_before = repo.saves

    reply = await chat.send("registra R$ 200 a mais no mercado essa semana", sender="Ana")

    [spend] = reply.tool_calls
    assert spend.error is None
    assert spend.result == ToolReceipt("op-1", SPEND_PREVIEW, confirmed=False, persisted=False)
    assert repo.saves == saves_before
    assert await groceries_in_june(database) == brl(0)


async def test_seed_013_confirming_in_the_next_message_writes_the_spend_once(database: Database) -> None:
    repo = await market_budget(database)
    chat = spend_chat(database, repo, spend_script())
    await chat.send("registra R$ 200 a mais no mercado essa semana", sender="Ana")
    saves_before = repo.saves

    reply = await chat.send("confirma", sender="Ana")

    [spend] = reply.tool_calls
    assert spend.result == ToolReceipt("op-1", SPEND_PREVIEW, confirmed=True, persisted=True)
    assert repo.saves == saves_before + 1
    assert await groceries_in_june(database) == brl(200)
    stored = await SqlOperationLog(database, "chat-013").get("op-1")
    assert stored is not None and stored.decided_by == "Ana"


async def test_seed_013_a_repeated_confirmation_loads_nothing_and_writes_nothing(database: Database) -> None:
    repo = await market_budget(database)
    model = spend_script()
    model.script(call("recordSpend", {**SPEND_ARGS, "confirm": True}), say("Já estava registrado."))
    chat = spend_chat(database, repo, model)
    await chat.send("registra R$ 200 a mais no mercado essa semana", sender="Ana")
    await chat.send("confirma", sender="Ana")
    loads_before, saves_before = repo.loads, repo.saves

    reply = await chat.send("registra os R$ 200 do mercado de novo", sender="Ana")

    [repeat] = reply.tool_calls
    assert repeat.result == ToolReceipt("op-1", SPEND_PREVIEW, confirmed=True, persisted=False)
    assert (repo.loads, repo.saves) == (loads_before, saves_before)
    assert await groceries_in_june(database) == brl(200)


async def test_seed_013_a_contribution_to_amsterdam_is_previewed_then_saved_paid_by_gabriel(
        database: Database) -> None:
    household = Household.create("Casa", "BRL", id="h1")
    gabriel = household.add_member("Gabriel", id="m-gabriel")
    wife = household.add_member("Marina", id="m-marina")
    goals = Counting(SqlGoalRepository(database))
    await goals.save(Goal.create("Amsterdam Setembro/2026", Money.of(6000, "EUR"), members=[gabriel, wife],
                                 created_at=date(2026, 6, 1), deadline=date(2026, 9, 1), id=GOAL_ID))
    log = SqlOperationLog(database, "chat-013")
    model = ScriptedModel(
        call("contributeToGoal", CONTRIBUTION_ARGS),
        call("contributeToGoal", {**CONTRIBUTION_ARGS, "confirm": True}), say("Aporte registrado."))
    chat = chat_over(database, model,
                     [ContributeToGoalTool.create(goal_repo=goals, goal_id=GOAL_ID, operations=log)], log)
    saves_before = goals.saves

    preview = (await chat.send("adiciona R$ 500 esse mês pra Amsterdam, eu paguei", sender="Gabriel"))
    assert goals.saves == saves_before
    assert (await goals.inner.load(GOAL_ID)).contributions == []
    confirmed = await chat.send("pode mandar", sender="Gabriel")

    assert preview.tool_calls[0].result.persisted is False
    assert confirmed.tool_calls[0].result.persisted is True
    assert goals.saves == saves_before + 1
    goal = await goals.inner.load(GOAL_ID)
    assert goal.saved_by_currency().get("BRL") == brl(500)
    [contribution] = goal.contributions
    assert (contribution.paid_by.id, contribution.paid_by.name) == ("m-gabriel", "Gabriel")
    assert (contribution.amount, contribution.date) == (brl(500), date(2026, 6, 15))


def ana_and_bruno() -> Household:
    household = Household.create("Ana e Bruno", "BRL", id="h1")
    household.add_member("Ana", id="m-ana")
    household.add_member("Bruno", id="m-bruno")
    return household


def goal_chat(database: Database, goals: Counting, model: ScriptedModel) -> AgentChat:
    log = SqlOperationLog(database, "chat-017")
    tool = CreateGoalTool.create(goal_repo=goals, household=ana_and_bruno(), now=june_first_2026,
                                 operations=log)
    return chat_over(database, model, [tool], log)


def honeymoon_script() -> ScriptedModel:
    return ScriptedModel(
        call("createGoal", HONEYMOON_ARGS),
        call("createGoal", {**HONEYMOON_ARGS, "confirm": True}), say("Meta criada."))


async def test_seed_017_creating_a_goal_is_first_only_a_preview(database: Database) -> None:
    goals = Counting(SqlGoalRepository(database))
    chat = goal_chat(database, goals, honeymoon_script())

    reply = await chat.send("quero criar uma meta de €6000 pra junho 2028, Lua de mel, eu e Bruno",
                            sender="Ana")

    [proposal] = reply.tool_calls
    assert proposal.result == ToolReceipt("op-1", HONEYMOON_PREVIEW, confirmed=False, persisted=False)
    assert goals.saves == 0
    assert await goals.list() == []


async def test_seed_017_confirming_saves_the_goal_once_with_the_household_members(database: Database) -> None:
    goals = Counting(SqlGoalRepository(database))
    model = honeymoon_script()
    model.script(call("createGoal", {**HONEYMOON_ARGS, "confirm": True}), say("Já criada."))
    chat = goal_chat(database, goals, model)
    await chat.send("quero criar uma meta de €6000 pra junho 2028, Lua de mel, eu e Bruno", sender="Ana")

    confirmed = await chat.send("sim, pode criar", sender="Ana")
    repeated = await chat.send("cria a meta de novo", sender="Bruno")

    assert confirmed.tool_calls[0].result == ToolReceipt("op-1", HONEYMOON_PREVIEW, confirmed=True,
                                                         persisted=True)
    assert repeated.tool_calls[0].result == ToolReceipt("op-1", HONEYMOON_PREVIEW, confirmed=True,
                                                        persisted=False)
    assert goals.saves == 1
    [goal] = await goals.list("h1")
    assert (goal.name, goal.target, goal.deadline) == ("Lua de mel", Money.of(6000, "EUR"), date(2028, 6, 1))
    assert [(m.id, m.name) for m in goal.members] == [("m-ana", "Ana"), ("m-bruno", "Bruno")]
    assert goal.required_monthly(date(2026, 6, 1)) == Money.of("250.00", "EUR")


async def test_seed_017_an_unknown_contributor_is_refused_before_anything_is_stored(database: Database) -> None:
    goals = Counting(SqlGoalRepository(database))
    args = {"name": "Casa nova", "target": {"amount": 100000, "currency": "BRL"},
            "deadline": "2030-01-01", "contributors": ["Xyz"], "operationId": "op-err"}
    chat = goal_chat(database, goals, ScriptedModel(call("createGoal", args), say("Quem é Xyz?")))

    reply = await chat.send("cria uma meta com o Xyz", sender="Ana")

    [failed] = reply.tool_calls
    assert failed.result is None and failed.error is not None and "Xyz" in failed.error
    assert goals.saves == 0
    assert await goals.list() == []
    assert await SqlOperationLog(database, "chat-017").get("op-err") is None


async def test_seed_017_a_goal_without_deadline_has_no_required_monthly_in_its_preview(
        database: Database) -> None:
    goals = Counting(SqlGoalRepository(database))
    args = {"name": "Reserva", "target": {"amount": 200000, "currency": "BRL"},
            "contributors": ["Ana", "Bruno"], "operationId": "op-3"}
    chat = goal_chat(database, goals, ScriptedModel(call("createGoal", args), say("Confirma?")))

    reply = await chat.send("uma reserva de 200 mil, sem prazo", sender="Ana")

    preview = reply.tool_calls[0].result
    assert isinstance(preview, ToolReceipt) and not preview.persisted
    assert preview.preview == {"name": "Reserva", "target": "BRL 200000", "contributors": ["Ana", "Bruno"]}
    stored = await SqlOperationLog(database, "chat-017").get("op-3")
    assert stored is not None and stored.preview == preview.preview
    assert goals.saves == 0
