"""Goals: the root row and its members; its contributions are ledger entries.

A goal loads with its whole history (its contribution entries, oldest first), or without it
(`history=False`): then its members and its savings, one SUM per currency over an index on
(goal_id, kind, currency, amount), whatever the number of contributions. Every save writes the
contributions it appends as entries in the same transaction.
"""

from __future__ import annotations

import builtins
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, delete, select
from sqlalchemy.ext.asyncio import AsyncConnection

from domain.errors import ConcurrentModification, NotFound
from domain.goals import Contribution, Goal
from domain.household import Member
from domain.ledger import EntryKind
from domain.money import Money
from infra.db.aggregates import appended_since, bump_version, insert_root, remember_saved
from infra.db.engine import Database
from infra.db.stores.ledger import entry_row, goal_savings, insert_entries
from infra.db.tables import goal_members, goals
from infra.db.tables import ledger_entries as entries
from infra.db.values import money_from_minor

KIND = "Meta"
_OLDEST_FIRST = (goals.c.created_at, goals.c.name, goals.c.id)


@dataclass(frozen=True)
class GoalState:
    """What the store holds for a goal: its members, and its contributions.

    `whole` is False for a goal loaded without its history: `contributions` then holds only
    those saved since the load, and the earlier ones stay in the ledger, summed on load.
    """

    members: tuple[tuple[str, str], ...]
    contributions: tuple[Contribution, ...]
    whole: bool = True
    name: str | None = None  # None: not stored yet
    archived: bool = False


def _root_values(goal: Goal) -> dict[str, Any]:
    return {"household_id": goal.household_id, "name": goal.name,
            "target_minor": goal.target.to_minor_units(), "target_currency": goal.target.currency,
            "created_at": goal.created_at, "deadline": goal.deadline, "archived": goal.archived}


def _member_pairs(goal: Goal) -> tuple[tuple[str, str], ...]:
    return tuple((m.id, m.name) for m in goal.members)


def _contribution_entry(goal: Goal, contribution: Contribution) -> dict[str, Any]:
    return entry_row(EntryKind.CONTRIBUTION, goal.name, household_id=goal.household_id,
                     amount=contribution.amount, goal_id=goal.id, day=contribution.date,
                     paid_by_id=contribution.paid_by.id, paid_by=contribution.paid_by.name)


