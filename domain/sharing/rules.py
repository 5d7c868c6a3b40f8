"""The split rule and the shares of one spend.

A shared spend is paid by one member and owed by all of them according to the household's rule:
equal parts, fixed percentages, or in proportion to each member's own income. `shares_of` turns an
amount into one `Share` per member that adds up EXACTLY to the amount: each member's part is
floored to the cent and the cents left over go to the payer. The shares are computed once, when
the spend is confirmed, and kept with its ledger entry: a later change of rule never touches them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_FLOOR, Decimal, InvalidOperation
from typing import Literal

from domain.errors import DomainError
from domain.household import Member, member_named
from domain.money import Money, minor_units

RuleKind = Literal["equal", "fixed", "income"]
HUNDRED = Decimal(100)


class SplitError(DomainError):
    """A split rule that cannot be set or applied; the message names what is wrong."""


@dataclass(frozen=True)
class Share:
    """One member's part of one ledger entry: what they paid and what they owe. The payer's row
    of a spend has `paid` = the amount; a settlement's debtor paid it, its creditor owes it."""

    member_id: str
    member_name: str
    paid: Money
    owed: Money

    @property
    def net(self) -> Money:
        """What the entry moves this member's balance by (positive: the others owe them more)."""
        return self.paid - self.owed

    def negated(self) -> Share:
        return Share(self.member_id, self.member_name, -self.paid, -self.owed)


@dataclass(frozen=True)
class SplitRule:
    """How a shared spend is divided. `percents` (member id, percent) only for "fixed"."""

    kind: RuleKind = "equal"
    percents: tuple[tuple[str, Decimal], ...] = field(default=())

    @classmethod
    def equal(cls) -> SplitRule:
        return cls("equal")

    @classmethod
    def income(cls) -> SplitRule:
        return cls("income")

    @classmethod
    def fixed(cls, percents: Mapping[str, Decimal | int | str], members: Sequence[Member]) -> SplitRule:
        """Percentages by member name, summing to 100 over members of the household; a name that
        is no member, a percentage that is no number or is negative, or a sum other than 100 is
        refused naming it."""
        by_id: dict[str, Decimal] = {}
        for name, raw in percents.items():
            member = member_named(members, name)
            if member.id in by_id:
                raise SplitError(f"{member.name} aparece duas vezes na divisão.")
            by_id[member.id] = _percent(raw, member.name)
        total = sum(by_id.values(), Decimal(0))
        if total != HUNDRED:
            raise SplitError(f"As porcentagens somam {_shown(total)} %, não 100 %.")
        ordered = tuple((m.id, by_id[m.id]) for m in members if m.id in by_id)
        return cls("fixed", ordered)

    def percent_of(self, member_id: str) -> Decimal:
        return next((p for m, p in self.percents if m == member_id), Decimal(0))

    def weights(self, members: Sequence[Member], incomes: Mapping[str, Money]) -> dict[str, Decimal]:
        """Each member's weight under this rule (they need not sum to anything)."""
        if self.kind == "equal":
            return {m.id: Decimal(1) for m in members}
        if self.kind == "fixed":
            return {m.id: self.percent_of(m.id) for m in members}
        missing = [m.name for m in members if m.id not in incomes]
        if missing:
            raise SplitError(f"A divisão é pela renda, e falta a renda de {_names(missing)}: "
                             "cada um informa a sua com /renda <valor>.")
        return {m.id: incomes[m.id].amount for m in members}

    def check(self, members: Sequence[Member], incomes: Mapping[str, Money]) -> None:
        """Refuses a rule that could not divide a spend among `members` today."""
        weights = self.weights(members, incomes)
        if not any(w > 0 for w in weights.values()):
            raise SplitError("Ninguém da casa tem parte nesta divisão: "
                             + ("todas as rendas são zero." if self.kind == "income" else "revise a regra."))


def shares_of(amount: Money, payer: Member, members: Sequence[Member], rule: SplitRule,
              incomes: Mapping[str, Money]) -> tuple[Share, ...]:
    """The shares of a spend of `amount` paid by `payer`, one per member (the payer included even
    when the rule gives them nothing). They add up to `amount` exactly: each part is floored to the
    currency's minor unit, and the remainder goes to the payer."""
    everyone = list(members) if any(m.id == payer.id for m in members) else [*members, payer]
    rule.check(everyone, incomes)
    weights = rule.weights(everyone, incomes)
    total_weight = sum(weights.values(), Decimal(0))
    quantum = Decimal(1).scaleb(-minor_units(amount.currency))
    owed: dict[str, Decimal] = {}
    for member in everyone:
        exact = amount.amount * weights[member.id] / total_weight
        owed[member.id] = exact.quantize(quantum, ROUND_FLOOR)
    owed[payer.id] += amount.amount - sum(owed.values(), Decimal(0))
    zero = Money.zero(amount.currency)
    return tuple(
        Share(m.id, m.name, amount if m.id == payer.id else zero, Money(owed[m.id], amount.currency))
        for m in everyone)


def settlement_shares(debtor: Member, creditor: Member, amount: Money) -> tuple[Share, ...]:
    """An acerto: the debtor paid `amount` that the creditor now "owes" back, so the entry moves
    the debtor's balance up and the creditor's down by exactly `amount`."""
    zero = Money.zero(amount.currency)
    return (Share(debtor.id, debtor.name, amount, zero), Share(creditor.id, creditor.name, zero, amount))


def _percent(raw: Decimal | int | str, name: str) -> Decimal:
    if isinstance(raw, bool | float):
        raise SplitError(f"Porcentagem de {name} inválida: {raw!r}.")
    try:
        value = Decimal(str(raw).strip().replace(",", ".").rstrip("%").strip())
    except InvalidOperation:
        raise SplitError(f"Porcentagem de {name} inválida: {raw!r}.") from None
    if not value.is_finite() or value < 0 or value > HUNDRED:
        raise SplitError(f"Porcentagem de {name} inválida: {raw} (use de 0 a 100).")
    return value


def _shown(value: Decimal) -> str:
    return f"{value.normalize():f}".replace(".", ",")


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " e " + names[-1]
