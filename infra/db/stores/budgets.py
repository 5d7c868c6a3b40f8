"""Budgets: the root row and expenses with aliases, saved by difference; each month's actual is
the sum of the expense's ledger entries, and every change a save makes is written there."""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from domain.budget import Budget, RecurringExpense
from domain.cards import Card
from domain.errors import NotFound
from domain.ledger import EntryKind, SpendLine
from domain.money import Money, Period
from domain.sharing.rules import SplitRule
from infra.db.aggregates import bump_version, insert_root, remember_saved
from infra.db.engine import Database, UnitOfWork
from infra.db.stores.ledger import entry_row, insert_entries, monthly_actuals
from infra.db.tables import budgets, cards, expense_alerts, expense_aliases, expenses
from infra.db.values import money_from_minor, period_of

KIND = "Orçamento"


@dataclass(frozen=True)
class ExpenseState:
    """An expense as stored: its row id, its columns, its actuals and the limit thresholds said
    (copies, never shared)."""

    id: str
    fields: tuple[Any, ...]
    aliases: tuple[str, ...]
    actuals: dict[Period, Money]
    alerted: dict[Period, frozenset[int]] = field(default_factory=dict)


@dataclass(frozen=True)
class BudgetState:
    """What the store holds for a budget, paired with the loaded expense objects."""

    expenses: list[tuple[RecurringExpense, ExpenseState]] = field(default_factory=list)
    by_identity: bool = True  # False when rebuilt from the store: pair expenses by position
    periods: frozenset[Period] | None = None  # the actuals loaded; None means all of them
    income: Money | None = None
    incomes: dict[str, Money] = field(default_factory=dict)
    split: SplitRule = field(default_factory=SplitRule)
    cards: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # each card's columns, by id


def _card_fields(card: Card, position: int) -> tuple[Any, ...]:
    return (card.name, json.dumps(list(card.aliases), ensure_ascii=False) if card.aliases else None,
            card.closing_day, card.due_day, card.archived, position)


def _card_row(budget_id: str, card_id: str, fields: tuple[Any, ...]) -> dict[str, Any]:
    name, aliases, closing_day, due_day, archived, position = fields
    return {"id": card_id, "budget_id": budget_id, "name": name, "aliases": aliases,
            "closing_day": closing_day, "due_day": due_day, "archived": archived, "position": position}


def _fields(expense: RecurringExpense, position: int) -> tuple[Any, ...]:
    # The position stays last: a budget rebuilt from the store pairs expenses by it.
    return (expense.name, expense.expected.to_minor_units(), expense.expected.currency,
            expense.category, expense.billing_day, expense.payment_method,
            _history_text(expense), expense.archived,
            str(expense.archived_since) if expense.archived_since is not None else None, position)


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
    (name, expected, currency, category, billing_day, payment_method, history, archived, archived_since,
     position) = fields
    return {"id": expense_id, "budget_id": budget_id, "name": name, "expected_minor": expected,
            "currency": currency, "category": category, "billing_day": billing_day,
            "payment_method": payment_method, "expected_history": history, "archived": archived,
            "archived_since": archived_since, "position": position}


def _root_values(budget: Budget) -> dict[str, Any]:
    income = budget.income
    return {"household_id": budget.household_id, "currency": budget.currency,
            "income_minor": income.to_minor_units() if income is not None else None,
            "income_currency": income.currency if income is not None else None,
            "split_rule": _split_text(budget.split), "member_incomes": _incomes_text(budget)}


def _split_text(rule: SplitRule) -> str | None:
    if rule == SplitRule():
        return None
    return json.dumps({"kind": rule.kind, "percents": {m: f"{p:f}" for m, p in rule.percents}},
                      separators=(",", ":"))


def _split_of(text: str | None) -> SplitRule:
    if not text:
        return SplitRule()
    data = json.loads(text)
    return SplitRule(data["kind"], tuple((m, Decimal(p)) for m, p in data.get("percents", {}).items()))


def _incomes_text(budget: Budget) -> str | None:
    if not budget.incomes:
        return None
    return json.dumps({member_id: {"name": budget.income_names.get(member_id, ""), "minor": money.to_minor_units()}
                       for member_id, money in budget.incomes.items()}, separators=(",", ":"))


