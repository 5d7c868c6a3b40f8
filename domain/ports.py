"""What the domain needs from storage. Small on purpose: load, save, list."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.money import Period


class BudgetRepository(Protocol):
    async def load(self, budget_id: str, *, periods: Iterable[Period] | None = None) -> Budget:
        """The budget, or domain.errors.NotFound.

        `periods` limits the actuals loaded to those months (the others refuse to be read and
        are kept as they are by `save`); None loads every month.
        """
        ...

    async def save(self, budget: Budget) -> None:
        """Stores the budget; raises ConcurrentModification if it was loaded before a newer save."""
        ...


class GoalRepository(Protocol):
    async def load(self, goal_id: str, *, history: bool = True) -> Goal:
        """The goal, or NotFound. Without `history`, contributions are summed in `prior_savings`
        instead of loaded; `save` then adds the new ones and keeps the rest."""
        ...

    async def save(self, goal: Goal) -> None:
        ...

    async def list(self, household_id: str | None = None, *, history: bool = True) -> list[Goal]:
        """Every goal, or every goal of the household."""
        ...


class HouseholdRepository(Protocol):
    async def load(self, household_id: str) -> Household:
        ...

    async def save(self, household: Household) -> None:
        ...


class MemberLinks(Protocol):
    """Which member of a household a person outside it is (a Telegram user in a chat)."""

    async def member_of_user(self, chat_id: int, user_id: int) -> str | None:
        ...

    async def link_member(self, chat_id: int, user_id: int, member_id: str) -> str:
        """Links the user once; returns the member id that holds (the first, if two raced)."""
        ...


class HouseholdEraser(Protocol):
    async def erase_household(self, household_id: str) -> None:
        """Deletes every record of the household, in the caller's unit of work."""
        ...
