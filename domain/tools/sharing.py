"""Tools over who paid and who owes whom: the acerto (settleUp), the balance, the split rule
(setSplit, /divisao) and a member's Pix key (setPixKey, /pix). The rules are domain.sharing's;
these load, call one verb and save, like every tool.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from pydantic import Field
from pydantic.json_schema import SkipJsonSchema

from domain.budget import Budget
from domain.clock import DEFAULT_TIMEZONE, Clock, local_today, utc_now
from domain.errors import DomainError
from domain.household import Household, Member
from domain.ledger import Ledger
from domain.money import Money, Period
from domain.operations.log import OperationLog
from domain.operations.previews import OMIT, Preview
from domain.operations.receipts import ToolReceipt
from domain.ports import BudgetRepository, HouseholdRepository
from domain.reading import read_period
from domain.sharing.balance import Balance, Transfer
from domain.sharing.pix import pix_key
from domain.sharing.rules import SplitRule
from domain.tools.base import (
    ExactDecimal,
    HouseholdBinding,
    MoneyArg,
    ReadTool,
    Staged,
    ToolArgs,
    WriteArgs,
    WriteTool,
    missing,
    money_dict,
)
from domain.tools.budget import positive
from domain.tools.grounding import Ground, grounds


class NothingOwed(DomainError):
    """No debt to settle: a message for the member, never a preview."""


class MoreThanOwed(DomainError):
    def __init__(self, transfer: Transfer, amount: Money, shown: str) -> None:
        super().__init__(f"O acerto de {amount} é maior que a dívida: {transfer.debtor} deve {shown} "
                         f"a {transfer.creditor}.")
        self.transfer = transfer
        self.amount = amount


# --------------------------------------------------------------------------- settleUp


@dataclass(frozen=True)
class SettlementPreview(Preview):
    """settleUp: `debtor` pays `amount` to `creditor`, of a debt of `debt` (`remaining` after it)."""

    debtor: str
    creditor: str
    amount: Money
    debt: Money
    remaining: Money


class SettleUpArgs(WriteArgs):
    amount: MoneyArg | None = None  # omitted: the whole debt
    paid_by: str | None = None
    paid_to: str | None = None
    # The member asking, filled in by the chat (not the model's): whose debt "acerta" means.
    speaker: SkipJsonSchema[str | None] = None


class SettleUpTool(WriteTool[SettleUpArgs]):
    name = "settleUp"
    description = "Acerto: a member pays back a debt."
    args_model = SettleUpArgs
    grounded = grounds(amount=Ground.PAID)
    preview_type = SettlementPreview
    speaker_argument = "speaker"

    def __init__(self, budget_repo: BudgetRepository, budget_id: str, ledger: Ledger, household: Household,
                 operations: OperationLog | None = None, *, now: Clock = utc_now,
                 timezone: str = DEFAULT_TIMEZONE) -> None:
        super().__init__(operations)
        self.budget_repo = budget_repo
        self.budget_id = budget_id
        self.ledger = ledger
        self.household = household
        self.now = now
        self.timezone = timezone

    @classmethod
    def create(cls, *, budget_repo: BudgetRepository, budget_id: str, ledger: Ledger, household: Household,
               operations: OperationLog | None = None, now: Clock = utc_now,
               timezone: str = DEFAULT_TIMEZONE) -> SettleUpTool:
        return cls(budget_repo, budget_id, ledger, household, operations, now=now, timezone=timezone)

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> SettleUpTool | None:
        if binding.ledger is None:
            return None
        return cls(binding.budgets, binding.budget_id, binding.ledger, binding.household, binding.operations,
                   now=binding.now, timezone=binding.timezone)

    async def settle_up(self, *, operation_id: str, amount: dict[str, Any] | None = None,
                        paid_by: str | None = None, paid_to: str | None = None, speaker: str | None = None,
                        confirm: bool = False) -> ToolReceipt:
        return await self.run(self.parse({"amount": amount, "paid_by": paid_by, "paid_to": paid_to,
                                          "speaker": speaker, "operation_id": operation_id,
                                          "confirm": confirm}))

    async def _stage(self, args: SettleUpArgs) -> Staged:
        members = self.household.members
        debtor_named = self._member(args.paid_by)
        creditor_named = self._member(args.paid_to)
        speaker = self._member(args.speaker) if args.speaker else None
        # The budget first: inside a confirmation its row lock makes two acertos confirmed at
        # once on two workers take turns, so the balance read below counts the other one.
        budget = await self.budget_repo.load(self.budget_id, periods=())
        balance = (await self.ledger.balance(self.household.id)).named({m.id: m.name for m in members})
        transfer = chosen_transfer(balance, debtor_named, creditor_named, speaker)
        amount = positive(args.amount, "O acerto") if args.amount is not None else transfer.amount
        if transfer.amount < amount:
            raise MoreThanOwed(transfer, amount, str(transfer.amount))
        debtor = self._by_id(transfer.debtor_id, transfer.debtor)
        creditor = self._by_id(transfer.creditor_id, transfer.creditor)
        budget.settle(debtor, creditor, amount, local_today(self.now, self.timezone))
        preview = SettlementPreview(debtor.name, creditor.name, amount, transfer.amount,
                                    transfer.amount - amount)
        return Staged(preview, lambda: self.budget_repo.save(budget))

    def _member(self, name: str | None) -> Member | None:
        return self.household.member_named(name) if name else None

    def _by_id(self, member_id: str, name: str) -> Member:
        # A member who left keeps their debt: they are still who pays or is paid.
        return next((m for m in self.household.members if m.id == member_id), Member(member_id, name))


def chosen_transfer(balance: Balance, debtor: Member | None, creditor: Member | None,
                    speaker: Member | None) -> Transfer:
    """The transfer an acerto settles: between the members named, else the one the speaker is in,
    else the first of the plan; NothingOwed when there is none."""
    plan = balance.transfers()
    if not plan:
        raise NothingOwed("Vocês estão quites: não há nada para acertar.")
    found = [t for t in plan
             if (debtor is None or t.debtor_id == debtor.id) and (creditor is None or t.creditor_id == creditor.id)]
    if not found:
        who = (f"{debtor.name} não deve nada a {creditor.name}" if debtor and creditor
               else f"{debtor.name} não deve nada" if debtor else f"Ninguém deve nada a {creditor.name}"
               if creditor else "Não há nada para acertar")
        raise NothingOwed(f"{who}.")
    if debtor is None and creditor is None and speaker is not None:
        mine = [t for t in found if speaker.id in (t.debtor_id, t.creditor_id)]
        found = mine or found
    return found[0]


# --------------------------------------------------------------------------- balance


class BalanceArgs(ToolArgs):
    period: str | None = None  # YYYY-MM: that month's movement; omitted: all time


class BalanceTool(ReadTool[BalanceArgs]):
    name = "balance"
    description = "Who owes whom."
    args_model = BalanceArgs

    def __init__(self, ledger: Ledger, household: Household) -> None:
        self.ledger = ledger
        self.household = household

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> BalanceTool | None:
        return cls(binding.ledger, binding.household) if binding.ledger is not None else None

    def prepare(self, arguments: dict[str, Any]) -> dict[str, Any]:
        if missing(arguments, "period"):
            return {**arguments, "period": None}
        return {**arguments, "period": read_period(arguments["period"], self.reading.today())}

    async def read(self, args: BalanceArgs) -> dict[str, Any]:
        balance = await self.balance(Period.parse(args.period) if args.period else None)
        result: dict[str, Any] = {"period": args.period} if args.period else {}
        result["transfers"] = [{"from": t.debtor, "to": t.creditor, "amount": money_dict(t.amount)}
                               for t in balance.transfers()]
        result.update(settled=balance.settled, spends=balance.spends, settlements=balance.settlements)
        return result

    async def balance(self, period: Period | None) -> Balance:
        """The balance with today's member names: what /saldo renders (the model reads its JSON)."""
        return (await self.ledger.balance(self.household.id, period)).named(
            {m.id: m.name for m in self.household.members})


