"""Every tool, once: its name, whether it writes, whether the model is offered it, its preview.

The toolbox's order (what the model is shown), the eval's tool lists, the chat's known names and
the renderer's lookup of a stored preview all read this table; nobody keeps a copy. A new tool
is its module, its line here (with its preview type, for a write) and its tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.agent.previews import (
    AdjustmentPreview,
    ArchivePreview,
    ContributionPreview,
    ErasePreview,
    ExpensePreview,
    GoalPreview,
    ImportPreview,
    IncomePreview,
    JoinPreview,
    Preview,
    RenamePreview,
    SpendPreview,
    UndoPreview,
    UnreadablePreview,
    preview_from_json,
)
from domain.agent.tools.base import Tool
from domain.agent.tools.budget import (
    AdjustExpenseTool,
    BudgetStatusTool,
    RecordSpendTool,
    RegisterExpenseTool,
    SetIncomeTool,
)
from domain.agent.tools.goals import ContributeToGoalTool, CreateGoalTool, FeasibilityTool, GoalStatusTool
from domain.agent.tools.housekeeping import ArchiveTool, RenameTool
from domain.agent.tools.statements import ImportStatementTool
from domain.agent.tools.undo import UndoOperationTool

# The bot's own operations (bot/membership.py): a member admits a person, or erases the
# household. Their tools need the bot's storage, so the domain knows them by name only.
JOIN_HOUSEHOLD = "joinHousehold"
ERASE_HOUSEHOLD = "eraseHousehold"


@dataclass(frozen=True)
class Registered:
    name: str
    writes: bool
    offered: bool  # shown to the model; False for what only the bot or a command proposes
    preview: type[Preview] | None  # a write's preview type; None for a read
    tool: type[Tool[Any]] | None  # None for the bot's own operations


def _entry(tool: type[Tool[Any]], preview: type[Preview] | None = None) -> Registered:
    return Registered(tool.name, tool.writes, tool.offered, preview, tool)


TOOLS: tuple[Registered, ...] = (
    _entry(RecordSpendTool, SpendPreview),
    _entry(RegisterExpenseTool, ExpensePreview),
    _entry(AdjustExpenseTool, AdjustmentPreview),
    _entry(SetIncomeTool, IncomePreview),
    _entry(ContributeToGoalTool, ContributionPreview),
    _entry(CreateGoalTool, GoalPreview),
    _entry(UndoOperationTool, UndoPreview),
    _entry(RenameTool, RenamePreview),
    _entry(ArchiveTool, ArchivePreview),
    _entry(BudgetStatusTool),
    _entry(GoalStatusTool),
    _entry(FeasibilityTool),
    _entry(ImportStatementTool, ImportPreview),
    Registered(JOIN_HOUSEHOLD, writes=True, offered=False, preview=JoinPreview, tool=None),
    Registered(ERASE_HOUSEHOLD, writes=True, offered=False, preview=ErasePreview, tool=None),
)

BY_NAME: Mapping[str, Registered] = {entry.name: entry for entry in TOOLS}


def registered(name: str) -> Registered:
    """The tool named `name`; KeyError for a name no tool has."""
    return BY_NAME[name]


def write_tools() -> tuple[Registered, ...]:
    return tuple(entry for entry in TOOLS if entry.writes)


def read_preview(tool: str, data: Mapping[str, Any]) -> Preview:
    """A stored preview (the operation log's JSON) as its tool's preview type."""
    entry = BY_NAME.get(tool)
    if entry is None or entry.preview is None:
        raise UnreadablePreview(f"{tool!r} is no registered write tool")
    return preview_from_json(entry.preview, data, read_preview)
