"""Undo: a confirmed operation reversed by a new one, from its ledger entries.

The undo is itself an operation (propose, then a member confirms, exactly once). Confirming it
applies the opposite of each entry the undone operation made, through the same domain verbs,
so totals are as if it never happened while the ledger keeps both; and it marks the undone
operation in the log with a conditional UPDATE in the same transaction, so two undos of one
operation (two buttons, two workers) cannot both land.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from pydantic import Field

from domain.budget import Budget
from domain.cards import Card, CardRef
from domain.errors import AlreadyUndone, NotUndoable, UnknownOperation
from domain.goals import Contribution, Goal
from domain.household import Member
from domain.ledger import EntryKind, Ledger, LedgerEntry, Stamp
from domain.money import Money
from domain.operations.log import UNDO_TOOL, OperationLog, OperationStatus
from domain.operations.previews import NESTED_BY, Preview, PreviewReader
from domain.operations.receipts import ToolReceipt
from domain.ports import BudgetRepository, GoalRepository, HouseholdRepository
from domain.statements import StatementImports
from domain.tools.base import HouseholdBinding, Staged, WriteArgs, WriteTool
from domain.tools.budget import IncomePreview
from domain.tools.housekeeping import RenamePreview
from domain.tools.membership import EraseHouseholdTool, JoinHouseholdTool, LeaveHouseholdTool
from domain.tools.sharing import PixKeyPreview, SplitPreview
from domain.tools.statements import ImportStatementTool

# Operations that change no totals, so "undo the latest" never means them.
CHANGE_NO_TOTALS = (JoinHouseholdTool.name, LeaveHouseholdTool.name, EraseHouseholdTool.name)


@dataclass(frozen=True)
class UndoPreview(Preview):
    """undoOperation: the confirmed operation it reverses, with that operation's own preview."""

    operation: str
    tool: str
    original: Preview = field(metadata={NESTED_BY: "tool"})


class UndoArgs(WriteArgs):
    target: str | None = Field(
        default=None, max_length=128,
        description="omit: the latest")


