"""Savings goals and the contributions members make to them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from domain.errors import InvalidArgument, InvalidMoney, NotAGoalMember
from domain.household import Member, clean_name, new_id
from domain.money import DEFAULT_RATES, ExchangeRates, Money


@dataclass(frozen=True, slots=True)
class Contribution:
    paid_by: Member
    amount: Money
    date: date


def whole_months_between(start: date, end: date) -> int:
    """Whole calendar months from `start` to `end`: 2026-06-15 -> 2026-09-01 is 2."""
    months = (end.year - start.year) * 12 + (end.month - start.month)
    if end.day < start.day:
        months -= 1
    return months


@dataclass(eq=False)
class Goal:
    id: str
    name: str
    target: Money
    members: list[Member]
    created_at: date
    deadline: date | None = None
    contributions: list[Contribution] = field(default_factory=list)
    household_id: str | None = None
    # What earlier contributions add up to when a repository loaded the goal without its history
    # (None: `contributions` is the whole history). Keeps a contribution's cost flat over years.
    prior_savings: dict[str, Money] | None = None
    version: int = 0
    archived: bool = False  # out of the prompt and /metas; its history stays

    @classmethod
    def create(
        cls,
        name: str,
        target: Money,
        *,
        members: list[Member],
        created_at: date,
        deadline: date | None = None,
        id: str | None = None,
        household_id: str | None = None,
    ) -> Goal:
        cleaned = clean_name(name, "Nome da meta")
        if not target.is_positive:
            raise InvalidMoney(f"A meta precisa de um valor positivo, não {target}.")
        if not members:
            raise InvalidArgument(f'A meta "{cleaned}" precisa de pelo menos um participante.')
        if deadline is not None and deadline <= created_at:
            raise InvalidArgument(
                f"O prazo {deadline.isoformat()} precisa ser depois de hoje ({created_at.isoformat()})."
            )
        unique = list(dict.fromkeys(members))
        return cls(id=id or new_id(), name=cleaned, target=target, members=unique,
                   created_at=created_at, deadline=deadline, household_id=household_id)

    def contribute(self, paid_by: Member, amount: Money, on: date) -> Contribution:
        if paid_by not in self.members:
            raise NotAGoalMember(paid_by.name, self.name)
        if not amount.is_positive:
            raise InvalidMoney(f"O aporte precisa ser positivo, não {amount}.")
        contribution = Contribution(paid_by=paid_by, amount=amount, date=on)
        self.contributions.append(contribution)
        return contribution

    def reverse(self, contribution: Contribution) -> Contribution:
        """Takes a contribution back (an undo): the ledger keeps both, the savings lose it."""
        reversal = Contribution(paid_by=contribution.paid_by, amount=-contribution.amount,
                                date=contribution.date)
        self.contributions.append(reversal)
        return reversal

    def rename(self, new_name: str) -> None:
        self.name = clean_name(new_name, "Novo nome")

    def archive(self) -> None:
        self.archived = True

    def restore(self) -> None:
        self.archived = False

    def saved_by_currency(self) -> dict[str, Money]:
        saved: dict[str, Money] = dict(self.prior_savings or {})
        for c in self.contributions:
            currency = c.amount.currency
            saved[currency] = saved[currency] + c.amount if currency in saved else c.amount
        # A currency whose contributions were all undone is as if never saved in.
        return {currency: money for currency, money in saved.items() if not money.is_zero}

    def saved_in_target_currency(self, rates: ExchangeRates = DEFAULT_RATES) -> Money:
        total = Money.zero(self.target.currency)
        for money in self.saved_by_currency().values():
            total = total + rates.convert(money, self.target.currency)
        return total

    def remaining(self, rates: ExchangeRates = DEFAULT_RATES) -> Money:
        left = self.target - self.saved_in_target_currency(rates)
        return left if left.amount > 0 else Money.zero(self.target.currency)

    def required_monthly(self, today: date, rates: ExchangeRates = DEFAULT_RATES) -> Money | None:
        """What is left over the whole months from `today` to the deadline (at least one),
        rounded half-up; None without a deadline."""
        if self.deadline is None:
            return None
        months = max(1, whole_months_between(today, self.deadline))
        return self.remaining(rates).divided_by(months)

    def is_on_track(self, today: date, rates: ExchangeRates = DEFAULT_RATES) -> bool | None:
        """Saved at least the straight-line share of the target for the time elapsed; None without
        a deadline, or in the first month before its share is saved."""
        if self.deadline is None:
            return None
        total = whole_months_between(self.created_at, self.deadline)
        elapsed = min(total, max(0, whole_months_between(self.created_at, today)))
        if total <= 0:
            # Less than a whole month to save in: nothing is due before the deadline.
            return today < self.deadline or self.remaining(rates).is_zero
        saved = self.saved_in_target_currency(rates)
        if elapsed == 0:
            # The first month: on track once its share is saved; before that, too early to say
            # (R$ 100 of R$ 20.000 on the first day is not "no ritmo", nor late yet).
            first_share = Money(self.target.amount / total, self.target.currency).rounded()
            return True if saved >= first_share else None
        expected = Money(self.target.amount * elapsed / total, self.target.currency).rounded()
        return saved >= expected
