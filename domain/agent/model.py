"""The language-model port: one method, OpenAI chat format both ways."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Protocol


class LanguageModel(Protocol):
    """Anything that turns a conversation and tool schemas into one assistant message.

    `messages` and `tools` are in the OpenAI chat format. The return is one assistant message:
    {"role": "assistant", "content": str | None, "tool_calls": [...] | None}. An adapter may add
    a "usage" key ({"prompt_tokens": int, "completion_tokens": int}); the chat loop strips it
    before the message goes back into the history.
    """

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        ...


class FailureKind(StrEnum):
    UNREACHABLE = "unreachable"
    TIMEOUT = "timeout"
    RATE_LIMITED = "rate_limited"
    SERVER_ERROR = "server_error"
    AUTHENTICATION = "authentication"
    INVALID_RESPONSE = "invalid_response"
    NOT_CONFIGURED = "not_configured"


class ModelFailure(Exception):
    """The provider could not give an answer. Adapters raise it; the chat loop turns it into a reply.

    The message must never contain secrets (API keys, tokens).
    """

    def __init__(self, kind: FailureKind, detail: str = "") -> None:
        super().__init__(f"{kind.value}: {detail}" if detail else kind.value)
        self.kind = kind
        self.detail = detail
