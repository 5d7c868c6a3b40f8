"""Households and their members."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from domain.errors import NotFound
from domain.household import Household, Member
from domain.ledger import EntryKind
from infra.db.aggregates import appended_since, bump_version, insert_root, remember_saved
from infra.db.engine import Database
from infra.db.stores.ledger import entry_row, insert_entries
from infra.db.tables import households, members

KIND = "Casa"

MemberState = tuple[tuple[str, str, str | None], ...]


def _root_values(household: Household) -> dict[str, Any]:
    return {"name": household.name, "currency": household.currency}


def _pairs(household: Household) -> MemberState:
    return tuple((m.id, m.name, m.pix_key) for m in household.members)


class SqlHouseholdRepository:
    """The HouseholdRepository port over SQL."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def load(self, household_id: str) -> Household:
        async with self._db.reading() as connection:
            household = await _fetch(connection, household_id, lock=self._db.current is not None)
        self._db.snapshots[household] = _pairs(household)
        return household

    async def save(self, household: Household) -> None:
        async with self._db.transaction() as unit:
            connection = unit.connection
            before: MemberState | None = self._db.snapshots.get(household)
            if before is None and household.version == 0:
                await insert_root(connection, households,
                                  {"id": household.id, **_root_values(household)}, KIND)
                before = ()
            else:
                await bump_version(connection, households, household, _root_values(household), KIND)
                if before is None:  # not loaded through this database: diff against the store
                    before = _pairs(await _fetch(connection, household.id, lock=False))
            after = _pairs(household)
            keys = {member_id: key for member_id, _, key in before}
            changed = [(member_id, name, key) for member_id, name, key in after
                       if member_id in keys and keys[member_id] != key]
            if changed:  # a Pix key set or removed: an entry (never the key) and the column
                await insert_entries(connection, [
                    entry_row(EntryKind.PIX, "Chave Pix", household_id=household.id, paid_by_id=member_id,
                              paid_by=name) for member_id, name, _ in changed])
            start = appended_since([m[:2] for m in before], [m[:2] for m in after])
            if start is None:  # members renamed or removed (no domain verb does that yet)
                await connection.execute(delete(members).where(members.c.household_id == household.id))
                start = 0
            else:
                for member_id, _, key in changed:
                    await connection.execute(update(members).where(
                        members.c.household_id == household.id, members.c.id == member_id).values(pix_key=key))
            if after[start:]:
                await connection.execute(members.insert(), [
                    {"household_id": household.id, "id": member_id, "name": name, "position": start + i,
                     "pix_key": key}
                    for i, (member_id, name, key) in enumerate(after[start:])])
            remember_saved(self._db, unit, household, after)


async def _fetch(connection: AsyncConnection, household_id: str, *, lock: bool) -> Household:
    query = select(households).where(households.c.id == household_id)
    root = (await connection.execute(query.with_for_update() if lock else query)).one_or_none()
    if root is None:
        raise NotFound(KIND, household_id)
    rows = await connection.execute(
        select(members.c.id, members.c.name, members.c.pix_key).where(members.c.household_id == household_id)
        .order_by(members.c.position))
    return Household(id=root.id, name=root.name, currency=root.currency,
                     members=[Member(member_id, name, key) for member_id, name, key in rows],
                     version=root.version)
