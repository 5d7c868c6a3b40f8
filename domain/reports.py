"""The household's numbers, typed: the one month report and the one goal report.

/resumo, /metas, /grafico, the monthly closing and the read tools all read these types: people
through bot/texts/, the model through `report_json` (contract §3's keys), so the JSON can be
trimmed for tokens without changing what people see, and no two places count a month differently.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from domain.budget import Budget
from domain.errors import DomainError
from domain.goals import Goal
from domain.money import ExchangeRates, Money, Period


@dataclass(frozen=True)
class ExpenseStatus:
    name: str
    expected: Money
    actual: Money

    @property
    def over(self) -> bool:
        return self.actual.amount > self.expected.amount


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
        # and each at the expected amount it had in that month; the totals are these lines'.
        shown = budget.expenses_in(period)
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
        progress = percent_saved(saved, goal.target)
        one = Money.of(1, goal.target.currency)
        used = tuple((one, rates.convert(one, currency))
                     for currency in goal.saved_by_currency() if currency != one.currency)
        return cls(goal.name, goal.target, goal.deadline, dict(goal.saved_by_currency()), saved, progress,
                   goal.required_monthly(today, rates), goal.is_on_track(today, rates), used)


    @property
    def reached(self) -> bool:
        return self.progress_percent >= 100

    @classmethod
    def or_why_not(cls, goal: Goal, today: date, rates: ExchangeRates) -> GoalReport | UnreportableGoal:
        """The goal's report; a goal that cannot be reported (a currency without a rate) says why,
        without hiding the others."""
        try:
            return cls.of(goal, today, rates)
        except DomainError as error:
            return UnreportableGoal(goal.name, str(error))


def percent_saved(saved: Money, target: Money) -> int:
    """Whole percent of the target saved, rounded down, 0 to 100."""
    if target.amount <= 0:
        return 100
    return max(0, min(100, int(saved.amount * 100 // target.amount)))


@dataclass(frozen=True)
class UnreportableGoal:
    """A goal whose report cannot be made (a currency without a rate), and why: /metas shows it
    without hiding the others."""

    name: str
    problem: str


@dataclass(frozen=True)
class MonthReport:
    """A month at a glance, for /grafico and the monthly closing: the budget's month as /resumo
    shows it, and every active goal as it stands today."""

    budget: BudgetReport
    goals: tuple[GoalReport | UnreportableGoal, ...]

    @property
    def period(self) -> Period:
        return self.budget.period

    @property
    def empty(self) -> bool:
        return not self.budget.expenses and not self.goals

    @classmethod
    def of(cls, budget: Budget, goals: Iterable[Goal], period: Period, today: date,
           rates: ExchangeRates) -> MonthReport:
        return cls(BudgetReport.of(budget, period),
                   tuple(GoalReport.or_why_not(g, today, rates) for g in goals if not g.archived))


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
