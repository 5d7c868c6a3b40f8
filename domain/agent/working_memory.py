"""A compact picture of the household for the model: who, what expenses, which goals, when.

Compact on purpose: it rides along on every model call. Amounts in the household's currency are
written bare; what was spent is left to `budgetStatus`, which the model calls when asked.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.money import Money, Period


def _amount(money: Money, home: str) -> str:
    plain = money.plain()
    return plain.split(" ", 1)[1] if money.currency == home else plain


def working_memory(household: Household, budget: Budget | None, goals: Iterable[Goal],
                   today: date) -> str:
    home = household.currency
    lines = [
        f"Today {today.isoformat()}, month {Period.of(today)}. Household {household.name}; "
        f"amounts without currency are {home}.",
        "Members: " + (", ".join(m.name for m in household.members) or "none"),
    ]
    if budget is not None:
        if budget.income is not None:
            lines.append(f"Income: {_amount(budget.income, home)}")
        expenses = [
            f"{e.name}" + (f" ({'/'.join(e.aliases)})" if e.aliases else "") + f" {_amount(e.expected, home)}"
            for e in budget.active_expenses()
        ]
        lines.append("Expenses (name (aliases) expected): " + ("; ".join(expenses) or "none"))
    described = []
    for g in goals:
        if g.archived:
            continue
        saved = "+".join(m.plain() for m in g.saved_by_currency().values()) or "0"
        deadline = f"by {g.deadline.isoformat()}" if g.deadline else "no deadline"
        described.append(f"{g.name}: {g.target.plain()} {deadline}, saved {saved}, "
                         f"{'/'.join(m.name for m in g.members)}")
    lines.append("Goals: " + ("; ".join(described) or "none"))
    return "\n".join(lines)
