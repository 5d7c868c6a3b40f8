"""Renaming and archiving an expense or a goal: previews like every write, history kept.

An archived expense or goal leaves the prompt's working memory and /metas, and answers to no
name; an expense leaves /resumo from the next month on (what was spent stays spent: the month it
was archived in, and any month it was spent in, still show it). Its ledger entries stay, so
/extrato and /exportar still show them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from domain.budget import Budget, RecurringExpense
from domain.cards import Card, UnknownCard
from domain.clock import DEFAULT_TIMEZONE, Clock, local_today, utc_now
from domain.errors import AmbiguousName, UnknownExpense, UnknownGoal, UnknownName
from domain.goals import Goal
from domain.household import Household, clean_name
from domain.ledger import Ledger
from domain.money import Period
from domain.operations.log import OperationLog
from domain.operations.previews import Preview
from domain.operations.receipts import ToolReceipt
from domain.ports import BudgetRepository, GoalRepository, HouseholdRepository
from domain.text import fold
from domain.tools.base import HouseholdBinding, Staged, WriteArgs, WriteTool
from domain.tools.goals import check_goal_name_free, goal_matching

ItemKind = Literal["expense", "goal", "card"]
HOUSEHOLD_WORDS = frozenset({"casa", "a casa"})  # "/renomear casa para …" (folded)


@dataclass(frozen=True)
class RenamePreview(Preview):
    """renameItem: an expense's, a goal's or the household's name, before and after."""

    kind: Literal["expense", "goal", "card", "household"]
    old_name: str
    new_name: str


@dataclass(frozen=True)
class ArchivePreview(Preview):
    """archiveItem: the expense, goal or card that leaves the prompt and /resumo (its history stays)."""

    kind: ItemKind
    name: str


# /renomear and /arquivar propose these; the model is not offered them (`offered`): their two
# schemas would take the fixed prompt past its 1,500-token budget (bench/prompt_size.py), and a
# rename or an archive is rare enough to be a command.
class _ItemTool(WriteTool[Any]):
    """Finds an active expense, goal or card by name: an expense or a card by name or alias, a
    goal by its name or a unique part of it; a name two of them answer to is ambiguous."""

    offered = False

    def __init__(self, budget_repo: BudgetRepository, budget_id: str, goal_repo: GoalRepository,
                 household_id: str | None, operations: OperationLog | None = None, *,
                 now: Clock | None = None, timezone: str = DEFAULT_TIMEZONE,
                 households: HouseholdRepository | None = None, ledger: Ledger | None = None) -> None:
        super().__init__(operations)
        self.budget_repo = budget_repo
        self.budget_id = budget_id
        self.goal_repo = goal_repo
        self.household_id = household_id
        self.now = now
        self.timezone = timezone
        self.households = households
        self.ledger = ledger  # how many parcelas a card still holds

    @classmethod
    def create(cls, *, budget_repo: BudgetRepository, budget_id: str, goal_repo: GoalRepository,
               household_id: str | None = None, operations: OperationLog | None = None,
               now: Clock | None = None, timezone: str = DEFAULT_TIMEZONE,
               households: HouseholdRepository | None = None, ledger: Ledger | None = None) -> Any:
        return cls(budget_repo, budget_id, goal_repo, household_id, operations, now=now, timezone=timezone,
                   households=households, ledger=ledger)

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> Any:
        return cls(binding.budgets, binding.budget_id, binding.goals, binding.household.id,
                   binding.operations, now=binding.clock, timezone=binding.timezone,
                   households=binding.households, ledger=binding.ledger)

    def _next_month(self) -> Period | None:
        """The first month an expense archived now is no longer shown (None without a clock)."""
        return Period.of(local_today(self.now, self.timezone)).plus(1) if self.now is not None else None

    async def _find(self, name: str, kind: ItemKind | None
                    ) -> tuple[Budget, RecurringExpense] | tuple[Budget, Card] | Goal:
        budget = await self.budget_repo.load(self.budget_id, periods=())
        expense: RecurringExpense | None = None
        if kind in (None, "expense"):
            try:
                expense = budget.find_by_name(name)
            except UnknownExpense:
                if kind == "expense":
                    raise
        card: Card | None = None
        if kind in (None, "card"):
            try:
                card = budget.find_card(name)
            except UnknownCard:
                if kind == "card":
                    raise
        goal: Goal | None = None
        if kind in (None, "goal"):
            goals = await self.goal_repo.list(self.household_id, history=False)
            try:
                goal = goal_matching(goals, name)
            except UnknownGoal:
                if kind == "goal":
                    raise
        found = [*([f"a despesa {expense.name}"] if expense else []), *([f"o cartão {card.name}"] if card else []),
                 *([f"a meta {goal.name}"] if goal else [])]
        if len(found) > 1:
            raise AmbiguousName(name, found)
        if expense is not None:
            return budget, expense
        if card is not None:
            return budget, card
        if goal is not None:
            return await self.goal_repo.load(goal.id, history=False)
        raise UnknownName(name)

    async def _open_parcelas(self, card: Card) -> int:
        """Parcelas still to fall in faturas not yet closed (0 without a ledger to ask)."""
        if self.ledger is None:
            return 0
        today = local_today(self.now or utc_now, self.timezone)
        return sum(f.parcelas for f in await self.ledger.faturas(card.id, card.fatura_of(today)))


