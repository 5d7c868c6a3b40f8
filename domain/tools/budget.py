"""Tools over the budget: record a spend, register or adjust an expense, set the income, read it."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Annotated, Any, ClassVar, Final, TypeVar

from pydantic import BeforeValidator, Field

from domain.budget import Budget, RecurringExpense
from domain.cards import Card, UnknownCard, check_installments
from domain.clock import DEFAULT_TIMEZONE, Clock, local_today
from domain.errors import (
    DomainError,
    InvalidArgument,
    InvalidMoney,
    NothingToChange,
    UnknownExpense,
    UnknownMember,
    UnknownName,
)
from domain.household import Household, Member
from domain.money import Money, Period, pt_br
from domain.operations.log import OperationLog
from domain.operations.previews import OMIT, Preview
from domain.operations.receipts import ToolReceipt
from domain.ports import BudgetRepository
from domain.reading import read_date, read_period
from domain.reading.names import implied, keys, named_in, respelled, spellings, words
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
    parse_date,
)
from domain.tools.grounding import Ground, Intent, NotNamed, Said, grounds

_CITED: Final = 3  # expenses a refusal names as the ones the message cites, at most
_A_NEW_EXPENSES: Final = frozenset({"aliases", "category", "billingDay", "billing_day", "paymentMethod", "payment_method"})
_PAYER_WORDS: Final = 2  # words of a name the message writes ("Dona Cida"), not a clause the model copied


@dataclass(frozen=True)
class SharePart:
    """One member's part of a shared spend, as a preview shows it."""

    member: str
    amount: Money


@dataclass(frozen=True)
class LimitNote:
    """A month's spends on an expense reached a threshold of its expected amount (percent, down)."""

    expense: str
    period: Period
    percent: int


@dataclass(frozen=True)
class SpendPreview(Preview):
    """recordSpend: `delta` more spent on `expense` (as the model named it) in `period`; who paid
    it (absent: unknown) and each member's part (absent: personal, or nobody known paid).

    On a card: `period` is the first parcela's fatura (the month it counts in), `delta` the whole
    purchase in `installments` parcelas (the first of `first_installment`, the others of
    `installment`), the last one in `last_fatura`, the first due on `due`. `limits` are the limit
    thresholds this spend reached (domain.budget.LimitReached), said once confirmed."""

    expense: str
    period: Period
    delta: Money
    new_actual: Money
    paid_by: str | None = field(default=None, metadata={OMIT: None})
    shared: bool = field(default=True, metadata={OMIT: True})
    shares: tuple[SharePart, ...] = field(default=(), metadata={OMIT: ()})
    card: str | None = field(default=None, metadata={OMIT: None})
    purchased_on: date | None = field(default=None, metadata={OMIT: None})
    due: date | None = field(default=None, metadata={OMIT: None})
    installments: int = field(default=1, metadata={OMIT: 1})
    first_installment: Money | None = field(default=None, metadata={OMIT: None})
    installment: Money | None = field(default=None, metadata={OMIT: None})
    last_fatura: Period | None = field(default=None, metadata={OMIT: None})
    limits: tuple[LimitNote, ...] = field(default=(), metadata={OMIT: ()})


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
Installments = Annotated[int, BeforeValidator(_refuse_bool)]


_Found = TypeVar("_Found")
_SHOWN_ALIASES = re.compile(r"\s*[(\[][^()\[\]]*[)\]]\s*$")


def find_expense(budget: Budget, name: str) -> RecurringExpense:
    """The expense by name or alias; also when a model copied the working memory's layout
    ("Energia (luz/conta de luz)"): the name without the trailing parenthesis."""
    return _as_listed(budget.find_by_name, name, UnknownExpense)


def find_card(budget: Budget, name: str) -> Card:
    """The card by name or alias; also as the working memory lists it ("Nubank (roxinho)")."""
    return _as_listed(budget.find_card, name, UnknownCard)


def _as_listed(find: Callable[[str], _Found], name: str, unknown: type[UnknownName]) -> _Found:
    """`find(name)`, or, when it knows no such name, `find` of the name without the aliases the
    working memory shows after it in parentheses, or of the one known name it is a typo of: weak
    models copy "Restaurantes (delivery/iFood)" as "Restaurantees". Grounding still asks that the
    members named what was found."""
    try:
        return find(name)
    except unknown as error:
        bare = _SHOWN_ALIASES.sub("", name)
        if bare and bare != name:
            try:
                return find(bare)
            except unknown:
                pass
        typo_of = _typo_of(bare or name, error.known)
        if typo_of is None:
            raise
        return find(typo_of)


def _typo_of(name: str, known: tuple[str, ...]) -> str | None:
    """The one known name `name` is a misspelling of, word by word, or the same words in the
    singular or the plural ("Restaurante"): as domain.reading.names compares names."""
    spelling = spellings(known)
    written = tuple(respelled(key, spelling) for key in keys(name))
    matches = [candidate for candidate in known if keys(candidate) == written]
    return matches[0] if len(matches) == 1 else None