class SqlGoalRepository:
    """The GoalRepository port over SQL."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def load(self, goal_id: str, *, history: bool = True) -> Goal:
        """The goal, or NotFound. Without `history`, `prior_savings` holds what its contributions
        add up to and `contributions` is empty: what a new contribution needs, at a flat cost."""
        lock = self._db.current is not None  # confirmations of one goal queue on its row
        async with self._db.reading() as connection:
            if history:
                query = select(goals).where(goals.c.id == goal_id)
                root = (await connection.execute(query.with_for_update() if lock else query)).one_or_none()
                found = await _assemble(connection, [root]) if root is not None else []
            else:
                found = await _assemble_without_history(connection, goals.c.id == goal_id, lock=lock)
        if not found:
            raise NotFound(KIND, goal_id)
        return self._remember(found)[0]

    async def list(self, household_id: str | None = None, *,
                   history: bool = True) -> builtins.list[Goal]:
        """The household's goals (by goals.household_id), oldest first; every goal without one.

        Three queries with `history`, two without, however many goals there are.
        """
        where = goals.c.household_id == household_id if household_id is not None else None
        async with self._db.reading() as connection:
            if history:
                query = select(goals).order_by(*_OLDEST_FIRST)
                roots = (await connection.execute(query if where is None else query.where(where))).all()
                found = await _assemble(connection, roots)
            else:
                found = await _assemble_without_history(connection, where, lock=False)
        return self._remember(found)

    async def save(self, goal: Goal) -> None:
        async with self._db.transaction() as unit:
            connection = unit.connection
            before: GoalState | None = self._db.snapshots.get(goal)
            if before is None and goal.version == 0:
                await insert_root(connection, goals, {"id": goal.id, **_root_values(goal)}, KIND)
                await insert_entries(connection, [entry_row(
                    EntryKind.GOAL, goal.name, household_id=goal.household_id, amount=goal.target,
                    goal_id=goal.id)])
                before = GoalState((), (), name=goal.name, archived=goal.archived)
            else:
                await bump_version(connection, goals, goal, _root_values(goal), KIND)
                if before is None:  # not loaded through this database: diff against the store
                    before = await _stored_state(connection, goal)
            after = await _write_children(connection, goal, before)
            remember_saved(self._db, unit, goal, after)

    def _remember(self, found: builtins.list[tuple[Goal, GoalState]]) -> builtins.list[Goal]:
        for goal, state in found:
            self._db.snapshots[goal] = state
        return [goal for goal, _ in found]


async def _root(connection: AsyncConnection, goal_id: str) -> Any:
    return (await connection.execute(select(goals).where(goals.c.id == goal_id))).one()


async def _stored_state(connection: AsyncConnection, goal: Goal) -> GoalState:
    """What the store holds of `goal`, for a goal loaded through another Database."""
    if goal.prior_savings is None:
        return (await _assemble(connection, [await _root(connection, goal.id)]))[0][1]
    [(stored, state)] = await _assemble_without_history(connection, goals.c.id == goal.id, lock=False)
    assert stored.prior_savings is not None
    # Which of the goal's contributions the store already holds (it may have been saved since it
    # was loaded): the first ones that take the savings it was loaded with to the stored savings.
    # Contributions are positive, so at most one such prefix exists.
    wanted = _minor_totals(stored.prior_savings.values())
    totals = _minor_totals(goal.prior_savings.values())
    for count in range(len(goal.contributions) + 1):
        if count:
            amount = goal.contributions[count - 1].amount
            totals[amount.currency] = totals.get(amount.currency, 0) + amount.to_minor_units()
        if totals == wanted:
            return GoalState(state.members, tuple(goal.contributions[:count]), whole=False,
                             name=state.name, archived=state.archived)
    raise ConcurrentModification(KIND, goal.id)  # its savings are not the store's: reload it


def _minor_totals(amounts: Iterable[Money]) -> dict[str, int]:
    return {money.currency: money.to_minor_units() for money in amounts if not money.is_zero}


async def _members_of(connection: AsyncConnection, ids: Sequence[str]) -> dict[str, list[Member]]:
    members_of: dict[str, list[Member]] = defaultdict(list)
    for goal_id, member_id, name in await connection.execute(
        select(goal_members.c.goal_id, goal_members.c.member_id, goal_members.c.member_name)
        .where(goal_members.c.goal_id.in_(ids))
        .order_by(goal_members.c.goal_id, goal_members.c.position)
    ):
        members_of[goal_id].append(Member(member_id, name))
    return members_of


def _goal(root: Any, members: list[Member], paid: list[Contribution],
          prior_savings: dict[str, Money] | None = None) -> Goal:
    return Goal(id=root.id, name=root.name,
                target=money_from_minor(root.target_minor, root.target_currency),
                members=members, created_at=root.created_at, deadline=root.deadline,
                contributions=paid, household_id=root.household_id, prior_savings=prior_savings,
                version=root.version, archived=root.archived)


async def _assemble_without_history(connection: AsyncConnection, where: ColumnElement[bool] | None,
                                    *, lock: bool) -> list[tuple[Goal, GoalState]]:
    """The goals matching `where`, oldest first, with their members and their savings and no
    contribution: three queries for all of them (the roots, their sums, their members). `lock`
    takes the roots' rows for update, as a confirmation's load does."""
    query = select(goals).order_by(*_OLDEST_FIRST)
    if where is not None:
        query = query.where(where)
    if lock:
        query = query.with_for_update()
    roots = {row.id: row for row in await connection.execute(query)}
    if not roots:
        return []
    savings = await goal_savings(connection, list(roots))
    members_of = await _members_of(connection, list(roots))
    found = []
    for goal_id, root in roots.items():
        goal = _goal(root, members_of.get(goal_id, []), [], dict(savings.get(goal_id, {})))
        found.append((goal, GoalState(_member_pairs(goal), (), whole=False, name=goal.name,
                                      archived=goal.archived)))
    return found


async def _assemble(connection: AsyncConnection, roots: Sequence[Any]) -> list[tuple[Goal, GoalState]]:
    """Goals for `roots`, with their members and contribution entries in two queries for all."""
    if not roots:
        return []
    ids = [root.id for root in roots]
    members_of = await _members_of(connection, ids)
    paid_of: dict[str, list[Contribution]] = defaultdict(list)
    # The goal's own Member objects for its contributors, so `paid_by in goal.members` holds.
    member_by_id: dict[str, dict[str, Member]] = {}
    # Plain tuples, iterated as they come: on a long history, building objects dominates the load
    # (and the cyclic GC scanning them: holding every row at once makes that worse).
    for goal_id, member_id, name, units, currency, day in await connection.execute(
        select(entries.c.goal_id, entries.c.paid_by_id, entries.c.paid_by,
               entries.c.amount_minor, entries.c.currency, entries.c.day)
        .where(entries.c.goal_id.in_(ids), entries.c.kind == EntryKind.CONTRIBUTION.value)
        .order_by(entries.c.goal_id, entries.c.id)
    ):
        known = member_by_id.get(goal_id)
        if known is None:
            known = member_by_id[goal_id] = {m.id: m for m in members_of[goal_id]}
        payer = known.get(member_id) or Member(member_id or "-", name or "-")
        paid_of[goal_id].append(Contribution(paid_by=payer, amount=money_from_minor(units, currency),
                                             date=day))
    found = []
    for root in roots:
        goal = _goal(root, members_of.get(root.id, []), list(paid_of.get(root.id, [])))
        found.append((goal, GoalState(_member_pairs(goal), tuple(goal.contributions),
                                      name=goal.name, archived=goal.archived)))
    return found


async def _write_children(connection: AsyncConnection, goal: Goal, before: GoalState) -> GoalState:
    members = _member_pairs(goal)
    if members != before.members:
        await connection.execute(delete(goal_members).where(goal_members.c.goal_id == goal.id))
        if members:
            await connection.execute(goal_members.insert(), [
                {"goal_id": goal.id, "position": i, "member_id": member_id, "member_name": name}
                for i, (member_id, name) in enumerate(members)])
    ledger: list[dict[str, Any]] = []
    if before.name is not None and before.name != goal.name:
        ledger.append(entry_row(EntryKind.RENAMED, goal.name, household_id=goal.household_id,
                                goal_id=goal.id))
    if before.name is not None and before.archived != goal.archived:
        ledger.append(entry_row(EntryKind.ARCHIVED if goal.archived else EntryKind.RESTORED, goal.name,
                                household_id=goal.household_id, goal_id=goal.id))
    start = appended_since(before.contributions, goal.contributions)
    if start is None:  # history rewritten (no domain verb does that): store it whole
        if not before.whole:
            raise ValueError(f"the goal {goal.name} was loaded without its history: "
                             "its contributions can only be added to")
        await connection.execute(delete(entries).where(
            entries.c.goal_id == goal.id, entries.c.kind == EntryKind.CONTRIBUTION.value))
        start = 0
    ledger += [_contribution_entry(goal, c) for c in goal.contributions[start:]]
    await insert_entries(connection, ledger)
    return GoalState(members, tuple(goal.contributions), whole=before.whole, name=goal.name,
                     archived=goal.archived)
