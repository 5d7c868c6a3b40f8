"""The ledger over SQL: entries written by the repositories' saves, the sums totals come from,
and the reads behind /extrato, /exportar and undo."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import Select, case, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from domain.cards import CardRef
from domain.household import Member
from domain.ledger import EntryKind, FaturaTotal, LedgerEntry, current_stamp
from domain.money import Money, Period
from domain.sharing.balance import Balance
from domain.sharing.rules import Share
from infra.db.engine import Database
from infra.db.stores import shares as sharing
from infra.db.tables import ledger_entries as entries
from infra.db.values import money_from_minor, period_of

STREAM_BATCH = 5000  # rows fetched per round trip while streaming an export
_KINDS = {kind.value: kind for kind in EntryKind}


def entry_row(kind: EntryKind, subject: str, *, household_id: str | None, amount: Money | None = None,
              budget_id: str | None = None, expense_id: str | None = None,
              goal_id: str | None = None, period: Period | None = None, day: date | None = None,
              paid_by_id: str | None = None, paid_by: str | None = None, payer: Member | None = None,
              shares: tuple[Share, ...] = (), card: CardRef | None = None,
              card_id: str | None = None) -> dict[str, Any]:
    """A row for the entries table, stamped with the confirmation this save runs in (if any).
    `payer` names who paid; `shares` (written to ledger_shares beside it) their division; `card`
    a card spend's card and parcela (`card_id` alone: one of the card's own entries)."""
    stamp = current_stamp()
    if payer is not None:
        paid_by_id, paid_by = payer.id, payer.name
    row: dict[str, Any] = {
        "household_id": household_id, "kind": kind.value, "subject": subject,
        "amount_minor": amount.to_minor_units() if amount is not None else None,
        "currency": amount.currency if amount is not None else None,
        "budget_id": budget_id, "expense_id": expense_id, "goal_id": goal_id,
        "period": str(period) if period is not None else None, "day": day,
        "paid_by_id": paid_by_id, "paid_by": paid_by,
        "scope": stamp.scope if stamp else None,
        "operation_id": stamp.operation_id if stamp else None,
        "tool": stamp.tool if stamp else None,
        "confirmed_by": stamp.confirmed_by if stamp else None,
        "undoes": stamp.undoes if stamp else None,
        "created_at": datetime.now(UTC),
        "card_id": card.card_id if card is not None else card_id,
        "installment": card.installment if card is not None else None,
        "installments": card.installments if card is not None else None,
    }
    if shares:
        row[SHARES] = shares
    return row


SHARES = "shares"  # a row's shares, written to ledger_shares once the entry has its id


async def insert_entries(connection: AsyncConnection, rows: Sequence[dict[str, Any]]) -> None:
    """Inserts the entries in their order, and the shares of those that have some."""
    if not rows:
        return
    if not any(SHARES in row for row in rows):
        await connection.execute(entries.insert(), list(rows))
        return
    plain = [{k: v for k, v in row.items() if k != SHARES} for row in rows]
    result = await connection.execute(
        entries.insert().returning(entries.c.id, sort_by_parameter_order=True), plain)
    ids = [row_id for (row_id,) in result]
    await sharing.write_shares(connection, [(entry_id, row) for entry_id, row in zip(ids, rows, strict=True)
                                            if SHARES in row])


async def monthly_actuals(connection: AsyncConnection, expense_ids: Sequence[str],
                          periods: frozenset[Period] | None) -> dict[str, dict[Period, Money]]:
    """Each expense's actual per month: the SUM of its spend entries, one seek per expense and
    month on (expense_id, period). Only spend and opening entries carry a period."""
    found: dict[str, dict[Period, Money]] = defaultdict(dict)
    if not expense_ids or (periods is not None and not periods):
        return found
    query = (select(entries.c.expense_id, entries.c.period, entries.c.currency,
                    func.sum(entries.c.amount_minor))
             .where(entries.c.expense_id.in_(list(expense_ids)), entries.c.period.is_not(None))
             .group_by(entries.c.expense_id, entries.c.period, entries.c.currency))
    if periods is not None:
        query = query.where(entries.c.period.in_(sorted(str(p) for p in periods)))
    for expense_id, period, currency, units in await connection.execute(query):
        if units:  # spends all undone: as if nothing was recorded
            found[expense_id][period_of(period)] = money_from_minor(int(units), currency)
    return found


async def goal_savings(connection: AsyncConnection,
                       goal_ids: Sequence[str]) -> dict[str, dict[str, Money]]:
    """Each goal's savings per currency: the SUM of its contribution entries."""
    found: dict[str, dict[str, Money]] = defaultdict(dict)
    if not goal_ids:
        return found
    for goal_id, currency, units in await connection.execute(
        select(entries.c.goal_id, entries.c.currency, func.sum(entries.c.amount_minor))
        .where(entries.c.goal_id.in_(list(goal_ids)),
               entries.c.kind == EntryKind.CONTRIBUTION.value)
        .group_by(entries.c.goal_id, entries.c.currency)
    ):
        if units:
            found[goal_id][currency] = money_from_minor(int(units), currency)
    return found


_COLUMNS = (entries.c.kind, entries.c.subject, entries.c.amount_minor, entries.c.currency,
            entries.c.expense_id, entries.c.goal_id, entries.c.period, entries.c.day, entries.c.paid_by,
            entries.c.paid_by_id, entries.c.household_id, entries.c.operation_id, entries.c.tool,
            entries.c.confirmed_by, entries.c.scope, entries.c.undoes, entries.c.created_at, entries.c.id,
            entries.c.card_id, entries.c.installment, entries.c.installments)


