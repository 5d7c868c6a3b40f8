"""A member decides a posted preview: ✅ Confirmar, ❌ Cancelar, ↩️ Desfazer, or a reply that says
"confirma" / "cancela". The same decision from any of them writes exactly once."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace

from bot.app.chats import ChatContext, Chats, scope
from bot.app.outcomes import Decision, Edit, PressResult, Preview, Reply, Speaker
from bot.app.proposals import Proposals
from bot.texts import history, messages, previews
from domain.agent.chat import DEFAULT_HISTORY_TURNS, proposed_together, spoken_since
from domain.errors import DomainError, OperationClosed
from domain.household import Member
from domain.operations.log import UNDO_TOOL, Operation, OperationStatus, is_key
from domain.reading.replies import decision_of
from domain.tools.confirmer import Confirmer
from domain.tools.membership import EraseHouseholdTool, ErasePreview, JoinHouseholdTool, JoinPreview
from domain.tools.registry import read_preview, undoable
from domain.tools.undo import CHANGE_NO_TOTALS, UndoPreview

log = logging.getLogger(__name__)


class Decisions:
    def __init__(self, chats: Chats, proposals: Proposals) -> None:
        self.chats = chats
        self.proposals = proposals

    # -- the preview's message -------------------------------------------------------------------

    async def posted(self, chat_id: int, operation_id: str, message_id: int) -> None:
        """The preview reached the chat as `message_id`: from now on it can be confirmed."""
        await self.chats.operations(chat_id).attach_message(operation_id, message_id)

    async def not_posted(self, chat_id: int, operation_id: str) -> None:
        """A preview that never reached the chat is closed: nobody saw it, nobody may confirm it."""
        with contextlib.suppress(DomainError):
            await self.chats.operations(chat_id).cancel(operation_id, cancelled_by=None)

    # -- deciding ----------------------------------------------------------------------------------

    async def press(self, chat_id: int, user_id: int, decision: Decision, key: str) -> PressResult:
        """A decision on the operation `key` names. The key is hostile until it names an operation
        of this very chat, and only a member of this chat's household may decide."""
        if not is_key(key):
            log.warning("refused a malformed operation key in chat %s from user %s", chat_id, user_id)
            return PressResult(messages.unknown_operation_alert(), alert=True)
        context = await self.chats.context(chat_id)
        member = await self.chats.member(context, user_id) if context is not None else None
        if context is None or member is None:
            log.warning("refused a press by non-member %s in chat %s", user_id, chat_id)
            if context is not None:
                return await self._by_non_member(context, user_id, decision, key)
            return PressResult(messages.not_a_member_alert(), alert=True)
        operation = await context.operations.get_by_key(key)
        if operation is None:
            log.warning("refused unknown operation key in chat %s from user %s", chat_id, user_id)
            return PressResult(messages.unknown_operation_alert(), alert=True)
        if decision is Decision.CANCEL:
            return await self._cancel(context, operation, member)
        if decision is Decision.UNDO:
            return await self._propose_undo(context, operation)
        return await self._confirm(context, operation, member)

    async def reply(self, chat_id: int, user_id: int, message_id: int, text: str) -> PressResult | None:
        """A text that replies to a posted preview and says only "confirma" (or "ok", 👍, ...) or
        "cancela" decides it exactly as the button would: the same press, no model (§8).
        None when the text is no such decision or the message is no preview."""
        said = decision_of(text)
        if said is None:
            return None
        operation = await self.chats.operations(chat_id).get_by_message(message_id)
        if operation is None:
            return None
        decision = Decision.CONFIRM if said == "confirm" else Decision.CANCEL
        return await self.press(chat_id, user_id, decision, operation.key)

    async def bare(self, chat_id: int, user_id: int, text: str) -> PressResult | Reply | None:
        """A "confirma" (or "cancela", "ok", 👍 …) that answers no preview in particular: Telegram
        text that replies to none, or a line in the console. One preview waiting: that one,
        except an erase, which is never confirmed without pointing at it; several: which one?
        (a "confirma" to the previews one message proposed goes on to the agent, which confirms
        them all). None: nothing to confirm. None back when the text is no such word or the speaker no
        member (their text goes on as any other)."""
        said = decision_of(text)
        if said is None:
            return None
        context = await self.chats.context(chat_id)
        member = await self.chats.member(context, user_id) if context is not None else None
        if context is None or member is None:
            return None
        confirming = said == "confirm"
        waiting = [op for op in await context.operations.pending() if op.message_id is not None]
        if not waiting:
            return Reply(messages.nothing_pending_text(confirming=confirming))
        if len(waiting) > 1:
            if confirming and await self._proposed_together(chat_id, waiting):
                return None  # the agent confirms them all, with no model, as it does "fechado"
            return Reply(messages.which_pending_text(len(waiting), confirming=confirming))
        [operation] = waiting
        if confirming and operation.tool == EraseHouseholdTool.name:
            return Reply(messages.erase_needs_its_button_text())
        result = await self.press(chat_id, user_id, Decision.CONFIRM if confirming else Decision.CANCEL,
                                  operation.key)
        if result.alert:
            return result
        current = await context.operations.get(operation.operation_id) or operation
        summary = previews.summary_line(current.tool, await self.proposals.shown(context, current))
        return replace(result, answer=messages.decided_text(summary, confirmed=confirming))

    async def _proposed_together(self, chat_id: int, waiting: list[Operation]) -> bool:
        """Whether one member's message proposed every preview waiting ("gastei 50 no mercado e 30
        na farmácia"), with nobody speaking since: then a "confirma" is to all of them."""
        history = await self.chats.storage.conversations.recent(scope(chat_id), DEFAULT_HISTORY_TURNS)
        ids = [operation.operation_id for operation in waiting]
        return proposed_together(history, ids) and not any(spoken_since(history, i) for i in ids)

    async def _by_non_member(self, context: ChatContext, user_id: int, decision: Decision,
                             key: str) -> PressResult:
        """Someone who asked to join may withdraw their own request, never confirm it."""
        operation = await context.operations.get_by_key(key)
        requester = operation is not None and operation.tool == JoinHouseholdTool.name and \
            operation.arguments.get("user_id") == user_id
        if not requester or operation is None:
            return PressResult(messages.not_a_member_alert(), alert=True)
        if decision is Decision.CANCEL:
            joining = read_preview(operation.tool, operation.preview)
            assert isinstance(joining, JoinPreview)
            return await self._cancel(context, operation, Member(id="", name=joining.name))
        return PressResult(messages.own_join_alert(), alert=True)

    async def _confirm(self, context: ChatContext, operation: Operation, member: Member) -> PressResult:
        confirmer = Confirmer(context.tools, context.operations)
        try:
            receipt = await confirmer.confirm(operation.operation_id, by=member.name)
        except OperationClosed as closed:
            # The domain's message speaks to the model (operation ids, "operationId"); a person
            # pressing a button gets the alert written for them.
            current = await context.operations.get(operation.operation_id) or operation
            edit = await self.proposals.final_edit(context, current)
            alert = (messages.expired_alert() if closed.status == OperationStatus.EXPIRED
                     else messages.already_cancelled_alert())
            return PressResult(alert, alert=True, edit=edit)
        except DomainError as error:
            return PressResult(messages.error_text(error)[:200], alert=True)
        if operation.tool == EraseHouseholdTool.name and receipt.persisted:
            erasing = read_preview(operation.tool, operation.preview)
            assert isinstance(erasing, ErasePreview)
            erased = messages.erased_text(erasing.household, member.name)
            edit = Edit(operation.message_id, erased) if operation.message_id is not None else None
            return PressResult(messages.confirmed_answer(), edit=edit, decided=True)
        current = await context.operations.get(operation.operation_id) or operation
        edit = await self.proposals.final_edit(context, current)
        undone = None
        if receipt.persisted and current.tool == UNDO_TOOL:  # the undone message loses its button
            undoing = read_preview(current.tool, current.preview)
            assert isinstance(undoing, UndoPreview)
            target = await context.operations.get(undoing.operation)
            undone = await self.proposals.final_edit(context, target) if target is not None else None
        answer = messages.confirmed_answer() if receipt.persisted else messages.already_confirmed_alert()
        return PressResult(answer, edit=edit, undone=undone, decided=receipt.persisted)

    async def _cancel(self, context: ChatContext, operation: Operation, member: Member) -> PressResult:
        current = await context.operations.cancel(operation.operation_id, cancelled_by=member.name)
        edit = await self.proposals.final_edit(context, current)
        if current.status is OperationStatus.CONFIRMED:
            return PressResult(messages.already_confirmed_alert(), alert=True, edit=edit)
        return PressResult(messages.cancelled_answer(), edit=edit, decided=True)

    # -- undo ----------------------------------------------------------------------------------------

    async def undo_last(self, chat_id: int, speaker: Speaker, *, operation_id: str) -> list[Preview | Reply]:
        """/desfazer: proposes undoing the household's last confirmed operation not yet undone."""
        found = await self.chats.for_member(chat_id, speaker)
        if isinstance(found, Reply):
            return [found]
        context, _ = found
        latest = await context.operations.last_undoable(besides=CHANGE_NO_TOTALS)
        if latest is None:
            return [Reply(history.nothing_to_undo_text())]
        outcome = await self._undo_preview(context, latest, operation_id)
        return [outcome] if outcome is not None else []

    async def _propose_undo(self, context: ChatContext, operation: Operation) -> PressResult:
        """↩️ Desfazer on a confirmed message: an undo preview, once per confirmed operation
        (a second press, or a redelivered one, finds the same undo operation)."""
        if operation.status is not OperationStatus.CONFIRMED:
            return PressResult(messages.unknown_operation_alert(), alert=True)
        if not undoable(operation.tool):  # a button left from before, or a forged one
            return PressResult(history.not_undoable_alert(), alert=True)
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
        return await self.proposals.propose(context, UNDO_TOOL, {"target": target.operation_id}, operation_id)