class UndoOperationTool(WriteTool[UndoArgs]):
    name = UNDO_TOOL
    description = "Undo a confirmed operation (a spend, a contribution, an adjustment...)."
    args_model = UndoArgs
    preview_type = UndoPreview
    undoable = False  # an undo is not undone: the operation it undid can be done again

    def __init__(self, ledger: Ledger, budget_repo: BudgetRepository, budget_id: str,
                 goal_repo: GoalRepository, operations: OperationLog | None = None, *,
                 read_preview: PreviewReader, households: HouseholdRepository | None = None,
                 household_id: str | None = None, statement_imports: StatementImports | None = None) -> None:
        """`read_preview` reads the undone operation's stored preview as its tool's type
        (domain.tools.registry.read_preview, which lists this very tool); `households` undoes a
        Pix key; `statement_imports` forgets an undone import's lines, so they can come again."""
        super().__init__(operations)
        self.ledger = ledger
        self.budget_repo = budget_repo
        self.budget_id = budget_id
        self.goal_repo = goal_repo
        self.read_preview = read_preview
        self.households = households
        self.household_id = household_id
        self.statement_imports = statement_imports

    @classmethod
    def create(cls, *, ledger: Ledger, budget_repo: BudgetRepository, budget_id: str,
               goal_repo: GoalRepository, read_preview: PreviewReader,
               operations: OperationLog | None = None, households: HouseholdRepository | None = None,
               household_id: str | None = None,
               statement_imports: StatementImports | None = None) -> UndoOperationTool:
        return cls(ledger, budget_repo, budget_id, goal_repo, operations, read_preview=read_preview,
                   households=households, household_id=household_id, statement_imports=statement_imports)

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> UndoOperationTool | None:
        if binding.ledger is None or binding.read_preview is None:
            return None
        return cls(binding.ledger, binding.budgets, binding.budget_id, binding.goals, binding.operations,
                   read_preview=binding.read_preview, households=binding.households,
                   household_id=binding.household.id, statement_imports=binding.statement_imports)

    async def undo_operation(self, *, operation_id: str, target: str | None = None,
                             confirm: bool = False) -> ToolReceipt:
        return await self.run(self.parse({"target": target, "operation_id": operation_id,
                                          "confirm": confirm}))

    async def resolve(self, args: UndoArgs) -> UndoArgs:
        """"The latest" is read when the undo is proposed: confirming it undoes the operation its
        preview named, even if another was confirmed in between."""
        if args.target is not None:
            return args
        latest = await self.operations.last_undoable(besides=CHANGE_NO_TOTALS)
        if latest is None:
            raise NotUndoable("Não há nenhuma operação confirmada para desfazer.")
        return args.model_copy(update={"target": latest.operation_id})

    def _stamp(self, args: UndoArgs, confirmed_by: str | None) -> Stamp:
        return replace(super()._stamp(args, confirmed_by), undoes=args.target)

    async def _stage(self, args: UndoArgs) -> Staged:
        target_id = args.target
        assert target_id is not None  # resolve() named it
        # The messages name no operation id: a person may read them (a button's alert), and the
        # model knows which operation it asked about.
        target = await self.operations.get(target_id)
        if target is None:
            raise UnknownOperation(target_id)
        if target.tool == UNDO_TOOL:
            raise NotUndoable("Essa operação já é um desfazer; ela não pode ser desfeita.")
        if target.tool in CHANGE_NO_TOTALS:
            raise NotUndoable("Entrar, sair ou apagar a casa não se desfaz; não há valores para voltar atrás.")
        if target.status is not OperationStatus.CONFIRMED:
            raise NotUndoable("Essa operação não foi confirmada; não há o que desfazer.")
        if target.undone_by is not None:
            raise AlreadyUndone(target_id)
        entries = await self.ledger.of_operation(getattr(self.operations, "scope", None), target_id)
        if not entries:
            raise NotUndoable("Essa operação não deixou lançamentos no extrato para desfazer.")
        original = self.read_preview(target.tool, target.preview)
        saves = await self._reverse(entries, original)
        preview = UndoPreview(target_id, target.tool, original)

        imports, household_id = self.statement_imports, self.household_id
        if target.tool == ImportStatementTool.name and (imports is None or household_id is None):
            raise NotUndoable("Esta importação não pode ser desfeita aqui.")

        async def commit() -> None:
            await self.operations.mark_undone(target_id, by=args.operation_id)
            if target.tool == ImportStatementTool.name:
                assert imports is not None and household_id is not None
                # In this same transaction: the lines are free to come again only if the undo lands.
                await imports.release(household_id, target_id)
            for save in saves:
                await save()

        return Staged(preview, commit)

    async def _reverse(self, entries: list[LedgerEntry],
                       original: Preview) -> list[Callable[[], Awaitable[None]]]:
        """Applies the opposite of each entry to freshly loaded aggregates; returns their saves."""
        budget: Budget | None = None
        goals: dict[str, Goal] = {}
        saves: list[Callable[[], Awaitable[None]]] = []
        periods = {e.period for e in entries if e.kind is EntryKind.SPEND and e.period is not None}
        for entry in entries:
            if entry.kind is EntryKind.PIX:
                saves.append(await self._reverse_pix_key(entry, original))
            elif entry.expense_id is not None or entry.card_id is not None or entry.kind in IN_BUDGET:
                if budget is None:
                    budget = await self.budget_repo.load(self.budget_id, periods=periods)
                _reverse_in_budget(budget, entry, original, entries)
            elif entry.goal_id is not None:
                goal = goals.get(entry.goal_id)
                if goal is None:
                    goal = goals[entry.goal_id] = await self.goal_repo.load(entry.goal_id, history=False)
                _reverse_in_goal(goal, entry, original)
        if budget is not None:
            kept = budget
            saves.append(lambda: self.budget_repo.save(kept))
        for goal in goals.values():
            saves.append(lambda g=goal: self.goal_repo.save(g))  # type: ignore[misc]
        return saves


    async def _reverse_pix_key(self, entry: LedgerEntry,
                               original: Preview) -> Callable[[], Awaitable[None]]:
        if self.households is None or self.household_id is None or not isinstance(original, PixKeyPreview):
            raise NotUndoable("Esta chave Pix não pode ser desfeita aqui.")
        households = self.households
        household = await households.load(self.household_id)
        member = household.member_by_id(entry.paid_by_id or "")
        household.set_pix_key(member, original.old_key)
        return lambda: households.save(household)


