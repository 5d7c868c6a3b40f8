"""AgentChat with models as they really answer (contract §8): calls written as text, one request per
proposing turn, empty answers after tool results, and operation ids a model cannot break."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from domain.agent.chat import PREVIEWS_SENT, AgentChat
from domain.agent.conversation import InMemoryConversationStore
from domain.agent.model import FailureKind
from domain.budget import Budget
from domain.in_memory import InMemoryBudgetRepository
from domain.money import Money, Period
from domain.operations.log import InMemoryOperationLog, OperationStatus
from domain.tools.base import Tool
from domain.tools.budget import BudgetStatusTool, RecordSpendTool
from tests.fakes.scripted_model import ScriptedModel, call, calls, say

BUDGET_ID = "b1"
JUNE = Period(2026, 6)


def spend(amount: str, operation_id: str = "op-1", **extra: Any) -> dict[str, Any]:
    return {"expense": "Mercado", "period": "2026-06", "amount": {"amount": Decimal(amount), "currency": "BRL"},
            "operationId": operation_id, **extra}


def written(name: str, args: dict[str, Any]) -> str:
    from tests.fakes.scripted_model import exact_json
    return f'{{"name": "{name}", "arguments": {exact_json(args)}}}'


async def world() -> tuple[InMemoryBudgetRepository, list[Tool[Any]], InMemoryOperationLog]:
    repo = InMemoryBudgetRepository()
    budget = Budget.create("BRL", id=BUDGET_ID)
    budget.register("Mercado", Money.of(1500, "BRL"))
    await repo.save(budget)
    log = InMemoryOperationLog()
    return repo, [RecordSpendTool(repo, BUDGET_ID, log), BudgetStatusTool(repo, BUDGET_ID)], log


async def june(repo: InMemoryBudgetRepository) -> Money:
    return (await repo.load(BUDGET_ID)).find_by_name("Mercado").actual_for(JUNE)


async def test_a_call_written_as_text_in_a_fence_runs_as_a_tool_call_and_its_preview_ends_the_turn() -> None:
    repo, tools, _ = await world()
    model = ScriptedModel(say(f"```json\n{written('recordSpend', spend('37.90'))}\n```"))
    chat = AgentChat.create(model, tools)

    reply = await chat.send("gastei 37,90 no mercado", sender="Ana")

    [proposal] = reply.tool_calls
    assert proposal.name == "recordSpend" and proposal.error is None
    assert proposal.args["amount"]["amount"] == Decimal("37.90")
    assert proposal.result.preview["delta"]["amount"] == Decimal("37.90")
    assert reply.text == "" and len(model.requests) == 1
    assert await june(repo) == Money.of(0, "BRL")


async def test_several_calls_written_as_text_all_run_and_the_models_words_are_the_reply() -> None:
    _, tools, _ = await world()
    text = (f"Vou registrar os dois gastos.\n<tool_call>{written('recordSpend', spend('10', 'a'))}</tool_call>\n"
            f"<tool_call>{written('recordSpend', spend('20', 'b'))}</tool_call>")
    model = ScriptedModel(say(text))
    chat = AgentChat.create(model, tools)

    reply = await chat.send("10 e 20 no mercado", sender="Ana")

    assert [c.result.preview["delta"]["amount"] for c in reply.tool_calls] == [10, 20]
    assert reply.text == "Vou registrar os dois gastos."
    assert len(model.requests) == 1


async def test_text_that_only_looks_like_json_is_the_reply() -> None:
    _, tools, _ = await world()
    text = 'Exemplo: {"expense": "Mercado", "amount": 50}'
    chat = AgentChat.create(ScriptedModel(say(text)), tools)

    reply = await chat.send("como registro?", sender="Ana")

    assert reply.text == text and reply.tool_calls == []


async def test_a_read_tool_still_gets_a_second_request_to_become_text() -> None:
    _, tools, _ = await world()
    model = ScriptedModel(say(written("budgetStatus", {"period": "2026-06"})), say("Nada gasto ainda."))
    chat = AgentChat.create(model, tools)

    reply = await chat.send("quanto gastamos?", sender="Ana")

    assert reply.text == "Nada gasto ainda." and len(model.requests) == 2
    tool_message = model.requests[1].messages[-1]
    assert tool_message["role"] == "tool" and json.loads(tool_message["content"])["period"] == "2026-06"


async def test_a_proposal_with_a_read_in_the_same_answer_still_gets_its_text() -> None:
    _, tools, _ = await world()
    model = ScriptedModel(calls(call("recordSpend", spend("5")), call("budgetStatus", {"period": "2026-06"})),
                          say("Confira a prévia."))
    reply = await AgentChat.create(model, tools).send("5 no mercado", sender="Ana")

    assert reply.text == "Confira a prévia." and len(model.requests) == 2


async def test_an_empty_answer_after_tool_results_ends_the_turn_without_a_failure() -> None:
    _, tools, _ = await world()
    model = ScriptedModel(call("budgetStatus", {"period": "2026-06"}),
                          {"role": "assistant", "content": "", "tool_calls": None})
    reply = await AgentChat.create(model, tools).send("quanto gastamos?", sender="Ana")

    assert reply.failure is None and reply.text == ""


async def test_an_empty_first_answer_is_still_an_invalid_response() -> None:
    _, tools, _ = await world()
    model = ScriptedModel({"role": "assistant", "content": "", "tool_calls": None})
    reply = await AgentChat.create(model, tools).send("oi", sender="Ana")

    assert reply.failure is FailureKind.INVALID_RESPONSE


async def test_a_model_that_reuses_a_confirmed_id_for_a_new_spend_gets_a_fresh_preview_not_a_dead_end() -> None:
    repo, tools, log = await world()
    model = ScriptedModel(call("recordSpend", spend("10", "op-7f3a")),
                          call("recordSpend", spend("10", "op-7f3a", confirm=True)), say("Feito."),
                          call("recordSpend", spend("25", "op-7f3a")),
                          call("recordSpend", spend("25", "op-7f3a", confirm=True)), say("Feito de novo."))
    chat = AgentChat.create(model, tools)

    await chat.send("gastei 10 no mercado", sender="Ana")
    await chat.send("confirma", sender="Ana")
    second = await chat.send("gastei 25 no mercado", sender="Bruno")

    [proposal] = second.tool_calls
    assert proposal.error is None and not proposal.result.confirmed
    fresh = proposal.result.operation_id
    assert fresh != "op-7f3a" and fresh.startswith("op-7f3a") and len(fresh) <= 64
    first = await log.get("op-7f3a")
    assert first is not None and first.status is OperationStatus.CONFIRMED

    # The model confirms with the id it knows; the same words land on the same operation.
    done = await chat.send("confirma", sender="Bruno")

    assert done.receipts[0].operation_id == fresh and done.receipts[0].persisted
    assert await june(repo) == Money.of(35, "BRL")


async def test_two_different_spends_under_one_id_in_one_answer_are_two_previews() -> None:
    _, tools, _ = await world()
    model = ScriptedModel(calls(call("recordSpend", spend("10", "x")), call("recordSpend", spend("20", "x"))))
    reply = await AgentChat.create(model, tools).send("10 e 20 no mercado", sender="Ana")

    ids = [c.result.operation_id for c in reply.tool_calls]
    assert len(set(ids)) == 2 and ids[0] == "x"


async def test_the_same_call_repeated_after_confirmation_is_still_a_no_op() -> None:
    repo, tools, _ = await world()
    model = ScriptedModel(call("recordSpend", spend("10")),
                          call("recordSpend", spend("10", confirm=True)), say("Feito."),
                          call("recordSpend", spend("10", confirm=True)), say("Já estava."))
    chat = AgentChat.create(model, tools)
    await chat.send("gastei 10 no mercado", sender="Ana")
    await chat.send("confirma", sender="Ana")

    again = await chat.send("confirma de novo", sender="Ana")

    assert again.receipts[0].confirmed and not again.receipts[0].persisted
    assert await june(repo) == Money.of(10, "BRL")


async def test_a_write_call_without_an_operation_id_gets_one_from_its_arguments_and_can_be_confirmed() -> None:
    repo, tools, _ = await world()
    args = spend("12")
    del args["operationId"]
    model = ScriptedModel(call("recordSpend", args), call("recordSpend", {**args, "confirm": True}), say("Feito."))
    chat = AgentChat.create(model, tools)

    proposed = await chat.send("gastei 12 no mercado", sender="Ana")
    done = await chat.send("confirma", sender="Bruno")

    minted = proposed.receipts[0].operation_id
    assert minted.startswith("op~") and proposed.tool_calls[0].args == args, "args stay as the model sent them"
    assert done.receipts[0].operation_id == minted and done.receipts[0].persisted
    assert await june(repo) == Money.of(12, "BRL")


async def test_a_model_that_repeats_the_previews_placeholder_shows_no_text_and_writes_nothing() -> None:
    _, tools, log = await world()
    conversations = InMemoryConversationStore()
    model = ScriptedModel(call("recordSpend", spend("50")), say(PREVIEWS_SENT), say(PREVIEWS_SENT))
    chat = AgentChat.create(model, tools, conversations=conversations, conversation_id="c1")
    await chat.send("gastei 50 no mercado", sender="Ana")

    reply = await chat.send("não, era 40", sender="Ana")

    assert reply.failure is FailureKind.INVALID_RESPONSE and PREVIEWS_SENT not in reply.text
    assert not reply.tool_calls and len(model.requests) == 3  # a correction is asked once more, no more
    stored = [m.get("content") for m in await conversations.recent("c1", 10)]
    assert stored[-1] == reply.text and stored.count(PREVIEWS_SENT) == 1
    assert len(await log.pending()) == 1  # the first preview only: nothing proposed, nothing written


@pytest.mark.parametrize("echo", ['<tool_response>\n{"operationId":"op-1"}', '{"operationId":"op-1","confirmed":false}'])
async def test_a_model_that_repeats_a_tools_result_shows_no_text(echo: str) -> None:
    _, tools, _ = await world()
    model = ScriptedModel(call("recordSpend", spend("50")), say(echo), say(echo))
    chat = AgentChat.create(model, tools)
    await chat.send("gastei 50 no mercado", sender="Ana")

    reply = await chat.send("não, era 40", sender="Ana")

    assert reply.failure is FailureKind.INVALID_RESPONSE and "operationId" not in reply.text


@pytest.mark.parametrize(("pressed", "state"), [(False, "Waiting for a member's ✅"), (True, "Cancelled by a member")])
async def test_a_correction_the_model_echoed_is_asked_again_with_the_preview_it_corrects_told_in_a_line(
        pressed: bool, state: str) -> None:
    repo, tools, _ = await world()
    model = ScriptedModel(call("recordSpend", spend("50")), say(PREVIEWS_SENT),
                          call("recordSpend", spend("40", operation_id="op-2")))
    chat = AgentChat.create(model, tools, system_prompt="RULES")
    first = await chat.send("gastei 50 no mercado", sender="Ana")
    if pressed:
        await chat.cancel(first.receipts[0].operation_id, by="Ana")

    reply = await chat.send("não, era 40", sender="Ana")

    assert reply.failure is None and [r.preview["newActual"]["amount"] for r in reply.receipts] == [Decimal("40")]
    again = model.requests[2].messages
    assert [m["role"] for m in again] == ["system", "user"]  # no history left to repeat
    line, said = again[1]["content"].split("\n\n")
    assert line.startswith(f'{state}: recordSpend {{"expense":"Mercado","period":"2026-06","amount":{{"amount":50,')
    assert line.endswith("then call recordSpend again with what changes, a new operationId and confirm=false.")
    assert "op-1" not in line and said == "[Ana] não, era 40"
    assert await june(repo) == Money.of(0, "BRL")  # nothing written


async def test_a_correction_of_two_paragraphs_is_asked_again_with_the_line_before_all_of_it() -> None:
    _, tools, _ = await world()
    model = ScriptedModel(call("recordSpend", spend("50")), say(PREVIEWS_SENT),
                          call("recordSpend", spend("40", operation_id="op-2")))
    chat = AgentChat.create(model, tools, memory=lambda text: "MEMORY")
    await chat.send("gastei 50 no mercado", sender="Ana")

    await chat.send("não, era 40\n\nesqueci o desconto", sender="Ana")

    memory, line, said = model.requests[2].messages[-1]["content"].split("\n\n", 2)
    assert memory == "MEMORY" and line.startswith("Waiting for a member's ✅: recordSpend")
    assert said == "[Ana] não, era 40\n\nesqueci o desconto"


@pytest.mark.parametrize("text", ["o mercado é 40 kkk, não 50", "amor o mercado deu 40, 50 é o da luz"])
async def test_a_correction_that_does_not_open_as_one_is_asked_again_when_the_model_echoes(text: str) -> None:
    _, tools, _ = await world()
    model = ScriptedModel(call("recordSpend", spend("50")), say(PREVIEWS_SENT),
                          call("recordSpend", spend("40", operation_id="op-2")))
    chat = AgentChat.create(model, tools)
    await chat.send("gastei 50 no mercado", sender="Ana")

    reply = await chat.send(text, sender="Ana")

    assert reply.failure is None and [r.preview["newActual"]["amount"] for r in reply.receipts] == [Decimal("40")]


async def test_a_question_is_not_asked_again_when_the_model_echoes() -> None:
    _, tools, _ = await world()
    model = ScriptedModel(call("recordSpend", spend("50")), say(PREVIEWS_SENT))
    chat = AgentChat.create(model, tools)
    await chat.send("gastei 50 no mercado", sender="Ana")

    reply = await chat.send("e a luz, quanto veio?", sender="Ana")

    assert reply.failure is FailureKind.INVALID_RESPONSE and len(model.requests) == 2


async def test_a_short_reply_said_again_is_no_echo() -> None:
    _, tools, _ = await world()
    model = ScriptedModel(say("De nada!"), say("De nada!"))
    chat = AgentChat.create(model, tools)
    await chat.send("valeu", sender="Ana")

    reply = await chat.send("obrigada de novo", sender="Ana")

    assert reply.text == "De nada!" and reply.failure is None and len(model.requests) == 2


async def test_a_model_that_repeats_a_reads_result_after_it_gets_the_read_answered_as_the_reader_answers() -> None:
    _, tools, _ = await world()
    model = ScriptedModel(call("budgetStatus", {"period": "2026-06"}),
                          say('<tool_response>\n{"period":"2026-06","expenses":[]}\n</tool_response>'))
    answered: list[str] = []

    async def answer(calls: Any) -> str:
        answered.extend(c.name for c in calls)
        return "Junho: R$ 0,00 de R$ 1.500,00."

    reply = await AgentChat.create(model, tools, answer=answer).send("me mostra o mês", sender="Ana")

    assert reply.text == "Junho: R$ 0,00 de R$ 1.500,00." and reply.failure is None
    assert answered == ["budgetStatus"] and len(model.requests) == 2


async def test_a_question_the_model_answers_with_reads_is_worded_by_the_bot_with_no_second_request() -> None:
    _, tools, _ = await world()
    model = ScriptedModel(call("budgetStatus", {"period": "2026-06"}), say("never asked"))
    answered: list[str] = []

    async def answer(calls: Any) -> str:
        answered.extend(c.name for c in calls)
        return "Junho: R$ 0,00 de R$ 1.500,00."

    chat = AgentChat.create(model, tools, answer=answer)
    reply = await chat.send("e o mercado, como tá?", sender="Ana")

    assert reply.text == "Junho: R$ 0,00 de R$ 1.500,00." and reply.failure is None
    assert answered == ["budgetStatus"] and len(model.requests) == 1
    history = await chat.conversations.recent(chat.conversation_id, 10)
    assert history[-1] == {"role": "assistant", "content": "Junho: R$ 0,00 de R$ 1.500,00."}


@pytest.mark.parametrize("text", ["vê quanto sobrou no mercado e lança o resto na meta", "quanto sobrou? e gastei 200"])
async def test_a_message_that_does_more_than_ask_gets_the_models_second_request_after_its_reads(text: str) -> None:
    _, tools, _ = await world()
    model = ScriptedModel(call("budgetStatus", {"period": "2026-06"}), say("Sobrou R$ 1.500,00."))

    async def answer(calls: Any) -> str:
        return "Junho: R$ 0,00 de R$ 1.500,00."

    reply = await AgentChat.create(model, tools, answer=answer).send(text, sender="Ana")

    assert reply.text == "Sobrou R$ 1.500,00." and len(model.requests) == 2


async def test_a_question_whose_read_was_refused_goes_back_to_the_model_to_recover() -> None:
    _, tools, _ = await world()
    model = ScriptedModel(call("budgetStatus", {"month": "2026-06"}), say("De qual mês?"))

    async def answer(calls: Any) -> str:
        raise AssertionError("a refused read has nothing to word")

    reply = await AgentChat.create(model, tools, answer=answer).send("quanto gastamos?", sender="Ana")

    assert reply.text == "De qual mês?" and len(model.requests) == 2
    assert reply.tool_calls[0].error is not None


async def test_a_new_expense_asked_with_a_spends_arguments_is_refused_with_the_way_to_record_the_spend() -> None:
    from domain.tools.budget import RegisterExpenseTool
    repo, tools, log = await world()
    args = {"operationId": "op-1", "name": "Pet", "expected": {"amount": Decimal("390"), "currency": "BRL"},
            "card": "Nubank", "installments": 3}
    model = ScriptedModel(call("registerExpense", args), say("Não consegui."))
    chat = AgentChat.create(model, [*tools, RegisterExpenseTool(repo, BUDGET_ID, log)])

    reply = await chat.send("comprei a ração em 3x no nubank, 390", sender="Ana")

    [refused] = reply.tool_calls
    assert refused.error is not None and "é recordSpend" in refused.error
    assert "é recordSpend" in str(model.requests[1].messages[-1]["content"])