def _incomes_of(text: str | None, currency: str) -> tuple[dict[str, Money], dict[str, str]]:
    data = json.loads(text) if text else {}
    return ({member_id: money_from_minor(item["minor"], currency) for member_id, item in data.items()},
            {member_id: item["name"] for member_id, item in data.items()})


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
                    before = BudgetState(stored.expenses, by_identity=False, income=stored.income,
                                         incomes=stored.incomes, split=stored.split, cards=stored.cards)
            after = await _write_expenses(connection, unit, budget, before)
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
    # No month asked for (the names, the income): none to read.
    by_expense = await monthly_actuals(connection, [row.id for row in expense_rows], wanted)
    alerted = await _alerts(connection, [row.id for row in expense_rows], wanted)
    card_rows = (await connection.execute(
        select(cards).where(cards.c.budget_id == budget_id).order_by(cards.c.position))).all()
    loaded_cards = [Card(row.name, row.closing_day, row.due_day, tuple(json.loads(row.aliases or "[]")),
                         id=row.id, archived=row.archived) for row in card_rows]
    loaded: list[RecurringExpense] = []
    states: list[tuple[RecurringExpense, ExpenseState]] = []
    for row in expense_rows:
        month_actuals = by_expense.get(row.id, {})
        expense = RecurringExpense(
            name=row.name, expected=money_from_minor(row.expected_minor, row.currency),
            aliases=tuple(aliases.get(row.id, ())), category=row.category,
            billing_day=row.billing_day, payment_method=row.payment_method,
            actuals=dict(month_actuals), loaded_periods=wanted, id=row.id, archived=row.archived,
            archived_since=period_of(row.archived_since) if row.archived_since else None,
            expected_since=_history_of(row.expected_history, row.currency),
            alerted=dict(alerted.get(row.id, {})))
        loaded.append(expense)
        states.append((expense, ExpenseState(row.id, _fields(expense, row.position),
                                             expense.aliases, month_actuals, dict(expense.alerted))))
    income = (money_from_minor(root.income_minor, root.income_currency)
              if root.income_minor is not None else None)
    incomes, names = _incomes_of(root.member_incomes, root.currency)
    split = _split_of(root.split_rule)
    budget = Budget(id=root.id, currency=root.currency, household_id=root.household_id,
                    expenses=loaded, income=income, version=root.version, split=split,
                    incomes=incomes, income_names=names, cards=loaded_cards)
    return budget, BudgetState(states, by_identity=True, periods=wanted, income=income,
                               incomes=dict(incomes), split=split,
                               cards={row.id: _card_fields(card, row.position)
                                      for row, card in zip(card_rows, loaded_cards, strict=True)})


async def _alerts(connection: AsyncConnection, expense_ids: list[str],
                  periods: frozenset[Period] | None) -> dict[str, dict[Period, frozenset[int]]]:
    """The limit thresholds already said, per expense and loaded month."""
    found: dict[str, dict[Period, set[int]]] = defaultdict(lambda: defaultdict(set))
    if not expense_ids or (periods is not None and not periods):
        return {}
    query = select(expense_alerts).where(expense_alerts.c.expense_id.in_(expense_ids))
    if periods is not None:
        query = query.where(expense_alerts.c.period.in_(sorted(str(p) for p in periods)))
    for expense_id, period, threshold in await connection.execute(query):
        found[expense_id][period_of(period)].add(threshold)
    return {expense_id: {period: frozenset(said) for period, said in months.items()}
            for expense_id, months in found.items()}


def _pair(budget: Budget, before: BudgetState) -> list[ExpenseState | None]:
    """The stored state of each current expense, None for a new one."""
    if before.by_identity:
        by_object = {id(expense): state for expense, state in before.expenses}
        return [by_object.get(id(expense)) for expense in budget.expenses]
    by_position = {state.fields[-1]: state for _, state in before.expenses}  # fields end with position
    return [by_position.get(position) for position in range(len(budget.expenses))]


