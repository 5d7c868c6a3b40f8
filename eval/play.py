"""Playing one case: the real AgentChat over the case's household, turn by turn, scored as it goes."""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic.alias_generators import to_snake

from domain.agent.chat import READER, AgentChat, AgentReply, ToolCall
from domain.agent.model import LanguageModel
from domain.errors import DomainError
from domain.operations.log import fingerprint
from domain.operations.receipts import ToolReceipt
from domain.tools.base import compact_json
from eval.fixture import Case, World, build_world
from eval.scoring import Call, EntryScore, Names, as_shown, canonical_args, score_turn, show


@dataclass
class TurnResult:
    index: int
    kind: str  # "message" or "press"
    sender: str | None
    text: str | None
    passed: bool
    reasons: list[str]
    entries: list[EntryScore] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    writes: int = 0
    unconfirmed_writes: int = 0
    extra_writes: list[str] = field(default_factory=list)
    tool_errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated_prompt_tokens: int | None = None
    estimated_completion_tokens: int | None = None
    model_calls: int = 0
    latency: float | None = None
    reply: str | None = None
    failure: str | None = None
    saves: int = 0
    # A call was expected and none could be read from the answer (native or written as text);
    # `call_like_text`: the answer's text still looked like an attempt at one.
    format_failure: bool = False
    call_like_text: bool = False
    # The free-text reader took the message: its calls, no model request (contract §9).
    by_reader: bool = False


@dataclass
class CaseResult:
    case_id: str
    split: str
    run: int
    tools: list[str]
    turns: list[TurnResult]
    error: str | None = None

    @property
    def passed(self) -> bool:
        return self.error is None and all(t.passed for t in self.turns)

    @property
    def first_failure(self) -> str:
        if self.error:
            return f"harness error: {self.error.splitlines()[-1]}"
        for turn in self.turns:
            if not turn.passed:
                return f"turn {turn.index}: " + "; ".join(turn.reasons)
        return ""


TokenCounter = Callable[[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]], tuple[int, int]]


class MeteredModel:
    """The model under test, counting its calls and, optionally, tokens by a local tokenizer."""

    def __init__(self, model: LanguageModel, counter: TokenCounter | None = None) -> None:
        self.model = model
        self.counter = counter
        self.calls = 0
        self.estimated_prompt = 0
        self.estimated_completion = 0

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        self.calls += 1
        answer = await self.model.complete(messages, tools)
        if self.counter is not None:
            prompt, completion = self.counter(messages, tools, answer)
            self.estimated_prompt += prompt
            self.estimated_completion += completion
        return answer


