"""The household as the bot sees it: chats, members, the agent, commands and button presses.

Handlers and the console call this and render what it returns; it never talks to Telegram.
"""

from __future__ import annotations

import contextlib
import logging
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from datetime import timedelta
from typing import Any, BinaryIO
from zoneinfo import ZoneInfo

from bot import commands, history, rendering
from bot.membership import ERASE, JOIN, EraseHouseholdTool, JoinHouseholdTool
from bot.parsing import CommandUsageError
from bot.ports import ChatLink, Storage
from bot.replies import decision_of
from domain.agent.chat import DEFAULT_HISTORY_TURNS, AgentChat, AgentReply
from domain.agent.clock import DEFAULT_TIMEZONE, Clock, local_today, utc_now
from domain.agent.model import LanguageModel
from domain.agent.operations import DEFAULT_TTL, UNDO_TOOL, Operation, OperationLog, OperationStatus
from domain.agent.previews import (
    AdjustmentPreview,
    ContributionPreview,
    ErasePreview,
    JoinPreview,
    SpendPreview,
    UndoPreview,
)
from domain.agent.previews import Preview as OperationPreview
from domain.agent.prompt import system_prompt
from domain.agent.receipts import ToolReceipt
from domain.agent.reports import GoalReport, UnreportableGoal
from domain.agent.toolbox import household_tools
from domain.agent.tools import (
    BudgetStatusTool,
    Tool,
    WriteTool,
)
from domain.agent.tools.goals import goal_matching
from domain.agent.tools.registry import read_preview
from domain.agent.working_memory import working_memory
from domain.budget import Budget
from domain.errors import DomainError, DuplicateName, NotFound, OperationClosed
from domain.goals import Goal
from domain.household import Household, Member
from domain.money import Money, Period
from domain.rates import DEFAULT_RATES, ExchangeRates
from domain.text import safe_text

log = logging.getLogger(__name__)

CONFIRM = "ok"
CANCEL = "no"
UNDO = "un"  # ↩️ Desfazer on a confirmed message: "un:<the confirmed operation's key>"
CALLBACK_SEPARATOR = ":"
# Keys are secrets.token_urlsafe: anything else is refused before it reaches a query (PostgreSQL
# rejects a NUL byte in text with an error, which turned a forged press into a handler failure).
KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,32}")
NON_MEMBER_HINT_EVERY = timedelta(minutes=30)
# /gasto and /resumo take months from a year before the household began (to catch up on the
# months before the bot) to a year ahead of this one.
MONTHS_AHEAD = 12
MONTHS_BEFORE = 12
MAX_MODEL_TEXT = 4000  # characters of one message the model may be sent


@dataclass(frozen=True)
class Speaker:
    user_id: int
    first_name: str


@dataclass(frozen=True)
class Reply:
    text: str


@dataclass(frozen=True)
class Preview:
    """A preview to post with Confirmar/Cancelar; `key` goes into the buttons' callback data."""

    operation_id: str
    key: str
    text: str


@dataclass(frozen=True)
class Edit:
    """A posted preview whose message now shows its outcome: without buttons, or with only
    ↩️ Desfazer (whose callback data carries `undo_key`) once confirmed."""

    message_id: int
    text: str
    undo_key: str | None = None


Outcome = Reply | Preview | Edit


@dataclass(frozen=True)
class PressResult:
    answer: str
    alert: bool = False
    edit: Edit | None = None
    post: Preview | None = None  # a new preview to post (↩️ Desfazer proposes an undo)
    undone: Edit | None = None  # a confirmed undo: the undone operation's message, button gone


def callback_data(action: str, key: str) -> str:
    return f"{action}{CALLBACK_SEPARATOR}{key}"


@dataclass
class ChatContext:
    chat_id: int
    link: ChatLink
    household: Household
    operations: OperationLog
    tools: list[Tool]

    def tool(self, name: str) -> Tool:
        return next(t for t in self.tools if t.name == name)