def _the_one_named(budget: Budget, said: Said) -> RecurringExpense | None:
    """The one expense this message names (`named_in`: a name of several words whole), or names
    by what it is for ("abasteci"); None when it names none, or several."""
    message = words(said.text)
    cited = [e for e in budget.active_expenses() if named_in(message, _names_of(e))]
    return cited[0] if len(cited) == 1 else None


def _names_of(expense: RecurringExpense) -> tuple[str, ...]:
    """Every way a member names `expense`: its name, its aliases, and the verbs that say what it is
    for ("abasteci 200": the fuel)."""
    names = (expense.name, *expense.aliases)
    return (*names, *implied(names))


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

    async def as_named(self, arguments: dict[str, Any], said: Said) -> dict[str, Any]:
        """The one expense this message names (`named_in`) in place of one nobody named, or one the
        household does not have: the small model proposed "mandei 160 pra Dona Neide" on the first
        expense it was shown, Aluguel, though its working memory named Diarista (Dona Neide). As
        they are when the message names none, or several. And no payer where the model's is no
        member and no name the message writes ("o Marcos pagou", the prompt's example; "card"):
        the chat then puts the member speaking, whom the preview names."""
        arguments = self._without_stray_payer(arguments, said)
        if "expense" not in self.args_model.model_fields:
            return arguments  # a new expense's name (registerExpense) is the member's to choose
        budget = await self.budget_repo.load(self.budget_id, periods=())
        name = arguments.get("expense")
        if isinstance(name, str):
            try:
                found = find_expense(budget, name)
            except UnknownExpense:
                pass
            else:
                if said.names_any(_names_of(found)):
                    return arguments
        cited = _the_one_named(budget, said)
        return {**arguments, "expense": cited.name} if cited is not None else arguments

    def _without_stray_payer(self, arguments: dict[str, Any], said: Said) -> dict[str, Any]:
        payer = arguments.get("paidBy")
        if self.household is None or not isinstance(payer, str) or not payer.strip():
            return arguments
        try:
            self.household.member_named(payer)
        except UnknownMember:
            written = words(payer)
            if len(written) <= _PAYER_WORDS and named_in(words(said.text), [payer]):
                return arguments  # "a Dona Cida pagou": the tool names the members
            return {**arguments, "paidBy": None}
        return arguments

    async def _unnamed(self, name: str, said: Said, ask: str) -> DomainError | None:
        """NotNamed when nobody wrote the expense `name` finds, nor an alias of it ("gastei 80 no
        salão" proposed on the rent); UnknownExpense when there is none such."""
        budget = await self.budget_repo.load(self.budget_id, periods=())
        found = find_expense(budget, name)
        if said.names_any(_names_of(found)):
            return None
        cited = [e.name for e in budget.active_expenses() if said.names_any(_names_of(e))]
        hint = f" A mensagem cita: {', '.join(cited)}." if 0 < len(cited) <= _CITED else ""
        return NotNamed(f"Ninguém citou a despesa {found.name} (nem um apelido dela).{hint} Pergunte {ask} "
                        "antes de propor, ou se é uma despesa nova.")

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
    card: str | None = Field(default=None, description="Credit card name, if paid by card.")
    installments: Installments | None = Field(default=None, description="Parcelas (em 10x: 10).")
    date: str | None = Field(default=None, description="Card purchase day: YYYY-MM-DD, or the words (ontem).")

    # Left out of the fingerprint when not given: operations stored before they existed keep theirs.
    added_later: ClassVar[frozenset[str]] = frozenset({"card", "installments", "date"})


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
    grounded = grounds(amount=Ground.PAID, period=Ground.MONTH, card=Ground.CARD,
                       installments=Ground.INSTALLMENTS, shared=Ground.SHARED)
    intent = Intent.SPEND

    def prepare(self, arguments: dict[str, Any]) -> dict[str, Any]:
        # A new expense's fields, carried over from the registerExpense call the tools turned
        # down ("A despesa Pet já existe: … recordSpend"): a spend has no use for them.
        arguments = {key: value for key, value in with_month(self, arguments).items() if key not in _A_NEW_EXPENSES}
        if not missing(arguments, "card") and missing(arguments, "date"):
            # The purchase's day decides its fatura: the day the member wrote it, unless they said
            # another. Kept in the arguments, so a confirmation tomorrow writes the same fatura.
            arguments = {**arguments, "date": self.reading.today().isoformat()}
        elif not missing(arguments, "date"):
            day = read_date(str(arguments["date"]), "Data da compra", today=self.reading.today())
            arguments = {**arguments, "date": day.isoformat()}
        return arguments

    speaker_argument = "paidBy"

    async def known_as(self, arguments: dict[str, Any]) -> tuple[str, ...]:
        if missing(arguments, "card"):
            return ()
        try:
            card = find_card(await self.budget_repo.load(self.budget_id, periods=()), str(arguments["card"]))
        except DomainError:
            return ()  # no such card: the tool names the household's
        return (card.name, *card.aliases)

    async def unnamed(self, args: RecordSpendArgs, said: Said) -> DomainError | None:
        return await self._unnamed(args.expense, said, "em qual despesa lançar")

    async def record_spend(self, *, expense: str, period: str, amount: dict[str, Any],
                           operation_id: str, confirm: bool = False, paid_by: str | None = None,
                           shared: bool = True, card: str | None = None, installments: int | None = None,
                           date: str | None = None) -> ToolReceipt:
        return await self.run(self.parse({"expense": expense, "period": period, "amount": amount,
                                          "operation_id": operation_id, "confirm": confirm,
                                          "paid_by": paid_by, "shared": shared, "card": card,
                                          "installments": installments, "date": date}))

    async def _stage(self, args: RecordSpendArgs) -> Staged:
        if args.card is not None:
            return await self._stage_on_card(args)
        if args.installments not in (None, 1):
            raise InvalidArgument(f"Parcelas ({args.installments}x) só no cartão: diga em qual cartão.")
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
                               shares=tuple(SharePart(s.member_name, s.owed) for s in shares),
                               limits=limit_notes(expense))
        return Staged(preview, lambda: self.budget_repo.save(budget))

    async def _stage_on_card(self, args: RecordSpendArgs) -> Staged:
        """A purchase on a card, in one or more parcelas, each in its fatura's month."""
        assert args.card is not None and args.date is not None  # prepare() dated it
        count = check_installments(1 if args.installments is None else args.installments)
        purchase = parse_date(args.date, "Data da compra")
        payer = self.member(args.paid_by)
        total = positive(args.amount, "O gasto")
        month = Period.of(purchase)
        # Every fatura the parcelas can fall in: from the purchase's month to N months later.
        budget = await self.budget_repo.load(self.budget_id, periods=[month.plus(i) for i in range(count + 1)])
        expense = find_expense(budget, args.expense)
        card = find_card(budget, args.card)
        first = card.fatura_of(purchase)
        if Period.parse(args.period) not in (month, first):
            raise InvalidArgument(
                f"No cartão, o mês vem da data da compra: uma compra em {purchase:%d/%m/%Y} no {card.name} "
                f"cai na fatura de {first.month:02d}/{first.year}, não em {args.period}. "
                "Diga o dia da compra (date), não o mês.")
        members = self.household.members if self.household is not None and args.shared else ()
        found = budget.record_purchase(expense, total, card=card, on=purchase, installments=count,
                                       paid_by=payer, members=members, shared=args.shared)
        owed: dict[str, Money] = defaultdict(lambda: Money.zero(total.currency))
        for line in expense.lines:
            for share in line.shares:
                owed[share.member_name] = owed[share.member_name] + share.owed
        preview = SpendPreview(
            args.expense, first, total, expense.actual_for(first),
            paid_by=payer.name if payer is not None else None, shared=args.shared,
            shares=tuple(SharePart(name, amount) for name, amount in owed.items()),
            card=card.name, purchased_on=purchase, due=card.due_date(first), installments=count,
            first_installment=found[0].amount if count > 1 else None,
            installment=found[-1].amount if count > 1 else None,
            last_fatura=found[-1].fatura if count > 1 else None, limits=limit_notes(expense))
        return Staged(preview, lambda: self.budget_repo.save(budget))


