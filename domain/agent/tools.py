"""Contract §3's import path for the tools (they live in domain/tools/, beside the agent)."""

from domain.tools.base import ReadTool, Tool, WriteTool
from domain.tools.budget import (
    AdjustExpenseTool,
    BudgetStatusTool,
    RecordSpendTool,
    RegisterExpenseTool,
    SetIncomeTool,
)
from domain.tools.goals import ContributeToGoalTool, CreateGoalTool, FeasibilityTool, GoalStatusTool
from domain.tools.housekeeping import ArchiveTool, RenameTool
from domain.tools.undo import UndoOperationTool

__all__ = [
    "AdjustExpenseTool",
    "ArchiveTool",
    "BudgetStatusTool",
    "ContributeToGoalTool",
    "CreateGoalTool",
    "FeasibilityTool",
    "GoalStatusTool",
    "ReadTool",
    "RecordSpendTool",
    "RegisterExpenseTool",
    "RenameTool",
    "SetIncomeTool",
    "Tool",
    "UndoOperationTool",
    "WriteTool",
]
