"""A compact picture of the household for the model: who, what expenses, which goals, when."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.money import Period


def working_memory(household: Household, budget: Budget | None, goals: Iterable[Goal],
                   today: date) -> str:
    period = Period.of(today)
    lines = [
        f"Today: {today.isoformat()} (current month {period}). Household: {household.name}, "
        f"currency {household.currency}.",
        "Members: " + (", ".join(m.name for m in household.members) or "none yet"),
    ]
    if budget is not None:
        if budget.income is not None:
            lines.append(f"Monthly income: {budget.income.plain()}")
        lines.append("Expenses (name [aliases] expected, spent this month):")
        for e in budget.expenses:
            aliases = f" [{', '.join(e.aliases)}]" if e.aliases else ""
            lines.append(f"- {e.name}{aliases} {e.expected.plain()}, {e.actual_for(period).plain()}")
        if not budget.expenses:
            lines.append("- none yet")
    lines.append("Goals (name: target, deadline, saved, members):")
    goals = list(goals)
    for g in goals:
        saved = ", ".join(m.plain() for m in g.saved_by_currency().values()) or "0"
        deadline = g.deadline.isoformat() if g.deadline else "no deadline"
        members = ", ".join(m.name for m in g.members)
        lines.append(f"- {g.name}: {g.target.plain()}, {deadline}, saved {saved}, {members}")
    if not goals:
        lines.append("- none yet")
    return "\n".join(lines)
