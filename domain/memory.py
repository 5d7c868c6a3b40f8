"""In-memory repositories: the ports' reference behaviour, for tests, the eval and the console demo.

They store deep copies, so changing a loaded aggregate changes nothing until `save`, and they
refuse a stale save exactly as the SQL repositories do.
"""

from __future__ import annotations

import copy
from typing import Generic, Protocol, TypeVar

from domain.budget import Budget
from domain.errors import ConcurrentModification, NotFound
from domain.goals import Goal
from domain.household import Household


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
        try:
            return copy.deepcopy(self._items[aggregate_id])
        except KeyError:
            raise NotFound(self.kind, aggregate_id) from None

    async def save(self, aggregate: A) -> None:
        stored = self._items.get(aggregate.id)
        if stored is not None and stored.version != aggregate.version:
            raise ConcurrentModification(self.kind, aggregate.id)
        self.saves += 1
        aggregate.version += 1
        self._items[aggregate.id] = copy.deepcopy(aggregate)


class InMemoryBudgetRepository(_InMemory[Budget]):
    kind = "Orçamento"


class InMemoryHouseholdRepository(_InMemory[Household]):
    kind = "Casa"


class InMemoryGoalRepository(_InMemory[Goal]):
    kind = "Meta"

    async def list(self, household_id: str | None = None) -> list[Goal]:
        """A goal saved without a household is visible to every household, as a test double's
        convenience; the SQL repository always knows the household."""
        return [
            copy.deepcopy(g)
            for g in self._items.values()
            if household_id is None or g.household_id in (household_id, None)
        ]
