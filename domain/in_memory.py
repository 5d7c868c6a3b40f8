"""In-memory repositories: the ports' reference behaviour, for tests, the eval and the console demo.

They store deep copies, so changing a loaded aggregate changes nothing until `save`, and they
refuse a stale save exactly as the SQL repositories do. Partial loads (a budget's months, a goal
without its history) behave as in SQL: what was not loaded cannot be read, and `save` keeps it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Generic, Protocol, TypeVar
from weakref import WeakKeyDictionary

from domain.budget import Budget
from domain.errors import ConcurrentModification, NotFound
from domain.goals import Goal
from domain.household import Household, new_id
from domain.ledger import EntryKind, InMemoryLedger, LedgerEntry
from domain.money import Money, Period


class _Versioned(Protocol):
    id: str
    version: int


A = TypeVar("A", bound=_Versioned)


class _InMemory(Generic[A]):
    kind = "Aggregate"

    def __init__(self) -> None:
        self._items: dict[str, A] = {}
        self.saves = 0
        self.loads = 0

    async def load(self, aggregate_id: str) -> A:
        self.loads += 1
        return copy.deepcopy(self._stored(aggregate_id))

    def _stored(self, aggregate_id: str) -> A:
        try:
            return self._items[aggregate_id]
        except KeyError:
            raise NotFound(self.kind, aggregate_id) from None

    async def save(self, aggregate: A) -> None:
        stored = self._items.get(aggregate.id)
        if stored is not None and stored.version != aggregate.version:
            raise ConcurrentModification(self.kind, aggregate.id)
        self.saves += 1
        aggregate.version += 1
        self._items[aggregate.id] = self._merged(stored, copy.deepcopy(aggregate), aggregate)

    def _merged(self, stored: A | None, saved: A, original: A) -> A:
        """What the store holds after saving `original` (of which `saved` is a copy): the hook
        for partially loaded aggregates."""
        return saved


class InMemoryBudgetRepository(_InMemory[Budget]):
    kind = "Orçamento"

    def __init__(self, ledger: InMemoryLedger | None = None) -> None:
        super().__init__()
        self.ledger = ledger

    async def save(self, budget: Budget) -> None:
        stored = self._items.get(budget.id)
        for expense in budget.expenses:
            expense.id = expense.id or new_id()
        entries = _budget_entries(stored, budget)
        await super().save(budget)
        for expense in budget.expenses:
            expense.lines = []
            expense.limits = []
        budget.settlements = []
        if self.ledger is not None:
            self.ledger.add(entries)

    async def load(self, budget_id: str, *, periods: Iterable[Period] | None = None) -> Budget:
        budget = await super().load(budget_id)
        if periods is not None:
            window = frozenset(periods)
            for expense in budget.expenses:
                expense.actuals = {p: m for p, m in expense.actuals.items() if p in window}
                expense.alerted = {p: said for p, said in expense.alerted.items() if p in window}
                expense.loaded_periods = window
        return budget

    def _merged(self, stored: Budget | None, saved: Budget, original: Budget) -> Budget:
        before = {e.id: e for e in stored.expenses} if stored is not None else {}
        saved.settlements = []  # in the ledger now
        for expense in saved.expenses:
            expense.lines = []  # in the ledger now
            expense.limits = []
            if expense.loaded_periods is not None:
                old = before.get(expense.id)
                expense.actuals = {**(old.actuals if old else {}), **expense.actuals}
                expense.alerted = {**(old.alerted if old else {}), **expense.alerted}
                expense.loaded_periods = None
        return saved


class InMemoryHouseholdRepository(_InMemory[Household]):
    kind = "Casa"

    def __init__(self, ledger: InMemoryLedger | None = None) -> None:
        super().__init__()
        self.ledger = ledger

    async def save(self, household: Household) -> None:
        stored = self._items.get(household.id)
        keys = {m.id: m.pix_key for m in stored.members} if stored is not None else {}
        await super().save(household)
        if self.ledger is not None:
            self.ledger.add([LedgerEntry(EntryKind.PIX, "Chave Pix", paid_by=m.name, paid_by_id=m.id,
                                         household_id=household.id)
                             for m in household.members if keys.get(m.id) != m.pix_key])


class InMemoryGoalRepository(_InMemory[Goal]):
    kind = "Meta"

    def __init__(self, ledger: InMemoryLedger | None = None) -> None:
        super().__init__()
        self.ledger = ledger
        # How many of a history-less goal's contributions are already stored, by object identity,
        # so saving the same object twice adds only the newer ones (as the SQL repository does).
        self._stored_count: WeakKeyDictionary[Goal, int] = WeakKeyDictionary()


    async def load(self, goal_id: str, *, history: bool = True) -> Goal:
        goal = await super().load(goal_id)
        return goal if history else _without_history(goal)

    async def list(self, household_id: str | None = None, *, history: bool = True) -> list[Goal]:
        """A goal saved without a household is visible to every household, as a test double's
        convenience; the SQL repository always knows the household."""
        goals = [
            copy.deepcopy(g)
            for g in self._items.values()
            if household_id is None or g.household_id in (household_id, None)
        ]
        return goals if history else [_without_history(g) for g in goals]

    async def save(self, goal: Goal) -> None:
        stored = self._items.get(goal.id)
        if goal.prior_savings is not None:
            new = goal.contributions[self._stored_count.get(goal, 0):]
        else:
            new = goal.contributions[len(stored.contributions) if stored is not None else 0:]
        new = list(new)
        await super().save(goal)
        if self.ledger is None:
            return
        entries = [LedgerEntry(EntryKind.GOAL, goal.name, amount=goal.target, goal_id=goal.id,
                               household_id=goal.household_id)] if stored is None else []
        if stored is not None and stored.archived != goal.archived:
            entries.append(LedgerEntry(EntryKind.ARCHIVED if goal.archived else EntryKind.RESTORED,
                                       goal.name, goal_id=goal.id, household_id=goal.household_id))
        if stored is not None and stored.name != goal.name:
            entries.append(LedgerEntry(EntryKind.RENAMED, goal.name, goal_id=goal.id,
                                       household_id=goal.household_id))
        entries += [LedgerEntry(EntryKind.CONTRIBUTION, goal.name, amount=c.amount, goal_id=goal.id,
                                on=c.date, paid_by=c.paid_by.name, paid_by_id=c.paid_by.id,
                                household_id=goal.household_id) for c in new]
        self.ledger.add(entries)

    def _merged(self, stored: Goal | None, saved: Goal, original: Goal) -> Goal:
        if saved.prior_savings is not None:
            earlier = stored.contributions if stored is not None else []
            already = self._stored_count.get(original, 0)
            saved.contributions = [*earlier, *saved.contributions[already:]]
            saved.prior_savings = None
            self._stored_count[original] = len(original.contributions)
        return saved


def _without_history(goal: Goal) -> Goal:
    goal.prior_savings = goal.saved_by_currency()
    goal.contributions = []
    return goal


def _budget_entries(stored: Budget | None, budget: Budget) -> list[LedgerEntry]:
    """The ledger entries a save of `budget` over `stored` makes (the SQL repository's, simpler:
    only the spend lines verbs recorded, not differences set on the object by hand)."""
    before = {e.id: e for e in stored.expenses} if stored is not None else {}
    entries: list[LedgerEntry] = []
    for expense in budget.expenses:

        def entry(kind: EntryKind, amount: Money | None = None, period: Period | None = None,
                  name: str = expense.name, expense_id: str | None = expense.id) -> LedgerEntry:
            return LedgerEntry(kind, name, amount=amount, expense_id=expense_id, period=period,
                               household_id=budget.household_id)

        old = before.get(expense.id)
        if old is None:
            entries.append(entry(EntryKind.EXPENSE, expense.expected))
        else:
            if old.expected != expense.expected and old.expected.currency == expense.expected.currency:
                entries.append(entry(EntryKind.EXPECTED, expense.expected - old.expected))
            if old.name != expense.name:
                entries.append(entry(EntryKind.RENAMED))
            if old.archived != expense.archived:
                entries.append(entry(EntryKind.ARCHIVED if expense.archived else EntryKind.RESTORED))
        entries += [LedgerEntry(EntryKind.SPEND, expense.name, amount=line.amount, expense_id=expense.id,
                                period=line.period, household_id=budget.household_id,
                                paid_by=line.paid_by.name if line.paid_by else None,
                                paid_by_id=line.paid_by.id if line.paid_by else None, shares=line.shares,
                                on=line.on, card_id=line.card.card_id if line.card else None,
                                installment=line.card.installment if line.card else None,
                                installments=line.card.installments if line.card else None)
                    for line in expense.lines]
    entries += _card_entries(stored, budget)
    entries += income_entries(stored.income if stored is not None else None,
                              stored.incomes if stored is not None else {}, budget)
    if stored is not None and stored.split != budget.split:
        entries.append(LedgerEntry(EntryKind.SPLIT, "Divisão", household_id=budget.household_id))
    entries += [LedgerEntry(EntryKind.SETTLEMENT, "Acerto", amount=line.amount, on=line.on,
                            paid_by=line.paid_by.name, paid_by_id=line.paid_by.id,
                            household_id=budget.household_id, shares=line.shares)
                for line in budget.settlements]
    return entries


def _card_entries(stored: Budget | None, budget: Budget) -> list[LedgerEntry]:
    before = {card.id: card for card in stored.cards} if stored is not None else {}
    entries: list[LedgerEntry] = []
    for card in budget.cards:
        old = before.get(card.id)
        kinds = ([EntryKind.CARD] if old is None else
                 [*([EntryKind.RENAMED] if old.name != card.name else []),
                  *([EntryKind.ARCHIVED if card.archived else EntryKind.RESTORED]
                    if old.archived != card.archived else [])])
        entries += [LedgerEntry(kind, card.name, card_id=card.id, household_id=budget.household_id)
                    for kind in kinds]
    return entries


def income_entries(old_income: Money | None, old_incomes: dict[str, Money],
                   budget: Budget) -> list[LedgerEntry]:
    return [LedgerEntry(EntryKind.INCOME, "Renda", amount=change, paid_by=name, paid_by_id=member_id,
                        household_id=budget.household_id)
            for change, member_id, name in budget.income_changes(old_income, old_incomes)]
