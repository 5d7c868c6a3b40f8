"""The chat loop: ask the model, run the tools it asks for, hand back their results, stop on text."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Final

from pydantic.alias_generators import to_camel, to_snake

from domain.agent.conversation import ConversationStore, InMemoryConversationStore, Message
from domain.agent.model import FailureKind, LanguageModel, ModelFailure
from domain.agent.text_calls import read_text_calls
from domain.errors import DomainError, DuplicateName, InvalidArgument, UnknownMember
from domain.operations.log import InMemoryOperationLog, Operation, OperationLog, OperationStatus
from domain.operations.receipts import ToolReceipt
from domain.reading.replies import agrees_to_several, may_correct, only_agrees, refers_back
from domain.text import fold
from domain.tools.base import Tool, WriteArgs, WriteTool, compact_json
from domain.tools.confirmer import Confirmer
from domain.tools.grounding import Said, asks, ground
from domain.tools.sharing import NothingOwed

__all__ = ["AgentChat", "AgentReply", "LanguageModel", "ToolCall"]

log = logging.getLogger(__name__)

DEFAULT_MAX_STEPS = 8
# Calls run from one model answer: a model that answers 50 at once held its chat for minutes.
MAX_TOOL_CALLS_PER_ANSWER = 10
TOO_MANY_CALLS_REPLY = (
    f"⚠️ O pedido gerou ações demais de uma vez; fiz só as {MAX_TOOL_CALLS_PER_ANSWER} primeiras. "
    "Nada foi registrado sem confirmação; se faltou algo, peça em partes."
)
DEFAULT_HISTORY_TURNS = 10
DEFAULT_HISTORY_TOKENS = 3000
# What the history shows after a turn that ended on previews without any text of the model's.
# A scoped operation id: the model's (cut to fit 64 characters), "~", part of the call's digest.
MAX_MODEL_ID = 48
SCOPE_DIGITS = 12
MINTED = "op"  # a write call without an operationId gets "op~<digest>"
PREVIEWS_SENT = "(Prévia enviada; aguardando ✅ Confirmar de um membro.)"
_ECHO_LENGTH = 40  # characters of an earlier reply of the model's that, said again word for word, is an echo

FAILURE_REPLIES = {
    FailureKind.UNREACHABLE: "Não consegui falar com o modelo de linguagem agora (serviço fora do ar).",
    FailureKind.TIMEOUT: "O modelo de linguagem demorou demais para responder.",
    FailureKind.RATE_LIMITED: "O modelo de linguagem está recebendo pedidos demais; tente em instantes.",
    FailureKind.SERVER_ERROR: "O serviço do modelo de linguagem deu erro.",
    FailureKind.AUTHENTICATION: "A chave do modelo de linguagem foi recusada; avise quem cuida do bot.",
    FailureKind.INVALID_RESPONSE: "O modelo de linguagem respondeu algo que não entendi.",
    FailureKind.NOT_CONFIGURED: "Nenhum modelo de linguagem está configurado.",
}
# What a failure's reply adds; the bot passes its own (`failure_note`), which names its commands.
FAILURE_NOTE = "Nada foi registrado."


def failure_reply(kind: FailureKind, note: str = FAILURE_NOTE) -> str:
    return f"{FAILURE_REPLIES[kind]} {note}"


@dataclass
class ToolCall:
    name: str
    args: dict[str, Any]
    result: ToolReceipt | dict[str, Any] | None = None
    error: str | None = None
    call_id: str = ""
    source: str = "model"  # or READER: made by the free-text reader, with no model request
    # The arguments as the tool received them: with the speaker filled in and grounded in the
    # members' words (domain.tools.grounding). `args` stays as the model sent it (contract §3).
    received: dict[str, Any] | None = None


READER = "reader"
# Reads a member's message with no model: the calls it certainly means, or None (the model's turn).
# The free-text reader: a member's text, and the write call the conversation proposed last (its
# "name" and "arguments"; None: none), to the calls the text certainly means, or None.
Reader = Callable[[str, Mapping[str, Any] | None], Sequence[Mapping[str, Any]] | None]
# The reader's reads in words for the members: the text of the read calls it made (their results
# in `ToolCall.result`), or None when it has none for them (the model's turn, then).
Answer = Callable[[Sequence["ToolCall"]], Awaitable[str | None]]
# One transaction around a block (the storage's unit of work): what is written inside commits
# together at its end, or nothing does.
Together = Callable[[], AbstractAsyncContextManager[object]]


@dataclass
class AgentReply:
    text: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    failure: FailureKind | None = None
    usage: dict[str, int] = field(default_factory=dict)
    # Previews a correction replaced ("não, foi 250"): cancelled, so that only the corrected one waits.
    superseded: list[str] = field(default_factory=list)

    @property
    def receipts(self) -> list[ToolReceipt]:
        return [c.result for c in self.tool_calls if isinstance(c.result, ToolReceipt)]


class AgentChat:
    def __init__(
        self,
        model: LanguageModel | None,
        tools: Iterable[Tool],
        *,
        system_prompt: str | Callable[[], str] = "",
        reader: Reader | None = None,
        answer: Answer | None = None,
        memory: Callable[[str], str] | None = None,
        focus: Callable[[str], str] | None = None,
        together: Together = nullcontext,
        failure_note: str = FAILURE_NOTE,
        conversations: ConversationStore | None = None,
        conversation_id: str = "default",
        operations: OperationLog | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        history_turns: int = DEFAULT_HISTORY_TURNS,
        history_tokens: int = DEFAULT_HISTORY_TOKENS,
    ) -> None:
        self.model = model
        self.tools = {tool.name: tool for tool in tools}
        self._system_prompt = system_prompt
        self.failure_note = failure_note
        self.conversations = conversations or InMemoryConversationStore()
        self.conversation_id = conversation_id
        write_logs = [t.operations for t in self.tools.values() if isinstance(t, WriteTool)]
        self.operations: OperationLog = operations or (write_logs[0] if write_logs else InMemoryOperationLog())
        if any(other is not self.operations for other in write_logs):
            raise ValueError("every write tool of a chat must share the chat's operation log")
        self.confirmer = Confirmer(self.tools.values(), self.operations)
        self.max_steps = max_steps
        self.history_turns = history_turns
        self.history_tokens = history_tokens
        self.reader = reader
        self.answer = answer
        self.memory = memory
        self.focus = focus
        self.together = together

    @classmethod
    def create(cls, model: LanguageModel | None, tools: list[Tool], **options: Any) -> AgentChat:
        return cls(model, tools, **options)

    def schemas(self) -> list[dict[str, Any]]:
        return [tool.schema() for tool in self.tools.values() if tool.offered]

    def system_prompt(self) -> str:
        prompt = self._system_prompt
        return prompt() if callable(prompt) else prompt

    async def send(self, text: str, *, sender: str | None = None,
                   attachments: Sequence[dict[str, Any]] = ()) -> AgentReply:
        """One member's message: the model may call tools for several steps, then answers in text.

        `attachments` are extra content parts (an image) the model sees with this message only:
        the stored conversation keeps `text` alone, never an image's bytes."""
        user: Message = {"role": "user", "content": f"[{sender}] {text}" if sender else text}
        proposed_now: set[str] = set()
        if self.reader is not None and not attachments:
            # The reader before the model (contract §9): a yes to the one preview waiting, a plain
            # spend, a correction of the last proposal; anything else is the model's.
            read = await self._agreed(user, text, sender, proposed_now) or \
                await self._read(user, text, sender, proposed_now)
            if read is not None:
                return read
        if self.model is None:  # nothing stored: without a model the message had no answer
            return AgentReply(text=failure_reply(FailureKind.NOT_CONFIGURED, self.failure_note),
                              failure=FailureKind.NOT_CONFIGURED)
        model = self.model
        if self.focus is not None and not attachments:
            # What the model reads, and the conversation keeps: the message without its small talk.
            seen = self.focus(text)
            user = {**user, "content": f"[{sender}] {seen}" if sender else seen}
        memory = self.memory(text) if self.memory is not None else ""
        # The working memory rides on this message only, after the stable prefix (the rules, the
        # tools, the history), so a provider's or llama.cpp's prompt cache keeps hitting.
        shown = with_attachments({**user, "content": f"{memory}\n\n{user['content']}"} if memory else user,
                                 attachments)
        history = window(await self.conversations.recent(self.conversation_id, self.history_turns),
                         self.history_tokens)
        prompt = self.system_prompt()
        messages: list[Message] = ([{"role": "system", "content": prompt}] if prompt else []) + history
        new: list[Message] = [user]
        reply = AgentReply(text="")
        schemas = self.schemas()
        ran_tools = retried = False
        for step in range(self.max_steps):
            try:
                answer = check_answer(await model.complete([*messages, shown, *new[1:]], schemas))
            except ModelFailure as failure:
                log.warning("model failure: %s", failure.kind.value)
                reply.text, reply.failure = failure_reply(failure.kind, self.failure_note), failure.kind
                new.append({"role": "assistant", "content": reply.text})
                break
            add_usage(reply.usage, answer.pop("usage", None))
            answer = with_text_calls(answer, self.tools, step)
            if not answer.get("tool_calls") and not answer.get("content") and not ran_tools:
                # Nothing at all, before any tool ran: the model gave no usable answer.
                reply.text, reply.failure = (failure_reply(FailureKind.INVALID_RESPONSE, self.failure_note),
                                             FailureKind.INVALID_RESPONSE)
                new.append({"role": "assistant", "content": reply.text})
                break
            capped = len(answer.get("tool_calls") or []) > MAX_TOOL_CALLS_PER_ANSWER
            if capped:  # the rest are dropped from the history too: every call kept gets a result
                log.warning("model answered %d tool calls; running %d", len(answer["tool_calls"]),
                            MAX_TOOL_CALLS_PER_ANSWER)
                answer["tool_calls"] = answer["tool_calls"][:MAX_TOOL_CALLS_PER_ANSWER]
            echoed = echoes(answer, [*history, *new])
            if echoed and not (ran_tools or retried or attachments) and (may_correct(text) or not asks(text)):
                # A correction the model answered by repeating the history ("(Prévia enviada…)"):
                # asked once more with the preview it corrects told in a line, and no history to copy.
                # Not only one that opens as a correction: "metrô é 5,20 kkk, não 50", "amor isso é
                # a Copasa"; a question is not one.
                told = await self._last_preview(history)
                if told is not None:
                    retried = True
                    messages = messages[:1] if prompt else []
                    shown = {**shown, "content": "\n\n".join(part for part in (memory, told, user["content"]) if part)}
                    continue
            if echoed:
                # Not to be shown: it would tell of a preview never made, or be a tool's JSON. The
                # reads this turn made, answered as the reader's are, when it made any; else an
                # invalid response. (A nudge was tried on dev: the 1.5B model then copied the
                # prompt's example instead, "Não, foi 250.")
                log.warning("model repeated the history")
                reads = [call for call in reply.tool_calls if self._read_ran(call)]
                answered = await self.answer(reads) if reads and self.answer is not None else None
                if answered:
                    reply.text = answered
                else:
                    reply.text, reply.failure = (failure_reply(FailureKind.INVALID_RESPONSE, self.failure_note),
                                                 FailureKind.INVALID_RESPONSE)
                new.append({"role": "assistant", "content": reply.text})
                break
            new.append(replayable(answer))
            if not answer.get("tool_calls"):
                # Text ends the turn; so does an empty answer after tool results (weak models
                # give one), which is no provider failure: the previews or results stand.
                reply.text = answer.get("content") or ""
                break
            calls = []
            for raw in answer["tool_calls"]:
                # A photo's amounts are in the picture, not in the words: nothing to ground them in.
                call = await self._run_tool(raw, proposed_now, sender, said=None if attachments else text,
                                            earlier=history)
                calls.append(call)
                content = compact_json(call.result) if call.error is None else json.dumps(
                    {"error": call.error}, ensure_ascii=False)
                new.append({"role": "tool", "tool_call_id": call.call_id, "content": content})
            reply.tool_calls.extend(calls)
            ran_tools = True
            if self.answer is not None and asks(text) and not capped \
                    and all(self._read_ran(call) for call in calls):
                # A question the model answered with reads that all ran: the bot words their results
                # as its read commands do. That saves a request with every result in its prompt, and
                # a weak model's second answer (it echoed the result's JSON, or wrote a preview never
                # made). A message that also tells or asks for something is the model's to finish.
                answered = await self.answer(calls)
                if answered:
                    reply.text = answered
                    new.append({"role": "assistant", "content": answered})
                    break
            if capped:  # no further model request: this answer already asked for too much
                reply.text = TOO_MANY_CALLS_REPLY
                new.append({"role": "assistant", "content": reply.text})
                break
            if all(is_proposal(call) for call in calls):
                # Contract §8: an answer that only proposes writes ends the turn. The previews
                # are the reply; asking the model to speak again costs a request and tempts
                # weak models to call the write again.
                reply.text = answer.get("content") or ""
                new.append({"role": "assistant", "content": PREVIEWS_SENT})
                break
        else:
            reply.text = "Não consegui concluir o pedido agora; pode reformular?"
            new.append({"role": "assistant", "content": reply.text})
        await self.conversations.append(self.conversation_id, new)
        return reply

    async def _agreed(self, user: Message, text: str, sender: str | None,
                      proposed_now: set[str]) -> AgentReply | None:
        """"pode confirmar", "sim", 👍 with one preview waiting, or the previews one message proposed
        ("gastei 50 no mercado e 30 na farmácia"): each preview's call again with confirm=true, as
        the prompt's rule 2 asks of the model, made with no model request (the bot decides a bare
        "confirma" to one preview the same way before it gets here). None otherwise: previews of
        several messages, or a member spoke since (which one, or what they said, is the model's)."""
        if not only_agrees(text):
            return None
        waiting = await self.operations.pending()
        if not waiting or any(operation.tool not in self.tools for operation in waiting):
            return None
        if len(waiting) == 1 and agrees_to_several(text):
            return None  # "confirma as duas" with one preview: they took it for two (the model's to ask)
        history = await self.conversations.recent(self.conversation_id, self.history_turns)
        if len(waiting) > 1 and not proposed_together(history, [op.operation_id for op in waiting]):
            return None
        if any(spoken_since(history, operation.operation_id) for operation in waiting):
            return None  # "não, 2.750" came after that preview and proposed nothing: a yes is the model's
        raws, calls = [], []
        for index, operation in enumerate(waiting):
            arguments = {to_camel(key): value for key, value in operation.arguments.items()}
            raw = reader_call(index, operation.tool, {**arguments, "confirm": True})
            call = await self._run_tool(raw, proposed_now, sender)
            receipt = call.result
            if call.error is not None or not isinstance(receipt, ToolReceipt) or not receipt.confirmed:
                continue  # closed meanwhile (cancelled, expired): the others still stand
            call.source = READER
            raws.append(raw)
            calls.append(call)
        if not calls:
            return None
        await self.conversations.append(self.conversation_id, [
            user, {"role": "assistant", "content": None, "tool_calls": raws},
            *({"role": "tool", "tool_call_id": call.call_id, "content": compact_json(call.result)}
              for call in calls)])
        return AgentReply(text="", tool_calls=calls)

    async def _read(self, user: Message, text: str, sender: str | None,
                    proposed_now: set[str]) -> AgentReply | None:
        """The free-text reader's turn (contract §9): its calls run exactly as the model's would,
        and the message and its previews enter the conversation, so a later "não, era 40" reads
        them (and the reader itself reads such a correction of the call it sees last). None when
        the reader is not sure, or a call it made was refused: the model's turn."""
        assert self.reader is not None
        history: list[Message] = []
        last = None
        if may_correct(text):  # only a correction reads the conversation: a plain spend needs none of it
            history = await self.conversations.recent(self.conversation_id, self.history_turns)
            last = await self._as_proposed(last_write_call(history, self.tools))
        elif refers_back(text):  # "coloca 1.000 nela": the goal the last write was about, written or not
            history = await self.conversations.recent(self.conversation_id, self.history_turns)
            last = last_write_call(history, self.tools)
        read = self.reader(text, last)
        if not read:
            return None
        if all(self._reads(call) for call in read):
            return await self._answered(user, text, read)
        raw_calls = [reader_call(i, str(call["name"]), call["arguments"]) for i, call in enumerate(read)]
        # The proposals and the turn that records them commit together: no preview the
        # conversation does not know of, and one transaction where there were two.
        async with self.together():
            calls = [await self._run_tool(raw, proposed_now, sender, said=text, earlier=history, named=True)
                     for raw in raw_calls]
            if not all(is_proposal(call) for call in calls):
                return None
            superseded = [await self.operations.cancel(call["corrects"], cancelled_by=sender)
                          for call in read if isinstance(call.get("corrects"), str)]
            new: list[Message] = [user, {"role": "assistant", "content": None, "tool_calls": raw_calls}]
            for call in calls:
                call.source = READER
                new.append({"role": "tool", "tool_call_id": call.call_id, "content": compact_json(call.result)})
            new.append({"role": "assistant", "content": PREVIEWS_SENT})
            await self.conversations.append(self.conversation_id, new)
        return AgentReply(text="", tool_calls=calls, superseded=[
            operation.operation_id for operation in superseded if operation.status is OperationStatus.CANCELLED])

    def _read_ran(self, call: ToolCall) -> bool:
        """A read tool's call that ran: what `answer` can word."""
        return call.error is None and self._reads({"name": call.name})

    def _reads(self, call: Mapping[str, Any]) -> bool:
        tool = self.tools.get(str(call.get("name")))
        return tool is not None and tool.offered and not isinstance(tool, WriteTool)

    async def _answered(self, user: Message, text: str, read: Sequence[Mapping[str, Any]]) -> AgentReply | None:
        """A question the reader took: its reads run as the model's would, and `answer` puts them
        in words. The conversation keeps the turn as a model's read turn looks (the calls, their
        results, the answer), so what follows has it: "e mês passado?", or "então cria essa meta"
        after "dá pra juntar 15 mil até março?", whose target and deadline are the read's arguments.
        None when a read fails or there is no answer for it: the model's turn."""
        if self.answer is None:
            return None
        raw_calls = [reader_call(i, str(call["name"]), call["arguments"]) for i, call in enumerate(read)]
        calls = []
        for raw in raw_calls:
            ran = await self._run_tool(raw, set(), None, said=text)
            if ran.error is not None:
                return None
            ran.source = READER
            calls.append(ran)
        answered = await self.answer(calls)
        if not answered:
            return None
        await self.conversations.append(self.conversation_id, [
            user, {"role": "assistant", "content": None, "tool_calls": raw_calls},
            *({"role": "tool", "tool_call_id": call.call_id, "content": compact_json(call.result)} for call in calls),
            {"role": "assistant", "content": answered}])
        return AgentReply(text=answered, tool_calls=calls)

    async def _run_tool(self, raw: dict[str, Any], proposed_now: set[str], sender: str | None, *,
                        said: str | None = None, earlier: Sequence[Message] = (), named: bool = False) -> ToolCall:
        """One call run as a tool call. `said` (the member's message) grounds a proposal's
        arguments in their words; `named` says the caller found what the call is about in them
        (the reader), so the tool need not check it again."""
        function = raw.get("function") or {}
        call = ToolCall(name=str(function.get("name", "")), args={}, call_id=str(raw.get("id", "")))
        try:
            parsed = json.loads(function.get("arguments") or "{}", parse_float=Decimal)
        except (json.JSONDecodeError, TypeError):
            call.error = f"Os argumentos de {call.name} não são JSON válido."
            return call
        if not isinstance(parsed, dict):
            call.error = f"Os argumentos de {call.name} precisam ser um objeto JSON."
            return call
        call.args = parsed
        tool = self.tools.get(call.name)
        if tool is None or not tool.offered:
            offered = ", ".join(name for name, t in self.tools.items() if t.offered)
            call.error = f"Ferramenta desconhecida: {call.name}. Use: {offered}."
            return call
        parsed = tool.with_currency_placed(parsed)
        parsed = with_speaker(tool, parsed, await self._speaker_of(tool, parsed, sender))
        refusal: DomainError | None = None
        words: Said | None = None
        if said is not None and tool.grounded and not await self._confirms_earlier(tool, parsed):
            # A proposal's amounts, currencies, months and days come from the members' words
            # (domain.tools.grounding); a confirmation repeats its preview's arguments as they were.
            # A first call with confirm=true is a proposal all the same (rule 1): grounded.
            words = Said.of(said, tool.reading.today(), tool.reading.currency, earlier,
                            known_as=await tool.known_as(parsed))
            grounded = ground(tool.grounded, tool.intent, parsed, words, writes=isinstance(tool, WriteTool))
            parsed, refusal = grounded.arguments, grounded.refusal
        if isinstance(tool, WriteTool) and not (parsed.get("operationId") or parsed.get("operation_id")):
            parsed = {**parsed, "operationId": MINTED}  # _scoped derives the real one
        call.received = parsed
        try:
            if isinstance(tool, WriteTool) and refusal is not None:
                await tool.check(tool.parse(parsed))  # the tool's own refusal names more: it goes first
                raise refusal
            if isinstance(tool, WriteTool) and words is not None and not named \
                    and not await self.operations.get(str(parsed.get("operationId") or parsed.get("operation_id"))):
                # A new proposal, not a call repeated: about what the members named.
                parsed = call.received = with_speaker(tool, await tool.as_named(parsed, words), sender)
                unnamed = await tool.unnamed(tool.parse(parsed), words)  # "gastei 80 no salão" on the rent
                if unnamed is not None:
                    raise unnamed
            if isinstance(tool, WriteTool):
                args = await self._scoped(tool, tool.parse(parsed))
                # A member must speak between a preview and its confirmation (contract rule 8).
                hold = args.operation_id in proposed_now
                receipt = await tool.run(args, confirmed_by=sender, force_preview=hold)
                if not receipt.confirmed:
                    proposed_now.add(args.operation_id)
                call.result = receipt
            else:
                call.result = await tool.invoke(parsed)
        except DomainError as error:
            call.error = str(error) + _way_out(call.name, error, call.args)
            if isinstance(tool, WriteTool) and words is not None and not isinstance(error, DuplicateName):
                call.error += await tool.instead(words)  # DuplicateName names the expense already
        return call

    async def _last_preview(self, history: Sequence[Message]) -> str | None:
        """The preview a correction corrects, in a line for the model: the last write call, waiting
        or cancelled (❌, then "era 178"); None when there is none, or it is written already (an
        undo is another matter)."""
        call = await self._as_proposed(last_write_call(history, self.tools))
        if call is None or call.get("operationId") is None:
            return None
        operation = await self.operations.get(str(call["operationId"]))
        if operation is None or operation.status not in (OperationStatus.PENDING, OperationStatus.CANCELLED):
            return None
        arguments = {key: value for key, value in call["arguments"].items() if key not in ("operationId", "confirm")}
        state = "Waiting for a member's ✅" if operation.status is OperationStatus.PENDING else "Cancelled by a member"
        return (f"{state}: {call['name']} {compact_json(arguments)}. The member's message "
                f"may correct it: then call {call['name']} again with what changes, a new operationId and "
                "confirm=false.")

    async def _as_proposed(self, call: dict[str, Any] | None) -> dict[str, Any] | None:
        """The last write call as its preview stands, for the reader to correct: with who paid as
        the preview names them (Paula's "foi 25" corrects Thiago's spend, still Thiago's); None
        when it is already written (a correction of it is an undo and a new call: the model's)."""
        operation_id = call.get("operationId") if call is not None else None
        if call is None or not isinstance(operation_id, str):
            return call
        operation = await self.operations.get(operation_id)
        if operation is None:
            return call
        if operation.status is OperationStatus.CONFIRMED:
            return None
        key = self.tools[call["name"]].speaker_argument
        stored = operation.arguments.get(to_snake(key)) if key else None
        if key and isinstance(stored, str) and stored and not call["arguments"].get(key):
            return {**call, "arguments": {**call["arguments"], key: stored}}
        return call

    async def _confirms_earlier(self, tool: Tool, arguments: Mapping[str, Any]) -> bool:
        """Whether a call confirms a preview already waiting (its operationId, or, without one, any
        of the same tool): only such a call keeps its arguments as the preview had them."""
        if arguments.get("confirm") is not True or not isinstance(tool, WriteTool):
            return False
        operation_id = arguments.get("operationId") or arguments.get("operation_id")
        if isinstance(operation_id, str) and operation_id:
            earlier = await self.operations.get(operation_id)
            return earlier is not None and earlier.status is OperationStatus.PENDING
        return any(op.tool == tool.name for op in await self.operations.pending())

    async def _scoped(self, tool: WriteTool[Any], args: WriteArgs) -> Any:
        """The model's operation id, made one it cannot break.

        Weak models copy one id for everything. An id already taken by an operation with other
        arguments (confirmed, closed, or another pending preview) would be an OperationConflict,
        a dead end, or would silently replace a preview the couple can see. The chat gives such a
        call an id of its own instead, derived from the model's id and what the call does: the
        same words again (a text confirmation, a repeat) land on the same operation, and new
        words on a new one. The tools keep contract §3's rules unchanged underneath."""
        digest = tool.digest(args)
        if args.operation_id == MINTED:  # the model gave none: the arguments name the operation
            return args.model_copy(update={"operation_id": f"{MINTED}~{digest[:SCOPE_DIGITS]}"})
        existing = await self.operations.get(args.operation_id)
        if existing is None or existing.fingerprint == digest:
            return args
        scoped = f"{args.operation_id[:MAX_MODEL_ID]}~{digest[:SCOPE_DIGITS]}"
        return args.model_copy(update={"operation_id": scoped})

    async def _speaker_of(self, tool: Tool, arguments: dict[str, Any], sender: str | None) -> str | None:
        """Whom an omitted speaker argument means: the member speaking, except in a call that
        repeats a pending operation of the same tool (Bruno confirming Ana's spend), where it is
        whoever that operation already names."""
        key = tool.speaker_argument
        if key is None or arguments.get(key) not in (None, ""):
            return sender
        operation_id = arguments.get("operationId") or arguments.get("operation_id")
        if isinstance(operation_id, str) and operation_id:
            earlier = await self.operations.get(operation_id)
            candidates = [earlier] if earlier is not None else []
        elif arguments.get("confirm") is True and isinstance(tool, WriteTool):
            candidates = await self.operations.pending()  # a weak model's confirmation without an id
        else:
            candidates = []
        for earlier in candidates:
            stored = earlier.arguments.get(to_snake(key))
            if (earlier.tool != tool.name or earlier.status is not OperationStatus.PENDING
                    or not isinstance(stored, str) or not stored):
                continue
            if operation_id or _digest_with(tool, arguments, key, stored) == earlier.fingerprint:
                return stored
        return sender

    async def confirm(self, operation_id: str, *, by: str | None = None) -> ToolReceipt:
        """A member pressed Confirmar."""
        return await self.confirmer.confirm(operation_id, by=by)

    async def cancel(self, operation_id: str, *, by: str | None = None) -> Operation:
        """A member pressed Cancelar."""
        return await self.confirmer.cancel(operation_id, by=by)


