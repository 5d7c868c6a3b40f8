"""Budgets: the root row, expenses with aliases, and each month's actual, saved by difference."""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from domain.budget import Budget, RecurringExpense
from domain.errors import NotFound
from domain.money import Money, Period
from infra.db.aggregates import bump_version, insert_root, remember_saved
from infra.db.engine import Database
from infra.db.tables import actuals, budgets, expense_aliases, expenses
from infra.db.upsert import insert_for
from infra.db.values import money_from_minor, period_of

KIND = "Orçamento"


@dataclass(frozen=True)
class ExpenseState:
    """An expense as stored: its row id, its columns and its actuals (a copy, never shared)."""

    id: str
    fields: tuple[Any, ...]
    aliases: tuple[str, ...]
    actuals: dict[Period, Money]


@dataclass(frozen=True)
class BudgetState:
    """What the store holds for a budget, paired with the loaded expense objects."""

    expenses: list[tuple[RecurringExpense, ExpenseState]] = field(default_factory=list)
    by_identity: bool = True  # False when rebuilt from the store: pair expenses by position
    periods: frozenset[Period] | None = None  # the actuals loaded; None means all of them


def _fields(expense: RecurringExpense, position: int) -> tuple[Any, ...]:
    # The position stays last: a budget rebuilt from the store pairs expenses by it.
    return (expense.name, expense.expected.to_minor_units(), expense.expected.currency,
            expense.category, expense.billing_day, expense.payment_method,
            _history_text(expense), position)


def _history_text(expense: RecurringExpense) -> str | None:
    if not expense.expected_since:
        return None
    return json.dumps({str(period): money.to_minor_units()
                       for period, money in sorted(expense.expected_since.items())},
                      separators=(",", ":"))


def _history_of(text: str | None, currency: str) -> dict[Period, Money]:
    if not text:
        return {}
    return {period_of(month): money_from_minor(units, currency) for month, units in json.loads(text).items()}


def _expense_row(budget_id: str, expense_id: str, fields: tuple[Any, ...]) -> dict[str, Any]:
    name, expected, currency, category, billing_day, payment_method, history, position = fields
    return {"id": expense_id, "budget_id": budget_id, "name": name, "expected_minor": expected,
            "currency": currency, "category": category, "billing_day": billing_day,
            "payment_method": payment_method, "expected_history": history, "position": position}


def _actual_row(expense_id: str, period: Period, money: Money) -> dict[str, Any]:
    return {"expense_id": expense_id, "period": str(period),
            "amount_minor": money.to_minor_units(), "currency": money.currency}


def _root_values(budget: Budget) -> dict[str, Any]:
    income = budget.income
    return {"household_id": budget.household_id, "currency": budget.currency,
            "income_minor": income.to_minor_units() if income is not None else None,
            "income_currency": income.currency if income is not None else None}