# Entries of the budget without an expense: the income, the split rule, the acertos.
IN_BUDGET = (EntryKind.INCOME, EntryKind.SPLIT, EntryKind.SETTLEMENT)


def _payer(entry: LedgerEntry) -> Member | None:
    return Member(entry.paid_by_id, entry.paid_by or "-") if entry.paid_by_id else None


def _reverse_in_budget(budget: Budget, entry: LedgerEntry, original: Preview,
                       entries: list[LedgerEntry]) -> None:
    if entry.kind is EntryKind.INCOME:
        _reverse_income(budget, original, entries)
        return
    if entry.kind is EntryKind.SPLIT and isinstance(original, SplitPreview):
        budget.restore_split(original.old_rule.rule())
        return
    if entry.kind is EntryKind.SETTLEMENT and entry.amount is not None and entry.on is not None:
        payer = _payer(entry)
        assert payer is not None, "an acerto always names who paid"
        budget.reverse_settlement(entry.on, entry.amount, payer, entry.shares)
        return
    if entry.expense_id is None and entry.card_id is not None:
        _reverse_in_card(budget.card_by_id(entry.card_id), budget, entry, original)
        return
    assert entry.expense_id is not None
    expense = budget.expense_by_id(entry.expense_id)
    if entry.kind is EntryKind.SPEND and entry.amount is not None and entry.period is not None:
        # The reversal carries the shares negated: the balance moves back by exactly as much; a
        # parcela's reversal names its card and parcela, so the fatura sums it out too.
        card = (CardRef(entry.card_id, "", entry.installment or 1, entry.installments or 1)
                if entry.card_id is not None else None)
        expense.add_to_actual(entry.period, -entry.amount, paid_by=_payer(entry),
                              shares=tuple(share.negated() for share in entry.shares), card=card, on=entry.on)
    elif entry.kind is EntryKind.EXPECTED and entry.amount is not None:
        expense.change_expected(expense.expected - entry.amount)
    elif entry.kind is EntryKind.EXPENSE:
        expense.archive()
    elif entry.kind is EntryKind.ARCHIVED:
        expense.restore()
    elif entry.kind is EntryKind.RENAMED and isinstance(original, RenamePreview):
        budget.rename(expense.name, original.old_name, keep_old_name=False)


def _reverse_in_card(card: Card, budget: Budget, entry: LedgerEntry, original: Preview) -> None:
    if entry.kind is EntryKind.CARD:
        card.archive()
    elif entry.kind is EntryKind.ARCHIVED:
        card.restore()
    elif entry.kind is EntryKind.RENAMED and isinstance(original, RenamePreview):
        budget.rename_card(card.name, original.old_name, keep_old_name=False)


def _reverse_income(budget: Budget, original: Preview, entries: list[LedgerEntry]) -> None:
    """The income as the undone setIncome found it (setting it twice sets it once)."""
    if not isinstance(original, IncomePreview):
        return
    old = original.old_income
    if original.member is not None:
        member_id = next((e.paid_by_id for e in entries if e.kind is EntryKind.INCOME and e.paid_by_id), None)
        budget.restore_income(member_id, _money(old), _money(original.old_total))
    elif old is None:
        budget.clear_income()
    else:
        budget.set_income(Money.of(old.amount, old.currency))


def _money(value: Money | None) -> Money | None:
    return Money.of(value.amount, value.currency) if value is not None else None


def _reverse_in_goal(goal: Goal, entry: LedgerEntry, original: Preview) -> None:
    if entry.kind is EntryKind.CONTRIBUTION and entry.amount is not None and entry.on is not None:
        payer = Member(entry.paid_by_id or "-", entry.paid_by or "-")
        goal.reverse(Contribution(paid_by=payer, amount=entry.amount, date=entry.on))
    elif entry.kind is EntryKind.GOAL:
        goal.archive()
    elif entry.kind is EntryKind.ARCHIVED:
        goal.restore()
    elif entry.kind is EntryKind.RENAMED and isinstance(original, RenamePreview):
        goal.rename(original.old_name)