def _entry(row: Any) -> LedgerEntry:
    """An entry from a row of _COLUMNS, by position (the hot loop of an export)."""
    (kind, subject, units, currency, expense_id, goal_id, period, day, paid_by, paid_by_id,
     household_id, operation_id, tool, confirmed_by, scope, undoes, created_at, entry_id,
     card_id, installment, installments) = row
    return LedgerEntry(
        _KINDS[kind], subject, money_from_minor(units, currency) if units is not None else None,
        expense_id, goal_id, period_of(period) if period is not None else None, day, paid_by,
        paid_by_id, household_id, operation_id, tool, confirmed_by, scope, undoes, created_at, entry_id,
        (), card_id, installment, installments)


def _in_month(query: Select[Any], period: Period) -> Select[Any]:
    """A month's entries: spends by their month, the others by their date or their creation.

    Creation instants are compared in UTC; a statement's month is close enough at its edges."""
    start = datetime(period.year, period.month, 1, tzinfo=UTC)
    following = _next(period)
    end = datetime(following.year, following.month, 1, tzinfo=UTC)
    return query.where(
        (entries.c.period == str(period))
        | (entries.c.period.is_(None) & (
            (entries.c.day.is_not(None) & (entries.c.day >= start.date()) & (entries.c.day < end.date()))
            | (entries.c.day.is_(None) & (entries.c.created_at >= start) & (entries.c.created_at < end)))))


def _next(period: Period) -> Period:
    return Period(period.year + 1, 1) if period.month == 12 else Period(period.year, period.month + 1)


class SqlLedger:
    """The Ledger port (domain.ledger) over SQL."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def month(self, household_id: str, period: Period, *,
                    limit: int | None = None) -> list[LedgerEntry]:
        query = _in_month(select(*_COLUMNS).where(entries.c.household_id == household_id), period)
        query = query.order_by(entries.c.id.desc())
        async with self._db.reading() as connection:
            rows = (await connection.execute(query if limit is None else query.limit(limit))).all()
            shared = await sharing.shares_of(connection, [row.id for row in rows])
        return [_entry(row)._replace(shares=shared.get(row.id, ())) for row in rows]

    async def stream(self, household_id: str, period: Period | None = None) -> AsyncIterator[LedgerEntry]:
        """Keyset pages of STREAM_BATCH rows on (household_id, id): memory stays flat however
        many entries there are, and no read transaction is held between pages."""
        after = 0
        while True:
            query = select(*_COLUMNS).where(entries.c.household_id == household_id, entries.c.id > after)
            if period is not None:
                query = _in_month(query, period)
            async with self._db.reading() as connection:
                rows = (await connection.execute(
                    query.order_by(entries.c.id).limit(STREAM_BATCH))).all()
                shared = await sharing.shares_of(connection, [row.id for row in rows])
            for row in rows:
                entry = _entry(row)
                yield entry._replace(shares=shared[row.id]) if row.id in shared else entry
            if len(rows) < STREAM_BATCH:
                return
            after = rows[-1].id

    async def of_operation(self, scope: str | None, operation_id: str) -> list[LedgerEntry]:
        async with self._db.reading() as connection:
            rows = (await connection.execute(
                select(*_COLUMNS).where(entries.c.scope == scope, entries.c.operation_id == operation_id)
                .order_by(entries.c.id))).all()
            shared = await sharing.shares_of(connection, [row.id for row in rows])
        return [_entry(row)._replace(shares=shared.get(row.id, ())) for row in rows]

    async def balance(self, household_id: str, period: Period | None = None) -> Balance:
        """Inside a confirmation (settleUp) this reads on the confirmation's own connection, after
        the budget's row lock: another acerto confirmed meanwhile is already counted."""
        async with self._db.reading() as connection:
            return await sharing.balance(connection, household_id, period)

    async def fatura(self, card_id: str, fatura: Period) -> list[LedgerEntry]:
        """One seek on (card_id, period), then the entries' shares by id."""
        # Only a card's spends have a period: its own entries (registered, renamed …) have none.
        # Sorted here, not by ORDER BY id: on a large ledger that tempted PostgreSQL into walking
        # the primary key instead of seeking the card's index (bench/ledger.py fatura_vs_resumo).
        query = select(*_COLUMNS).where(entries.c.card_id == card_id, entries.c.period == str(fatura))
        async with self._db.reading() as connection:
            rows = sorted((await connection.execute(query)).all(), key=lambda row: row.id)
            shared = await sharing.shares_of(connection, [row.id for row in rows])
        return [_entry(row)._replace(shares=shared.get(row.id, ())) for row in rows]

    async def faturas(self, card_id: str, since: Period) -> list[FaturaTotal]:
        """A range of (card_id, period), summed per fatura; a parcela counts +1, its reversal -1."""
        many = entries.c.installments > 1
        parcelas = func.sum(case((many & (entries.c.amount_minor > 0), 1),
                                 (many & (entries.c.amount_minor < 0), -1), else_=0))
        query = (select(entries.c.period, entries.c.currency, func.sum(entries.c.amount_minor), parcelas)
                 .where(entries.c.card_id == card_id, entries.c.period >= str(since))
                 .group_by(entries.c.period, entries.c.currency)
                 .order_by(entries.c.period))
        async with self._db.reading() as connection:
            rows = (await connection.execute(query)).all()
        return [FaturaTotal(period_of(period), money_from_minor(int(units or 0), currency), int(count or 0))
                for period, currency, units, count in rows if units or count]
