"""Importing a bank or card statement: one preview for every new line, one confirmation for all."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from pydantic import Field

from domain.cards import CardRef
from domain.errors import InvalidArgument, InvalidMoney
from domain.household import Household
from domain.money import Money, Period
from domain.operations.log import OperationLog
from domain.operations.previews import OMIT, Preview
from domain.ports import BudgetRepository
from domain.statements import (
    AlreadyImported,
    NothingToImport,
    Spend,
    StatementImports,
    apply_statement_lines,
    parcela_of,
    statement_faturas,
)
from domain.tools.base import (
    ExactDecimal,
    HouseholdBinding,
    Staged,
    ToolArgs,
    WriteArgs,
    WriteTool,
    parse_date,
)
from domain.tools.budget import LimitNote, limit_notes


@dataclass(frozen=True)
class ImportGroup:
    """The statement lines of one expense: how many, how much, how many the model placed."""

    expense: str
    count: int
    total: Money
    suggested: int = field(default=0, metadata={OMIT: 0})


@dataclass(frozen=True)
class AsideLine:
    """A statement line shown but not imported: a credit, a debit matching no expense, or a
    parcela the card's fatura already counts."""

    date: str  # as the statement gave it
    amount: Money  # as the bank wrote it (a credit is negative)
    description: str


@dataclass(frozen=True)
class ImportPreview(Preview):
    """importStatement: every new line of a statement, grouped by expense."""

    file: str
    count: int
    total: Money
    groups: tuple[ImportGroup, ...]
    unmatched: tuple[AsideLine, ...]
    credits: tuple[AsideLine, ...]
    skipped: int
    paid_by: str | None = field(default=None, metadata={OMIT: None})  # who sent the file
    card: str | None = field(default=None, metadata={OMIT: None})  # a card statement's card
    # A card statement's parcelas its fatura already holds (a parcelado registered in the bot).
    counted: tuple[AsideLine, ...] = field(default=(), metadata={OMIT: ()})
    limits: tuple[LimitNote, ...] = field(default=(), metadata={OMIT: ()})  # thresholds the lines reached


class ImportLineArg(ToolArgs):
    date: str
    amount: ExactDecimal  # what was spent: positive
    description: str
    expense: str
    fingerprint: str = Field(min_length=1, max_length=64)
    suggested: bool = False  # placed by the model, not by a name: the preview says so


class AsideLineArg(ToolArgs):
    """A line shown in the preview but not imported (a credit, or a debit matching no expense)."""

    date: str
    amount: ExactDecimal  # as the bank wrote it
    description: str


class ImportStatementArgs(WriteArgs):
    file: str
    lines: list[ImportLineArg]
    unmatched: list[AsideLineArg] = Field(default_factory=list)
    credits: list[AsideLineArg] = Field(default_factory=list)
    skipped: int = 0
    paid_by: str | None = None  # who sent the file: every line is theirs, shared by the rule
    card: str | None = None  # a card statement: every line a purchase on it, in its fatura's month
    counted: list[AsideLineArg] = Field(default_factory=list)  # parcelas the fatura already holds

    added_later: ClassVar[frozenset[str]] = frozenset({"card", "counted"})


