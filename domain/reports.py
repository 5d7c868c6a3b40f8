"""The household's numbers, typed: the one month report and the one goal report.

/resumo, /metas, /grafico, the monthly closing and the read tools all read these types: people
through bot/texts/, the model through `report_json` (contract §3's keys), so the JSON can be
trimmed for tokens without changing what people see, and no two places count a month differently.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from domain.budget import Budget
from domain.cards import Card
from domain.errors import DomainError
from domain.goals import Goal
from domain.ledger import FaturaTotal, LedgerEntry
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
    faturas: tuple[FaturaReport, ...] = ()  # each card's fatura closing in the month, when not empty

    @property
    def period(self) -> Period:
        return self.budget.period

    @property
    def empty(self) -> bool:
        return not self.budget.expenses and not self.goals

    @classmethod
    def of(cls, budget: Budget, goals: Iterable[Goal], period: Period, today: date,
           rates: ExchangeRates, faturas: Iterable[FaturaReport] = ()) -> MonthReport:
        return cls(BudgetReport.of(budget, period),
                   tuple(GoalReport.or_why_not(g, today, rates) for g in goals if not g.archived),
                   tuple(f for f in faturas if not f.empty))


@dataclass(frozen=True)
class FaturaItem:
    """One line of a fatura: a purchase, or one parcela of it (k of N)."""

    on: date | None
    expense: str
    amount: Money
    paid_by: str | None
    installment: int | None = None
    installments: int | None = None


@dataclass(frozen=True)
class FaturaReport:
    """A card's fatura of one month (the month it closes): its items, total, closing and due
    dates, what each member owes of it, and the later faturas that already hold parcelas."""

    card: str
    fatura: Period
    closing: date
    due: date
    items: tuple[FaturaItem, ...]
    total: Money
    owed: tuple[tuple[str, Money], ...]
    upcoming: tuple[FaturaTotal, ...] = ()

    @classmethod
    def of(cls, card: Card, fatura: Period, entries: Iterable[LedgerEntry], upcoming: Iterable[FaturaTotal],
           currency: str) -> FaturaReport:
        """From the fatura's ledger entries: an undone purchase (its entries and their reversal)
        is not an item; what each member owes is their shares (a personal spend: the payer's)."""
        items: dict[tuple[str | None, int | None, int], FaturaItem] = {}
        owed: dict[str, Money] = {}
        total = Money.zero(currency)
        for index, entry in enumerate(entries):
            if entry.amount is None:
                continue
            total = total + entry.amount
            purchase = entry.undoes or entry.operation_id
            key = (purchase, entry.installment, index if purchase is None else 0)
            found = items.get(key)
            items[key] = (replace(found, amount=found.amount + entry.amount) if found is not None else
                          FaturaItem(entry.on, entry.subject, entry.amount, entry.paid_by, entry.installment,
                                     entry.installments))
            for name, part in (((s.member_name, s.owed) for s in entry.shares) if entry.shares
                               else [(entry.paid_by or "?", entry.amount)]):
                owed[name] = owed[name] + part if name in owed else part
        kept = tuple(item for item in items.values() if not item.amount.is_zero)
        return cls(card.name, fatura, card.closing_date(fatura), card.due_date(fatura), kept, total,
                   tuple((name, money) for name, money in owed.items() if not money.is_zero),
                   tuple(f for f in upcoming if f.fatura > fatura))

    @property
    def empty(self) -> bool:
        return not self.items


@dataclass(frozen=True)
class CardSummary:
    """A card as /cartoes lists it: its days and the fatura open today."""

    name: str
    closing_day: int
    due_day: int
    open_fatura: Period
    open_total: Money


def _money(money: Money) -> dict[str, Any]:
    return {"amount": money.amount, "currency": money.currency}


def report_json(report: BudgetReport | GoalReport | FaturaReport) -> dict[str, Any]:
    """A report as the model reads it (contract §3's keys): the one place that shapes it."""
    if isinstance(report, FaturaReport):
        return {
            "card": report.card, "fatura": str(report.fatura), "closes": report.closing.isoformat(),
            "due": report.due.isoformat(), "total": _money(report.total),
            "items": [{"expense": i.expense, "amount": _money(i.amount), "paidBy": i.paid_by,
                       **({"installment": f"{i.installment}/{i.installments}"}
                          if (i.installments or 1) > 1 else {})} for i in report.items],
            "next": {str(f.fatura): _money(f.total) for f in report.upcoming},
        }
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