def last_write_call(history: Sequence[Message], tools: Mapping[str, Tool]) -> dict[str, Any] | None:
    """The write call the conversation proposed last, as it was made ({"name", "arguments"}): the
    one a correction ("não, era 40") changes. A call the tool refused does not count."""
    results = {m.get("tool_call_id"): m.get("content") for m in history if m.get("role") == "tool"}
    for message in reversed(history):
        for raw in reversed(message.get("tool_calls") or []):
            function = raw.get("function") or {}
            tool = tools.get(str(function.get("name")))
            result = results.get(raw.get("id"))
            if not isinstance(tool, WriteTool) or not isinstance(result, str) or result.startswith('{"error"'):
                continue
            try:
                arguments = json.loads(function.get("arguments") or "{}", parse_float=Decimal)
            except (json.JSONDecodeError, TypeError):
                continue
            operation_id = _operation_of(result)
            if isinstance(arguments, dict):
                # The operation it landed on (the chat may have scoped or minted its id).
                return {"name": tool.name, "arguments": arguments, "operationId": operation_id}
    return None


def spoken_since(history: Sequence[Message], operation_id: str) -> bool:
    """Whether a member spoke in the conversation after the turn that proposed `operation_id`
    (a correction the model answered with nothing): then "ok, confirma" may mean what they said
    since, not that preview. False when the conversation never proposed it (a command's preview)."""
    proposed_at = next((index for index in range(len(history) - 1, -1, -1)
                        if history[index].get("role") == "tool"
                        and _operation_of(history[index].get("content")) == operation_id), None)
    return proposed_at is not None and any(m.get("role") == "user" for m in history[proposed_at:])


