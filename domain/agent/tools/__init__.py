"""The agent's tools: the only way the model reaches the domain."""

from domain.agent.tools.base import ReadTool, Tool, WriteTool
from domain.agent.tools.budget import (
    AdjustExpenseTool,
    BudgetStatusTool,
    BudgetTool,
    RecordSpendTool,
    RegisterExpenseTool,
    SetIncomeTool,
)
from domain.agent.tools.goals import (
    ContributeToGoalTool,
    CreateGoalTool,
    FeasibilityTool,
    GoalStatusTool,
    GoalTool,
)
from domain.agent.tools.housekeeping import ArchiveTool, RenameTool
from domain.agent.tools.undo import UndoOperationTool

__all__ = [
    "AdjustExpenseTool",
    "ArchiveTool",
    "BudgetStatusTool",
    "BudgetTool",
    "ContributeToGoalTool",
    "CreateGoalTool",
    "FeasibilityTool",
    "GoalStatusTool",
    "GoalTool",
    "ReadTool",
    "RecordSpendTool",
    "RegisterExpenseTool",
    "RenameTool",
    "SetIncomeTool",
    "Tool",
    "UndoOperationTool",
    "WriteTool",
]