async def _write_expenses(connection: AsyncConnection, unit: UnitOfWork, budget: Budget,
                          before: BudgetState) -> BudgetState:
    """Writes only the expenses and aliases that differ from `before`, and every change, actuals
    included, as ledger entries: one per spend line a verb made, one for any other difference."""
    new_expenses: list[dict[str, Any]] = []
    changed_expenses: list[dict[str, Any]] = []
    stale_aliases: list[str] = []
    new_aliases: list[dict[str, Any]] = []
    ledger: list[dict[str, Any]] = []
    states: list[tuple[RecurringExpense, ExpenseState]] = []
    periods = before.periods
    household_id = budget.household_id

    alerts_changed: list[tuple[str, Period, frozenset[int]]] = []

    def entry(kind: EntryKind, expense: RecurringExpense, expense_id: str, amount: Money | None = None,
              period: Period | None = None, line: SpendLine | None = None) -> None:
        ledger.append(entry_row(kind, expense.name, household_id=household_id, amount=amount,
                                budget_id=budget.id, expense_id=expense_id, period=period,
                                payer=line.paid_by if line else None, shares=line.shares if line else (),
                                card=line.card if line else None, day=line.on if line else None))

    for position, (expense, old) in enumerate(zip(budget.expenses, _pair(budget, before), strict=True)):
        expense_id = old.id if old is not None else (expense.id or uuid.uuid4().hex)
        if expense.id != expense_id:
            expense.id = expense_id
        fields = _fields(expense, position)
        old_alerted = old.alerted if old is not None else {}
        for period in set(expense.alerted) | set(old_alerted):
            if expense.alerted.get(period, frozenset()) != old_alerted.get(period, frozenset()):
                alerts_changed.append((expense_id, period, expense.alerted.get(period, frozenset())))
        if old is None:
            new_expenses.append(_expense_row(budget.id, expense_id, fields))
            entry(EntryKind.EXPENSE, expense, expense_id, expense.expected)
        elif fields != old.fields:
            changed_expenses.append(_expense_row(budget.id, expense_id, fields))
            old_name, old_minor, old_currency, *_, old_archived, _, _ = old.fields
            if (old_minor, old_currency) != (fields[1], fields[2]):
                old_expected = money_from_minor(old_minor, old_currency)
                change = (expense.expected - old_expected if old_currency == fields[2]
                          else expense.expected)
                entry(EntryKind.EXPECTED, expense, expense_id, change)
            if old_name != expense.name:
                entry(EntryKind.RENAMED, expense, expense_id)
            if old_archived != expense.archived:
                entry(EntryKind.ARCHIVED if expense.archived else EntryKind.RESTORED, expense, expense_id)
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
        if expense.actuals == old_actuals and not expense.lines:  # C-level, identity-first
            kept = old_actuals
        else:
            for amount, period, line in _spend_changes(expense, old_actuals,
                                                       window if old is not None else None):
                entry(EntryKind.SPEND, expense, expense_id, amount, period, line)
            kept = dict(expense.actuals)
            _forget_lines(unit, expense)
        states.append((expense, ExpenseState(expense_id, fields, expense.aliases, kept, dict(expense.alerted))))

    if budget.income != before.income or budget.incomes != before.incomes:
        for change, member_id, name in budget.income_changes(before.income, before.incomes):
            ledger.append(entry_row(EntryKind.INCOME, "Renda", household_id=household_id, amount=change,
                                    budget_id=budget.id, paid_by_id=member_id, paid_by=name))
    if budget.split != before.split:
        ledger.append(entry_row(EntryKind.SPLIT, "Divisão", household_id=household_id, budget_id=budget.id))
    for settlement in budget.settlements:
        ledger.append(entry_row(EntryKind.SETTLEMENT, "Acerto", household_id=household_id,
                                amount=settlement.amount, budget_id=budget.id, day=settlement.on,
                                payer=settlement.paid_by, shares=settlement.shares))
    _forget_settlements(unit, budget)
    new_cards, changed_cards, card_states = _card_changes(budget, before, ledger)

    still_there = {state.id for _, state in states}
    gone = [state.id for _, state in before.expenses if state.id not in still_there]

    if gone:  # their ledger entries stay: the history of what was spent
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
    for expense_id, period, said in alerts_changed:
        await connection.execute(delete(expense_alerts).where(
            expense_alerts.c.expense_id == expense_id, expense_alerts.c.period == str(period)))
        if said:
            await connection.execute(expense_alerts.insert(), [
                {"expense_id": expense_id, "period": str(period), "threshold": threshold}
                for threshold in sorted(said)])
    if new_cards:
        await connection.execute(cards.insert(), new_cards)
    for row in changed_cards:
        await connection.execute(update(cards).where(cards.c.id == row["id"]).values(**row))
    await insert_entries(connection, ledger)
    return BudgetState(states, by_identity=True, periods=periods, income=budget.income,
                       incomes=dict(budget.incomes), split=budget.split, cards=card_states)


