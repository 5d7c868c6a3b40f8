"""LiteLLMModel against a fake OpenAI-compatible server over loopback HTTP.

These go through litellm and the OpenAI SDK for real (serialisation, status codes, retries,
timeouts); only the provider is fake.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest

from domain.agent.model import FailureKind, ModelFailure
from infra.llm import LiteLLMModel, count_prompt_tokens
from tests.fakes.llm_server import (
    FakeLLMServer,
    delay,
    error,
    raw,
    raw_arguments,
    text,
    tool_calls,
)

KEY = "sk-test-secret"
MESSAGES: list[dict[str, Any]] = [
    {"role": "system", "content": "Você é o assistente financeiro do casal."},
    {"role": "user", "content": "gastei 37,90 no mercado"},
]
RECORD_SPEND = {
    "type": "function",
    "function": {
        "name": "recordSpend",
        "description": "Registra um gasto (pede confirmação antes de gravar).",
        "parameters": {
            "type": "object",
            "properties": {
                "amount": {"type": "number", "description": "Valor em reais, ex. 37.90"},
                "category": {"type": "string", "enum": ["mercado", "transporte", "lazer"]},
                "note": {"type": ["string", "null"]},
            },
            "required": ["amount", "category"],
            "additionalProperties": False,
        },
    },
}
TOOLS = [RECORD_SPEND]


@pytest.fixture
def llm() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as server:
        yield server


def model_for(server: FakeLLMServer, **options: Any) -> LiteLLMModel:
    return LiteLLMModel("openai/fake-model", api_base=server.base_url, api_key=KEY, **options)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def failure_of(model: LiteLLMModel, tools: list[dict[str, Any]] | None = None) -> ModelFailure:
    with pytest.raises(ModelFailure) as caught:
        await model.complete(MESSAGES, tools or [])
    return caught.value


# --------------------------------------------------------------------------- answers


async def test_a_text_reply_comes_back_as_an_assistant_message(llm: FakeLLMServer) -> None:
    llm.script([text("Anotado: R$ 37,90 em mercado.")])

    reply = await model_for(llm).complete(MESSAGES, TOOLS)

    assert reply["role"] == "assistant"
    assert reply["content"] == "Anotado: R$ 37,90 em mercado."
    assert reply["tool_calls"] is None


async def test_tool_call_arguments_keep_their_exact_decimal_text(llm: FakeLLMServer) -> None:
    llm.script([tool_calls(("recordSpend", {"amount": Decimal("37.90"), "category": "mercado"}, "call_1"))])

    reply = await model_for(llm).complete(MESSAGES, TOOLS)

    (call,) = reply["tool_calls"]
    assert call["id"] == "call_1"
    assert call["type"] == "function"
    assert call["function"]["name"] == "recordSpend"
    assert call["function"]["arguments"] == '{"amount": 37.90, "category": "mercado"}'
    assert json.loads(call["function"]["arguments"], parse_float=Decimal)["amount"] == Decimal("37.90")


async def test_several_tool_calls_come_back_in_order(llm: FakeLLMServer) -> None:
    llm.script(
        [
            tool_calls(
                ("recordSpend", {"amount": Decimal("10.00"), "category": "lazer"}, "a"),
                ("recordSpend", {"amount": Decimal("5.50"), "category": "transporte"}, "b"),
            )
        ]
    )

    reply = await model_for(llm).complete(MESSAGES, TOOLS)

    assert [c["id"] for c in reply["tool_calls"]] == ["a", "b"]
    assert "5.50" in reply["tool_calls"][1]["function"]["arguments"]


async def test_malformed_tool_arguments_are_passed_through_for_the_tools_to_reject(
    llm: FakeLLMServer,
) -> None:
    llm.script([raw_arguments("recordSpend", "{not json")])

    reply = await model_for(llm).complete(MESSAGES, TOOLS)

    assert reply["tool_calls"][0]["function"]["arguments"] == "{not json"


async def test_tool_schemas_reach_the_provider_unchanged(llm: FakeLLMServer) -> None:
    llm.script([text("ok")])

    await model_for(llm).complete(MESSAGES, TOOLS)

    (sent,) = llm.requests
    assert sent["model"] == "fake-model"
    assert sent["tools"] == TOOLS
    assert sent["messages"] == MESSAGES


async def test_no_tools_sends_no_tools_field(llm: FakeLLMServer) -> None:
    llm.script([text("ok")])

    await model_for(llm).complete(MESSAGES, [])

    assert "tools" not in llm.requests[0]


async def test_options_reach_the_provider_and_the_key_travels_as_a_bearer_token(
    llm: FakeLLMServer,
) -> None:
    llm.script([text("ok")])

    await model_for(llm, temperature=0.2, max_tokens=300).complete(MESSAGES, TOOLS)

    assert llm.requests[0]["temperature"] == 0.2
    assert llm.requests[0]["max_tokens"] == 300
    assert llm.headers[0]["authorization"] == f"Bearer {KEY}"


async def test_usage_tokens_are_reported(llm: FakeLLMServer) -> None:
    llm.script([text("ok", usage=(812, 17))])

    reply = await model_for(llm).complete(MESSAGES, TOOLS)

    assert reply["usage"] == {"prompt_tokens": 812, "completion_tokens": 17}


async def test_each_call_is_logged_with_model_latency_and_tokens_but_not_the_key(
    llm: FakeLLMServer, caplog: pytest.LogCaptureFixture
) -> None:
    llm.script([text("ok", usage=(812, 17)), error(401, body={"error": {"message": f"bad key {KEY}"}})])
    model = model_for(llm, num_retries=0)

    with caplog.at_level(logging.INFO, logger="infra.llm"):
        await model.complete(MESSAGES, TOOLS)
        with pytest.raises(ModelFailure):
            await model.complete(MESSAGES, TOOLS)

    ours = [r for r in caplog.records if r.name == "infra.llm"]
    ok = ours[0].getMessage()
    assert ours[0].levelno == logging.INFO
    assert "openai/fake-model" in ok
    assert "latency_ms=" in ok
    assert "prompt_tokens=812" in ok
    assert "completion_tokens=17" in ok
    assert all(KEY not in r.getMessage() for r in ours)


# --------------------------------------------------------------------------- failures


async def test_a_500_becomes_a_server_error_failure(llm: FakeLLMServer) -> None:
    llm.script([error(500)])

    failure = await failure_of(model_for(llm, num_retries=0))

    assert failure.kind is FailureKind.SERVER_ERROR
    assert len(llm.requests) == 1


async def test_a_500_then_success_is_retried(llm: FakeLLMServer) -> None:
    # Retry-After keeps the OpenAI SDK from sleeping its default 0.5 s backoff.
    llm.script([error(500, retry_after=0.01), text("ok")])

    reply = await model_for(llm, num_retries=1).complete(MESSAGES, TOOLS)

    assert reply["content"] == "ok"
    assert len(llm.requests) == 2


async def test_retries_stop_after_num_retries(llm: FakeLLMServer) -> None:
    llm.script([error(503, retry_after=0.01)] * 5)

    failure = await failure_of(model_for(llm, num_retries=2))

    assert failure.kind is FailureKind.SERVER_ERROR
    assert len(llm.requests) == 3


async def test_a_429_becomes_a_rate_limited_failure(llm: FakeLLMServer) -> None:
    llm.script([error(429)])

    failure = await failure_of(model_for(llm, num_retries=0))

    assert failure.kind is FailureKind.RATE_LIMITED


async def test_a_401_becomes_an_authentication_failure_without_the_key_in_the_message(
    llm: FakeLLMServer,
) -> None:
    # Real providers echo (part of) the key back; this fake echoes all of it.
    llm.script([error(401, body={"error": {"message": f"Incorrect API key provided: {KEY}"}})])

    failure = await failure_of(model_for(llm, num_retries=2))

    assert failure.kind is FailureKind.AUTHENTICATION
    assert KEY not in str(failure)
    assert KEY not in failure.detail
    assert failure.__cause__ is None
    assert len(llm.requests) == 1, "a 401 is not retried"


async def test_a_403_becomes_an_authentication_failure(llm: FakeLLMServer) -> None:
    llm.script([error(403)])

    failure = await failure_of(model_for(llm, num_retries=0))

    assert failure.kind is FailureKind.AUTHENTICATION


async def test_a_slow_provider_becomes_a_timeout_failure(llm: FakeLLMServer) -> None:
    llm.script([delay(3, then=text("tarde demais"))])

    failure = await failure_of(model_for(llm, timeout=0.5, num_retries=0))

    assert failure.kind is FailureKind.TIMEOUT


async def test_an_unreachable_provider_becomes_an_unreachable_failure() -> None:
    model = LiteLLMModel(
        "openai/fake-model", api_base=f"http://127.0.0.1:{closed_port()}/v1", api_key=KEY, num_retries=0
    )

    failure = await failure_of(model)

    assert failure.kind is FailureKind.UNREACHABLE


@pytest.mark.parametrize(
    "body",
    [
        {"id": "x", "object": "chat.completion", "created": 1, "model": "fake-model", "choices": []},
        {"unexpected": "shape"},
        "not json at all",
    ],
    ids=["no-choices", "not-a-completion", "not-json"],
)
async def test_a_response_that_is_not_an_assistant_message_becomes_an_invalid_response_failure(
    llm: FakeLLMServer, body: Any
) -> None:
    llm.script([raw(body)])

    failure = await failure_of(model_for(llm, num_retries=0))

    assert failure.kind is FailureKind.INVALID_RESPONSE


async def test_an_empty_assistant_message_comes_back_as_empty_text_for_the_chat_loop_to_judge(
    llm: FakeLLMServer,
) -> None:
    # Small models answer nothing after a tool result; that ends a turn, it is no provider failure.
    llm.script([raw({"id": "x", "object": "chat.completion", "created": 1, "model": "fake-model",
                     "choices": [{"index": 0, "message": {"role": "assistant", "content": None},
                                  "finish_reason": "stop"}]})])

    answer = await model_for(llm, num_retries=0).complete([{"role": "user", "content": "oi"}], [])

    assert answer["content"] == "" and not answer["tool_calls"]


async def test_every_call_caps_the_answer_at_1024_tokens_unless_told_otherwise(llm: FakeLLMServer) -> None:
    llm.script([text("ok"), text("ok"), text("ok")])

    await model_for(llm).complete(MESSAGES, TOOLS)
    await model_for(llm, max_tokens=200).complete(MESSAGES, TOOLS)
    await model_for(llm, max_tokens=None).complete(MESSAGES, TOOLS)

    assert [body.get("max_tokens") for body in llm.requests] == [1024, 200, None]


async def test_llm_max_tokens_from_the_environment_reaches_the_provider(
    llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pydantic import SecretStr

    from infra.llm import model_from_settings
    from infra.settings import Settings

    monkeypatch.setenv("LLM_MAX_TOKENS", "300")
    settings = Settings(_env_file=None, llm_api_base=llm.base_url, llm_api_key=SecretStr(KEY))  # type: ignore[call-arg]
    llm.script([text("ok")])

    await model_from_settings(settings, "openai/fake-model").complete(MESSAGES, TOOLS)

    assert llm.requests[0]["max_tokens"] == 300


async def test_an_answer_cut_at_the_cap_is_an_invalid_response_tried_once_not_half_a_reply(
    llm: FakeLLMServer,
) -> None:
    # A small model that repeats itself writes until the cap; a retry would only repeat that.
    llm.script([text("Anotado, anotado, " * 200)])

    failure = await failure_of(model_for(llm, max_tokens=50, num_retries=2))

    assert failure.kind is FailureKind.INVALID_RESPONSE
    assert "max_tokens" in failure.detail
    assert len(llm.requests) == 1


async def test_a_tool_call_cut_at_the_cap_is_never_passed_on_as_arguments(llm: FakeLLMServer) -> None:
    llm.script([tool_calls(("recordSpend", {"amount": Decimal("37.90"), "category": "mercado",
                                            "note": "x" * 400}))])

    failure = await failure_of(model_for(llm, max_tokens=20, num_retries=0), TOOLS)

    assert failure.kind is FailureKind.INVALID_RESPONSE


async def test_a_cut_answer_from_the_primary_is_tried_on_the_fallback(llm: FakeLLMServer) -> None:
    llm.script([text("sem fim " * 300), text("Anotado.")])
    model = LiteLLMModel("openai/fake-model", api_base=llm.base_url, api_key=KEY, num_retries=0,
                         max_tokens=50, fallbacks=[{"model": "openai/fake-model", "api_base": llm.base_url,
                                                    "api_key": KEY}])

    reply = await model.complete(MESSAGES, TOOLS)

    assert reply["content"] == "Anotado."
    assert [body.get("max_tokens") for body in llm.requests] == [50, 50]


async def test_a_model_without_a_provider_becomes_a_not_configured_failure(llm: FakeLLMServer) -> None:
    model = LiteLLMModel("no-such-provider-model", api_base=llm.base_url, api_key=KEY, num_retries=0)

    failure = await failure_of(model)

    assert failure.kind is FailureKind.NOT_CONFIGURED
    assert llm.requests == []


async def test_a_fallback_answers_when_the_primary_fails(llm: FakeLLMServer) -> None:
    llm.script([error(500), text("da reserva")])
    fallback = {"model": "openai/backup-model", "api_base": llm.base_url, "api_key": "sk-backup-key"}
    model = model_for(llm, num_retries=0, fallbacks=[fallback])

    reply = await model.complete(MESSAGES, TOOLS)

    assert reply["content"] == "da reserva"
    assert [r["model"] for r in llm.requests] == ["fake-model", "backup-model"]
    assert llm.headers[1]["authorization"] == "Bearer sk-backup-key"


async def test_a_fallback_given_as_a_string_does_not_receive_the_primary_key(
    llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", llm.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-environment")
    llm.script([error(500), text("ok")])
    model = model_for(llm, num_retries=0, fallbacks=["openai/backup-model"])

    await model.complete(MESSAGES, TOOLS)

    assert llm.headers[1]["authorization"] == "Bearer sk-from-the-environment"


async def test_when_every_model_fails_the_last_failure_is_raised(llm: FakeLLMServer) -> None:
    llm.script([error(500), error(429)])
    fallback = {"model": "openai/backup-model", "api_base": llm.base_url, "api_key": KEY}

    failure = await failure_of(model_for(llm, num_retries=0, fallbacks=[fallback]))

    assert failure.kind is FailureKind.RATE_LIMITED
    assert "backup-model" in failure.detail


# --------------------------------------------------------------------------- the rest


def test_count_prompt_tokens_works_offline_and_counts_the_tools() -> None:
    without_tools = count_prompt_tokens("gpt-4o-mini", MESSAGES, None)
    with_tools = count_prompt_tokens("gpt-4o-mini", MESSAGES, TOOLS)

    assert 10 < without_tools < with_tools


def test_importing_infra_llm_does_not_import_litellm() -> None:
    root = Path(__file__).resolve().parents[3]
    code = "import infra.llm, sys; assert 'litellm' not in sys.modules, 'litellm imported eagerly'"

    result = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=os.environ.copy(), capture_output=True, text=True
    )

    assert result.returncode == 0, result.stderr


def test_the_fake_server_fails_loudly_when_its_script_runs_out(llm: FakeLLMServer) -> None:
    response = httpx.post(f"{llm.base_url}/chat/completions", json={"model": "m", "messages": []})

    assert response.status_code == 500
    assert "no scripted reply left" in response.json()["error"]["message"]
    assert httpx.get(f"{llm.base_url}/models").json()["data"][0]["id"] == "fake-model"


def test_the_fake_server_asks_its_responder_once_the_script_is_empty() -> None:
    seen: list[dict[str, Any]] = []

    def responder(body: dict[str, Any]) -> Any:
        seen.append(body)
        return text(f"eco: {body['messages'][-1]['content']}")

    with FakeLLMServer(responder=responder) as server:
        server.script([text("primeiro")])
        url = f"{server.base_url}/chat/completions"
        first = httpx.post(url, json={"model": "m", "messages": [{"role": "user", "content": "a"}]})
        second = httpx.post(url, json={"model": "m", "messages": [{"role": "user", "content": "b"}]})

    assert first.json()["choices"][0]["message"]["content"] == "primeiro"
    assert second.json()["choices"][0]["message"]["content"] == "eco: b"
    assert second.json()["choices"][0]["finish_reason"] == "stop"
    assert len(seen) == 1
