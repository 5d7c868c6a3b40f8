"""The agent's tools: the only way the model reaches the domain."""

from domain.agent.tools.base import ReadTool, Tool, WriteTool
from domain.agent.tools.budget import (
    AdjustExpenseTool,
    BudgetTool,
    RecordSpendTool,
    RegisterExpenseTool,
    SetIncomeTool,
)
from domain.agent.tools.goals import ContributeToGoalTool, CreateGoalTool, FeasibilityTool, GoalTool
from domain.agent.tools.undo import UndoOperationTool

__all__ = [
    "AdjustExpenseTool",
    "BudgetTool",
    "ContributeToGoalTool",
    "CreateGoalTool",
    "FeasibilityTool",
    "GoalTool",
    "ReadTool",
    "RecordSpendTool",
    "RegisterExpenseTool",
    "SetIncomeTool",
    "Tool",
    "UndoOperationTool",
    "WriteTool",
]