# --------------------------------------------------------------------------- setSplit


@dataclass(frozen=True)
class RulePart:
    member: str
    member_id: str
    percent: Decimal


@dataclass(frozen=True)
class RuleView:
    """A split rule as a preview keeps it: its kind and each member's percentage (for "income",
    as today's incomes give them; for "equal", even)."""

    kind: str
    parts: tuple[RulePart, ...] = ()

    def rule(self) -> SplitRule:
        if self.kind == "fixed":
            return SplitRule("fixed", tuple((p.member_id, p.percent) for p in self.parts))
        return SplitRule("income") if self.kind == "income" else SplitRule()


def rule_view(rule: SplitRule, members: list[Member], budget: Budget) -> RuleView:
    try:
        weights = rule.weights(members, budget.incomes)
    except DomainError:
        return RuleView(rule.kind)
    total = sum(weights.values(), Decimal(0))
    if not total:
        return RuleView(rule.kind)
    return RuleView(rule.kind, tuple(
        RulePart(m.name, m.id, (weights[m.id] * 100 / total).quantize(Decimal("0.1")).normalize())
        for m in members if rule.kind != "fixed" or weights[m.id]))


@dataclass(frozen=True)
class SplitPreview(Preview):
    """setSplit: the rule for the shared spends confirmed from now on, and the one it replaces."""

    rule: RuleView
    old_rule: RuleView


