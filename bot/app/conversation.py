"""A member's free text: the agent reads it, and every change it proposes comes back as its own
preview."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.app.chats import ChatContext, Chats, scope
from bot.app.outcomes import Outcome, Reply, Speaker
from bot.app.ports import Storage
from bot.app.proposals import Proposals, Spelling
from bot.app.queries import Queries
from bot.texts import guide, messages
from domain.agent.chat import DEFAULT_HISTORY_TURNS, AgentChat, AgentReply, ToolCall
from domain.agent.model import FailureKind, LanguageModel
from domain.agent.prompt import system_prompt
from domain.agent.reader import SpendReader
from domain.agent.working_memory import working_memory
from domain.operations.receipts import ToolReceipt

MAX_MODEL_TEXT = 4000  # characters of one message the model may be sent


class Conversation:
    def __init__(self, storage: Storage, chats: Chats, proposals: Proposals, queries: Queries, *,
                 model: LanguageModel | None) -> None:
        self.storage = storage
        self.chats = chats
        self.proposals = proposals
        self.queries = queries
        self.model = model

    async def talk(self, chat_id: int, speaker: Speaker, text: str, *,
                   attachments: Sequence[dict[str, Any]] = (),
                   model: LanguageModel | None = None) -> list[Outcome]:
        """A member's free text goes to the agent; previews come back as their own messages.

        `attachments` (a photo's image part) reach the model with this message only, and `model`
        (a vision model) answers it instead of the usual one (bot/app/media.py)."""
        if len(text) > MAX_MODEL_TEXT:  # never sent to the model, nor stored
            return [Reply(messages.text_too_long_text(MAX_MODEL_TEXT))]
        context = await self.chats.context(chat_id)
        if context is None:
            return []
        member = await self.chats.member(context, speaker.user_id)
        if member is None:
            return await self.chats.outsider(chat_id, speaker)
        model = model or self.model
        budget = await self.storage.budgets.load(context.link.budget_id, periods=())
        goals = await self.storage.goals.list(context.link.household_id, history=False)
        today = self.chats.today()
        reader = SpendReader.of(context.household, budget, goals, today)
        chat = AgentChat.create(
            model, context.tools, failure_note=guide.without_model_note(), operations=context.operations,
            conversations=self.storage.conversations, conversation_id=scope(chat_id),
            history_turns=DEFAULT_HISTORY_TURNS, system_prompt=system_prompt(),
            # The commonest spends need no model (contract §9); the rest goes to it without its small
            # talk, with what the message is about.
            reader=reader.read, focus=reader.focus,
            answer=lambda calls: self._answer(context, calls),
            memory=lambda said: working_memory(context.household, budget, goals, today, said),
            together=self.storage.unit_of_work,
        )
        reply = await chat.send(text, sender=member.name, attachments=attachments)
        if reply.failure is FailureKind.NOT_CONFIGURED:
            return [Reply(guide.no_model_text())]
        # The previews spell expenses and goals as the household does, from what this turn loaded.
        return await self._outcomes(context, reply, Spelling(budget, goals))

    async def _answer(self, context: ChatContext, calls: Sequence[ToolCall]) -> str | None:
        """The questions the reader took, answered as their read commands answer them."""
        answers = []
        for call in calls:
            result = call.result if isinstance(call.result, dict) else {}
            answered = await self.queries.read_answer(context, call.name, call.received or call.args, result)
            if answered is None:
                return None
            answers.append(answered)
        return "\n\n".join(answers)

    async def _outcomes(self, context: ChatContext, reply: AgentReply, spelling: Spelling) -> list[Outcome]:
        outcomes: list[Outcome] = [Reply(reply.text)] if reply.text.strip() else []
        if not outcomes and not reply.receipts:
            # Tools ran (reads, or calls refused) and the model then said nothing: weak models
            # do. The member must not be left without an answer.
            return [Reply(messages.silent_model_text())]
        for operation_id in reply.superseded:  # the preview a correction replaced shows it is cancelled
            superseded = await context.operations.get(operation_id)
            edit = await self.proposals.final_edit(context, superseded, spelling) if superseded else None
            if edit is not None:
                outcomes.append(edit)
        latest: dict[str, ToolReceipt] = {}
        for receipt in reply.receipts:
            latest.pop(receipt.operation_id, None)
            latest[receipt.operation_id] = receipt
        for receipt in latest.values():
            operation = await context.operations.get(receipt.operation_id)
            if operation is None:
                continue
            if not receipt.confirmed:
                outcomes.append(await self.proposals.preview(context, operation, spelling))
            elif receipt.persisted:
                # Confirmed by text through the model: the posted preview shows it as a press would.
                edit = await self.proposals.final_edit(context, operation, spelling)
                if edit is not None:
                    outcomes.append(edit)
        return outcomes