class RenameArgs(WriteArgs):
    name: str = Field(description="Current name (expense or card name or alias, or goal name).")
    new_name: str
    kind: ItemKind | None = Field(default=None, description="Only needed when the name is ambiguous.")


class RenameTool(_ItemTool):
    name = "renameItem"
    description = "Rename an expense or a goal."
    args_model = RenameArgs
    preview_type = RenamePreview

    async def rename_item(self, *, name: str, new_name: str, operation_id: str, kind: ItemKind | None = None,
                          confirm: bool = False) -> ToolReceipt:
        return await self.run(self.parse({"name": name, "new_name": new_name, "kind": kind,
                                          "operation_id": operation_id, "confirm": confirm}))

    async def _household_named(self, name: str) -> Household | None:
        """The household, when `name` is "casa" or its own name (and its store is at hand)."""
        if self.households is None or self.household_id is None:
            return None
        household = await self.households.load(self.household_id)
        return household if fold(name) in HOUSEHOLD_WORDS | {fold(household.name)} else None

    async def _stage(self, args: RenameArgs) -> Staged:
        household = await self._household_named(args.name) if args.kind is None else None
        try:
            found = await self._find(args.name, args.kind)
        except UnknownName:
            if household is None:
                raise
            return self._rename_household(household, args.new_name)
        if household is not None:
            shown = (f"a meta {found.name}" if isinstance(found, Goal) else
                     f"o cartão {found[1].name}" if isinstance(found[1], Card) else f"a despesa {found[1].name}")
            raise AmbiguousName(args.name, [shown, "a casa"])
        new_name = clean_name(args.new_name, "Novo nome")
        if isinstance(found, Goal):
            check_goal_name_free(await self.goal_repo.list(self.household_id, history=False), new_name,
                                 besides=found)
            old = found.name
            found.rename(new_name)
            goal = found
            return Staged(RenamePreview("goal", old, found.name), lambda: self.goal_repo.save(goal))
        budget, item = found
        old = item.name
        if isinstance(item, Card):
            budget.rename_card(old, new_name)
            return Staged(RenamePreview("card", old, item.name), lambda: self.budget_repo.save(budget))
        budget.rename(old, new_name)
        return Staged(RenamePreview("expense", old, item.name), lambda: self.budget_repo.save(budget))


    def _rename_household(self, household: Household, new_name: str) -> Staged:
        old = household.name
        household.rename(new_name)
        households = self.households
        assert households is not None
        return Staged(RenamePreview("household", old, household.name), lambda: households.save(household))


class ArchiveArgs(WriteArgs):
    name: str = Field(description="Expense or card name or alias, or goal name.")
    kind: ItemKind | None = Field(default=None, description="Only needed when the name is ambiguous.")


class ArchiveTool(_ItemTool):
    name = "archiveItem"
    description = "Archive an expense or a goal no longer in use (its history stays)."
    args_model = ArchiveArgs
    preview_type = ArchivePreview

    async def archive_item(self, *, name: str, operation_id: str, kind: ItemKind | None = None,
                           confirm: bool = False) -> ToolReceipt:
        return await self.run(self.parse({"name": name, "kind": kind, "operation_id": operation_id,
                                          "confirm": confirm}))

    async def _stage(self, args: ArchiveArgs) -> Staged:
        found = await self._find(args.name, args.kind)
        if isinstance(found, Goal):
            found.archive()
            goal = found
            return Staged(ArchivePreview("goal", goal.name), lambda: self.goal_repo.save(goal))
        budget, item = found
        if isinstance(item, Card):
            budget.archive_card(item.name, open_installments=await self._open_parcelas(item))
            return Staged(ArchivePreview("card", item.name), lambda: self.budget_repo.save(budget))
        budget.archive(item.name, since=self._next_month())
        return Staged(ArchivePreview("expense", item.name), lambda: self.budget_repo.save(budget))
