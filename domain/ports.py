"""What the domain needs from storage. Small on purpose: load, save, list."""

from __future__ import annotations

from typing import Protocol

from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household


class BudgetRepository(Protocol):
    async def load(self, budget_id: str) -> Budget:
        """The budget, or domain.errors.NotFound."""
        ...

    async def save(self, budget: Budget) -> None:
        """Stores the budget; raises ConcurrentModification if it was loaded before a newer save."""
        ...


class GoalRepository(Protocol):
    async def load(self, goal_id: str) -> Goal:
        ...

    async def save(self, goal: Goal) -> None:
        ...

    async def list(self, household_id: str | None = None) -> list[Goal]:
        """Every goal, or every goal whose members belong to the household."""
        ...


class HouseholdRepository(Protocol):
    async def load(self, household_id: str) -> Household:
        ...

    async def save(self, household: Household) -> None:
        ...