def proposed_together(history: Sequence[Message], operation_ids: Sequence[str]) -> bool:
    """Whether one member's message proposed every one of `operation_ids`: each in the
    conversation, with no member's message between them."""
    at = [next((index for index in range(len(history) - 1, -1, -1)
                if history[index].get("role") == "tool"
                and _operation_of(history[index].get("content")) == operation_id), None)
          for operation_id in operation_ids]
    if any(index is None for index in at):
        return False
    first, last = min(i for i in at if i is not None), max(i for i in at if i is not None)
    return not any(message.get("role") == "user" for message in history[first:last + 1])


def _operation_of(result: Any) -> str | None:
    """The operation a write tool's result (its receipt, as the model read it) names."""
    try:
        found = json.loads(str(result))
    except json.JSONDecodeError:
        return None
    operation_id = found.get("operationId") if isinstance(found, dict) else None
    return operation_id if isinstance(operation_id, str) else None


def with_attachments(user: Message, attachments: Sequence[dict[str, Any]]) -> Message:
    """The user message with its extra content parts, in OpenAI's multi-part shape."""
    if not attachments:
        return user
    return {**user, "content": [{"type": "text", "text": user["content"]}, *attachments]}


SELF_WORDS = frozenset({"eu", "mim", "me", "i", "speaker"})


