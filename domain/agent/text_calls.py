"""Tool calls written as text (contract §8).

Small local models (Qwen2.5 through llama.cpp, for one) often answer a tool call as JSON text
instead of native `tool_calls`: `{"name": "recordSpend", "arguments": {...}}`, alone, in a
```json fence or inside `<tool_call>…</tool_call>` tags, one or several. `read_text_calls`
finds those objects in an answer's text, keeps only the ones naming a known tool, and returns
them in the OpenAI `tool_calls` shape with the arguments as exact JSON text (numbers keep their
literal digits: `37.90` never becomes a float). Anything else, including text that merely looks
like JSON, stays the reply.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Collection
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

__all__ = ["TextCalls", "exact_json", "read_text_calls"]

_DECODER = json.JSONDecoder(parse_float=Decimal)
_EMPTY_FENCE = re.compile(r"```[a-zA-Z]*\s*```")
_EMPTY_TAG = re.compile(r"<tool_call>\s*</tool_call>")
_LEFTOVER = re.compile(r"^[\s\[\],]*$")
_ARGUMENT_KEYS = ("arguments", "parameters", "args", "input")


@dataclass(frozen=True)
class TextCalls:
    """The calls found in an answer's text, and the text that is left once they are taken out."""

    calls: list[dict[str, Any]]
    rest: str


def exact_json(value: Any) -> str:
    """json.dumps where a Decimal is written as its own number literal (37.90 stays `37.90`)."""
    token = uuid.uuid4().hex

    def default(obj: Any) -> Any:
        if isinstance(obj, Decimal) and obj.is_finite():
            return f"{token}{obj}{token}"
        raise TypeError(f"{type(obj).__name__} is not JSON serialisable")

    text = json.dumps(value, default=default, ensure_ascii=False)
    return re.sub(f'"{token}(.*?){token}"', r"\1", text)


def _call_in(value: Any, known: Collection[str]) -> tuple[str, dict[str, Any]] | None:
    """(name, arguments) when `value` is a call of a known tool: {"name", "arguments"}, also with
    the OpenAI wrapper {"function": {...}} or "parameters" for "arguments"."""
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("function"), dict) and "name" not in value:
        value = value["function"]
    name = value.get("name")
    if not isinstance(name, str) or name not in known:
        return None
    arguments: Any = next((value[k] for k in _ARGUMENT_KEYS if k in value), {})
    if isinstance(arguments, str):
        try:
            arguments = _DECODER.decode(arguments) if arguments.strip() else {}
        except json.JSONDecodeError:
            return None
    if not isinstance(arguments, dict):
        return None
    return name, arguments


def _calls_in(value: Any, known: Collection[str]) -> list[tuple[str, dict[str, Any]]]:
    """A call, a list of calls, or {"tool_calls": [...]}: every known call in it, or none."""
    single = _call_in(value, known)
    if single is not None:
        return [single]
    if isinstance(value, dict) and isinstance(value.get("tool_calls"), list):
        value = value["tool_calls"]
    if isinstance(value, list):
        found = [_call_in(item, known) for item in value]
        if found and all(f is not None for f in found):
            return [f for f in found if f is not None]
    return []


def read_text_calls(text: str | None, known: Collection[str], *, id_prefix: str = "text") -> TextCalls:
    """Every tool call of a known tool written in `text` as JSON, in order of appearance."""
    if not text or "{" not in text:
        return TextCalls([], text or "")
    found: list[tuple[str, dict[str, Any]]] = []
    spans: list[tuple[int, int]] = []
    position = 0
    while True:
        start = _next_json_start(text, position)
        if start < 0:
            break
        try:
            value, end = _DECODER.raw_decode(text, start)
        except json.JSONDecodeError:
            position = start + 1
            continue
        calls = _calls_in(value, known)
        if calls:
            found.extend(calls)
            spans.append((start, end))
            position = end
        else:
            # JSON that is not a call (or holds an unknown tool) stays text, and so does all of it.
            position = end
    if not found:
        return TextCalls([], text)
    rest = _without(text, spans)
    as_tool_calls: list[dict[str, Any]] = [
        {"id": f"{id_prefix}_{index}", "type": "function",
         "function": {"name": name, "arguments": exact_json(arguments)}}
        for index, (name, arguments) in enumerate(found, 1)
    ]
    return TextCalls(as_tool_calls, rest)


def _next_json_start(text: str, position: int) -> int:
    starts = [i for i in (text.find("{", position), text.find("[", position)) if i >= 0]
    return min(starts) if starts else -1


def _without(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with the calls' JSON, and the fences or tags left empty around them, taken out."""
    pieces, last = [], 0
    for start, end in spans:
        pieces.append(text[last:start])
        last = end
    pieces.append(text[last:])
    rest = "".join(pieces)
    rest = _EMPTY_TAG.sub("", _EMPTY_FENCE.sub("", rest))
    rest = rest.replace("<tool_call>", "").replace("</tool_call>", "")
    return "" if _LEFTOVER.match(rest) else rest.strip()