class SetSplitArgs(WriteArgs):
    kind: Literal["equal", "fixed", "income"]
    percents: dict[str, ExactDecimal] | None = Field(default=None, description="Member name -> percent")


class SetSplitTool(WriteTool[SetSplitArgs]):
    """/divisao: the bot's, not offered to the model."""

    name = "setSplit"
    description = "Change how shared spends are divided (the bot's /divisao)."
    args_model = SetSplitArgs
    preview_type = SplitPreview
    offered = False

    def __init__(self, budget_repo: BudgetRepository, budget_id: str, household: Household,
                 operations: OperationLog | None = None) -> None:
        super().__init__(operations)
        self.budget_repo = budget_repo
        self.budget_id = budget_id
        self.household = household

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> SetSplitTool:
        return cls(binding.budgets, binding.budget_id, binding.household, binding.operations)

    async def _stage(self, args: SetSplitArgs) -> Staged:
        members = list(self.household.members)
        budget = await self.budget_repo.load(self.budget_id, periods=())
        rule = SplitRule.fixed(args.percents or {}, members) if args.kind == "fixed" else SplitRule(args.kind)
        old = rule_view(budget.split, members, budget)
        budget.set_split(rule, members)
        preview = SplitPreview(rule_view(rule, members, budget), old)
        return Staged(preview, lambda: self.budget_repo.save(budget))


# --------------------------------------------------------------------------- setPixKey


@dataclass(frozen=True)
class PixKeyPreview(Preview):
    """setPixKey: a member's Pix key (as the DICT writes it), of which kind, and the one before."""

    member: str
    kind: str
    key: str
    old_key: str | None = field(default=None, metadata={OMIT: None})


class SetPixKeyArgs(WriteArgs):
    member: str = Field(min_length=1, max_length=200)
    key: str = Field(min_length=1, max_length=200)


class SetPixKeyTool(WriteTool[SetPixKeyArgs]):
    """/pix: the bot's, not offered to the model (a key never goes to a model)."""

    name = "setPixKey"
    description = "Store a member's Pix key (the bot's /pix)."
    args_model = SetPixKeyArgs
    preview_type = PixKeyPreview
    offered = False

    def __init__(self, households: HouseholdRepository, household_id: str,
                 operations: OperationLog | None = None) -> None:
        super().__init__(operations)
        self.households = households
        self.household_id = household_id

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> SetPixKeyTool | None:
        if binding.households is None:
            return None
        return cls(binding.households, binding.household.id, binding.operations)

    async def _stage(self, args: SetPixKeyArgs) -> Staged:
        key = pix_key(args.key)
        household = await self.households.load(self.household_id)
        member = household.member_named(args.member)
        old = member.pix_key
        household.set_pix_key(member, key.value)
        preview = PixKeyPreview(member.name, key.kind, key.value, old)
        return Staged(preview, lambda: self.households.save(household))
