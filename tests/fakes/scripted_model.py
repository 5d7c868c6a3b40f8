"""A language model that plays scripted turns: the unit tier's stand-in for a real provider.

    model = ScriptedModel(
        call("recordSpend", {"expense": "Mercado", "amount": {"amount": Decimal("37.90"), ...}}),
        say("Vou registrar R$ 37,90 no Mercado. Confirma?"),
    )
    reply = await AgentChat.create(model, tools).send("gastei 37,90 no mercado", sender="Ana")
    assert model.requests[0].tools == chat.schemas()

Each `complete` consumes one turn: an assistant message (`say`, `call`, `calls`, `raw_call`) or an
exception to raise (`fail`). Running out of turns fails the test: the chat asked more of the
model than the test expected.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from domain.agent.model import FailureKind, ModelFailure

Message = dict[str, Any]
Turn = Message | BaseException


class ScriptExhausted(AssertionError):
    """The chat called the model more times than the script has turns."""


@dataclass(frozen=True)
class Request:
    """What the chat sent in one `complete` call (deep copies, safe to inspect later)."""

    messages: list[Message]
    tools: list[dict[str, Any]]

    @property
    def contents(self) -> list[Any]:
        """The messages' contents in order, to read a conversation at a glance."""
        return [m.get("content") for m in self.messages]


def exact_json(value: Any) -> str:
    """JSON text where a Decimal is written as the number literal it spells (Decimal("37.90") -> 37.90).

    A float round-trip would print 37.9 and hide the very bugs these tests look for.
    """
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{value} has no JSON number literal")
        return str(value)
    if isinstance(value, float):
        raise TypeError("script amounts as Decimal or int, never float")
    if isinstance(value, dict):
        items = (f"{json.dumps(str(k), ensure_ascii=False)}: {exact_json(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(exact_json(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def say(text: str) -> Message:
    """The model answers in text: the end of a `send`."""
    return {"role": "assistant", "content": text, "tool_calls": None}


def raw_call(name: str, arguments: str, call_id: str | None = None) -> Message:
    """One tool call whose arguments text is sent verbatim (e.g. malformed JSON)."""
    tool_call = {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
    return {"role": "assistant", "content": None, "tool_calls": [tool_call]}


def call(name: str, args: dict[str, Any], call_id: str | None = None) -> Message:
    """The model calls one tool with `args` (camelCase, as the model writes them)."""
    return raw_call(name, exact_json(args), call_id)


def calls(*turns: Message) -> Message:
    """Several tool calls in one assistant message: calls(call(...), call(...))."""
    merged = [tool_call for turn in turns for tool_call in turn["tool_calls"] or []]
    return {"role": "assistant", "content": None, "tool_calls": merged}


def fail(kind: FailureKind, detail: str = "") -> ModelFailure:
    """The provider fails on this turn."""
    return ModelFailure(kind, detail)


class ScriptedModel:
    """A LanguageModel that replays `turns` in order and records every request."""

    def __init__(self, *turns: Turn) -> None:
        self._turns = list(turns)
        self._played = 0
        self._calls_made = 0
        self.requests: list[Request] = []

    def script(self, *turns: Turn) -> None:
        """Adds turns at the end of the script (for the next `send`)."""
        self._turns.extend(turns)

    @property
    def remaining(self) -> int:
        return len(self._turns) - self._played

    async def complete(self, messages: list[Message], tools: list[dict[str, Any]]) -> Message:
        self.requests.append(Request(copy.deepcopy(messages), copy.deepcopy(tools)))
        if self._played >= len(self._turns):
            last = messages[-1] if messages else None
            raise ScriptExhausted(
                f"the script has {len(self._turns)} turns and the chat asked for another; "
                f"last message: {last!r}"
            )
        turn = self._turns[self._played]
        self._played += 1
        if isinstance(turn, BaseException):
            raise turn
        answer = copy.deepcopy(turn)
        for tool_call in answer.get("tool_calls") or []:
            if tool_call.get("id") is None:
                self._calls_made += 1
                tool_call["id"] = f"call_{self._calls_made}"
        return answer


class FailingModel:
    """A LanguageModel whose provider always fails with `kind`."""

    def __init__(self, kind: FailureKind, detail: str = "") -> None:
        self.kind = kind
        self.detail = detail
        self.requests: list[Request] = []

    async def complete(self, messages: list[Message], tools: list[dict[str, Any]]) -> Message:
        self.requests.append(Request(copy.deepcopy(messages), copy.deepcopy(tools)))
        raise ModelFailure(self.kind, self.detail)
