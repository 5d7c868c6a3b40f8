"""Tools over the budget: record a spend, register or adjust an expense, set the income, read it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BeforeValidator, Field

from domain.budget import Budget, RecurringExpense
from domain.clock import DEFAULT_TIMEZONE, Clock, local_today
from domain.errors import InvalidArgument, InvalidMoney, NothingToChange, UnknownExpense
from domain.household import Household, Member
from domain.money import Money, Period, pt_br
from domain.operations.log import OperationLog
from domain.operations.previews import OMIT, Preview
from domain.operations.receipts import ToolReceipt
from domain.ports import BudgetRepository
from domain.reading import read_period
from domain.reports import BudgetReport, report_json
from domain.tools.base import (
    HouseholdBinding,
    MoneyArg,
    ReadTool,
    Staged,
    ToolArgs,
    WriteArgs,
    WriteTool,
    missing,
)
from domain.tools.grounding import Ground, Intent, grounds


@dataclass(frozen=True)
class SharePart:
    """One member's part of a shared spend, as a preview shows it."""

    member: str
    amount: Money


@dataclass(frozen=True)
class SpendPreview(Preview):
    """recordSpend: `delta` more spent on `expense` (as the model named it) in `period`; who paid
    it (absent: unknown) and each member's part (absent: personal, or nobody known paid)."""

    expense: str
    period: Period
    delta: Money
    new_actual: Money
    paid_by: str | None = field(default=None, metadata={OMIT: None})
    shared: bool = field(default=True, metadata={OMIT: True})
    shares: tuple[SharePart, ...] = field(default=(), metadata={OMIT: ()})


@dataclass(frozen=True)
class ExpensePreview(Preview):
    """registerExpense: a new monthly expense, as it will be stored."""

    name: str
    expected: Money
    category: str | None
    billing_day: int | None
    payment_method: str | None


@dataclass(frozen=True)
class AdjustmentPreview(Preview):
    """adjustExpense: an expense's expected amount, before and after."""

    expense: str
    old_expected: Money
    new_expected: Money


@dataclass(frozen=True)
class IncomePreview(Preview):
    """setIncome: the household's monthly income, and the one it replaces (None: none before);
    with `member`, that member's own income and theirs before, the household's before
    (`old_total`) and after (`total`): the sum of the members' own."""

    income: Money
    old_income: Money | None
    member: str | None = field(default=None, metadata={OMIT: None})
    old_total: Money | None = field(default=None, metadata={OMIT: None})
    total: Money | None = field(default=None, metadata={OMIT: None})


def _refuse_bool(value: Any) -> Any:
    # pydantic would read true as 1: a due day the member never gave.
    if isinstance(value, bool):
        raise ValueError(f"{value!r} não é um dia do mês")
    return value


BillingDay = Annotated[int, BeforeValidator(_refuse_bool)]


_SHOWN_ALIASES = re.compile(r"\s*[(\[][^()\[\]]*[)\]]\s*$")


def find_expense(budget: Budget, name: str) -> RecurringExpense:
    """The expense by name or alias; also when a model copied the working memory's layout
    ("Energia (luz/conta de luz)"): the name without the trailing parenthesis."""
    try:
        return budget.find_by_name(name)
    except UnknownExpense:
        bare = _SHOWN_ALIASES.sub("", name)
        if not bare or bare == name:
            raise
        return budget.find_by_name(bare)


def positive(money: MoneyArg, what: str) -> Money:
    value = money.to_money()
    if not value.is_positive:
        raise InvalidMoney(f"{what} precisa ser positivo, não {value}.")
    return value


class _BudgetWriteTool(WriteTool[Any]):
    def __init__(self, budget_repo: BudgetRepository, budget_id: str,
                 operations: OperationLog | None = None, *, now: Clock | None = None,
                 timezone: str = DEFAULT_TIMEZONE, household: Household | None = None) -> None:
        super().__init__(operations)
        self.budget_repo = budget_repo
        self.budget_id = budget_id
        self.now = now
        self.timezone = timezone
        # Who is in the household: whom a spend's payer and an income name (None: a budget alone,
        # as contract §3 builds the tools: every spend's payer unknown).
        self.household = household

    @classmethod
    def create(cls, *, budget_repo: BudgetRepository, budget_id: str,
               operations: OperationLog | None = None, now: Clock | None = None,
               timezone: str = DEFAULT_TIMEZONE, household: Household | None = None) -> Any:
        return cls(budget_repo, budget_id, operations, now=now, timezone=timezone, household=household)

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> Any:
        return cls(binding.budgets, binding.budget_id, binding.operations, now=binding.clock,
                   timezone=binding.timezone, household=binding.household)

    def member(self, name: str | None) -> Member | None:
        """The member named `name` (UnknownMember naming them all); None when no name was given
        or the tool knows no household."""
        if name is None or self.household is None:
            return None
        return self.household.member_named(name)

    def _this_month(self) -> Period | None:
        """The month a registration or an adjustment takes effect (None without a clock)."""
        return Period.of(local_today(self.now, self.timezone)) if self.now is not None else None


