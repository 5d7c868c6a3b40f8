"""Tool calls written as text (contract §8): found in every written form, exact, and only for known tools."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from domain.agent.text_calls import read_text_calls

KNOWN = {"recordSpend", "budgetStatus", "contributeToGoal"}
SPEND = '{"name": "recordSpend", "arguments": {"expense": "Mercado", "period": "2026-06", ' \
        '"amount": {"amount": 37.90, "currency": "BRL"}, "operationId": "a1"}}'
STATUS = '{"name": "budgetStatus", "arguments": {"period": "2026-06"}}'


def arguments_of(call: dict) -> dict:
    return json.loads(call["function"]["arguments"], parse_float=Decimal)


FORMS = {
    "alone": SPEND,
    "alone with spaces around": f"\n  {SPEND}  \n",
    "in a json fence": f"```json\n{SPEND}\n```",
    "in a bare fence": f"```\n{SPEND}\n```",
    "in tool_call tags": f"<tool_call>\n{SPEND}\n</tool_call>",
    "as the OpenAI function wrapper": '{"type": "function", "function": ' + SPEND + "}",
    "with parameters instead of arguments": SPEND.replace('"arguments"', '"parameters"'),
    "with arguments as a JSON string": (
        '{"name": "recordSpend", "arguments": "{\\"expense\\": \\"Mercado\\", \\"period\\": '
        '\\"2026-06\\", \\"amount\\": {\\"amount\\": 37.90, \\"currency\\": \\"BRL\\"}, '
        '\\"operationId\\": \\"a1\\"}"}'),
}


@pytest.mark.parametrize("text", FORMS.values(), ids=FORMS.keys())
def test_a_tool_call_written_as_text_is_read_in_each_form_with_exact_amounts(text: str) -> None:
    found = read_text_calls(text, KNOWN)

    [spend] = found.calls
    assert spend["type"] == "function" and spend["function"]["name"] == "recordSpend"
    args = arguments_of(spend)
    assert args["amount"]["amount"] == Decimal("37.90")
    assert "37.90" in spend["function"]["arguments"], "the literal digits, never a float's 37.9"
    assert found.rest == ""


def test_several_calls_in_one_text_are_read_in_order_with_distinct_ids() -> None:
    for text in (f"{STATUS}\n{SPEND}",
                 f"<tool_call>{STATUS}</tool_call>\n<tool_call>{SPEND}</tool_call>",
                 f"```json\n[{STATUS}, {SPEND}]\n```",
                 f'{{"tool_calls": [{STATUS}, {SPEND}]}}'):
        found = read_text_calls(text, KNOWN, id_prefix="t")
        assert [c["function"]["name"] for c in found.calls] == ["budgetStatus", "recordSpend"], text
        assert [c["id"] for c in found.calls] == ["t_1", "t_2"]


def test_the_models_own_words_around_the_calls_are_kept_as_its_text() -> None:
    found = read_text_calls(f"Vou registrar o gasto:\n```json\n{SPEND}\n```\nConfere?", KNOWN)

    assert len(found.calls) == 1
    assert found.rest.startswith("Vou registrar o gasto:") and found.rest.endswith("Confere?")
    assert "{" not in found.rest and "```" not in found.rest


LOOKALIKES = {
    "plain prose": "Vocês gastaram R$ 37,90 no mercado em junho.",
    "JSON of something else": '{"expense": "Mercado", "amount": 37.90}',
    "an unknown tool": '{"name": "deleteEverything", "arguments": {}}',
    "a name that is not text": '{"name": 7, "arguments": {}}',
    "arguments that are not an object": '{"name": "recordSpend", "arguments": [1, 2]}',
    "broken JSON": '{"name": "recordSpend", "arguments": {"expense": "Mercado",',
    "a list with one unknown tool": f'[{STATUS}, {{"name": "rm", "arguments": {{}}}}]',
    "braces in prose": "Use {nome} e [valor] no comando.",
}


@pytest.mark.parametrize("text", LOOKALIKES.values(), ids=LOOKALIKES.keys())
def test_text_that_only_looks_like_json_stays_the_reply(text: str) -> None:
    found = read_text_calls(text, KNOWN)

    assert found.calls == []
    assert found.rest == text


def test_no_text_reads_as_no_calls() -> None:
    assert read_text_calls(None, KNOWN).calls == []
    assert read_text_calls("", KNOWN).rest == ""
