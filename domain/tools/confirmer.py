"""Confirming or cancelling a pending operation by its id alone: what a button press does."""

from __future__ import annotations

from collections.abc import Iterable

from domain.errors import OperationClosed, UnknownOperation
from domain.operations.log import Operation, OperationLog, OperationStatus
from domain.operations.receipts import ToolReceipt
from domain.tools.base import Tool, WriteTool


class Confirmer:
    """Runs a pending operation's own tool again, with its stored arguments and confirm=True."""

    def __init__(self, tools: Iterable[Tool], operations: OperationLog) -> None:
        self.operations = operations
        self._write_tools = {t.name: t for t in tools if isinstance(t, WriteTool)}

    async def confirm(self, operation_id: str, *, by: str | None = None) -> ToolReceipt:
        operation = await self.operations.get(operation_id)
        if operation is None:
            raise UnknownOperation(operation_id)
        if operation.status in (OperationStatus.CANCELLED, OperationStatus.EXPIRED):
            raise OperationClosed(operation_id, operation.status)
        tool = self._write_tools.get(operation.tool)
        if tool is None:
            raise UnknownOperation(operation_id)
        args = tool.arguments_for(operation).model_copy(update={"confirm": True})
        return await tool.run(args, confirmed_by=by)

    async def cancel(self, operation_id: str, *, by: str | None = None) -> Operation:
        return await self.operations.cancel(operation_id, cancelled_by=by)