class RecordSpendArgs(WriteArgs):
    expense: str  # a name or an alias from the working memory (the prompt says so)
    period: str = Field(description="YYYY-MM")
    amount: MoneyArg = Field(description="How much more was spent.")
    paid_by: str | None = None
    shared: bool = True


def with_month(tool: Any, arguments: dict[str, Any]) -> dict[str, Any]:
    """`period` read as people write it ("11/2026", "novembro"); this month when left out."""
    today = tool.reading.today()
    if missing(arguments, "period"):
        return {**arguments, "period": str(Period.of(today))}
    return {**arguments, "period": read_period(arguments["period"], today)}


class RecordSpendTool(_BudgetWriteTool):
    preview_type = SpendPreview
    name = "recordSpend"
    description = (
        "Money spent on an existing expense in a month."
    )
    args_model = RecordSpendArgs
    grounded = grounds(amount=Ground.MONEY, period=Ground.MONTH)
    intent = Intent.SPEND

    def prepare(self, arguments: dict[str, Any]) -> dict[str, Any]:
        return with_month(self, arguments)

    speaker_argument = "paidBy"

    async def record_spend(self, *, expense: str, period: str, amount: dict[str, Any],
                           operation_id: str, confirm: bool = False, paid_by: str | None = None,
                           shared: bool = True) -> ToolReceipt:
        return await self.run(self.parse({"expense": expense, "period": period, "amount": amount,
                                          "operation_id": operation_id, "confirm": confirm,
                                          "paid_by": paid_by, "shared": shared}))

    async def _stage(self, args: RecordSpendArgs) -> Staged:
        period = Period.parse(args.period)
        payer = self.member(args.paid_by)  # an unknown name fails here, before anything loads
        budget = await self.budget_repo.load(self.budget_id, periods=[period])
        expense = find_expense(budget, args.expense)
        delta = positive(args.amount, "O gasto")
        # The rule in force now: a confirmation after a change of rule divides by the new one.
        shares = (budget.shares_for(delta, payer, self.household.members)
                  if payer is not None and self.household is not None and args.shared else ())
        new_actual = expense.add_to_actual(period, delta, paid_by=payer, shares=shares)
        preview = SpendPreview(args.expense, period, delta, new_actual,
                               paid_by=payer.name if payer is not None else None, shared=args.shared,
                               shares=tuple(SharePart(s.member_name, s.owed) for s in shares))
        return Staged(preview, lambda: self.budget_repo.save(budget))


class RegisterExpenseArgs(WriteArgs):
    name: str
    expected: MoneyArg = Field(description="Monthly amount.")
    category: str | None = None
    billing_day: BillingDay | None = Field(default=None, description="Due day, 1-31.")
    payment_method: str | None = None
    aliases: list[str] | None = None


class RegisterExpenseTool(_BudgetWriteTool):
    preview_type = ExpensePreview
    name = "registerExpense"
    description = (
        "A new monthly expense, not in the list yet."
    )
    args_model = RegisterExpenseArgs
    grounded = grounds(expected=Ground.MONEY)

    async def register_expense(self, *, name: str, expected: dict[str, Any], operation_id: str,
                               category: str | None = None, billing_day: int | None = None,
                               payment_method: str | None = None, aliases: list[str] | None = None,
                               confirm: bool = False) -> ToolReceipt:
        return await self.run(self.parse({
            "name": name, "expected": expected, "operation_id": operation_id, "category": category,
            "billing_day": billing_day, "payment_method": payment_method, "aliases": aliases,
            "confirm": confirm}))

    async def _stage(self, args: RegisterExpenseArgs) -> Staged:
        budget = await self.budget_repo.load(self.budget_id, periods=())
        expense = budget.register(
            args.name, positive(args.expected, "O valor esperado"), aliases=args.aliases or (),
            category=args.category, billing_day=args.billing_day,
            payment_method=args.payment_method, since=self._this_month())
        preview = ExpensePreview(expense.name, expense.expected, expense.category,
                                 expense.billing_day, expense.payment_method)
        return Staged(preview, lambda: self.budget_repo.save(budget))


