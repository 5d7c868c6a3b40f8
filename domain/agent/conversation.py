"""Where a chat's conversation with the model is kept between messages."""

from __future__ import annotations

from typing import Any, Protocol

Message = dict[str, Any]


class ConversationStore(Protocol):
    async def recent(self, conversation_id: str, turns: int) -> list[Message]:
        """The messages of the last `turns` turns (a turn starts at a user message), oldest first."""
        ...

    async def append(self, conversation_id: str, messages: list[Message]) -> None:
        ...


def last_turns(messages: list[Message], turns: int) -> list[Message]:
    """The tail of `messages` that starts at the `turns`-th user message from the end."""
    starts = [i for i, m in enumerate(messages) if m.get("role") == "user"]
    if turns <= 0 or not starts:
        return []
    return messages[starts[-turns]:] if len(starts) >= turns else messages[starts[0]:]


class InMemoryConversationStore:
    def __init__(self, max_turns_kept: int = 50) -> None:
        self._conversations: dict[str, list[Message]] = {}
        self._max_turns_kept = max_turns_kept

    async def recent(self, conversation_id: str, turns: int) -> list[Message]:
        return list(last_turns(self._conversations.get(conversation_id, []), turns))

    async def append(self, conversation_id: str, messages: list[Message]) -> None:
        kept = self._conversations.get(conversation_id, []) + list(messages)
        self._conversations[conversation_id] = last_turns(kept, self._max_turns_kept)
