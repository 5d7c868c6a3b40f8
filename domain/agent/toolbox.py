"""Every tool the agent has for one household, wired to one operation log."""

from __future__ import annotations

from domain.agent.clock import DEFAULT_TIMEZONE, Clock, utc_now
from domain.agent.operations import OperationLog
from domain.agent.tools import (
    AdjustExpenseTool,
    BudgetStatusTool,
    ContributeToGoalTool,
    CreateGoalTool,
    FeasibilityTool,
    GoalTool,
    RecordSpendTool,
    RegisterExpenseTool,
    SetIncomeTool,
    Tool,
)
from domain.agent.tools.base import Reading
from domain.agent.tools.housekeeping import ArchiveTool, RenameTool
from domain.agent.tools.registry import TOOLS
from domain.agent.tools.statements import ImportStatementTool
from domain.agent.tools.undo import UndoOperationTool
from domain.household import Household
from domain.ledger import Ledger
from domain.ports import BudgetRepository, GoalRepository
from domain.rates import DEFAULT_RATES, ExchangeRates
from domain.statements import StatementImports


def household_tools(
    *,
    budget_repo: BudgetRepository,
    budget_id: str,
    goal_repo: GoalRepository,
    household: Household,
    operations: OperationLog,
    now: Clock | None = None,
    timezone: str = DEFAULT_TIMEZONE,
    rates: ExchangeRates = DEFAULT_RATES,
    statement_imports: StatementImports | None = None,
    ledger: Ledger | None = None,
) -> list[Tool]:
    """The six write tools (sharing `operations`) and the three read tools, in the order the
    model is shown them; with a `ledger` (the bot's), undoOperation, renameItem and archiveItem
    too; with `statement_imports`, also the statement import, which only the bot proposes (the
    model is not shown it)."""
    undo: list[Tool] = [] if ledger is None else [
        UndoOperationTool(ledger, budget_repo, budget_id, goal_repo, operations),
        RenameTool(budget_repo, budget_id, goal_repo, household.id, operations),
        ArchiveTool(budget_repo, budget_id, goal_repo, household.id, operations)]
    reading = Reading(currency=household.currency, now=now or utc_now, timezone=timezone)
    tools: list[Tool] = [
        RecordSpendTool(budget_repo, budget_id, operations),
        RegisterExpenseTool(budget_repo, budget_id, operations, now=now, timezone=timezone),
        AdjustExpenseTool(budget_repo, budget_id, operations, now=now, timezone=timezone),
        SetIncomeTool(budget_repo, budget_id, operations),
        ContributeToGoalTool(goal_repo, household_id=household.id, operations=operations),
        CreateGoalTool(goal_repo, household, now, timezone=timezone, operations=operations, rates=rates),
        *undo,
        BudgetStatusTool(budget_repo, budget_id),
        GoalTool(goal_repo, household.id, now, timezone=timezone, rates=rates),
        FeasibilityTool(budget_repo, budget_id, goal_repo, household.id, now, timezone=timezone,
                        rates=rates),
    ]
    if statement_imports is not None:
        tools.append(ImportStatementTool(budget_repo, budget_id, household.id, statement_imports,
                                         operations))
    order = {entry.name: index for index, entry in enumerate(TOOLS)}
    return [tool.reading_as(reading) for tool in sorted(tools, key=lambda tool: order[tool.name])]


def build_schemas() -> None:
    """Builds every tool's schema once (pydantic's generation costs tens of ms), so a worker's
    first message does not: called on the warm-up thread at start-up."""
    for entry in TOOLS:
        if entry.tool is not None and entry.offered:
            entry.tool.__new__(entry.tool).schema()
