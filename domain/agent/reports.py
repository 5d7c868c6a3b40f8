"""What the read tools report, typed: one frozen type per result, JSON for the model in one function.

/resumo and /metas render these types (bot/rendering.py) instead of the JSON the model reads, so the
JSON can be trimmed for tokens without changing what people see. The JSON keeps contract §3's keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from domain.budget import Budget
from domain.goals import Goal
from domain.money import Money, Period
from domain.rates import ExchangeRates


@dataclass(frozen=True)
class ExpenseStatus:
    name: str
    expected: Money
    actual: Money


@dataclass(frozen=True)
class BudgetReport:
    """A month of the budget: each active expense's expected and actual, the totals, the income."""

    period: Period
    expenses: tuple[ExpenseStatus, ...]
    expected_total: Money
    actual_total: Money
    income: Money | None

    @classmethod
    def of(cls, budget: Budget, period: Period) -> BudgetReport:
        # The month as it was: expenses registered later are left out (unless spent on then),
        # and each at the expected amount it had in that month.
        shown = [e for e in budget.active_expenses()
                 if e.existed_in(period) or not e.actual_for(period).is_zero]
        return cls(period, tuple(ExpenseStatus(e.name, e.expected_for(period), e.actual_for(period))
                                 for e in shown),
                   budget.expected_total_for(period), budget.actual_total(period), budget.income)


@dataclass(frozen=True)
class GoalReport:
    name: str
    target: Money
    deadline: date | None
    saved_by_currency: Mapping[str, Money]
    saved_in_target_currency: Money
    progress_percent: int
    required_monthly: Money | None
    on_track: bool | None
    # What one unit of the target's currency was worth in each other currency saved: people see
    # the rate behind the conversion. Not in the model's JSON.
    rates_used: tuple[tuple[Money, Money], ...] = ()

    @classmethod
    def of(cls, goal: Goal, today: date, rates: ExchangeRates) -> GoalReport:
        saved = goal.saved_in_target_currency(rates)
        progress = min(100, int(saved.amount * 100 / goal.target.amount))
        one = Money.of(1, goal.target.currency)
        used = tuple((one, rates.convert(one, currency))
                     for currency in goal.saved_by_currency() if currency != one.currency)
        return cls(goal.name, goal.target, goal.deadline, dict(goal.saved_by_currency()), saved, progress,
                   goal.required_monthly(today, rates), goal.is_on_track(today, rates), used)


@dataclass(frozen=True)
class UnreportableGoal:
    """A goal whose report cannot be made (a currency without a rate), and why: /metas shows it
    without hiding the others."""

    name: str
    problem: str


def _money(money: Money) -> dict[str, Any]:
    return {"amount": money.amount, "currency": money.currency}


def report_json(report: BudgetReport | GoalReport) -> dict[str, Any]:
    """A report as the model reads it (contract §3's keys): the one place that shapes it."""
    if isinstance(report, BudgetReport):
        return {
            "period": str(report.period),
            "expenses": [{"name": e.name, "expected": _money(e.expected), "actual": _money(e.actual)}
                         for e in report.expenses],
            "totals": {"expected": _money(report.expected_total), "actual": _money(report.actual_total)},
            "income": _money(report.income) if report.income is not None else None,
        }
    return {
        "name": report.name,
        "target": _money(report.target),
        "deadline": report.deadline.isoformat() if report.deadline else None,
        "savedByCurrency": {c: _money(m) for c, m in report.saved_by_currency.items()},
        "savedInTargetCurrency": _money(report.saved_in_target_currency),
        "progressPercent": report.progress_percent,
        "requiredMonthly": _money(report.required_monthly) if report.required_monthly is not None else None,
        "onTrack": report.on_track,
    }