def _way_out(tool: str, error: DomainError, args: Mapping[str, Any]) -> str:
    """What the model may do instead, where the refusal shows it: a new expense under an existing
    expense's name, or one refused for a spend's arguments (who paid, the card, parcelas), is most
    often a spend on it ("fiz a compra do mês: 1.234,56 no supermercado", "comprei a ração em 3x no
    cartão, 390"); an acerto with someone who is no member, or when nobody owes, most often a bill
    paid."""
    if tool == "registerExpense" and isinstance(error, DuplicateName) and error.expense:
        return (f" A despesa {error.expense} já existe: um gasto ou uma conta paga nela é recordSpend "
                f'com expense="{error.expense}".')
    if tool == "registerExpense" and isinstance(error, InvalidArgument) and set(args) & _SPEND_ONLY:
        return (" Quem pagou, cartão, parcelas e dia são de um gasto: um gasto ou uma conta paga numa despesa "
                "da casa é recordSpend (expense, period, amount), não uma despesa nova.")
    if tool == "settleUp" and isinstance(error, UnknownMember | NothingOwed):
        # "paguei a diarista", "acertei o condomínio": money paid out of the house, not an acerto.
        return (" Um acerto (settleUp) é só entre membros da casa; uma conta paga ou um gasto com alguém "
                "de fora é recordSpend.")
    return ""


