"""Who owes whom: each member's net over the shared entries, and the transfers that settle it.

A member's net is Σ paid − Σ owed over every share of theirs in the balance (all time, or one
month's movement): positive, the others owe them; negative, they owe. The nets of a household add
up to zero. `transfers` is the plan that settles them in few transfers: the largest debtor pays
the largest creditor as much as one of them needs, and again, until nobody is owed anything (at
most one transfer fewer than the members involved).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.money import Money


@dataclass(frozen=True)
class MemberNet:
    member_id: str
    name: str
    net: Money


@dataclass(frozen=True)
class Transfer:
    """`debtor` pays `amount` to `creditor` (ids and the names they had in the ledger)."""

    debtor_id: str
    debtor: str
    creditor_id: str
    creditor: str
    amount: Money


@dataclass(frozen=True)
class Balance:
    """The nets of a household's members (ledger.balance), and how many spends and acertos they
    cover (an undone one counts no more)."""

    nets: tuple[MemberNet, ...] = ()
    spends: int = 0
    settlements: int = 0

    def transfers(self) -> tuple[Transfer, ...]:
        """The plan that settles every net, largest debts first; none when all are quites."""
        plan: list[Transfer] = []
        for currency in sorted({n.net.currency for n in self.nets}):
            plan += _settle([n for n in self.nets if n.net.currency == currency])
        return tuple(plan)

    @property
    def settled(self) -> bool:
        return all(n.net.is_zero for n in self.nets)

    def net_of(self, member_id: str) -> Money | None:
        return next((n.net for n in self.nets if n.member_id == member_id), None)

    def named(self, names: dict[str, str]) -> Balance:
        """The same balance with today's member names where known (the ledger keeps the old)."""
        return Balance(tuple(MemberNet(n.member_id, names.get(n.member_id, n.name), n.net) for n in self.nets),
                       self.spends, self.settlements)


def _settle(nets: list[MemberNet]) -> list[Transfer]:
    owes = {n.member_id: -n.net.amount for n in nets if n.net.amount < 0}
    owed = {n.member_id: n.net.amount for n in nets if n.net.amount > 0}
    by_id = {n.member_id: n for n in nets}
    plan: list[Transfer] = []
    while owes and owed:
        debtor = by_id[min(owes, key=lambda m: (-owes[m], by_id[m].name, m))]
        creditor = by_id[min(owed, key=lambda m: (-owed[m], by_id[m].name, m))]
        paid = min(owes[debtor.member_id], owed[creditor.member_id])
        plan.append(Transfer(debtor.member_id, debtor.name, creditor.member_id, creditor.name,
                             Money(paid, debtor.net.currency)))
        for side, member in ((owes, debtor), (owed, creditor)):
            side[member.member_id] -= paid
            if not side[member.member_id]:
                del side[member.member_id]
    return plan
