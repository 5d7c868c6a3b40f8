"""The ledger: every confirmed change, one entry each; totals are derived from it.

A write tool's confirmation runs its domain verb and its save under a `Stamp` (the operation,
its tool, who confirmed, what it undoes). The repositories turn each change they save into
entries carrying that stamp, in the confirmation's own transaction, so any write tool, present or
future, is recorded without doing anything itself: a verb that adds ten spend lines gives ten
entries. An expense's monthly actual and a goal's savings are the sums of their entries.

The stamp travels in a context variable set by `WriteTool._confirm` around the stage and the
save, because the repository ports' `save(aggregate)` is part of the public contract and takes
nothing else.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import NamedTuple, Protocol

from domain.cards import CardRef
from domain.household import Member
from domain.money import Money, Period
from domain.sharing.balance import Balance, MemberNet
from domain.sharing.rules import Share


class EntryKind(StrEnum):
    SPEND = "spend"                # an expense's actual for a month moved by `amount`
    CONTRIBUTION = "contribution"  # a goal's savings moved by `amount` (negative: undone)
    EXPENSE = "expense"            # an expense registered, `amount` its expected
    EXPECTED = "expected"          # an expense's expected moved by `amount`
    INCOME = "income"              # the household's income moved by `amount`
    GOAL = "goal"                  # a goal created, `amount` its target
    ARCHIVED = "archived"          # an expense or goal archived (amount None)
    RESTORED = "restored"          # an expense or goal back from the archive (amount None)
    RENAMED = "renamed"            # an expense or goal renamed; `subject` is the new name
    OPENING = "opening"            # a month's actual carried over by migration 0014
    SETTLEMENT = "settlement"      # an acerto: its shares move the balance by `amount`
    SPLIT = "split"                # the split rule changed (amount None)
    PIX = "pix"                    # a member's Pix key set or removed (amount None; never the key)
    CARD = "card"                  # a credit card registered (amount None; `card_id` names it)


@dataclass(frozen=True)
class Stamp:
    """Who and what a confirmed change belongs to."""

    operation_id: str
    tool: str
    confirmed_by: str | None = None
    scope: str | None = None
    undoes: str | None = None  # the operation this one reverses


class LedgerEntry(NamedTuple):
    """One entry, immutable. A named tuple rather than a frozen dataclass: an export builds a
    hundred thousand of them, and a tuple is built several times faster."""

    kind: EntryKind
    subject: str                   # the expense's or goal's name when the entry was made
    amount: Money | None = None
    expense_id: str | None = None
    goal_id: str | None = None
    period: Period | None = None
    on: date | None = None
    paid_by: str | None = None     # a member's name, where known (an income's: whose it is)
    paid_by_id: str | None = None
    household_id: str | None = None
    operation_id: str | None = None
    tool: str | None = None
    confirmed_by: str | None = None
    scope: str | None = None
    undoes: str | None = None
    created_at: datetime | None = None
    id: int | None = None
    # Each member's part of a shared spend or an acerto, as confirmed (empty: personal, an
    # unknown payer, or no money between members). They move the balance; nothing recomputes them.
    shares: tuple[Share, ...] = ()
    # A card spend's card and parcela (k of N); `period` is then its fatura's month and `on` the
    # purchase's day (domain.cards). A card's own entries (registered, renamed …) name it too.
    card_id: str | None = None
    installment: int | None = None
    installments: int | None = None


_current: ContextVar[Stamp | None] = ContextVar("ledger_stamp", default=None)


@contextmanager
def stamped(stamp: Stamp) -> Iterator[None]:
    """Changes saved inside this block are entries of `stamp`'s operation."""
    token = _current.set(stamp)
    try:
        yield
    finally:
        _current.reset(token)


def current_stamp() -> Stamp | None:
    return _current.get()


@dataclass(frozen=True)
class SpendLine:
    """One addition to an expense's month, as a domain verb made it (one entry when saved):
    who paid it, when known, and its shares when it is shared (domain.sharing); on a card, the
    card and the parcela, and the day of the purchase."""

    period: Period
    amount: Money
    paid_by: Member | None = None
    shares: tuple[Share, ...] = ()
    card: CardRef | None = None
    on: date | None = None


@dataclass(frozen=True)
class SettlementLine:
    """An acerto (or its reversal) as `Budget.settle` made it: one entry when saved."""

    on: date
    amount: Money
    paid_by: Member
    shares: tuple[Share, ...]


@dataclass(frozen=True)
class FaturaTotal:
    """A card's fatura as the ledger sums it: its month, its total, and how many parcelas of
    purchases in installments (2x or more) it holds."""

    fatura: Period
    total: Money
    parcelas: int


