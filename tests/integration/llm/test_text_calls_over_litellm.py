"""Contract §8 through litellm and the fake OpenAI-compatible server: tool calls written as text in
every form, several in one text, text that only looks like JSON, and one request per proposal."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

import pytest

from domain.money import Money
from tests.fakes.llm_server import FakeLLMServer, text, tool_calls
from tests.integration.llm.test_agent_over_litellm import House, build_house

SPEND = ('{"name": "recordSpend", "arguments": {"expense": "mercado", "period": "2026-06", '
         '"amount": {"amount": 37.90, "currency": "BRL"}, "operationId": "a1"}}')
RENT = ('{"name": "adjustExpense", "arguments": {"expense": "Aluguel", '
        '"newExpected": {"amount": "2.600,00", "currency": "R$"}, "operationId": "a2"}}')

FORMS = {
    "alone": SPEND,
    "in a json fence": f"Certo!\n```json\n{SPEND}\n```",
    "in tool_call tags": f"<tool_call>\n{SPEND}\n</tool_call>",
}


@pytest.fixture
def llm() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as server:
        yield server


@pytest.fixture
async def house(llm: FakeLLMServer) -> House:
    return await build_house(llm)


@pytest.mark.parametrize("answer", FORMS.values(), ids=FORMS.keys())
async def test_a_tool_call_written_as_text_in_each_form_is_a_preview_after_one_request(
    house: House, answer: str,
) -> None:
    house.llm.script([text(answer)])

    reply = await house.chat().send("gastei 37,90 no mercado", sender="Ana")

    [spend] = reply.receipts
    assert not spend.confirmed and spend.preview["delta"] == {"amount": Decimal("37.90"), "currency": "BRL"}
    assert len(house.llm.requests) == 1, "the preview ended the turn: one model request"
    assert "{" not in reply.text
    assert house.saves == 0


async def test_several_calls_in_one_text_all_become_previews(house: House) -> None:
    house.llm.script([text(f"<tool_call>{SPEND}</tool_call>\n<tool_call>{RENT}</tool_call>")])

    reply = await house.chat().send("37,90 no mercado e o aluguel subiu pra 2.600", sender="Ana")

    assert [r.preview.get("delta", r.preview.get("newExpected")) for r in reply.receipts] == [
        {"amount": Decimal("37.90"), "currency": "BRL"}, {"amount": Decimal("2600.00"), "currency": "BRL"}]
    assert len(house.llm.requests) == 1


async def test_text_that_only_looks_like_json_is_the_reply_and_runs_nothing(house: House) -> None:
    looks = 'Pode mandar assim: {"despesa": "mercado", "valor": 37.90}'
    house.llm.script([text(looks)])

    reply = await house.chat().send("como eu registro?", sender="Ana")

    assert reply.text == looks and reply.tool_calls == []


async def test_the_confirmation_in_a_later_message_written_as_text_writes_once(house: House) -> None:
    confirming = SPEND.replace('"operationId": "a1"', '"operationId": "a1", "confirm": true')
    house.llm.script([text(f"```json\n{SPEND}\n```"), text(f"```json\n{confirming}\n```"), text("Registrado!")])
    chat = house.chat()
    await chat.send("gastei 37,90 no mercado", sender="Ana")

    done = await chat.send("confirma", sender="Bruno")

    assert done.text == "Registrado!" and done.receipts[0].persisted
    assert await house.groceries_in_june() == Money.of("37.90", "BRL")
    # The text call went back into the history as a real call with its result.
    history = house.llm.requests[1]["messages"]
    assert any(m.get("tool_calls") for m in history if m["role"] == "assistant")


async def test_a_native_proposal_makes_one_request_and_a_read_makes_two(house: House) -> None:
    house.llm.script([tool_calls(("recordSpend", {"expense": "mercado", "amount": "37,90", "operationId": "n1"}))])
    chat = house.chat()
    await chat.send("gastei 37,90 no mercado", sender="Ana")
    assert len(house.llm.requests) == 1

    house.llm.script([tool_calls(("budgetStatus", {"period": "junho"})), text("Gastaram R$ 0,00.")])
    answer = await chat.send("quanto gastamos em junho?", sender="Bruno")

    assert answer.text == "Gastaram R$ 0,00." and len(house.llm.requests) == 3


async def test_an_empty_answer_after_a_read_ends_the_turn_without_a_provider_failure(house: House) -> None:
    house.llm.script([tool_calls(("budgetStatus", {"period": "2026-06"})), text("")])

    reply = await house.chat().send("quanto gastamos?", sender="Ana")

    assert reply.failure is None and reply.text == ""
