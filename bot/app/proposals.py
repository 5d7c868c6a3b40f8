"""Operations as the chat shows them: a preview to post, and the edit that shows how it ended.

Every proposal the bot makes on its own (a command, a join, an erase, an undo, a statement) goes
through `propose`, under an operation id the bot minted from the update: an update processed
again finds its operation instead of proposing a second one.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

from bot.app.chats import ChatContext
from bot.app.outcomes import Edit, Photo, Preview, Reply
from bot.app.ports import Storage
from bot.texts import history, messages, previews, sharing
from domain.budget import Budget
from domain.errors import DomainError
from domain.goals import Goal
from domain.money import Money, Period
from domain.operations.log import Operation, OperationStatus
from domain.operations.previews import Preview as ProposedChange
from domain.text import safe_text
from domain.tools.budget import AdjustmentPreview, SpendPreview
from domain.tools.goals import ContributionPreview, goal_matching
from domain.tools.registry import read_preview, undoable
from domain.tools.sharing import SettlementPreview
from domain.tools.undo import UndoPreview


def minted() -> str:
    """An operation id for a proposal no update names (the console's)."""
    return f"cmd-{secrets.token_hex(6)}"


@dataclass(frozen=True)
class Spelling:
    """The budget and goals a turn already loaded: how the household spells its expenses and
    goals, so showing the turn's previews loads neither again."""

    budget: Budget
    goals: Sequence[Goal]


class Proposals:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def propose(self, context: ChatContext, tool: str, arguments: dict[str, Any],
                      operation_id: str) -> Preview | Reply | None:
        """The preview of `tool` on `arguments` under an id the bot chose; None when that id was
        proposed before and its preview needs no posting again."""
        earlier = await context.operations.get(operation_id)
        if earlier is not None:
            return await self.again(context, earlier)
        return await self.fresh(context, tool, arguments, operation_id)

    async def again(self, context: ChatContext, earlier: Operation) -> Preview | None:
        """An operation proposed before (a redelivered or retried update, a second press): its
        preview is posted again only if it never reached the chat and can still be confirmed."""
        if earlier.message_id is None and earlier.status is OperationStatus.PENDING:
            return await self.preview(context, earlier)
        return None

    async def fresh(self, context: ChatContext, tool: str, arguments: dict[str, Any],
                    operation_id: str) -> Preview | Reply:
        """A new proposal; a check it fails is the member's pt-BR reply, nothing proposed."""
        write = context.write_tool(tool)
        try:
            receipt = await write.run(write.parse({**arguments, "operationId": operation_id}))
        except DomainError as error:
            return Reply(messages.error_text(error))
        operation = await context.operations.get(receipt.operation_id)
        assert operation is not None
        return await self.preview(context, operation)

    async def preview(self, context: ChatContext, operation: Operation,
                      spelling: Spelling | None = None) -> Preview:
        shown = await self.shown(context, operation, spelling)
        pix = self._pix(context, operation, shown)
        text = previews.preview_text(operation.tool, shown, pix.lines if pix else ())
        photo = Photo(sharing.qr_png(pix.payload), pix.caption) if pix else None
        return Preview(operation.operation_id, operation.key, text, photo)

    @staticmethod
    def _pix(context: ChatContext, operation: Operation, shown: ProposedChange) -> sharing.PixPayment | None:
        """An acerto's Pix copia e cola, when its creditor has a key."""
        if not isinstance(shown, SettlementPreview):
            return None
        return sharing.pix_payment(shown, context.household, operation.key)

    async def shown(self, context: ChatContext, operation: Operation,
                    spelling: Spelling | None = None) -> ProposedChange:
        """The preview as a person should read it: the expense or goal as the household spells
        it ("Lua de mel", not the "lua" that was typed), so the member sees what will change.
        A confirmed operation shows its receipt's preview, made again at the confirmation: the
        totals after it, not the ones of when it was proposed (another spend may have been
        confirmed in between). The stored preview keeps the model's words, as the contract wants;
        what is shown has every text made safe (no line breaks, control or invisible characters)."""
        stored = operation.preview
        if operation.status is OperationStatus.CONFIRMED and operation.receipt is not None:
            stored = operation.receipt.preview
        shown = await self._spelled(context, read_preview(operation.tool, stored), spelling)
        if isinstance(shown, UndoPreview):  # an undo shows the operation it undoes
            shown = replace(shown, original=await self._spelled(context, shown.original, spelling))
        safe: ProposedChange = _safe(shown)
        return safe

    async def _spelled(self, context: ChatContext, preview: ProposedChange,
                       spelling: Spelling | None = None) -> ProposedChange:
        """The preview with the expense or goal as the household spells it: from what the turn
        loaded, or loaded now when the turn loaded nothing or does not know the name (registered
        while the model thought)."""
        if spelling is not None:
            spelled = self._spelled_from(preview, spelling.budget, spelling.goals)
            if spelled is not None:
                return spelled
        budget = goals = None
        if isinstance(preview, SpendPreview | AdjustmentPreview):
            budget = await self.storage.budgets.load(context.link.budget_id, periods=())
        if isinstance(preview, ContributionPreview):
            goals = await self.storage.goals.list(context.link.household_id, history=False)
        # Renamed or gone since: the words as given.
        return self._spelled_from(preview, budget, goals) or preview

    @staticmethod
    def _spelled_from(preview: ProposedChange, budget: Budget | None,
                      goals: Sequence[Goal] | None) -> ProposedChange | None:
        """None when the name is not found in these."""
        try:
            if isinstance(preview, SpendPreview | AdjustmentPreview):
                return replace(preview, expense=budget.find_by_name(preview.expense).name) if budget is not None else None
            if isinstance(preview, ContributionPreview):
                return replace(preview, goal=goal_matching(goals, preview.goal).name) if goals is not None else None
        except DomainError:
            return None
        return preview

    async def final_edit(self, context: ChatContext, operation: Operation,
                         spelling: Spelling | None = None) -> Edit | None:
        """The posted preview's message, showing how the operation ended, without its
        Confirmar/Cancelar buttons (a confirmed one keeps ↩️ Desfazer)."""
        if operation.message_id is None:
            return None
        tool, by = operation.tool, operation.decided_by
        shown = await self.shown(context, operation, spelling)
        if operation.status is OperationStatus.CONFIRMED:
            pix = self._pix(context, operation, shown)
            text = previews.confirmed_text(tool, shown, by, pix.lines if pix else ())
            if operation.undone_by is not None:
                text = f"{text}\n{history.undone_note()}"
            elif undoable(tool):
                return Edit(operation.message_id, text, undo_key=operation.key)
        elif operation.status is OperationStatus.CANCELLED:
            text = previews.cancelled_text(tool, shown, by)
        elif operation.status is OperationStatus.EXPIRED:
            text = previews.expired_text(tool, shown)
        else:
            return None
        return Edit(operation.message_id, text)


def _safe(value: Any) -> Any:
    """A preview's text values as they may be shown (domain.text.safe_text)."""
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, tuple):
        return tuple(_safe(item) for item in value)
    if isinstance(value, Money | Period) or not is_dataclass(value) or isinstance(value, type):
        return value
    return replace(value, **{f.name: _safe(getattr(value, f.name)) for f in fields(value) if f.init})
