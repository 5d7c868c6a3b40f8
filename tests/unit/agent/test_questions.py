"""The commonest questions, read with no model (domain.agent.questions): the read each means, and
the questions left to the model because their subject is not certain."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

import pytest

from domain.agent.chat import READER, AgentChat, ToolCall, compact_json
from domain.agent.conversation import InMemoryConversationStore
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
from tests.fakes.scripted_model import ScriptedModel, say

TODAY = date(2026, 7, 1)


def reader(*, cards: int = 2) -> SpendReader:
    return SpendReader.of(*household(cards=cards), TODAY)


def household(*, cards: int = 2) -> tuple[Household, Budget, list[Goal]]:
    house = Household.create("Casa", "BRL", id="h1")
    ana, bruno = house.add_member("Ana", id="m-ana"), house.add_member("Bruno", id="m-bruno")
    budget = Budget.create("BRL", id="b1", household_id="h1")
    for name, aliases in [("Mercado", ["supermercado"]), ("Luz", ["conta de luz"]), ("Uber", ["99"])]:
        budget.register(name, Money.of(500, "BRL"), aliases=aliases)
    for name, aliases in [("Nubank", ["roxinho"]), ("Itaú Visa", ["itaú"])][:cards]:
        budget.register_card(name, 3, 10, aliases=aliases)
    goals = [Goal.create("Amsterdam Setembro/2026", Money.of(6000, "EUR"), members=[ana, bruno],
                         created_at=date(2026, 1, 1)),
             Goal.create("Carro novo", Money.of(40000, "BRL"), members=[ana, bruno], created_at=date(2026, 1, 1)),
             Goal.create("Lua de mel", Money.of(15000, "BRL"), members=[ana, bruno], created_at=date(2026, 1, 1),
                         deadline=date(2027, 6, 1))]
    return house, budget, goals


def read(tool: str, /, **arguments: Any) -> list[dict[str, Any]]:
    return [{"name": tool, "arguments": arguments}]


@pytest.mark.parametrize(("text", "calls"), [
    ("quanto gastei no mercado?", read("budgetStatus", period="2026-07")),
    ("quanto foi de luz esse mês", read("budgetStatus", period="2026-07")),
    ("e mês passado, quanto foi de uber?", read("budgetStatus", period="2026-06")),
    ("me passa o resumo de maio", read("budgetStatus", period="2026-05")),
    ("a gente estourou alguma coisa?", read("budgetStatus", period="2026-07")),
    # a month that is also a word of a goal's name is the month
    ("quanto gastamos em setembro?", read("budgetStatus", period="2025-09")),
    ("quanto falta pra Amsterdam?", read("goalStatus", name="Amsterdam Setembro/2026")),
    ("a meta do carro tá em dia?", read("goalStatus", name="Carro novo")),
    ("quanto já temos pra lua de mel?", read("goalStatus", name="Lua de mel")),
    ("quanto eu devo pro Bruno?", read("balance")),
    ("quem tá devendo pra quem?", read("balance")),
    ("qual o saldo de junho?", read("balance", period="2026-06")),
    ("quanto vem a fatura do nubank?", read("cardBill", card="Nubank")),
    ("qual o total do roxinho esse mês?", read("cardBill", card="Nubank")),
    # a month named within two ahead is the fatura that closes then
    ("o que tem na fatura do itaú de agosto?", read("cardBill", card="Itaú Visa", period="2026-08")),
    ("e a fatura de junho do nubank?", read("cardBill", card="Nubank", period="2026-06")),
    ("conseguimos bancar o carro novo?", read("checkFeasibility", goal="Carro novo")),
    ("e aí, dá pra lua de mel?", read("checkFeasibility", goal="Lua de mel")),
    ("vai dar pra ir pro carro novo?", read("checkFeasibility", goal="Carro novo")),
    # a month is its first day, as a new goal's deadline
    ("se a gente quiser 30k até dezembro de 2027, dá?", read(
        "checkFeasibility", target={"amount": "30000", "currency": "BRL"}, deadline="2027-12-01")),
    ("dá pra juntar 20 mil até 01/12/2027?",
     read("checkFeasibility", target={"amount": "20000", "currency": "BRL"}, deadline="2027-12-01")),
    ("dá pra juntar 5.000 euros até 01/06/2027?",
     read("checkFeasibility", target={"amount": "5000", "currency": "EUR"}, deadline="2027-06-01")),
])
def test_a_plain_question_is_the_one_read_it_means(text: str, calls: list[dict[str, Any]]) -> None:
    assert reader().read(text) == calls


def test_a_fatura_asked_without_a_card_is_the_only_cards() -> None:
    assert reader(cards=1).read("quanto tá a fatura?") == read("cardBill", card="Nubank")


@pytest.mark.parametrize("text", [
    "quanto tá a fatura?",                          # two cards: which one?
    "quanto falta pra Amsterdam e pro carro?",      # two goals
    "quanto gastamos com mercado e luz?",           # two expenses
    "quanto gastamos em maio e junho?",             # two months
    "gastei 50 no mercado, quanto sobrou?",         # a spend too
    "quanto eu devo? acerta aí",                    # an acerto too
    "tem 50 no mercado?",                           # an amount a read does not take
    "dá pra juntar 10 mil até 01/01/2026?",         # a day gone by
    "dá pra juntar 10 mil até o fim do ano?",       # no day or month written
    "quanto o carro novo gastou de uber?",          # a goal and an expense
    "o que você acha?",                             # no subject
    "posso cancelar a meta do carro?",              # a change asked
    "quanto foi o mercado? não, a luz",             # a correction
    "conseguimos o carro novo até o fim do ano?",   # a deadline of their own, not the goal's
])
def test_a_question_whose_subject_is_not_certain_is_left_to_the_model(text: str) -> None:
    assert reader().read(text) is None


# -- the chat: a question the reader takes is answered with no model request -----------------------


async def chat_with(model: ScriptedModel, *, answered: bool = True) -> tuple[AgentChat, InMemoryConversationStore]:
    house, budget, goals = household()
    budget.set_income(Money.of(12000, "BRL"))
    ledger = InMemoryLedger()
    budgets, goal_repo = InMemoryBudgetRepository(ledger), InMemoryGoalRepository(ledger)
    await budgets.save(budget)
    for goal in goals:
        await goal_repo.save(goal)
    now = datetime(2026, 7, 1, 15, tzinfo=UTC)
    operations = InMemoryOperationLog()
    tools = household_tools(HouseholdBinding(household=house, budget_id=budget.id, budgets=budgets, goals=goal_repo,
                                             operations=operations, clock=lambda: now, ledger=ledger))

    async def answer(calls: Sequence[ToolCall]) -> str:
        return " | ".join(f"{call.name}: {sorted(call.result)}" for call in calls if isinstance(call.result, dict))

    conversations = InMemoryConversationStore()
    chat = AgentChat.create(model, tools, operations=operations, conversations=conversations,
                            reader=SpendReader.of(house, budget, goals, TODAY).read,
                            answer=answer if answered else None)
    return chat, conversations


async def test_a_question_the_reader_takes_is_its_read_in_words_with_no_model_request() -> None:
    model = ScriptedModel()  # any request would fail the test: the script is empty
    chat, conversations = await chat_with(model)

    reply = await chat.send("quanto falta pra lua de mel?", sender="Ana")

    assert model.requests == [] and reply.failure is None
    [call] = reply.tool_calls
    assert (call.name, call.source, call.error) == ("goalStatus", READER, None)
    assert reply.text.startswith("goalStatus: [") and "saved" in reply.text
    # the conversation keeps the turn as a model's read turn: the call, its result, the answer
    stored = await conversations.recent("default", 10)
    assert [m["role"] for m in stored] == ["user", "assistant", "tool", "assistant"]
    assert stored[0] == {"role": "user", "content": "[Ana] quanto falta pra lua de mel?"}
    [raw] = stored[1]["tool_calls"]
    assert raw["function"]["name"] == "goalStatus" and stored[2]["tool_call_id"] == raw["id"] == call.call_id
    assert json.loads(stored[2]["content"]) == json.loads(compact_json(call.result))
    assert stored[3] == {"role": "assistant", "content": reply.text}


async def test_without_words_for_its_reads_the_question_is_the_models() -> None:
    model = ScriptedModel(say("Faltam R$ 15.000,00."))
    chat, _ = await chat_with(model, answered=False)

    reply = await chat.send("quanto falta pra lua de mel?", sender="Ana")

    assert len(model.requests) == 1 and reply.text == "Faltam R$ 15.000,00."


async def test_a_read_the_tool_refuses_goes_to_the_model_which_can_say_why() -> None:
    model = ScriptedModel(say("O carro novo não tem prazo; quer definir um?"))
    chat, _ = await chat_with(model)

    # "Carro novo" has no deadline: checkFeasibility refuses it, and the model answers instead
    reply = await chat.send("conseguimos bancar o carro novo?", sender="Ana")

    assert len(model.requests) == 1 and reply.text.startswith("O carro novo")