class Player:
    """One run of one case."""

    def __init__(self, case: Case, model: LanguageModel, *, run: int = 0, strict_errors: bool = False,
                 counter: TokenCounter | None = None, use_reader: bool = True) -> None:
        self.case = case
        self.use_reader = use_reader
        self.run = run
        self.strict_errors = strict_errors
        self.model = MeteredModel(model, counter)
        self.previews: list[Call] = []
        self.first_shown: dict[tuple[str, str], int] = {}
        self.last_shown: str | None = None
        self.last_sender: str | None = None
        self.prompt = ""
        # The reader and the working memory as the bot builds them for each message.
        self.reader: Callable[[str, Mapping[str, Any] | None], list[dict[str, Any]] | None] | None = None
        self.memory: Callable[[str], str] | None = None
        self.focus: Callable[[str], str] | None = None

    async def play(self) -> CaseResult:
        result = CaseResult(self.case.id, self.case.split, self.run, self.case.tools, [])
        try:
            world = await build_world(self.case)
            chat = AgentChat.create(self.model, world.tools, system_prompt=lambda: self.prompt,
                                    operations=world.operations,
                                    conversation_id=f"{self.case.id}#{self.run}",
                                    reader=(lambda text, last: self.reader(text, last) if self.reader else None)
                                    if self.use_reader else None,
                                    answer=_answer,
                                    memory=lambda text: self.memory(text) if self.memory else "",
                                    focus=lambda text: self.focus(text) if self.focus else text)
            for index, turn in enumerate(self.case.turns):
                if "press" in turn:
                    result.turns.append(await self._press(index, turn, chat, world))
                else:
                    result.turns.append(await self._message(index, turn, chat, world))
        except Exception:  # a harness or fixture bug fails this case, not the whole run
            result.error = traceback.format_exc(limit=6)
        return result

    async def _message(self, index: int, turn: dict[str, Any], chat: AgentChat, world: World) -> TurnResult:
        sender, text = turn["sender"], turn["text"]
        self.last_sender = sender
        self.prompt = await world.prompt()
        reader = await world.reader()
        self.reader, self.focus, self.memory = reader.read, reader.focus, await world.memory()
        saves, calls_before = world.saves, self.model.calls
        estimated = self.model.estimated_prompt, self.model.estimated_completion
        started = time.perf_counter()
        reply = await chat.send(text, sender=sender)
        latency = time.perf_counter() - started
        # Scored as the tool received them (grounded in the members' words): what the preview shows.
        calls = [as_shown(Call(index, c.name, canonical_args(world.tool(c.name), c.received or c.args,
                                                             await _speaker(world, c, sender)),
                               c.error, c.result))
                 for c in reply.tool_calls]
        persisted = sum(1 for c in calls if c.receipt is not None and c.receipt.persisted)
        unconfirmed = self._track(index, calls)
        names = Names(world.household, await world.budget(), await world.goal_list())
        score = score_turn(turn, calls, self.previews, names, persisted, strict_errors=self.strict_errors)
        self.previews.extend(c for c in calls if c.receipt is not None and not c.receipt.confirmed)
        reasons = list(score.reasons)
        if reply.failure is not None:
            reasons.insert(0, f"provider failure: {reply.failure.value}")
        result = TurnResult(
            index, "message", sender, text, not reasons, reasons, score.entries,
            calls=[describe(c) for c in calls], writes=persisted, unconfirmed_writes=unconfirmed,
            extra_writes=[calls[i].name for i in score.extra_writes],
            tool_errors=sum(1 for c in calls if c.error), model_calls=self.model.calls - calls_before,
            latency=latency, reply=reply.text, failure=reply.failure.value if reply.failure else None,
            saves=world.saves - saves)
        result.by_reader = any(c.source == READER for c in reply.tool_calls)
        if turn.get("expect") and not reply.tool_calls and reply.failure is None:
            result.format_failure = True
            result.call_like_text = any(mark in (reply.text or "") for mark in ("{", "tool_call", "```"))
        add_usage(result, reply)
        if self.model.counter is not None:
            result.estimated_prompt_tokens = self.model.estimated_prompt - estimated[0]
            result.estimated_completion_tokens = self.model.estimated_completion - estimated[1]
        return result

    def _track(self, index: int, calls: list[Call]) -> int:
        """Writes persisted in the same send that first showed their preview: no member spoke
        between the preview and the write (what rule 8 forbids)."""
        unconfirmed = 0
        for call in calls:
            receipt = call.receipt
            if receipt is None:
                continue
            shown = (receipt.operation_id, fingerprint(
                {k: v for k, v in call.args.items() if k not in ("operationId", "confirm")}))
            if not receipt.confirmed:
                self.first_shown.setdefault(shown, index)
                self.last_shown = receipt.operation_id
            elif receipt.persisted and self.first_shown.get(shown, index) == index:
                unconfirmed += 1
        return unconfirmed

    async def _press(self, index: int, turn: dict[str, Any], chat: AgentChat, world: World) -> TurnResult:
        by = turn.get("sender") or self.last_sender
        result = TurnResult(index, "press", by, turn["press"], True, [])
        if self.last_shown is None:
            result.reasons.append("no preview was shown to press")
        else:
            saves = world.saves
            try:
                if turn["press"] == "ok":
                    receipt = await chat.confirm(self.last_shown, by=by)
                    result.writes = 1 if receipt.persisted else 0
                else:
                    await chat.cancel(self.last_shown, by=by)
            except DomainError as error:
                result.reasons.append(f"press {turn['press']} on {self.last_shown}: {error}")
            result.saves = world.saves - saves
        if "writes" in turn and result.writes != turn["writes"]:
            result.reasons.append(f"{result.writes} operation(s) persisted, expected {turn['writes']}")
        result.passed = not result.reasons
        return result


def add_usage(result: TurnResult, reply: AgentReply) -> None:
    result.prompt_tokens = int(reply.usage.get("prompt_tokens", 0))
    result.completion_tokens = int(reply.usage.get("completion_tokens", 0))


def describe(call: Call) -> dict[str, Any]:
    """A call as the report shows it."""
    described: dict[str, Any] = {"tool": call.name,
                                 "args": show({k: v for k, v in call.args.items() if v is not None})}
    if call.error:
        described["error"] = call.error
    receipt = call.receipt
    if receipt is not None:
        described["operationId"] = receipt.operation_id
        described["outcome"] = ("written" if receipt.persisted else
                                "repeat" if receipt.confirmed else "preview")
    return described


async def _speaker(world: World, call: Any, sender: str) -> str:
    """Who the chat filled in for the call's speaker argument: the sender, or, for a call that
    repeated a pending operation (Bruno confirming Ana's spend), whoever that operation names
    (domain.agent.chat.AgentChat._speaker_of): what the tool received is what is scored."""
    tool = world.tool(call.name)
    key = tool.speaker_argument if tool is not None else None
    if key is None or not isinstance(call.result, ToolReceipt):
        return sender
    operation = await world.operations.get(call.result.operation_id)
    stored = operation.arguments.get(to_snake(key)) if operation is not None else None
    return stored if isinstance(stored, str) and stored else sender


async def _answer(calls: Sequence[ToolCall]) -> str:
    """The reader's reads as their results: the bot words them as its read commands do
    (`Queries.read_answer`); the eval scores the calls, not the words."""
    return "\n".join(compact_json(call.result) for call in calls)
