"""The month at a glance: expected and spent per expense, and every goal's progress.

One typed report that /grafico, the monthly closing's text and its chart all read.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from bot.ports import ChatLink, Storage
from domain.agent.reports import BudgetReport
from domain.goals import Goal
from domain.money import Money, Period
from domain.rates import DEFAULT_RATES, ExchangeRates


@dataclass(frozen=True)
class ExpenseLine:
    name: str
    expected: Money
    spent: Money

    @property
    def over(self) -> bool:
        return self.spent.amount > self.expected.amount


@dataclass(frozen=True)
class GoalLine:
    name: str
    saved: Money  # in the target's currency, at the planning rates
    target: Money
    deadline: date | None
    monthly: Money | None  # what it needs per month from now to its deadline

    @property
    def percent(self) -> int:
        """Whole percent of the target saved, rounded down, 0 to 100."""
        if self.target.amount <= 0:
            return 100
        return max(0, min(100, int(self.saved.amount * 100 // self.target.amount)))


@dataclass(frozen=True)
class MonthReport:
    period: Period
    expenses: tuple[ExpenseLine, ...]
    expected_total: Money
    spent_total: Money
    goals: tuple[GoalLine, ...]

    @property
    def empty(self) -> bool:
        return not self.expenses and not self.goals


def goal_line(goal: Goal, today: date, rates: ExchangeRates) -> GoalLine:
    saved = goal.saved_in_target_currency(rates)
    reached = saved.amount >= goal.target.amount
    return GoalLine(goal.name, saved, goal.target, goal.deadline,
                    None if reached else goal.required_monthly(today, rates))


async def month_report(storage: Storage, link: ChatLink, period: Period, today: date,
                       rates: ExchangeRates = DEFAULT_RATES) -> MonthReport:
    """The household's `period`, with goals as they stand `today`."""
    # The month as /resumo shows it (BudgetReport): archived expenses left out, and each at the
    # expected amount it had then.
    budget = BudgetReport.of(await storage.budgets.load(link.budget_id, periods=[period]), period)
    goals = await storage.goals.list(link.household_id, history=False)
    lines = tuple(ExpenseLine(e.name, e.expected, e.actual) for e in budget.expenses)
    return MonthReport(period, lines, budget.expected_total, budget.actual_total,
                       tuple(goal_line(g, today, rates) for g in goals if not g.archived))
