"""A compact picture of the household for the model: who, which expenses and goals, when.

It rides along on every model call, so it holds what the message is about: the expenses and goals
it names (by name or alias, or a near spelling: "acdemia"; domain/reading/names.py), in full, and
only the names of the rest, which the model can ask about with `budgetStatus` and `goalStatus`.
What was spent is left to `budgetStatus`. Amounts in the household's currency are written bare.

An expense's expected amount rides along only when the message changes it ("subiu pra 2.750",
"aumenta 100"). A spend's amount is the message's own, and a small model given the expected one
copied it ("paguei o mercado" proposed 1500, the expense's expected, not what was paid).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from typing import Final

from domain.budget import Budget, RecurringExpense
from domain.goals import Goal
from domain.household import Household
from domain.money import Money, Period
from domain.reading.names import mentioned_in, words
from domain.tools.grounding import asks_a_change

WEEKDAYS: Final = ("segunda", "terça", "quarta", "quinta", "sexta", "sábado", "domingo")
_SHORTEST_DISTINCTIVE: Final = 4  # letters of a goal's shortest word that names it on its own


def _amount(money: Money, home: str) -> str:
    plain = money.plain()
    return plain.split(" ", 1)[1] if money.currency == home else plain


def working_memory(household: Household, budget: Budget | None, goals: Iterable[Goal],
                   today: date, message: str | None = None) -> str:
    """The household for the model; with `message`, in full only what that message names."""
    home = household.currency
    said = words(message) if message is not None else None
    lines = [
        f"Today {today.isoformat()} ({WEEKDAYS[today.weekday()]}), month {Period.of(today)}. "
        f"Household {household.name}; amounts without currency are {home}.",
        "Members: " + (", ".join(m.name for m in household.members) or "none"),
    ]
    if budget is not None:
        if budget.income is not None:
            lines.append(f"Income: {_amount(budget.income, home)}")
        lines.extend(_expenses(budget.active_expenses(), said, home,
                               expected=message is None or asks_a_change(message)))
        cards = budget.active_cards()
        if cards:
            lines.append("Cards: " + "; ".join(
                f"{c.name}{f' ({chr(47).join(c.aliases)})' if c.aliases else ''}" for c in cards))
    lines.extend(_goals([g for g in goals if not g.archived], said))
    return "\n".join(lines)


def _expense(expense: RecurringExpense, home: str, expected: bool) -> str:
    aliases = f" ({'/'.join(expense.aliases)})" if expense.aliases else ""
    return f"{expense.name}{aliases}" + (f" {_amount(expense.expected, home)}" if expected else "")


def _expenses(expenses: list[RecurringExpense], said: Sequence[str] | None, home: str, *,
              expected: bool) -> list[str]:
    layout = "(name (aliases) expected)" if expected else "(name (aliases))"
    if said is None:
        described = [_expense(e, home, expected) for e in expenses]
        return [f"Expenses {layout}: " + ("; ".join(described) or "none")]
    named = [e for e in expenses if mentioned_in(said, (e.name, *e.aliases))]
    others = [e.name for e in expenses if e not in named]
    lines = []
    if named:
        lines.append(f"Expenses named {layout}: " + "; ".join(_expense(e, home, expected) for e in named))
    lines.append(("Other expenses: " if named else "Expenses: ") + (", ".join(others) or "none"))
    return lines


def _goal(goal: Goal) -> str:
    saved = "+".join(m.plain() for m in goal.saved_by_currency().values()) or "0"
    deadline = f"by {goal.deadline.isoformat()}" if goal.deadline else "no deadline"
    return f"{goal.name}: {goal.target.plain()} {deadline}, saved {saved}, {'/'.join(m.name for m in goal.members)}"


def _distinctive(name: str) -> list[str]:
    """A goal's words that name it on their own ("Amsterdam" of "Amsterdam Setembro/2026")."""
    return [word for word in name.replace("/", " ").split() if len(word) >= _SHORTEST_DISTINCTIVE and not word.isdigit()]


def _goals(goals: list[Goal], said: Sequence[str] | None) -> list[str]:
    if said is None:
        return ["Goals: " + ("; ".join(_goal(g) for g in goals) or "none")]
    named = [g for g in goals if mentioned_in(said, [g.name, *_distinctive(g.name)])]
    others = [g.name for g in goals if g not in named]
    lines = []
    if named:
        lines.append("Goals named: " + "; ".join(_goal(g) for g in named))
    lines.append(("Other goals: " if named else "Goals: ") + (", ".join(others) or "none"))
    return lines
