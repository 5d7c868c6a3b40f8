"""Every tool, once, in the order the model is shown them: the one table that builds a household's
toolbox, names the tools for the eval and the prompt's budget, and reads a stored preview back
as its tool's type.

A new tool is its module (its arguments, its preview type, `bound`), one line here, its pt-BR
text (bot/texts/previews.py, for a write) and its tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from domain.operations.previews import Preview, UnreadablePreview, preview_from_json
from domain.tools.base import HouseholdBinding, Reading, Tool, WriteTool
from domain.tools.budget import (
    AdjustExpenseTool,
    BudgetStatusTool,
    RecordSpendTool,
    RegisterExpenseTool,
    SetIncomeTool,
)
from domain.tools.cards import CardBillTool, RegisterCardTool
from domain.tools.goals import ContributeToGoalTool, CreateGoalTool, FeasibilityTool, GoalStatusTool
from domain.tools.housekeeping import ArchiveTool, RenameTool
from domain.tools.membership import EraseHouseholdTool, JoinHouseholdTool, LeaveHouseholdTool
from domain.tools.sharing import BalanceTool, SetPixKeyTool, SetSplitTool, SettleUpTool
from domain.tools.statements import ImportStatementTool
from domain.tools.undo import UndoOperationTool

TOOLS: Final[tuple[type[Tool[Any]], ...]] = (
    RecordSpendTool,
    RegisterExpenseTool,
    AdjustExpenseTool,
    SetIncomeTool,
    ContributeToGoalTool,
    CreateGoalTool,
    SettleUpTool,
    UndoOperationTool,
    RenameTool,
    ArchiveTool,
    RegisterCardTool,
    BudgetStatusTool,
    GoalStatusTool,
    FeasibilityTool,
    BalanceTool,
    CardBillTool,
    SetSplitTool,
    SetPixKeyTool,
    ImportStatementTool,
    JoinHouseholdTool,
    LeaveHouseholdTool,
    EraseHouseholdTool,
)

BY_NAME: Final[Mapping[str, type[Tool[Any]]]] = {tool.name: tool for tool in TOOLS}


def household_tools(binding: HouseholdBinding) -> list[Tool[Any]]:
    """Every tool the binding can serve, in TOOLS's order, sharing its operation log and reading
    arguments with the household's currency and today."""
    binding = replace(binding, read_preview=read_preview)
    reading = Reading(currency=binding.household.currency, now=binding.now, timezone=binding.timezone)
    tools = [tool.bound(binding) for tool in TOOLS]
    return [tool.reading_as(reading) for tool in tools if tool is not None]


def undoable(tool: str) -> bool:
    """Whether a confirmed operation of `tool` can be undone (its message carries ↩️ Desfazer)."""
    found = BY_NAME.get(tool)
    return found is not None and issubclass(found, WriteTool) and found.undoable


def read_preview(tool: str, data: Mapping[str, Any]) -> Preview:
    """A stored preview (the operation log's JSON) as its tool's preview type."""
    found = BY_NAME.get(tool)
    if found is None or not issubclass(found, WriteTool):
        raise UnreadablePreview(f"{tool!r} is no registered write tool")
    return preview_from_json(found.preview_type, data, read_preview)


def build_schemas() -> None:
    """Builds every offered tool's schema once (pydantic's generation costs tens of ms), so a
    worker's first message does not: called on the warm-up thread at start-up."""
    for tool in TOOLS:
        if tool.offered:
            tool.__new__(tool).schema()