def limit_notes(expense: RecurringExpense) -> tuple[LimitNote, ...]:
    """The limit thresholds `expense` reached since it was loaded, as a preview says them."""
    return tuple(LimitNote(limit.expense, limit.period, limit.percent) for limit in expense.limits)


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
    intent = Intent.CREATE

    async def register_expense(self, *, name: str, expected: dict[str, Any], operation_id: str,
                               category: str | None = None, billing_day: int | None = None,
                               payment_method: str | None = None, aliases: list[str] | None = None,
                               confirm: bool = False) -> ToolReceipt:
        return await self.run(self.parse({
            "name": name, "expected": expected, "operation_id": operation_id, "category": category,
            "billing_day": billing_day, "payment_method": payment_method, "aliases": aliases,
            "confirm": confirm}))

    async def instead(self, said: Said) -> str:
        """A new expense refused where the message names one the household has ("gastei 60 na
        fiera", "abasteci o carro, deu duzentos"): most often a spend on it."""
        named = _the_one_named(await self.budget_repo.load(self.budget_id, periods=()), said)
        if named is None:
            return ""
        return f' A mensagem cita a despesa {named.name}: um gasto nela é recordSpend com expense="{named.name}".'

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

    async def unnamed(self, args: AdjustExpenseArgs, said: Said) -> DomainError | None:
        return await self._unnamed(args.expense, said, "qual despesa mudar")

    async def adjust_expense(self, *, expense: str, new_expected: dict[str, Any], operation_id: str,
                             confirm: bool = False) -> ToolReceipt:
        return await self.run(self.parse({"expense": expense, "new_expected": new_expected,
                                          "operation_id": operation_id, "confirm": confirm}))

    async def _stage(self, args: AdjustExpenseArgs) -> Staged:
        # This month loaded: the limit warnings already said in it are re-armed by the new amount.
        this_month = self._this_month()
        budget = await self.budget_repo.load(self.budget_id, periods=[this_month] if this_month is not None else ())
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
    intent = Intent.INCOME
    self_argument = "member"  # "minha renda": member "eu", the member speaking

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

