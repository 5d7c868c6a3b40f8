"""Each member's share of a shared ledger entry, and the balance they add up to (domain.sharing).

The shares are written with their entry, in the confirmation's transaction, and never updated;
`ledger_balances` keeps their running sum per member in the same transaction, so /saldo reads a
row per member instead of summing a household's whole history (bench/ledger.py: on 100,000
entries the sum took 75-125 ms on SQLite, the read a few). A month's movement is summed from the
shares of that month (one index range). Undo writes the negated shares, never deletes any.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from domain.money import Period
from domain.sharing.balance import Balance, MemberNet
from domain.sharing.rules import Share
from infra.db.tables import ledger_balances as balances
from infra.db.tables import ledger_shares as shares
from infra.db.upsert import insert_for
from infra.db.values import money_from_minor

FEW = 50
DENSE = 2  # ids within twice their count of each other are read as one range
IN_CHUNK = 500  # ids per IN (...) when they are spread out
SPEND = "spend"
SETTLEMENT = "settlement"


def share_month(period: str | None, day: date | None, created: Any) -> str:
    """The month an entry counts in, as /extrato counts it (ledger._in_month)."""
    if period is not None:
        return period
    moment = day if day is not None else created.date()
    return str(Period.of(moment))


async def write_shares(connection: AsyncConnection, entries: Sequence[tuple[int, dict[str, Any]]]) -> None:
    """The share rows of freshly inserted entries ((entry id, its row with "shares")), and the
    running balances they move."""
    rows: list[dict[str, Any]] = []
    moved: dict[tuple[str, str, str], list[Any]] = {}
    for entry_id, entry in entries:
        household_id = entry["household_id"]
        month = share_month(entry["period"], entry["day"], entry["created_at"])
        for share in entry["shares"]:
            paid, owed = share.paid.to_minor_units(), share.owed.to_minor_units()
            rows.append({"entry_id": entry_id, "member_id": share.member_id, "household_id": household_id,
                         "member_name": share.member_name, "kind": entry["kind"], "month": month,
                         "paid_minor": paid, "owed_minor": owed, "currency": share.paid.currency})
            key = (household_id, share.member_id, share.paid.currency)
            total = moved.setdefault(key, [share.member_name, 0, 0, 0])
            total[0] = share.member_name
            total[1] += paid - owed
            sign = (paid > 0) - (paid < 0)  # the payer's row counts its entry, a reversal uncounts it
            total[2 if entry["kind"] == SPEND else 3] += sign
    if not rows:
        return
    await connection.execute(shares.insert(), rows)
    statement = insert_for(connection.dialect.name, balances)
    # Sorted: two transactions moving the same members take their row locks in the same order.
    for (household_id, member_id, currency), (name, net, spends, settlements) in sorted(moved.items()):
        await connection.execute(statement.values(
            household_id=household_id, member_id=member_id, currency=currency, member_name=name,
            net_minor=net, spends=spends, settlements=settlements,
        ).on_conflict_do_update(
            index_elements=[balances.c.household_id, balances.c.member_id, balances.c.currency],
            set_={"member_name": statement.excluded.member_name,
                  "net_minor": balances.c.net_minor + statement.excluded.net_minor,
                  "spends": balances.c.spends + statement.excluded.spends,
                  "settlements": balances.c.settlements + statement.excluded.settlements}))


async def balance(connection: AsyncConnection, household_id: str, period: Period | None) -> Balance:
    """All time: the running balances. A month: one aggregate over that month's shares."""
    if period is None:
        result = await connection.execute(
            select(balances.c.member_id, balances.c.member_name, balances.c.currency, balances.c.net_minor,
                   balances.c.spends, balances.c.settlements)
            .where(balances.c.household_id == household_id).order_by(balances.c.member_id))
        rows = [tuple(row) for row in result]
    else:
        paid = shares.c.paid_minor
        result = await connection.execute(
            select(shares.c.member_id, func.max(shares.c.member_name), shares.c.currency,
                   func.sum(paid - shares.c.owed_minor),
                   func.sum(_counted(SPEND)), func.sum(_counted(SETTLEMENT)))
            .where(shares.c.household_id == household_id, shares.c.month == str(period))
            .group_by(shares.c.member_id, shares.c.currency).order_by(shares.c.member_id))
        rows = [tuple(row) for row in result]
    nets = tuple(MemberNet(member_id, name, money_from_minor(int(net), currency))
                 for member_id, name, currency, net, _, _ in rows)
    return Balance(nets, sum(int(row[4]) for row in rows), sum(int(row[5]) for row in rows))


def _counted(kind: str) -> Any:
    paid = shares.c.paid_minor
    return case((shares.c.kind != kind, 0), (paid > 0, 1), (paid < 0, -1), else_=0)


async def shares_of(connection: AsyncConnection, entry_ids: Iterable[int]) -> dict[int, tuple[Share, ...]]:
    """The shares of some entries (a range of ids: an export's page, an operation's entries)."""
    wanted = sorted(set(entry_ids))
    found: dict[int, list[Share]] = defaultdict(list)
    if not wanted:
        return {}
    # A page of an export: the range of its ids, one index scan. Ids spread far apart (a fatura's
    # parcelas, written months apart, among every other household's entries): looked up by id.
    dense = len(wanted) > FEW and wanted[-1] - wanted[0] < DENSE * len(wanted)
    chunks = [wanted] if dense else [wanted[start:start + IN_CHUNK] for start in range(0, len(wanted), IN_CHUNK)]
    chosen = set(wanted)
    for chunk in chunks:
        which = ((shares.c.entry_id >= chunk[0]) & (shares.c.entry_id <= chunk[-1]) if dense
                 else shares.c.entry_id.in_(chunk))
        result = await connection.execute(
            select(shares.c.entry_id, shares.c.member_id, shares.c.member_name, shares.c.paid_minor,
                   shares.c.owed_minor, shares.c.currency).where(which))
        for entry_id, member_id, name, paid, owed, currency in result:
            if entry_id in chosen:
                found[entry_id].append(Share(member_id, name, money_from_minor(paid, currency),
                                             money_from_minor(owed, currency)))
    return {entry_id: _by_name(items) for entry_id, items in found.items()}


def _by_name(items: list[Share]) -> tuple[Share, ...]:
    return tuple(sorted(items, key=lambda s: (s.member_name, s.member_id)))