class HouseholdService:
    def __init__(
        self,
        storage: Storage,
        *,
        model: LanguageModel | None = None,
        clock: Clock = utc_now,
        timezone: str = DEFAULT_TIMEZONE,
        ttl: timedelta = DEFAULT_TTL,
        rates: ExchangeRates = DEFAULT_RATES,
        default_currency: str = "BRL",
    ) -> None:
        self.storage = storage
        self.model = model
        self.clock = clock
        self.timezone = timezone
        self.ttl = ttl
        self.rates = rates
        self.default_currency = default_currency
        self._hinted: dict[tuple[int, int], Any] = {}

    # -- membership ------------------------------------------------------------------------

    async def start(self, chat_id: int, title: str | None, speaker: Speaker) -> list[Outcome]:
        """Sets the chat up as a household with the sender (once). In a chat that is a household
        already, a stranger's /start asks to join, as /entrar does."""
        context = await self._context(chat_id)
        if context is None:
            household = Household.create(title or "Nossa casa", self.default_currency)
            budget = Budget.create(self.default_currency, household_id=household.id)
            await self.storage.households.save(household)
            await self.storage.budgets.save(budget)
            link = await self.storage.directory.link_chat(chat_id, household.id, budget.id,
                                                          created_at=self.clock())
            created = link.household_id == household.id
            if created:
                founder, _ = await self._ensure_member(chat_id, link, speaker, speaker.first_name)
                return [Reply(rendering.welcome_text(household.name, founder.name, created=True,
                                                     joined=True))]
            context = await self._context(chat_id)  # another /start won the race
            assert context is not None
        member = await self._member_of(context, speaker.user_id)
        if member is not None:
            return [Reply(rendering.welcome_text(context.household.name, member.name, created=False,
                                                 joined=False))]
        return await self._request_join(context, speaker, speaker.first_name)

    async def join(self, chat_id: int, speaker: Speaker, name: str | None,
                   *, operation_id: str | None = None) -> list[Outcome]:
        """/entrar: a preview that a member of the household must confirm; until then the
        sender is not a member."""
        context = await self._context(chat_id)
        if context is None:
            return [Reply(rendering.not_started_text())]
        member = await self._member_of(context, speaker.user_id)
        if member is not None:
            return [Reply(rendering.joined_text(member.name, joined=False))]
        return await self._request_join(context, speaker, name or speaker.first_name,
                                        operation_id=operation_id)

    async def _request_join(self, context: ChatContext, speaker: Speaker, name: str,
                            *, operation_id: str | None = None) -> list[Outcome]:
        tool = JoinHouseholdTool(self.storage, context.chat_id, context.household.id, context.operations)
        arguments = {"name": name, "userId": speaker.user_id}
        return await self._propose_bot_operation(context, tool, arguments, operation_id)

    async def leave(self, chat_id: int, user_id: int) -> str:
        """/sair: the sender stops being a member (their history stays)."""
        left = await self.member_left(chat_id, user_id)
        return rendering.left_text(left) if left else rendering.not_a_member_text()

    async def member_left(self, chat_id: int, user_id: int) -> str | None:
        """The user left or was removed from the group: no longer a member, so no longer able
        to confirm. Returns the member's name, or None if they were not one."""
        context = await self._context(chat_id)
        if context is None:
            return None
        member_id = await self.storage.directory.member_of_user(chat_id, user_id)
        for _ in range(3):
            household = await self.storage.households.load(context.link.household_id)
            member = household.remove_member(member_id) if member_id is not None else None
            if member is None:
                return None
            try:
                await self.storage.households.save(household)
            except DomainError:  # ConcurrentModification: someone else changed the household
                continue
            return member.name
        return None

    async def erase(self, chat_id: int, speaker: Speaker, *,
                    operation_id: str | None = None) -> list[Outcome]:
        """/apagar: a preview that, confirmed by a member, deletes every record of the household."""
        found = await self._member_context(chat_id, speaker)
        if isinstance(found, Reply):
            return [found]
        context, _ = found
        tool = EraseHouseholdTool(self.storage, context.household.id, context.operations)
        return await self._propose_bot_operation(context, tool, {"household": context.household.name},
                                                 operation_id)

    async def _member_context(self, chat_id: int, speaker: Speaker) -> tuple[ChatContext, Member] | Reply:
        """The chat's household and the speaker as its member, or the reply that says why not."""
        context = await self._context(chat_id)
        if context is None:
            return Reply(rendering.not_started_text())
        member = await self._member_of(context, speaker.user_id)
        if member is None:
            return Reply(rendering.join_hint_text())
        return context, member

    async def _propose_bot_operation(self, context: ChatContext, tool: WriteTool,
                                     arguments: dict[str, Any], operation_id: str | None) -> list[Outcome]:
        """A command's preview: the bot mints the operation id (from the Telegram update, so an
        update processed again after a crash finds its operation instead of proposing another)."""
        outcome = await self._proposal(context, tool, arguments, operation_id or f"cmd-{secrets.token_hex(6)}")
        return [outcome] if outcome is not None else []

    async def _proposal(self, context: ChatContext, tool: WriteTool, arguments: dict[str, Any],
                        operation_id: str) -> Preview | Reply | None:
        """The preview of `tool` on `arguments` under an id the bot chose; None when that id was
        proposed before and its preview needs no posting again."""
        earlier = await context.operations.get(operation_id)
        if earlier is not None:
            return await self._again(context, earlier)
        return await self._propose(context, tool, arguments, operation_id)

    async def _again(self, context: ChatContext, earlier: Operation) -> Preview | None:
        """An operation proposed before (a redelivered or retried update, a second press): its
        preview is posted again only if it never reached the chat and can still be confirmed."""
        if earlier.message_id is None and earlier.status is OperationStatus.PENDING:
            return await self._preview(context, earlier)
        return None

    async def _propose(self, context: ChatContext, tool: WriteTool, arguments: dict[str, Any],
                       operation_id: str) -> Preview | Reply:
        try:
            receipt = await tool.run(tool.parse({**arguments, "operationId": operation_id}))
        except DomainError as error:
            return Reply(rendering.error_text(error))
        operation = await context.operations.get(receipt.operation_id)
        assert operation is not None
        return await self._preview(context, operation)

    def _bot_tools(self, context: ChatContext) -> list[Tool]:
        return [JoinHouseholdTool(self.storage, context.chat_id, context.household.id, context.operations),
                EraseHouseholdTool(self.storage, context.household.id, context.operations)]

    # -- the group's lifecycle ------------------------------------------------------------------

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> bool:
        """The group became a supergroup under a new id: its household, members, pending
        previews and conversation follow it."""
        moved = await self.storage.migrate_chat(old_chat_id, new_chat_id)
        if moved:
            log.info("chat %s moved to %s", old_chat_id, new_chat_id)
        return moved

    async def bot_membership(self, chat_id: int, present: bool) -> None:
        """The bot was removed from the group (nothing more is sent there) or added back."""
        await self.storage.set_departed(chat_id, not present, now=self.clock())

    async def can_send(self, chat_id: int) -> bool:
        return not await self.storage.is_departed(chat_id)

    async def _ensure_member(self, chat_id: int, link: ChatLink, speaker: Speaker,
                             name: str) -> tuple[Member, bool]:
        household = await self.storage.households.load(link.household_id)
        member_id = await self.storage.directory.member_of_user(chat_id, speaker.user_id)
        if household.has_member(member_id):
            assert member_id is not None
            return household.member_by_id(member_id), False
        try:
            member = household.add_member(name, id=member_id)
        except DuplicateName:
            raise DuplicateName(name, "outro membro; use /entrar <outro nome>") from None
        await self.storage.households.save(household)
        if member_id is None:
            await self.storage.directory.link_member(chat_id, speaker.user_id, member.id)
        return member, True

    async def member(self, chat_id: int, user_id: int) -> Member | None:
        context = await self._context(chat_id)
        if context is None:
            return None
        return await self._member_of(context, user_id)

    # -- the agent ---------------------------------------------------------------------------

    async def talk(self, chat_id: int, speaker: Speaker, text: str, *,
                   attachments: Sequence[dict[str, Any]] = (),
                   model: LanguageModel | None = None) -> list[Outcome]:
        """A member's free text goes to the agent; previews come back as their own messages.

        `attachments` (a photo's image part) reach the model with this message only, and `model`
        (a vision model) answers it instead of the usual one (bot/media_service.py)."""
        if len(text) > MAX_MODEL_TEXT:  # never sent to the model, nor stored
            return [Reply(rendering.text_too_long_text(MAX_MODEL_TEXT))]
        context = await self._context(chat_id)
        if context is None:
            return []
        member = await self._member_of(context, speaker.user_id)
        if member is None:
            return [Reply(rendering.join_hint_text())] if self._should_hint(chat_id, speaker) else []
        model = model or self.model
        if model is None:
            return [Reply(rendering.no_model_text())]
        chat = AgentChat.create(
            model, context.tools, failure_note=_without_model_note(), operations=context.operations,
            conversations=self.storage.conversations, conversation_id=self._scope(chat_id),
            history_turns=DEFAULT_HISTORY_TURNS, system_prompt=await self._prompt(context),
        )
        reply = await chat.send(text, sender=member.name, attachments=attachments)
        return await self._outcomes(context, reply)

    async def _prompt(self, context: ChatContext) -> str:
        budget = await self.storage.budgets.load(context.link.budget_id, periods=())
        goals = await self.storage.goals.list(context.link.household_id, history=False)
        today = local_today(self.clock, self.timezone)
        return system_prompt(working_memory(context.household, budget, goals, today))

    async def _outcomes(self, context: ChatContext, reply: AgentReply) -> list[Outcome]:
        outcomes: list[Outcome] = [Reply(reply.text)] if reply.text.strip() else []
        if not outcomes and not reply.receipts:
            # Tools ran (reads, or calls refused) and the model then said nothing: weak models
            # do. The member must not be left without an answer.
            return [Reply(rendering.silent_model_text())]
        latest: dict[str, ToolReceipt] = {}
        for receipt in reply.receipts:
            latest.pop(receipt.operation_id, None)
            latest[receipt.operation_id] = receipt
        for receipt in latest.values():
            operation = await context.operations.get(receipt.operation_id)
            if operation is None:
                continue
            if not receipt.confirmed:
                outcomes.append(await self._preview(context, operation))
            elif receipt.persisted:
                # Confirmed by text through the model: the posted preview shows it as a press would.
                edit = await self._final_edit(context, operation)
                if edit is not None:
                    outcomes.append(edit)
        return outcomes

    async def _preview(self, context: ChatContext, operation: Operation) -> Preview:
        shown = await self._shown(context, operation)
        return Preview(operation.operation_id, operation.key, rendering.preview_text(operation.tool, shown))

    async def _shown(self, context: ChatContext, operation: Operation) -> OperationPreview:
        """The preview as a person should read it: the expense or goal as the household spells
        it ("Lua de mel", not the "lua" that was typed), so the member sees what will change.
        The stored preview keeps the model's words, as the contract wants; what is shown has
        every text made safe (no line breaks, control or invisible characters)."""
        shown = await self._spelled(context, read_preview(operation.tool, operation.preview))
        if isinstance(shown, UndoPreview):  # an undo shows the operation it undoes
            shown = replace(shown, original=await self._spelled(context, shown.original))
        safe: OperationPreview = _safe(shown)
        return safe

    async def _spelled(self, context: ChatContext, preview: OperationPreview) -> OperationPreview:
        try:
            if isinstance(preview, SpendPreview | AdjustmentPreview):
                budget = await self.storage.budgets.load(context.link.budget_id, periods=())
                preview = replace(preview, expense=budget.find_by_name(preview.expense).name)
            if isinstance(preview, ContributionPreview):
                goals = await self.storage.goals.list(context.link.household_id, history=False)
                preview = replace(preview, goal=goal_matching(goals, preview.goal).name)
        except DomainError:
            pass  # renamed or gone since: show the words as given
        return preview

    # -- commands without a model -----------------------------------------------------------

    async def command(self, chat_id: int, speaker: Speaker, command: str, text: str, *,
                      operation_id: str | None = None) -> list[Outcome]:
        """A write command's preview, through the same tool and log as the agent.

        The bot mints the operation id from the Telegram update (`operation_id`), so an update
        processed again after a crash finds its operation instead of proposing a second one.
        """
        from bot.command_registry import write_parser  # at call time: the registry names the handlers

        found = await self._member_context(chat_id, speaker)
        if isinstance(found, Reply):
            return [found]
        context, member = found
        try:
            tool_name, arguments = write_parser(command)(text, self.today(), context.household.currency)
        except CommandUsageError as usage:
            return [Reply(str(usage))]
        refusal = self._month_refusal(context, arguments.get("period"))
        if refusal is not None:
            return [Reply(refusal)]
        tool = context.tool(tool_name)
        assert isinstance(tool, WriteTool)
        arguments = {key: (member.name if value is commands.SENDER else value)
                     for key, value in arguments.items()}
        if arguments.get("contributors") is commands.EVERY_MEMBER:
            arguments["contributors"] = [m.name for m in context.household.members]
        return await self._propose_bot_operation(context, tool, arguments, operation_id)

    def today(self) -> Any:
        return local_today(self.clock, self.timezone)

    def _month_refusal(self, context: ChatContext, month: Any) -> str | None:
        """Why `month` ("2026-06") is outside the household's sane window, or None if it is not:
        from a year before the household began to a year ahead."""
        if not isinstance(month, str):
            return None
        try:
            period = Period.parse(month)
        except DomainError:
            return None  # the tool says what is wrong with it
        last = _months_after(Period.of(self.today()), MONTHS_AHEAD)
        since = context.link.since
        began = Period.of(since.astimezone(ZoneInfo(self.timezone)).date()) if since else None
        first = _months_after(began, -MONTHS_BEFORE) if began is not None else None
        if last < period or (first is not None and period < first):
            return rendering.month_out_of_range_text(period, first, last)
        return None

    async def summary(self, chat_id: int, period: Period | None) -> str:
        context = await self._context(chat_id)
        if context is None:
            return rendering.not_started_text()
        period = period or Period.of(self.today())
        refusal = self._month_refusal(context, str(period))
        if refusal is not None:
            return refusal
        tool = context.tool(BudgetStatusTool.name)
        assert isinstance(tool, BudgetStatusTool)
        report = await tool.report(period)
        return rendering.budget_report_text(report)

    async def goals(self, chat_id: int) -> str:
        context = await self._context(chat_id)
        if context is None:
            return rendering.not_started_text()
        goals = await self.storage.goals.list(context.link.household_id, history=False)
        today = self.today()
        return rendering.goal_reports_text([self._goal_report(g, today) for g in goals if not g.archived])

    def _goal_report(self, goal: Goal, today: Any) -> GoalReport | UnreportableGoal:
        """A goal's report; a goal that cannot be reported (a currency without a rate) shows why,
        without hiding the others."""
        try:
            return GoalReport.of(goal, today, self.rates)
        except DomainError as error:
            return UnreportableGoal(goal.name, str(error))

    async def pending_previews(self, chat_id: int) -> list[Preview]:
        """Every preview of the chat still waiting for a press (the console lists them)."""
        context = await self._context(chat_id)
        if context is None:
            return []
        return [await self._preview(context, op) for op in await context.operations.pending()]

    # -- history, undo, export (contract §8) ---------------------------------------------------

    async def statement(self, chat_id: int, period: Period | None) -> str:
        """/extrato [AAAA-MM]: the month's ledger entries, newest first."""
        context = await self._context(chat_id)
        if context is None:
            return rendering.not_started_text()
        period = period or Period.of(self.today())
        entries = await self.storage.ledger.month(context.link.household_id, period,
                                                  limit=history.STATEMENT_LINES + 1)
        return history.statement_text(period, entries, self.timezone)

    async def export(self, chat_id: int, period: Period | None, out: BinaryIO) -> str | None:
        """/exportar [AAAA-MM]: writes the CSV to `out` and returns its file name (None when the
        chat is no household). Streamed: memory stays flat however many entries there are."""
        context = await self._context(chat_id)
        if context is None:
            return None
        await history.write_csv(self.storage.ledger.stream(context.link.household_id, period), out,
                                self.timezone)
        return history.export_file_name(period)

    async def undo_last(self, chat_id: int, speaker: Speaker, *, operation_id: str) -> list[Outcome]:
        """/desfazer: proposes undoing the household's last confirmed operation not yet undone."""
        found = await self._member_context(chat_id, speaker)
        if isinstance(found, Reply):
            return [found]
        context, _ = found
        latest = await context.operations.last_undoable(besides=(JOIN, ERASE))
        if latest is None:
            return [Reply(history.nothing_to_undo_text())]
        outcome = await self._undo_preview(context, latest, operation_id)
        return [outcome] if outcome is not None else []

    async def _propose_undo(self, context: ChatContext, operation: Operation) -> PressResult:
        """↩️ Desfazer on a confirmed message: an undo preview, once per confirmed operation
        (a second press, or a redelivered one, finds the same undo operation)."""
        if operation.status is not OperationStatus.CONFIRMED or operation.tool == UNDO_TOOL:
            return PressResult(rendering.unknown_operation_alert(), alert=True)
        if operation.undone_by is not None:
            return PressResult(history.already_undone_alert(), alert=True)
        outcome = await self._undo_preview(context, operation, f"undo-{operation.key}")
        if isinstance(outcome, Preview):
            return PressResult(history.undo_proposed_answer(), post=outcome)
        if isinstance(outcome, Reply):
            return PressResult(outcome.text[:190], alert=True)
        return PressResult(history.undo_already_proposed_alert(), alert=True)

    async def _undo_preview(self, context: ChatContext, target: Operation,
                            operation_id: str) -> Preview | Reply | None:
        tool = context.tool(UNDO_TOOL)
        assert isinstance(tool, WriteTool)
        return await self._proposal(context, tool, {"target": target.operation_id}, operation_id)

    # -- buttons -----------------------------------------------------------------------------

    async def preview_posted(self, chat_id: int, operation_id: str, message_id: int) -> None:
        await self.storage.operations(self._scope(chat_id)).attach_message(operation_id, message_id)

    async def preview_not_posted(self, chat_id: int, operation_id: str) -> None:
        """A preview that never reached the chat is closed: nobody saw it, nobody may confirm it."""
        with contextlib.suppress(DomainError):
            await self.storage.operations(self._scope(chat_id)).cancel(operation_id, cancelled_by=None)

    async def reply_to_preview(self, chat_id: int, user_id: int, message_id: int,
                               text: str) -> PressResult | None:
        """A text that replies to a posted preview and says only "confirma" (or "ok", 👍, ...) or
        "cancela" decides it exactly as the button would: the same press, no model (§8).
        None when the text is no such decision or the message is no preview: it goes to the agent."""
        action = {"confirm": CONFIRM, "cancel": CANCEL}.get(decision_of(text) or "")
        if action is None:
            return None
        operation = await self.storage.operations(self._scope(chat_id)).get_by_message(message_id)
        if operation is None:
            return None
        return await self.press(chat_id, user_id, callback_data(action, operation.key))

    async def press(self, chat_id: int, user_id: int, data: str | None) -> PressResult:
        """A Confirmar/Cancelar press. Callback data is hostile until it names a pending operation
        of this very chat, and only a member of this chat's household may press."""
        action, _, key = (data or "").partition(CALLBACK_SEPARATOR)
        if action not in (CONFIRM, CANCEL, UNDO) or not KEY_SHAPE.fullmatch(key):
            log.warning("refused malformed callback data in chat %s from user %s", chat_id, user_id)
            return PressResult(rendering.unknown_operation_alert(), alert=True)
        context = await self._context(chat_id)
        member = await self._member_of(context, user_id) if context is not None else None
        if context is None or member is None:
            log.warning("refused a press by non-member %s in chat %s", user_id, chat_id)
            if context is not None:
                return await self._press_by_non_member(context, user_id, action, key)
            return PressResult(rendering.not_a_member_alert(), alert=True)
        operation = await context.operations.get_by_key(key)
        if operation is None:
            log.warning("refused unknown operation key in chat %s from user %s", chat_id, user_id)
            return PressResult(rendering.unknown_operation_alert(), alert=True)
        if action == CANCEL:
            return await self._cancel(context, operation, member)
        if action == UNDO:
            return await self._propose_undo(context, operation)
        return await self._confirm(context, operation, member)

    async def _press_by_non_member(self, context: ChatContext, user_id: int, action: str,
                                   key: str) -> PressResult:
        """Someone who asked to join may withdraw their own request, never confirm it."""
        operation = await context.operations.get_by_key(key)
        requester = operation is not None and operation.tool == JOIN and \
            operation.arguments.get("user_id") == user_id
        if not requester or operation is None:
            return PressResult(rendering.not_a_member_alert(), alert=True)
        if action == CANCEL:
            joining = read_preview(operation.tool, operation.preview)
            assert isinstance(joining, JoinPreview)
            return await self._cancel(context, operation, Member(id="", name=joining.name))
        return PressResult(rendering.own_join_alert(), alert=True)

    async def _confirm(self, context: ChatContext, operation: Operation, member: Member) -> PressResult:
        chat = AgentChat.create(_NoModel(), [*context.tools, *self._bot_tools(context)],
                                operations=context.operations)
        try:
            receipt = await chat.confirm(operation.operation_id, by=member.name)
        except OperationClosed as closed:
            # The domain's message speaks to the model (operation ids, "operationId"); a person
            # pressing a button gets the alert written for them.
            current = await context.operations.get(operation.operation_id) or operation
            edit = await self._final_edit(context, current)
            alert = (rendering.expired_alert() if closed.status == OperationStatus.EXPIRED
                     else rendering.already_cancelled_alert())
            return PressResult(alert, alert=True, edit=edit)
        except DomainError as error:
            return PressResult(rendering.error_text(error)[:200], alert=True)
        if operation.tool == ERASE and receipt.persisted:
            erasing = read_preview(operation.tool, operation.preview)
            assert isinstance(erasing, ErasePreview)
            erased = rendering.erased_text(erasing.household, member.name)
            edit = Edit(operation.message_id, erased) if operation.message_id is not None else None
            return PressResult(rendering.confirmed_answer(), edit=edit)
        current = await context.operations.get(operation.operation_id) or operation
        edit = await self._final_edit(context, current)
        undone = None
        if receipt.persisted and current.tool == UNDO_TOOL:  # the undone message loses its button
            undoing = read_preview(current.tool, current.preview)
            assert isinstance(undoing, UndoPreview)
            target = await context.operations.get(undoing.operation)
            undone = await self._final_edit(context, target) if target is not None else None
        answer = rendering.confirmed_answer() if receipt.persisted else rendering.already_confirmed_alert()
        return PressResult(answer, edit=edit, undone=undone)

    async def _cancel(self, context: ChatContext, operation: Operation, member: Member) -> PressResult:
        current = await context.operations.cancel(operation.operation_id, cancelled_by=member.name)
        edit = await self._final_edit(context, current)
        if current.status is OperationStatus.CONFIRMED:
            return PressResult(rendering.already_confirmed_alert(), alert=True, edit=edit)
        return PressResult(rendering.cancelled_answer(), edit=edit)

    async def _final_edit(self, context: ChatContext, operation: Operation) -> Edit | None:
        """The posted preview's message, showing how the operation ended, without buttons."""
        if operation.message_id is None:
            return None
        tool, preview, by = operation.tool, await self._shown(context, operation), operation.decided_by
        if operation.status is OperationStatus.CONFIRMED:
            text = rendering.confirmed_text(tool, preview, by)
            if operation.undone_by is not None:
                text = f"{text}\n{history.undone_note()}"
            elif tool != UNDO_TOOL:
                return Edit(operation.message_id, text, undo_key=operation.key)
        elif operation.status is OperationStatus.CANCELLED:
            text = rendering.cancelled_text(tool, preview, by)
        elif operation.status is OperationStatus.EXPIRED:
            text = rendering.expired_text(tool, preview)
        else:
            return None
        return Edit(operation.message_id, text)

    # -- wiring ------------------------------------------------------------------------------

    @staticmethod
    def _scope(chat_id: int) -> str:
        return f"chat:{chat_id}"

    async def _context(self, chat_id: int) -> ChatContext | None:
        link = await self.storage.directory.household_of_chat(chat_id)
        if link is None:
            return None
        try:
            household = await self.storage.households.load(link.household_id)
        except NotFound:  # erased by another worker between the two reads
            return None
        operations = self.storage.operations(self._scope(chat_id))
        return ChatContext(chat_id, link, household, operations,
                           self._tools(link, household, operations))

    def _tools(self, link: ChatLink, household: Household, operations: OperationLog) -> list[Tool]:
        return household_tools(
            budget_repo=self.storage.budgets, budget_id=link.budget_id, goal_repo=self.storage.goals,
            household=household, operations=operations, now=self.clock, timezone=self.timezone,
            rates=self.rates, statement_imports=self.storage.statement_imports,
            ledger=self.storage.ledger)

    async def _member_of(self, context: ChatContext, user_id: int) -> Member | None:
        """The user's member, only while they are in the household (a link outlives leaving)."""
        member_id = await self.storage.directory.member_of_user(context.chat_id, user_id)
        if member_id is None:
            return None
        return next((m for m in context.household.members if m.id == member_id), None)

    def _should_hint(self, chat_id: int, speaker: Speaker) -> bool:
        now = self.clock()
        last = self._hinted.get((chat_id, speaker.user_id))
        if last is not None and now - last < NON_MEMBER_HINT_EVERY:
            return False
        self._hinted[(chat_id, speaker.user_id)] = now
        return True


def _months_after(month: Period, months: int) -> Period:
    index = month.year * 12 + month.month - 1 + months
    return Period(index // 12, index % 12 + 1)


def _safe(value: Any) -> Any:
    """A preview's text values as they may be shown (domain.text.safe_text)."""
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, tuple):
        return tuple(_safe(item) for item in value)
    if isinstance(value, Money | Period) or not is_dataclass(value) or isinstance(value, type):
        return value
    return replace(value, **{f.name: _safe(getattr(value, f.name)) for f in fields(value) if f.init})


class _NoModel:
    """Buttons confirm without a model; the chat is only used for its confirmer."""

    async def complete(self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]]) -> dict[str, Any]:
        raise AssertionError("a button press never calls the model")


def _without_model_note() -> str:
    """What a model failure's reply adds: the commands that still work (read at call time: the
    command registry names the handlers, which import this module)."""
    from bot.command_registry import without_model_note

    return without_model_note()