class ImportStatementTool(WriteTool[ImportStatementArgs]):
    """Not offered to the model: the bot proposes it from a parsed file, a member confirms it."""

    name = "importStatement"
    description = "Import a bank statement's new lines as spends of their expenses."
    args_model = ImportStatementArgs
    preview_type = ImportPreview
    offered = False

    def __init__(self, budget_repo: BudgetRepository, budget_id: str, household_id: str,
                 imports: StatementImports, operations: OperationLog | None = None,
                 household: Household | None = None) -> None:
        super().__init__(operations)
        self.budget_repo = budget_repo
        self.budget_id = budget_id
        self.household_id = household_id
        self.imports = imports
        self.household = household

    @classmethod
    def create(cls, *, budget_repo: BudgetRepository, budget_id: str, household_id: str,
               imports: StatementImports, operations: OperationLog | None = None,
               household: Household | None = None) -> ImportStatementTool:
        return cls(budget_repo, budget_id, household_id, imports, operations, household)

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> ImportStatementTool | None:
        if binding.statement_imports is None:
            return None
        return cls(binding.budgets, binding.budget_id, binding.household.id, binding.statement_imports,
                   binding.operations, binding.household)

    async def _stage(self, args: ImportStatementArgs) -> Staged:
        if not args.lines:
            raise NothingToImport("Nenhum lançamento novo para importar.")
        keys = [line.fingerprint for line in args.lines]
        if len(set(keys)) != len(keys):
            raise InvalidArgument("A importação repete um lançamento.")
        payer = (self.household.member_named(args.paid_by)
                 if args.paid_by is not None and self.household is not None else None)
        days = []
        for line in args.lines:
            day = parse_date(line.date, "Data do lançamento")
            if line.amount <= 0:
                raise InvalidMoney(f"Gasto não positivo no extrato: {line.amount} ({line.description}).")
            days.append((line, day))
        # A card's purchase may fall in the next month's fatura, and a parcela k/N dated on its
        # purchase up to N faturas later: those months are loaded.
        months = {Period.of(day) for _, day in days}
        if args.card is not None:
            later = max((parcela[1] for line, _ in days if (parcela := parcela_of(line.description))), default=1)
            months = {month.plus(i) for month in months for i in range(later + 1)}
        budget = await self.budget_repo.load(self.budget_id, periods=months)
        # Every expense is resolved before anything changes: one renamed or gone since the
        # preview fails the whole import, not half of it.
        names = {name: budget.find_by_name(name).name for name in {line.expense for line, _ in days}}
        card_name = None
        if args.card is not None:
            card = budget.find_card(args.card)
            card_name = card.name
            faturas = statement_faturas(card, [(day, line.description) for line, day in days])
            resolved = [Spend(names[line.expense], fatura, Money.of(line.amount, budget.currency),
                              CardRef(card.id, card.name, *(parcela or (1, 1))), day)
                        for (line, day), (fatura, parcela) in zip(days, faturas, strict=True)]
        else:
            resolved = [Spend(names[line.expense], Period.of(day), Money.of(line.amount, budget.currency))
                        for line, day in days]
        # Read after the budget (whose row a confirmation locks), so a confirmation that waited
        # for another import sees the lines it recorded.
        already = await self.imports.already_imported(self.household_id, keys)
        if already:
            raise AlreadyImported(len(already))
        apply_statement_lines(budget, resolved, payer, self.household.members if self.household else ())
        preview = statement_preview(args, resolved, [line.suggested for line, _ in days], budget.currency,
                                    payer.name if payer is not None else None)
        preview = replace(preview, card=card_name,
                          limits=tuple(note for expense in budget.expenses for note in limit_notes(expense)))

        async def commit() -> None:
            await self.budget_repo.save(budget)
            await self.imports.record(self.household_id, args.operation_id, keys)

        return Staged(preview, commit)


def statement_preview(args: ImportStatementArgs, spends: list[Spend], suggested: list[bool],
                      currency: str, paid_by: str | None = None) -> ImportPreview:
    groups: dict[str, tuple[int, Money, int]] = {}
    total = Money.zero(currency)
    for spend, guessed in zip(spends, suggested, strict=True):
        count, subtotal, guesses = groups.get(spend.expense, (0, Money.zero(currency), 0))
        groups[spend.expense] = (count + 1, subtotal + spend.amount, guesses + guessed)
        total = total + spend.amount

    def aside(lines: list[AsideLineArg]) -> tuple[AsideLine, ...]:
        # As the bank wrote it: Money.of would refuse a credit's sign or a bank's extra decimals.
        return tuple(AsideLine(line.date, Money(line.amount, currency), line.description) for line in lines)

    return ImportPreview(
        file=args.file,
        count=len(spends),
        total=total,
        groups=tuple(ImportGroup(name, count, subtotal, guesses)
                     for name, (count, subtotal, guesses) in groups.items()),
        unmatched=aside(args.unmatched),
        credits=aside(args.credits),
        skipped=args.skipped,
        counted=aside(args.counted),
        paid_by=paid_by,
    )
