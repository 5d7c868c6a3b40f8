"""AgentChat: the model/tool loop, its errors, its memory of the conversation, and what the model sees."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from domain.agent.chat import PREVIEWS_SENT, AgentChat
from domain.agent.model import FailureKind
from domain.agent.prompt import system_prompt
from domain.agent.working_memory import working_memory
from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.in_memory import InMemoryBudgetRepository, InMemoryGoalRepository
from domain.money import Money, Period
from domain.operations.log import InMemoryOperationLog
from domain.operations.receipts import ToolReceipt
from domain.tools.base import HouseholdBinding, Tool
from domain.tools.budget import BudgetStatusTool, RecordSpendTool
from domain.tools.registry import household_tools
from tests.fakes.scripted_model import (
    FailingModel,
    ScriptedModel,
    ScriptExhausted,
    call,
    calls,
    fail,
    raw_call,
    say,
)

BUDGET_ID = "b1"
JUNE = Period(2026, 6)
SPEND = {"expense": "Mercado", "period": "2026-06", "amount": {"amount": 200, "currency": "BRL"},
         "operationId": "op-1"}


def brl(amount: int | str) -> Money:
    return Money.of(amount, "BRL")


async def groceries_budget() -> InMemoryBudgetRepository:
    repo = InMemoryBudgetRepository()
    budget = Budget.create("BRL", id=BUDGET_ID)
    budget.register("Mercado", brl(1500), aliases=["supermercado"])
    await repo.save(budget)
    return repo


def budget_tools(repo: InMemoryBudgetRepository) -> list[Tool[Any]]:
    return [RecordSpendTool.create(budget_repo=repo, budget_id=BUDGET_ID),
            BudgetStatusTool.create(budget_repo=repo, budget_id=BUDGET_ID)]


async def groceries_in_june(repo: InMemoryBudgetRepository) -> Money:
    return (await repo.load(BUDGET_ID)).find_by_name("Mercado").actual_for(JUNE)


# --- tool errors go back to the model ----------------------------------------------------------

TOOL_ERRORS = {
    "domain error": (call("recordSpend", {**SPEND, "expense": "Academia"}, "c1"), "Academia"),
    "validation error": (call("recordSpend", {**SPEND, "amount": {"amount": "duzentos", "currency": "BRL"}}, "c1"),
                         "amount"),
    "missing argument": (call("recordSpend", {"expense": "Mercado", "operationId": "op-1"}, "c1"), "period"),
    "unknown argument": (call("recordSpend", {**SPEND, "receipt": "nota"}, "c1"), "receipt"),
    "unknown tool": (call("deleteEverything", {"confirm": True}, "c1"), "deleteEverything"),
    "malformed JSON": (raw_call("recordSpend", '{"expense": "Mercado", "amount": ', "c1"), "JSON"),
}


@pytest.mark.parametrize(("turn", "named"), TOOL_ERRORS.values(), ids=TOOL_ERRORS.keys())
async def test_a_tool_error_goes_back_to_the_model_as_the_tool_result_and_never_escapes_send(
    turn: dict[str, Any], named: str,
) -> None:
    repo = await groceries_budget()
    model = ScriptedModel(turn, say("Não consegui; pode repetir?"))
    chat = AgentChat.create(model, budget_tools(repo))
    saves_before = repo.saves

    reply = await chat.send("gastei 200 na academia", sender="Ana")  # an expense the household lacks

    assert reply.text == "Não consegui; pode repetir?"
    [failed] = reply.tool_calls
    assert failed.result is None
    assert failed.error is not None and named in failed.error
    tool_message = model.requests[1].messages[-1]
    assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == "c1"
    assert json.loads(tool_message["content"]) == {"error": failed.error}
    assert repo.saves == saves_before


async def test_a_currency_sent_beside_the_amount_is_read_as_the_amounts_own() -> None:
    repo = await groceries_budget()
    beside = {**SPEND, "amount": 200, "currency": "BRL"}
    model = ScriptedModel(call("recordSpend", beside, "c1"))
    chat = AgentChat.create(model, budget_tools(repo))

    reply = await chat.send("gastei 200 no mercado", sender="Ana")

    [proposed] = reply.tool_calls
    assert proposed.error is None
    assert proposed.received["amount"] == {"amount": 200, "currency": "BRL"}
    assert "currency" not in proposed.received
    assert reply.receipts[0].preview["delta"] == {"amount": Decimal("200"), "currency": "BRL"}


async def test_a_currency_beside_an_amount_with_another_currency_is_refused_by_name() -> None:
    repo = await groceries_budget()
    model = ScriptedModel(call("recordSpend", {**SPEND, "currency": "EUR"}, "c1"), say("Qual moeda?"))
    chat = AgentChat.create(model, budget_tools(repo))

    reply = await chat.send("gastei 200 no mercado", sender="Ana")

    [refused] = reply.tool_calls
    assert refused.error is not None and "currency" in refused.error
    assert repo.saves == 1


async def test_a_currency_nobody_wrote_sent_beside_the_amount_is_the_households() -> None:
    repo = await groceries_budget()
    household = Household.create("Casa", "BRL", id="h1")
    household.add_member("Ana")
    model = ScriptedModel(call("recordSpend", {**SPEND, "amount": 200, "currency": "EUR"}, "c1"))
    chat = AgentChat.create(model, every_tool(repo, InMemoryGoalRepository(), household))

    reply = await chat.send("gastei 200 no mercado", sender="Ana")

    [proposed] = reply.tool_calls
    assert proposed.error is None
    assert reply.receipts[0].preview["delta"] == {"amount": Decimal("200"), "currency": "BRL"}


async def test_reply_tool_calls_lists_every_call_in_order_unknown_tools_included() -> None:
    repo = await groceries_budget()
    model = ScriptedModel(
        calls(call("budgetStatus", {"period": "2026-06"}), call("fetchWeather", {"city": "Recife"})),
        call("recordSpend", SPEND),
    )
    chat = AgentChat.create(model, budget_tools(repo))

    reply = await chat.send("quanto sobrou? e gastei 200 no mercado", sender="Ana")

    assert [(c.name, c.args) for c in reply.tool_calls] == [
        ("budgetStatus", {"period": "2026-06"}),
        ("fetchWeather", {"city": "Recife"}),
        ("recordSpend", SPEND),
    ]
    assert [c.error is None for c in reply.tool_calls] == [True, False, True]
    assert isinstance(reply.tool_calls[0].result, dict)
    assert isinstance(reply.tool_calls[2].result, ToolReceipt)
    assert [m["tool_call_id"] for m in model.requests[1].messages if m["role"] == "tool"] == [
        "call_1", "call_2"]
    assert len(model.requests) == 2, "the answer that only proposed ended the turn"
    assert reply.receipts == [reply.tool_calls[2].result]


async def test_the_model_reads_a_receipt_as_compact_json_with_exact_amounts() -> None:
    repo = await groceries_budget()
    model = ScriptedModel(call("recordSpend", {**SPEND, "amount": {"amount": Decimal("37.90"), "currency": "BRL"}}),
                          say("Anotado."))
    chat = AgentChat.create(model, budget_tools(repo))

    await chat.send("gastei 37,90 no mercado", sender="Ana")
    await chat.send("valeu", sender="Ana")

    result = json.loads(next(m for m in model.requests[1].messages if m["role"] == "tool")["content"])
    assert result == {
        "operationId": "op-1", "confirmed": False, "persisted": False,
        "preview": {"expense": "Mercado", "period": "2026-06",
                    "delta": {"amount": "37.90", "currency": "BRL"},
                    "newActual": {"amount": "37.90", "currency": "BRL"}},
    }


# --- the conversation ---------------------------------------------------------------------------


async def test_the_conversation_carries_over_between_sends() -> None:
    repo = await groceries_budget()
    model = ScriptedModel(call("recordSpend", SPEND, "c1"), say("Combinado."))
    chat = AgentChat.create(model, budget_tools(repo), system_prompt="Seja breve.")

    await chat.send("gastei 200 no mercado", sender="Ana")
    await chat.send("obrigado", sender="Bruno")

    second = model.requests[-1].messages
    assert [m["role"] for m in second] == ["system", "user", "assistant", "tool", "assistant", "user"]
    assert second[0]["content"] == "Seja breve."
    assert second[1]["content"] == "[Ana] gastei 200 no mercado"
    assert second[2]["tool_calls"][0]["function"]["name"] == "recordSpend"
    assert second[3]["tool_call_id"] == "c1"
    assert second[4]["content"] == PREVIEWS_SENT, "the turn ended on the preview, without a second request"
    assert second[5]["content"] == "[Bruno] obrigado"


async def test_the_history_window_keeps_only_the_last_turns() -> None:
    model = ScriptedModel(say("1"), say("2"), say("3"), say("4"))
    chat = AgentChat.create(model, [], history_turns=2)

    for text in ("um", "dois", "três", "quatro"):
        await chat.send(text)

    assert [m["content"] for m in model.requests[-1].messages] == ["dois", "2", "três", "3", "quatro"]


async def test_a_model_that_never_stops_calling_tools_is_ended_by_the_step_limit() -> None:
    repo = await groceries_budget()
    model = ScriptedModel(*[call("budgetStatus", {"period": "2026-06"})] * 3)
    chat = AgentChat.create(model, budget_tools(repo), max_steps=3)

    reply = await chat.send("como estamos?", sender="Ana")

    assert len(model.requests) == 3
    assert len(reply.tool_calls) == 3
    assert reply.text and "reformular" in reply.text
    assert model.remaining == 0


async def test_a_chat_asking_more_of_the_model_than_scripted_fails_the_test() -> None:
    model = ScriptedModel(call("budgetStatus", {"period": "2026-06"}))
    chat = AgentChat.create(model, budget_tools(await groceries_budget()))

    with pytest.raises(ScriptExhausted):
        await chat.send("como estamos?")


# --- the provider fails --------------------------------------------------------------------------


COMMANDS_NOTE = "Nada foi registrado. Enquanto isso, os comandos funcionam sem o modelo: /gasto."


@pytest.mark.parametrize("kind", list(FailureKind))
async def test_a_model_failure_becomes_a_pt_br_reply_pointing_to_the_commands(kind: FailureKind) -> None:
    repo = await groceries_budget()
    chat = AgentChat.create(FailingModel(kind, "detail"), budget_tools(repo), failure_note=COMMANDS_NOTE)
    saves_before = repo.saves

    reply = await chat.send("gastei 200 no mercado", sender="Ana")

    assert reply.failure is kind
    assert reply.text.endswith(f" {COMMANDS_NOTE}")
    assert reply.tool_calls == []
    assert repo.saves == saves_before
    assert await groceries_in_june(repo) == brl(0)


async def test_without_a_note_a_model_failure_still_says_nothing_was_written() -> None:
    chat = AgentChat.create(FailingModel(FailureKind.TIMEOUT, "detail"), budget_tools(await groceries_budget()))

    reply = await chat.send("gastei 200 no mercado", sender="Ana")

    assert reply.text == "O modelo de linguagem demorou demais para responder. Nada foi registrado."


async def test_a_failure_after_a_preview_writes_nothing_and_the_next_send_goes_on() -> None:
    repo = await groceries_budget()
    model = ScriptedModel(calls(call("recordSpend", SPEND), call("budgetStatus", {"period": "2026-06"})),
                          fail(FailureKind.TIMEOUT),
                          call("recordSpend", {**SPEND, "confirm": True}), say("Registrado."))
    chat = AgentChat.create(model, budget_tools(repo))

    failed = await chat.send("gastei 200 no mercado", sender="Ana")

    assert failed.failure is FailureKind.TIMEOUT and "Nada foi registrado" in failed.text
    [preview] = failed.receipts
    assert (preview.operation_id, preview.confirmed, preview.persisted) == ("op-1", False, False)
    assert await groceries_in_june(repo) == brl(0)

    confirmed = await chat.send("confirma", sender="Ana")

    assert confirmed.receipts[0].persisted
    assert await groceries_in_june(repo) == brl(200)


async def test_an_answer_that_is_neither_text_nor_tool_calls_is_an_invalid_response() -> None:
    model = ScriptedModel({"role": "assistant", "content": None, "tool_calls": None})
    chat = AgentChat.create(model, [])

    reply = await chat.send("oi")

    assert reply.failure is FailureKind.INVALID_RESPONSE
    assert "Nada foi registrado" in reply.text


# --- what the model sees --------------------------------------------------------------------------


def every_tool(repo: InMemoryBudgetRepository, goals: InMemoryGoalRepository,
               household: Household) -> list[Tool[Any]]:
    return household_tools(HouseholdBinding(household=household, budget_id=BUDGET_ID, budgets=repo,
                                            goals=goals, operations=InMemoryOperationLog()))


def parameters(tools: list[dict[str, Any]], name: str) -> dict[str, Any]:
    [schema] = [t for t in tools if t["function"]["name"] == name]
    assert schema["type"] == "function"
    result: dict[str, Any] = schema["function"]["parameters"]
    return result


async def test_the_model_sees_camel_case_tool_schemas_with_numeric_amounts_and_no_refs() -> None:
    repo = await groceries_budget()
    household = Household.create("Casa", "BRL", id="h1")
    model = ScriptedModel(say("Oi!"))
    chat = AgentChat.create(model, every_tool(repo, InMemoryGoalRepository(), household))

    await chat.send("oi")

    tools = model.requests[0].tools
    assert [t["function"]["name"] for t in tools] == [
        "recordSpend", "registerExpense", "adjustExpense", "setIncome", "contributeToGoal", "createGoal",
        "budgetStatus", "goalStatus", "checkFeasibility"]
    assert "$ref" not in json.dumps(tools)
    assert "operation_id" not in json.dumps(tools)
    spend = parameters(tools, "recordSpend")
    assert set(spend["required"]) == {"operationId", "expense", "period", "amount"}
    assert spend["properties"]["amount"]["properties"]["amount"]["type"] == "number"
    assert parameters(tools, "contributeToGoal")["properties"]["paidBy"]["type"] == "string"
    assert parameters(tools, "adjustExpense")["properties"]["newExpected"]["properties"]["amount"] == {
        "type": "number"}
    register = parameters(tools, "registerExpense")["properties"]
    assert {"billingDay", "paymentMethod"} <= set(register)
    assert register["billingDay"]["type"] == "integer"
    for schema in tools:
        assert schema["function"]["description"]
        properties = schema["function"]["parameters"].get("properties", {})
        assert not [key for key in properties if "_" in key]


async def test_the_system_prompt_carries_the_working_memory_of_the_household() -> None:
    household = Household.create("Ana e Bruno", "BRL", id="h1")
    ana, bruno = household.add_member("Ana"), household.add_member("Bruno")
    budget = Budget.create("BRL", id=BUDGET_ID)
    budget.register("Mercado", brl(1500), aliases=["supermercado"])
    budget.register("Água", brl("180.50"))
    budget.find_by_name("Mercado").add_to_actual(JUNE, brl("237.90"))
    budget.set_income(brl(12000))
    goal = Goal.create("Amsterdam Setembro/2026", Money.of(6000, "EUR"), members=[ana, bruno],
                       created_at=date(2026, 6, 1), deadline=date(2026, 9, 1))
    reserve = Goal.create("Reserva", brl(20000), members=[ana], created_at=date(2026, 6, 1))
    memory = working_memory(household, budget, [goal, reserve], date(2026, 6, 15))
    model = ScriptedModel(say("Oi!"))
    chat = AgentChat.create(model, [], system_prompt=lambda: system_prompt(memory))

    await chat.send("oi", sender="Ana")

    system = model.requests[0].messages[0]
    assert system["role"] == "system"
    assert system["content"].endswith(memory)
    assert "Today 2026-06-15 (segunda), month 2026-06." in memory
    assert "amounts without currency are BRL" in memory
    assert "Members: Ana, Bruno" in memory
    assert "Mercado (supermercado) 1500; Água 180.5" in memory
    assert "Income: 12000" in memory
    assert "Amsterdam Setembro/2026: EUR 6000 by 2026-09-01, saved 0, Ana/Bruno" in memory
    assert "Reserva: BRL 20000 no deadline, saved 0, Ana" in memory


def test_working_memory_of_an_empty_household_says_so() -> None:
    household = Household.create("Casa", "BRL")

    memory = working_memory(household, Budget.create("BRL"), [], date(2026, 1, 31))

    assert "Today 2026-01-31 (sábado), month 2026-01." in memory
    assert "Members: none" in memory
    assert "Expenses (name (aliases) expected): none" in memory
    assert "Goals: none" in memory


def test_a_messages_working_memory_holds_in_full_only_the_expenses_and_goals_it_names() -> None:
    household = Household.create("Ana e Bruno", "BRL", id="h1")
    ana, bruno = household.add_member("Ana"), household.add_member("Bruno")
    budget = Budget.create("BRL", id=BUDGET_ID)
    budget.register("Mercado", brl(1500), aliases=["supermercado"])
    budget.register("Academia", brl(200), aliases=["Smart Fit"])
    budget.register("Luz", brl(220), aliases=["conta de luz", "Enel"])
    goals = [Goal.create("Amsterdam Setembro/2026", Money.of(6000, "EUR"), members=[ana, bruno],
                         created_at=date(2026, 6, 1), deadline=date(2026, 9, 1)),
             Goal.create("Carro novo", brl(40000), members=[ana, bruno], created_at=date(2026, 6, 1))]
    today = date(2026, 6, 15)

    spend = working_memory(household, budget, goals, today, "paguei 45 de aula extra na acdemia")
    goal = working_memory(household, budget, goals, today, "aporta 200 na amsterdam")
    alias = working_memory(household, budget, goals, today, "a enel veio 231,40")

    assert "Expenses named (name (aliases)): Academia (Smart Fit)\n" in spend  # a near spelling
    assert "Other expenses: Mercado, Luz" in spend and "supermercado" not in spend
    assert "Goals: Amsterdam Setembro/2026, Carro novo" in spend and "EUR 6000" not in spend
    assert "Goals named: Amsterdam Setembro/2026: EUR 6000 by 2026-09-01, saved 0, Ana/Bruno" in goal
    assert "Other goals: Carro novo" in goal and "Expenses: Mercado, Academia, Luz" in goal
    assert "Luz (conta de luz/Enel)\n" in alias
    assert len(spend) < len(working_memory(household, budget, goals, today))


def test_an_expenses_expected_amount_rides_along_only_when_the_message_changes_it() -> None:
    household = Household.create("Ana e Bruno", "BRL", id="h1")
    household.add_member("Ana")
    budget = Budget.create("BRL", id=BUDGET_ID)
    budget.register("Mercado", brl(1500), aliases=["supermercado"])
    budget.register("Luz", brl(220), aliases=["conta de luz", "Enel"])
    today = date(2026, 6, 15)

    spend = working_memory(household, budget, [], today, "passei no supermercado agora e deu 312,40")
    change = working_memory(household, budget, [], today, "o mercado subiu pra 1800")
    whole = working_memory(household, budget, [], today)

    assert "Expenses named (name (aliases)): Mercado (supermercado)\n" in spend and "1500" not in spend
    assert "Expenses named (name (aliases) expected): Mercado (supermercado) 1500" in change
    assert "Expenses (name (aliases) expected): Mercado (supermercado) 1500; Luz (conta de luz/Enel) 220" in whole


async def test_the_working_memory_rides_on_the_message_after_a_system_prompt_that_never_changes() -> None:
    model = ScriptedModel(say("Oi!"), say("Oi de novo!"))
    chat = AgentChat.create(model, [], system_prompt="RULES", memory=lambda text: f"memory of {text}")

    await chat.send("oi", sender="Ana")
    await chat.send("tudo bem?", sender="Bruno")

    first, second = model.requests
    assert first.messages[0] == second.messages[0] == {"role": "system", "content": "RULES"}
    assert first.messages[-1] == {"role": "user", "content": "memory of oi\n\n[Ana] oi"}
    # The history keeps the members' words alone: the prefix of the next request is unchanged.
    assert second.messages[1] == {"role": "user", "content": "[Ana] oi"}
    assert second.messages[-1] == {"role": "user", "content": "memory of tudo bem?\n\n[Bruno] tudo bem?"}