def _card_changes(budget: Budget, before: BudgetState, ledger: list[dict[str, Any]]
                  ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, tuple[Any, ...]]]:
    """The cards to insert and update, with a ledger entry for each registration, rename,
    archive or restore; and the cards' columns as they will be stored."""
    new: list[dict[str, Any]] = []
    changed: list[dict[str, Any]] = []
    states: dict[str, tuple[Any, ...]] = {}
    for position, card in enumerate(budget.cards):
        fields = _card_fields(card, position)
        old = before.cards.get(card.id)
        states[card.id] = fields

        def entry(kind: EntryKind, card: Card = card) -> None:
            ledger.append(entry_row(kind, card.name, household_id=budget.household_id, budget_id=budget.id,
                                    card_id=card.id))

        if old is None:
            new.append(_card_row(budget.id, card.id, fields))
            entry(EntryKind.CARD)
        elif old != fields:
            changed.append(_card_row(budget.id, card.id, fields))
            if old[0] != card.name:
                entry(EntryKind.RENAMED)
            if old[4] != card.archived:
                entry(EntryKind.ARCHIVED if card.archived else EntryKind.RESTORED)
    return new, changed, states


def _spend_changes(expense: RecurringExpense, old_actuals: dict[Period, Money],
                   window: frozenset[Period] | None) -> list[tuple[Money, Period, SpendLine | None]]:
    """The spend entries that take `old_actuals` to `expense.actuals`: each line a verb recorded
    (with who paid and the shares), then, per month, whatever difference the lines do not explain
    (a month set or removed directly on the object: no payer known)."""
    changes: list[tuple[Money, Period, SpendLine | None]] = []
    explained: dict[Period, Money] = {}
    for line in expense.lines:
        changes.append((line.amount, line.period, line))
        explained[line.period] = explained[line.period] + line.amount if line.period in explained \
            else line.amount
    months = set(expense.actuals) | {p for p in old_actuals if window is None or p in window}
    for period in sorted(months):
        new = expense.actuals.get(period)
        previous = old_actuals.get(period)
        if new is None and previous is None:
            continue
        currency = (new or previous).currency  # type: ignore[union-attr]
        difference = (new or Money.zero(currency)) - (previous or Money.zero(currency)) \
            if previous is None or new is None or previous.currency == new.currency else None
        if difference is None:  # the month changed currency: take the old one out, put the new in
            assert previous is not None and new is not None
            changes += [(-previous, period, None), (new, period, None)]
            continue
        rest = difference - explained[period] if period in explained else difference
        if rest.is_zero:
            continue
        if window is not None and period not in window:
            raise ValueError(f"month {period} of {expense.name} was not loaded; "
                             "load the budget with it before changing it")
        changes.append((rest, period, None))
    return changes


def _forget_settlements(unit: UnitOfWork, budget: Budget) -> None:
    settlements = budget.settlements
    budget.settlements = []
    unit.on_rollback(lambda: setattr(budget, "settlements", settlements))


def _forget_lines(unit: UnitOfWork, expense: RecurringExpense) -> None:
    """The lines are in the ledger now; back on the object if the transaction rolls back."""
    lines: list[SpendLine] = expense.lines
    expense.lines = []
    unit.on_rollback(lambda: setattr(expense, "lines", lines))