# A spend's arguments that a new expense never takes: sent to registerExpense, it was a spend.
_SPEND_ONLY: Final = frozenset({"paidBy", "paid_by", "shared", "card", "installments", "date", "amount"})


def reader_call(index: int, name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """A call the free-text reader makes, written as a model's tool call (the history keeps it so)."""
    return {"id": f"{READER}_{index}", "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}}


def with_speaker(tool: Tool, arguments: dict[str, Any], sender: str | None) -> dict[str, Any]:
    """Who paid, when the model leaves it out or writes "eu": the member speaking (the preview
    shows the name, so the member sees the default before confirming); and a tool's member
    written as "eu" (`self_argument`: "minha renda"), which left out stays out."""
    own = tool.self_argument
    if own is not None and sender is not None and isinstance(arguments.get(own), str) \
            and fold(arguments[own]) in SELF_WORDS:
        arguments = {**arguments, own: sender}  # "minha renda": the member speaking, never left out
    key = tool.speaker_argument
    if key is None or sender is None:
        return arguments
    value = arguments.get(key)
    if value is None or (isinstance(value, str) and (not value.strip() or fold(value) in SELF_WORDS)):
        return {**arguments, key: sender}
    return arguments


def _digest_with(tool: Tool, arguments: dict[str, Any], key: str, value: str) -> str | None:
    """The digest the call would have with `key` set to `value` (None: it does not even parse)."""
    assert isinstance(tool, WriteTool)
    try:
        return tool.digest(tool.parse({**arguments, key: value, "operationId": MINTED}))
    except DomainError:
        return None


def is_proposal(call: ToolCall) -> bool:
    """A write call that ran and came back as a preview, waiting for a member."""
    return isinstance(call.result, ToolReceipt) and not call.result.confirmed and call.error is None


def with_text_calls(answer: dict[str, Any], tools: Mapping[str, Tool], step: int) -> dict[str, Any]:
    """An answer whose text holds tool calls (contract §8) as if they had come as `tool_calls`."""
    if answer.get("tool_calls"):
        return answer
    found = read_text_calls(answer.get("content"), tools, id_prefix=f"text_{step}")
    if not found.calls:
        return answer
    return {**answer, "content": found.rest or None, "tool_calls": found.calls}


def check_answer(answer: Any) -> dict[str, Any]:
    """One assistant message in OpenAI shape, or ModelFailure(INVALID_RESPONSE)."""
    if not isinstance(answer, dict):
        raise ModelFailure(FailureKind.INVALID_RESPONSE, "not a message")
    calls = answer.get("tool_calls") or None
    content = answer.get("content")
    if calls is not None and (
        not isinstance(calls, list)
        or not all(isinstance(c, dict) and isinstance(c.get("function"), dict) for c in calls)
    ):
        raise ModelFailure(FailureKind.INVALID_RESPONSE, "malformed tool_calls")
    if content is not None and not isinstance(content, str):
        raise ModelFailure(FailureKind.INVALID_RESPONSE, "content is not text")
    if calls is None and content is None:
        content = ""  # an empty answer: the loop decides what it means
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [
            {"id": c.get("id") or f"call_{i}", "type": "function",
             "function": {"name": c["function"].get("name"), "arguments": c["function"].get("arguments")}}
            for i, c in enumerate(calls)
        ]
    if isinstance(answer.get("usage"), dict):
        message["usage"] = answer["usage"]
    return message


def replayable(answer: dict[str, Any]) -> dict[str, Any]:
    """The assistant message as it goes back into the history: tool-call arguments that are not a
    JSON object become "{}" (the tool's error result already tells the model what was wrong).

    litellm parses the arguments of past calls for Anthropic, Gemini and Ollama and refuses the
    whole request when they are not JSON, so one malformed call would fail every later turn."""
    calls = answer.get("tool_calls")
    if not calls:
        return answer
    safe = []
    for c in calls:
        try:
            valid = isinstance(json.loads(c["function"].get("arguments") or "{}"), dict)
        except (json.JSONDecodeError, TypeError):
            valid = False
        safe.append(c if valid else {**c, "function": {**c["function"], "arguments": "{}"}})
    return {**answer, "tool_calls": safe}


def echoes(answer: Mapping[str, Any], history: Sequence[Message]) -> bool:
    """Whether an answer with text and no calls only repeats the history: the placeholder a turn
    of previews ends on, a tool's result ("<tool_response>…"), or an earlier message word for word
    (a reply of the model's only when it is long: "Feito!" may well be said twice)."""
    text = (answer.get("content") or "").strip()
    if answer.get("tool_calls") or not text:
        return False
    if text == PREVIEWS_SENT or text.startswith(("<tool_response>", '{"operationId"')):
        return True
    return any((message.get("role") == "tool" or (message.get("role") == "assistant" and len(text) >= _ECHO_LENGTH))
               and (message.get("content") or "").strip() == text
               for message in history if isinstance(message.get("content"), str))


def add_usage(total: dict[str, int], usage: Any) -> None:
    if isinstance(usage, dict):
        for key in ("prompt_tokens", "completion_tokens"):
            value = usage.get(key)
            if isinstance(value, int):
                total[key] = total.get(key, 0) + value


def window(history: list[Message], token_budget: int) -> list[Message]:
    """Drops whole turns from the front until the history fits a rough token budget (4 chars a token)."""
    def tokens(messages: list[Message]) -> int:
        return sum(len(json.dumps(m, ensure_ascii=False)) for m in messages) // 4

    while history and tokens(history) > token_budget:
        starts = [i for i, m in enumerate(history) if m.get("role") == "user"]
        history = history[starts[1]:] if len(starts) > 1 else []
    return history
