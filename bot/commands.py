"""The commands that need no model, read into the same tool calls the agent would make."""

from __future__ import annotations

from datetime import date
from typing import Any

from bot import parsing
from domain.agent.tools import (
    AdjustExpenseTool,
    ArchiveTool,
    ContributeToGoalTool,
    CreateGoalTool,
    RecordSpendTool,
    RegisterExpenseTool,
    RenameTool,
)
from domain.money import Period

ToolCallArgs = tuple[str, dict[str, Any]]


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


SENDER: Any = _Marker("SENDER")  # filled with the sender's member name
EVERY_MEMBER: Any = _Marker("EVERY_MEMBER")  # /meta: every member of the household contributes


def _money(parsed: parsing.ParsedAmount, currency: str) -> dict[str, Any]:
    return {"amount": parsed.amount, "currency": parsed.currency or currency}


def _period(value: tuple[int, int] | None, today: date) -> str:
    return str(Period(*value)) if value else str(Period.of(today))


def gasto(text: str, today: date, currency: str) -> ToolCallArgs:
    spend = parsing.parse_gasto(text)
    return RecordSpendTool.name, {"expense": spend.expense, "period": _period(spend.period, today),
                           "amount": _money(spend.amount, currency)}


def despesa(text: str, today: date, currency: str) -> ToolCallArgs:
    expense = parsing.parse_despesa(text)
    return RegisterExpenseTool.name, {"name": expense.name, "expected": _money(expense.expected, currency),
                               "billingDay": expense.billing_day}


def ajuste(text: str, today: date, currency: str) -> ToolCallArgs:
    adjust = parsing.parse_ajuste(text)
    return AdjustExpenseTool.name, {"expense": adjust.expense,
                             "newExpected": _money(adjust.new_expected, currency)}


def aporte(text: str, today: date, currency: str) -> ToolCallArgs:
    contribution = parsing.parse_aporte(text)
    return ContributeToGoalTool.name, {"goal": contribution.goal, "paidBy": SENDER,
                                "amount": _money(contribution.amount, currency),
                                "date": today.isoformat()}


def meta(text: str, today: date, currency: str) -> ToolCallArgs:
    goal = parsing.parse_meta(text)
    return CreateGoalTool.name, {"name": goal.name, "target": _money(goal.target, currency),
                          "contributors": EVERY_MEMBER,
                          "deadline": goal.deadline.isoformat() if goal.deadline else None}


def renomear(text: str, today: date, currency: str) -> ToolCallArgs:
    """`/renomear mercado para Feira`: the last " para " splits the old name from the new."""
    old, separator, new = text.rpartition(" para ")
    if not separator or not old.strip() or not new.strip():
        raise parsing.CommandUsageError("renomear")
    return RenameTool.name, {"name": old.strip(), "newName": new.strip()}


def arquivar(text: str, today: date, currency: str) -> ToolCallArgs:
    if not text.strip():
        raise parsing.CommandUsageError("arquivar")
    return ArchiveTool.name, {"name": text.strip()}


def resumo_period(text: str, today: date | None = None) -> Period | None:
    """`/resumo`'s month: none (this month), AAAA-MM, or a month's name given `today`."""
    value = parsing.parse_resumo(text, today)
    return Period(*value) if value else None