class Ledger(Protocol):
    async def month(self, household_id: str, period: Period, *,
                    limit: int | None = None) -> list[LedgerEntry]:
        """The household's entries of that month (spends by their period, the rest by their
        date), newest first; at most `limit` of them."""
        ...

    def stream(self, household_id: str, period: Period | None = None) -> AsyncIterator[LedgerEntry]:
        """Every entry of the household (or of one month), oldest first, without holding them all."""
        ...

    async def of_operation(self, scope: str | None, operation_id: str) -> list[LedgerEntry]:
        """The entries one confirmed operation made, with their shares."""
        ...

    async def balance(self, household_id: str, period: Period | None = None) -> Balance:
        """Each member's net over the household's shares (all time, or `period`'s movement: the
        entries of that month as `month` counts them), and how many spends and acertos it covers."""
        ...

    async def fatura(self, card_id: str, fatura: Period) -> list[LedgerEntry]:
        """The card's spend entries in that fatura (undone ones and their reversals included),
        with their shares, oldest first."""
        ...

    async def faturas(self, card_id: str, since: Period) -> list[FaturaTotal]:
        """The card's faturas from `since` on that hold anything, in order."""
        ...


@dataclass
class InMemoryLedger:
    """The ledger port in memory; the in-memory repositories append to it."""

    entries: list[LedgerEntry] = field(default_factory=list)
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))

    def add(self, entries: list[LedgerEntry]) -> None:
        stamp = current_stamp()
        for entry in entries:
            if stamp is not None:
                entry = _with_stamp(entry, stamp)
            self.entries.append(entry._replace(id=len(self.entries) + 1,
                                               created_at=entry.created_at or self.clock()))

    async def month(self, household_id: str, period: Period, *,
                    limit: int | None = None) -> list[LedgerEntry]:
        found = [e for e in reversed(self.entries)
                 if e.household_id == household_id and entry_period(e) == period]
        return found if limit is None else found[:limit]

    async def stream(self, household_id: str, period: Period | None = None) -> AsyncIterator[LedgerEntry]:
        for entry in list(self.entries):
            if entry.household_id == household_id and (period is None or entry_period(entry) == period):
                yield entry

    async def of_operation(self, scope: str | None, operation_id: str) -> list[LedgerEntry]:
        return [e for e in self.entries if e.operation_id == operation_id and e.scope == scope]

    async def balance(self, household_id: str, period: Period | None = None) -> Balance:
        return balance_of(e for e in self.entries
                          if e.household_id == household_id and (period is None or entry_period(e) == period))

    async def fatura(self, card_id: str, fatura: Period) -> list[LedgerEntry]:
        return [e for e in self.entries
                if e.card_id == card_id and e.kind is EntryKind.SPEND and e.period == fatura]

    async def faturas(self, card_id: str, since: Period) -> list[FaturaTotal]:
        return faturas_of(e for e in self.entries
                          if e.card_id == card_id and e.kind is EntryKind.SPEND and e.period is not None
                          and since <= e.period)


def balance_of(entries: Iterable[LedgerEntry]) -> Balance:
    """The balance of some entries, summed in Python (what SQL sums in infra/db/stores/shares.py)."""
    nets: dict[tuple[str, str], Money] = {}
    names: dict[str, str] = {}
    counts = {EntryKind.SPEND: 0, EntryKind.SETTLEMENT: 0}
    for entry in entries:
        for share in entry.shares:
            key = (share.member_id, share.net.currency)
            nets[key] = nets[key] + share.net if key in nets else share.net
            names[share.member_id] = share.member_name
            if share.paid.amount and entry.kind in counts:  # the payer's row counts the entry
                counts[entry.kind] += 1 if share.paid.amount > 0 else -1
    return Balance(tuple(MemberNet(member, names[member], net) for (member, _), net in nets.items()),
                   counts[EntryKind.SPEND], counts[EntryKind.SETTLEMENT])


def faturas_of(entries: Iterable[LedgerEntry]) -> list[FaturaTotal]:
    """The faturas some card spend entries add up to (what SQL sums in infra/db/stores/ledger.py)."""
    totals: dict[Period, tuple[Money, int]] = {}
    for entry in entries:
        if entry.period is None or entry.amount is None:
            continue
        total, count = totals.get(entry.period, (Money.zero(entry.amount.currency), 0))
        step = ((entry.amount.amount > 0) - (entry.amount.amount < 0)) if (entry.installments or 1) > 1 else 0
        totals[entry.period] = (total + entry.amount, count + step)
    return [FaturaTotal(period, total, count) for period, (total, count) in sorted(totals.items())
            if not total.is_zero or count]


def entry_period(entry: LedgerEntry) -> Period | None:
    """The month an entry belongs to in a statement: a spend's month, otherwise its date's."""
    if entry.period is not None:
        return entry.period
    if entry.on is not None:
        return Period.of(entry.on)
    if entry.created_at is not None:
        return Period.of(entry.created_at.date())
    return None


def stamp_fields(stamp: Stamp | None) -> dict[str, str | None]:
    if stamp is None:
        return {"operation_id": None, "tool": None, "confirmed_by": None, "scope": None, "undoes": None}
    return {"operation_id": stamp.operation_id, "tool": stamp.tool, "confirmed_by": stamp.confirmed_by,
            "scope": stamp.scope, "undoes": stamp.undoes}


def _with_stamp(entry: LedgerEntry, stamp: Stamp) -> LedgerEntry:
    return entry._replace(operation_id=stamp.operation_id, tool=stamp.tool,
                          confirmed_by=stamp.confirmed_by, scope=stamp.scope, undoes=stamp.undoes)