class AdjustExpenseArgs(WriteArgs):
    expense: str  # a name or an alias from the working memory (the prompt says so)
    new_expected: MoneyArg


class AdjustExpenseTool(_BudgetWriteTool):
    preview_type = AdjustmentPreview
    name = "adjustExpense"
    description = (
        "Change an existing expense's expected monthly amount."
    )
    args_model = AdjustExpenseArgs
    grounded = grounds(newExpected=Ground.COMPUTED)
    intent = Intent.CHANGE

    async def adjust_expense(self, *, expense: str, new_expected: dict[str, Any], operation_id: str,
                             confirm: bool = False) -> ToolReceipt:
        return await self.run(self.parse({"expense": expense, "new_expected": new_expected,
                                          "operation_id": operation_id, "confirm": confirm}))

    async def _stage(self, args: AdjustExpenseArgs) -> Staged:
        budget = await self.budget_repo.load(self.budget_id, periods=())
        found = find_expense(budget, args.expense)
        old_expected = found.expected
        new = positive(args.new_expected, "O novo valor")
        if new == old_expected:
            raise NothingToChange(f"{found.name} já está previsto em {pt_br(new.amount, new.currency)} "
                                  "por mês; nada a mudar.")
        budget.adjust_amount(found.name, new, effective=self._this_month())
        new_expected = budget.find_by_name(found.name).expected
        preview = AdjustmentPreview(args.expense, old_expected, new_expected)
        return Staged(preview, lambda: self.budget_repo.save(budget))


class SetIncomeArgs(WriteArgs):
    amount: MoneyArg = Field(description="Total monthly income.")
    member: str | None = None


class SetIncomeTool(_BudgetWriteTool):
    preview_type = IncomePreview
    name = "setIncome"
    description = (
        "Set the household's monthly income."
    )
    args_model = SetIncomeArgs
    grounded = grounds(amount=Ground.MONEY)

    async def set_income(self, *, amount: dict[str, Any], operation_id: str, member: str | None = None,
                         confirm: bool = False) -> ToolReceipt:
        return await self.run(self.parse({"amount": amount, "operation_id": operation_id,
                                          "member": member, "confirm": confirm}))

    async def _stage(self, args: SetIncomeArgs) -> Staged:
        if args.member is not None and self.household is None:
            raise InvalidArgument("Sem saber quem é da casa, não dá para guardar a renda de um membro.")
        member = self.member(args.member)
        budget = await self.budget_repo.load(self.budget_id, periods=())
        income, old_total = args.amount.to_money(), budget.income
        if member is None:
            budget.set_income(income)
            preview = IncomePreview(income, old_total)
        else:
            old = budget.income_of(member)
            budget.set_income(income, member)
            preview = IncomePreview(income, old, member.name, old_total, budget.income)
        return Staged(preview, lambda: self.budget_repo.save(budget))


class BudgetStatusArgs(ToolArgs):
    period: str = Field(description="YYYY-MM")


class BudgetStatusTool(ReadTool[BudgetStatusArgs]):
    name = "budgetStatus"
    description = "Spending per expense in a month, with totals."
    args_model = BudgetStatusArgs
    grounded = grounds(period=Ground.MONTH)

    def prepare(self, arguments: dict[str, Any]) -> dict[str, Any]:
        return with_month(self, arguments)

    def __init__(self, budget_repo: BudgetRepository, budget_id: str) -> None:
        self.budget_repo = budget_repo
        self.budget_id = budget_id

    @classmethod
    def create(cls, *, budget_repo: BudgetRepository, budget_id: str) -> BudgetStatusTool:
        return cls(budget_repo, budget_id)

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> BudgetStatusTool:
        return cls(binding.budgets, binding.budget_id)

    async def budget_status(self, *, period: str) -> dict[str, Any]:
        return await self.read(self.parse({"period": period}))

    async def read(self, args: BudgetStatusArgs) -> dict[str, Any]:
        return report_json(await self.report(Period.parse(args.period)))

    async def report(self, period: Period) -> BudgetReport:
        """The month, typed: what /resumo renders (the model reads its JSON)."""
        return BudgetReport.of(await self.budget_repo.load(self.budget_id, periods=[period]), period)