class SqlBudgetRepository:
    """The BudgetRepository port over SQL."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def load(self, budget_id: str, *, periods: Iterable[Period] | None = None) -> Budget:
        """The budget, or NotFound. `periods` limits the actuals loaded to those months.

        With `periods`, each expense's `loaded_periods` says so: another month refuses to be
        read (LookupError), a save never deletes it, and a save that changes it is refused.
        """
        async with self._db.reading() as connection:
            budget, state = await _fetch(connection, budget_id, periods,
                                         lock=self._db.current is not None)
        self._db.snapshots[budget] = state
        return budget

    async def save(self, budget: Budget) -> None:
        async with self._db.transaction() as unit:
            connection = unit.connection
            before: BudgetState | None = self._db.snapshots.get(budget)
            if before is None and budget.version == 0:
                await insert_root(connection, budgets, {"id": budget.id, **_root_values(budget)}, KIND)
                before = BudgetState()
            else:
                await bump_version(connection, budgets, budget, _root_values(budget), KIND)
                if before is None:  # not loaded through this database: diff against the store
                    _, stored = await _fetch(connection, budget.id, None, lock=False)
                    before = BudgetState(stored.expenses, by_identity=False)
            after = await _write_expenses(connection, budget, before)
            remember_saved(self._db, unit, budget, after)


async def _fetch(connection: AsyncConnection, budget_id: str, periods: Iterable[Period] | None,
                 *, lock: bool) -> tuple[Budget, BudgetState]:
    query = select(budgets).where(budgets.c.id == budget_id)
    # Inside a confirmation, confirmations of the same budget queue here (PostgreSQL) instead of
    # colliding at save and retrying; SQLite's BEGIN IMMEDIATE already serialized them.
    root = (await connection.execute(query.with_for_update() if lock else query)).one_or_none()
    if root is None:
        raise NotFound(KIND, budget_id)
    of_budget = select(expenses.c.id).where(expenses.c.budget_id == budget_id).scalar_subquery()
    expense_rows = (await connection.execute(
        select(expenses).where(expenses.c.budget_id == budget_id).order_by(expenses.c.position)
    )).all()
    aliases: dict[str, list[str]] = defaultdict(list)
    for expense_id, alias in await connection.execute(
        select(expense_aliases.c.expense_id, expense_aliases.c.alias)
        .where(expense_aliases.c.expense_id.in_(of_budget))
        .order_by(expense_aliases.c.expense_id, expense_aliases.c.position)
    ):
        aliases[expense_id].append(alias)
    wanted = None if periods is None else frozenset(periods)
    by_expense: dict[str, dict[Period, Money]] = defaultdict(dict)
    if wanted is None or wanted:  # no month asked for (the names, the income): none to read
        actual_query = select(actuals.c.expense_id, actuals.c.period, actuals.c.amount_minor,
                              actuals.c.currency).where(actuals.c.expense_id.in_(of_budget))
        if wanted is not None:
            actual_query = actual_query.where(actuals.c.period.in_(sorted(str(p) for p in wanted)))
        for expense_id, period, units, currency in await connection.execute(actual_query):
            by_expense[expense_id][period_of(period)] = money_from_minor(units, currency)

    loaded: list[RecurringExpense] = []
    states: list[tuple[RecurringExpense, ExpenseState]] = []
    for row in expense_rows:
        month_actuals = by_expense.get(row.id, {})
        expense = RecurringExpense(
            name=row.name, expected=money_from_minor(row.expected_minor, row.currency),
            aliases=tuple(aliases.get(row.id, ())), category=row.category,
            billing_day=row.billing_day, payment_method=row.payment_method,
            actuals=dict(month_actuals), loaded_periods=wanted,
            expected_since=_history_of(row.expected_history, row.currency))
        loaded.append(expense)
        states.append((expense, ExpenseState(row.id, _fields(expense, row.position),
                                             expense.aliases, month_actuals)))
    income = (money_from_minor(root.income_minor, root.income_currency)
              if root.income_minor is not None else None)
    budget = Budget(id=root.id, currency=root.currency, household_id=root.household_id,
                    expenses=loaded, income=income, version=root.version)
    return budget, BudgetState(states, by_identity=True, periods=wanted)


def _pair(budget: Budget, before: BudgetState) -> list[ExpenseState | None]:
    """The stored state of each current expense, None for a new one."""
    if before.by_identity:
        by_object = {id(expense): state for expense, state in before.expenses}
        return [by_object.get(id(expense)) for expense in budget.expenses]
    by_position = {state.fields[-1]: state for _, state in before.expenses}
    return [by_position.get(position) for position in range(len(budget.expenses))]


async def _write_expenses(connection: AsyncConnection, budget: Budget,
                          before: BudgetState) -> BudgetState:
    """Writes only the expenses, aliases and months that differ from `before`."""
    new_expenses: list[dict[str, Any]] = []
    changed_expenses: list[dict[str, Any]] = []
    stale_aliases: list[str] = []
    new_aliases: list[dict[str, Any]] = []
    upserted: list[dict[str, Any]] = []
    removed: list[tuple[str, str]] = []
    states: list[tuple[RecurringExpense, ExpenseState]] = []
    periods = before.periods

    for position, (expense, old) in enumerate(zip(budget.expenses, _pair(budget, before), strict=True)):
        expense_id = old.id if old is not None else uuid.uuid4().hex
        fields = _fields(expense, position)
        if old is None:
            new_expenses.append(_expense_row(budget.id, expense_id, fields))
        elif fields != old.fields:
            changed_expenses.append(_expense_row(budget.id, expense_id, fields))
        if old is None or expense.aliases != old.aliases:
            if old is not None:
                stale_aliases.append(expense_id)
            new_aliases += [{"expense_id": expense_id, "position": i, "alias": alias}
                            for i, alias in enumerate(expense.aliases)]
        old_actuals = old.actuals if old is not None else {}
        # The months this expense holds: those it was loaded with (on the object itself, so this
        # holds for a budget loaded through another Database too); every month of a new one.
        window = expense.loaded_periods
        if window is None and old is not None:
            window = periods
        if expense.actuals == old_actuals:  # C-level and identity-first: cheap on a long history
            kept = old_actuals
        else:
            for period, money in expense.actuals.items():
                previous = old_actuals.get(period)
                if previous is not money and previous != money:
                    upserted.append(_actual_row(expense_id, period, money))
                    if window is not None and old is not None and period not in window:
                        raise ValueError(f"month {period} of {expense.name} was not loaded; "
                                         "load the budget with it before changing it")
            # A month missing from a partial load was not deleted: it was never loaded.
            removed += [(expense_id, str(p)) for p in old_actuals
                        if p not in expense.actuals and (window is None or p in window)]
            kept = dict(expense.actuals)
        states.append((expense, ExpenseState(expense_id, fields, expense.aliases, kept)))

    still_there = {state.id for _, state in states}
    gone = [state.id for _, state in before.expenses if state.id not in still_there]

    if gone:
        await connection.execute(delete(actuals).where(actuals.c.expense_id.in_(gone)))
        await connection.execute(delete(expense_aliases).where(expense_aliases.c.expense_id.in_(gone)))
        await connection.execute(delete(expenses).where(expenses.c.id.in_(gone)))
    if new_expenses:
        await connection.execute(expenses.insert(), new_expenses)
    for row in changed_expenses:
        await connection.execute(update(expenses).where(expenses.c.id == row["id"]).values(**row))
    if stale_aliases:
        await connection.execute(
            delete(expense_aliases).where(expense_aliases.c.expense_id.in_(stale_aliases)))
    if new_aliases:
        await connection.execute(expense_aliases.insert(), new_aliases)
    for expense_id, month in removed:
        await connection.execute(
            delete(actuals).where(actuals.c.expense_id == expense_id, actuals.c.period == month))
    if upserted:
        statement = insert_for(connection.dialect.name, actuals)
        await connection.execute(
            statement.on_conflict_do_update(
                index_elements=[actuals.c.expense_id, actuals.c.period],
                set_={"amount_minor": statement.excluded.amount_minor,
                      "currency": statement.excluded.currency}),
            upserted)
    return BudgetState(states, by_identity=True, periods=periods)
